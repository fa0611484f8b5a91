// The one source of the precompiled-header donor targets (cmake/DraguardPrecompiledHeaders.cmake):
// CMake needs a translation unit to build each PCH; the headers come from the PCH itself.
namespace draguard::build {
int PrecompiledHeaderDonor() { return 0; }
}  // namespace draguard::build
