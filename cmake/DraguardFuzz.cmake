# draguard_add_fuzzer(NAME SOURCES ... LIBS ...)
#
# Every fuzz target is built twice:
#  - always, as <name>_fuzz_replay: the target linked with fuzz/replay_main.cc, registered in
#    CTest to replay fuzz/corpus/<name>/ (so CI replays the corpus and every fixed crash);
#  - with DRAGUARD_BUILD_FUZZERS (clang), as <name>_fuzzer linked with -fsanitize=fuzzer (the
#    libFuzzer driver and its main()), plus a fuzz_<name> target that runs it for
#    DRAGUARD_FUZZ_SECONDS on a copy of the corpus. The coverage instrumentation and ASan+UBSan
#    of the fuzzer source and of every library it links come from cmake/DraguardSanitizers.cmake,
#    which compiles the whole tree with -fsanitize=fuzzer-no-link,address,undefined.
set(DRAGUARD_FUZZ_SECONDS 60 CACHE STRING "Seconds each fuzz_<name> target runs")

function(draguard_add_fuzzer name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  set(corpus "${PROJECT_SOURCE_DIR}/fuzz/corpus/${name}")

  add_executable(${name}_fuzz_replay ${ARG_SOURCES} "${PROJECT_SOURCE_DIR}/fuzz/replay_main.cc")
  draguard_test_code_defaults(${name}_fuzz_replay)
  draguard_use_o0_pch(${name}_fuzz_replay)  # not gtest's: see DraguardPrecompiledHeaders
  target_link_libraries(${name}_fuzz_replay PRIVATE ${ARG_LIBS})
  if(BUILD_TESTING)
    add_test(NAME fuzz_replay.${name} COMMAND ${name}_fuzz_replay "${corpus}")
    set_tests_properties(fuzz_replay.${name} PROPERTIES TIMEOUT 600)
  endif()

  if(DRAGUARD_BUILD_FUZZERS)
    add_executable(${name}_fuzzer ${ARG_SOURCES})
    draguard_target_defaults(${name}_fuzzer)
    target_link_options(${name}_fuzzer PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name}_fuzzer PRIVATE ${ARG_LIBS})
    add_custom_target(fuzz_${name}
      COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/fuzz-work/${name}"
      COMMAND $<TARGET_FILE:${name}_fuzzer> -max_total_time=${DRAGUARD_FUZZ_SECONDS}
              -max_len=8192 -rss_limit_mb=2048 -timeout=10
              "${CMAKE_BINARY_DIR}/fuzz-work/${name}" "${corpus}"
      COMMAND $<TARGET_FILE:${name}_fuzzer> -merge=1 "${corpus}" "${CMAKE_BINARY_DIR}/fuzz-work/${name}"
      DEPENDS ${name}_fuzzer
      USES_TERMINAL
      COMMENT "Fuzzing ${name} for ${DRAGUARD_FUZZ_SECONDS}s; new coverage is merged into fuzz/corpus/${name}")
  endif()
endfunction()
