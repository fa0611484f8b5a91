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
  draguard_use_library_pch(${target})
endfunction()

# Tests, their support code and the fuzz-corpus replayers compile at -O0 (DRAGUARD_TEST_CODE_O0,
# on by default): under ASan+UBSan a table-driven test file costs half the CPU at -O0 (27 s
# against 48 s for resource_claim_test.cc), and the code they run, the libraries, keeps the
# build's own optimisation. Off in fuzzing builds, where the fuzzers link the same support code.
# In a unity build (DRAGUARD_UNITY_BUILD) test code is batched too, four files at a time: every
# test file parses gtest, gmock and the project's headers and instantiates the same templates,
# and that repeated work was most of a cold `make test`. Test files therefore give their local
# helpers names unique within their test binary (a batch is one translation unit).
function(draguard_test_code_defaults target)
  draguard_target_defaults(${target})
  set_target_properties(${target} PROPERTIES UNITY_BUILD_BATCH_SIZE 4)
  if(DRAGUARD_TEST_CODE_O0 AND NOT DRAGUARD_BUILD_FUZZERS)
    target_compile_options(${target} PRIVATE -O0)
  endif()
  draguard_use_test_pch(${target})
endfunction()

# The socket and TLS adapters (Asio, Beast, OpenSSL: draguard_asio, the webhook server, the API
# client) compile at -O0 in the sanitizer test build, like test code (DRAGUARD_TEST_CODE_O0):
# their composed-operation templates cost twice the CPU at -O1 (api_client.cc: 108 s against
# 57 s under ASan+UBSan), and what the tests drive through them is loopback traffic, whose
# speed does not matter. Release, benchmark and fuzzing builds keep their optimisation.
function(draguard_io_adapter_defaults target)
  if(DRAGUARD_TEST_CODE_O0 AND DRAGUARD_SANITIZE AND NOT DRAGUARD_BUILD_FUZZERS)
    target_compile_options(${target} PRIVATE -O0)
    draguard_use_o0_pch(${target})
  endif()
endfunction()
