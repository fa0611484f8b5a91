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

# Tests, their support code and the fuzz-corpus replayers compile at -O0 (DRAGUARD_TEST_CODE_O0,
# on by default): under ASan+UBSan a table-driven test file costs half the CPU at -O0 (27 s
# against 48 s for resource_claim_test.cc), and the code they run, the libraries, keeps the
# build's own optimisation. Off in fuzzing builds, where the fuzzers link the same support code.
# Test code is never compiled as a unity batch (DRAGUARD_UNITY_BUILD): test files name their
# local helpers freely (Read, Case, Json ...), and a batch would make those names collide.
function(draguard_test_code_defaults target)
  draguard_target_defaults(${target})
  set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
  if(DRAGUARD_TEST_CODE_O0 AND NOT DRAGUARD_BUILD_FUZZERS)
    target_compile_options(${target} PRIVATE -O0)
  endif()
endfunction()
