# Warning flags for draguard's own targets (never for third-party code).
add_library(draguard_warnings INTERFACE)
target_compile_options(draguard_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Wimplicit-fallthrough
  -Wno-missing-field-initializers
  # gcc can limit shadowing warnings to locals; clang has no such option.
  $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>)
# Debian 12's gcc 12 warns falsely at -O2/-O3 (the release build `make demo` runs): about
# `"literal" + std::string` (-Wrestrict, GCC bug 105329) and about members of std::optional
# and of aggregates being used uninitialized (-Wmaybe-uninitialized, GCC bug 80635). The
# sanitizer build at -O1 keeps both warnings on, with -Werror.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(draguard_warnings INTERFACE
    $<$<CONFIG:Release,RelWithDebInfo>:-Wno-restrict -Wno-maybe-uninitialized>)
endif()
if(DRAGUARD_WERROR)
  target_compile_options(draguard_warnings INTERFACE -Werror)
endif()

# The common settings of every draguard library, test and tool.
function(draguard_target_defaults target)
  target_link_libraries(${target} PRIVATE draguard_warnings)
  target_include_directories(${target} PUBLIC "${PROJECT_SOURCE_DIR}")
endfunction()
