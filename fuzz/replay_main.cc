// Replays a libFuzzer corpus without libFuzzer: every file under the given paths (files or
// directories, recursively) is passed once to LLVMFuzzerTestOneInput. Built with the normal
// toolchain so that CTest replays each corpus (and every crash fixed since) on every run,
// under the sanitizers of the build.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

bool ReplayFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  size_t replayed = 0;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path root(argv[i]);
    std::error_code ec;
    if (std::filesystem::is_directory(root, ec)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(root, ec)) {
        if (!entry.is_regular_file()) continue;
        ok = ReplayFile(entry.path()) && ok;
        ++replayed;
      }
    } else if (std::filesystem::exists(root, ec)) {
      ok = ReplayFile(root) && ok;
      ++replayed;
    } else {
      std::fprintf(stderr, "replay: %s does not exist\n", argv[i]);
      ok = false;
    }
  }
  // An empty corpus still exercises the target once, with no input.
  if (replayed == 0) LLVMFuzzerTestOneInput(nullptr, 0);
  std::printf("replayed %zu inputs\n", replayed);
  return ok ? 0 : 1;
}
