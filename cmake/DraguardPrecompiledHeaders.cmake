# Precompiled headers for the cold test build (DRAGUARD_PCH, on with DRAGUARD_UNITY_BUILD).
#
# Every batch of the `make test` build parses the same third-party headers: the standard
# library and nlohmann/json everywhere, gtest and gmock in every test batch. Parsing them once
# per batch cost 3-6 s of CPU each in clang under ASan+UBSan, over ~80 batches (docs/
# benchmarks.md, "Build and test time"). Donor targets compile the headers once and every
# other target reuses their PCH (PRECOMPILE_HEADERS_REUSE_FROM):
#  - draguard_pch_library: the libraries, compiled with the build's own flags;
#  - draguard_pch_o0: the same headers at -O0 (DRAGUARD_TEST_CODE_O0), for the fuzz-corpus
#    replayers and the -O0 socket and TLS adapters (draguard_io_adapter_defaults): a PCH is
#    only usable at the optimisation level it was built with (clang refuses the __OPTIMIZE__
#    mismatch);
#  - draguard_pch_test: test code, also at -O0, with gtest and gmock added. Not for the fuzz
#    replayers: gtest's ::testing would make their own `testing` namespaces ambiguous.
# Boost is left out on purpose: its headers must see the separate-compilation definitions of
# draguard_asio, which only some targets carry. Extra -D flags on a consumer are fine; they
# cannot change what the standard library, nlohmann or gtest headers mean here.
#
# Off by default outside unity builds: a developer's incremental build reparses nothing, and a
# header that forgets an #include must still fail to compile there.
if(DRAGUARD_UNITY_BUILD)
  set(_draguard_pch_default ON)
else()
  set(_draguard_pch_default OFF)
endif()
option(DRAGUARD_PCH "Precompile the standard, nlohmann and gtest headers (cold builds)"
       ${_draguard_pch_default})

set(_draguard_pch_common
  <algorithm> <array> <cstddef> <cstdint> <functional> <map> <memory> <optional> <set>
  <string> <string_view> <unordered_map> <utility> <variant> <vector>
  <nlohmann/json.hpp>)

# The donor NAME compiles HEADERS with the build's flags, at -O0 when O0 is set.
function(_draguard_pch_donor name o0)
  add_library(${name} STATIC "${PROJECT_SOURCE_DIR}/cmake/pch_donor.cc")
  target_link_libraries(${name} PRIVATE draguard_warnings nlohmann_json::nlohmann_json)
  if(o0)
    target_compile_options(${name} PRIVATE -O0)
  endif()
  set(headers ${_draguard_pch_common})
  if(name STREQUAL "draguard_pch_test")
    target_link_libraries(${name} PRIVATE GTest::gmock GTest::gtest)
    list(APPEND headers <gmock/gmock.h> <gtest/gtest.h>)
  endif()
  target_precompile_headers(${name} PRIVATE ${headers})
endfunction()

# Whether test code, fuzz replayers and the adapters' donors compile at -O0.
if(DRAGUARD_TEST_CODE_O0 AND NOT DRAGUARD_BUILD_FUZZERS)
  set(_draguard_pch_o0 ON)
else()
  set(_draguard_pch_o0 OFF)
endif()

if(DRAGUARD_PCH)
  # A PCH also records whether -pthread was on, and half the targets get it from
  # Threads::Threads: give it to all, as the libraries all end up in threaded programs anyway.
  add_compile_options(-pthread)
  _draguard_pch_donor(draguard_pch_library OFF)
  _draguard_pch_donor(draguard_pch_o0 ${_draguard_pch_o0})
endif()

# Called by draguard_target_defaults for every library and tool.
function(draguard_use_library_pch target)
  if(DRAGUARD_PCH)
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM draguard_pch_library)
  endif()
endfunction()

# For targets compiled at -O0 like test code (the fuzz replayers, the adapters in the
# sanitizer build): the standard library and nlohmann.
function(draguard_use_o0_pch target)
  if(DRAGUARD_PCH)
    set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM draguard_pch_o0)
  endif()
endfunction()

# Called by draguard_test_code_defaults. The donor is created on first use, after
# find_package(GTest) in the top-level CMakeLists.txt.
function(draguard_use_test_pch target)
  if(NOT DRAGUARD_PCH)
    return()
  endif()
  if(NOT TARGET draguard_pch_test)
    _draguard_pch_donor(draguard_pch_test ${_draguard_pch_o0})
  endif()
  set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM draguard_pch_test)
endfunction()
