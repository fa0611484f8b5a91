# Instrumentation for everything compiled in this tree, so that libraries, tests, tools and
# fuzz targets agree on the instrumented runtime.
#
# DRAGUARD_BUILD_FUZZERS: every target is compiled with -fsanitize=fuzzer-no-link,address,
# undefined. The libraries are where the fuzzed code lives: compiling only the fuzzer's own
# source with coverage (as this tree once did) left libFuzzer blind inside the parsers and the
# webhook, and a short run stalled at ~550 coverage features against ~8,500 with everything
# instrumented; bugs inside the libraries were also invisible to ASan and UBSan. Only the
# <name>_fuzzer executables link libFuzzer itself (-fsanitize=fuzzer, cmake/DraguardFuzz.cmake);
# everything else links the sanitizer runtimes, which also define the coverage callbacks, so
# the <name>_fuzz_replay executables still have their own main().
#
# DRAGUARD_SANITIZE ("address,undefined" or "thread"): the sanitizers alone, for the gcc test
# build (`make test`) and a TSan build.
if(DRAGUARD_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR
      "DRAGUARD_BUILD_FUZZERS=ON needs clang (libFuzzer and -fsanitize=fuzzer-no-link), but "
      "the C++ compiler is ${CMAKE_CXX_COMPILER_ID} (${CMAKE_CXX_COMPILER}). Configure a "
      "fresh build directory with CC=clang CXX=clang++, as `make fuzz` does.")
  endif()
  if(DRAGUARD_SANITIZE AND NOT DRAGUARD_SANITIZE STREQUAL "address,undefined")
    message(FATAL_ERROR
      "DRAGUARD_BUILD_FUZZERS=ON builds with address,undefined; it cannot be combined with "
      "DRAGUARD_SANITIZE=${DRAGUARD_SANITIZE}.")
  endif()
  set(_draguard_compile_san fuzzer-no-link,address,undefined)
  set(_draguard_link_san address,undefined)
else()
  set(_draguard_compile_san ${DRAGUARD_SANITIZE})
  set(_draguard_link_san ${DRAGUARD_SANITIZE})
endif()

if(_draguard_compile_san)
  set(_draguard_san_flags -fsanitize=${_draguard_compile_san} -fno-omit-frame-pointer)
  if(_draguard_compile_san MATCHES "undefined")
    list(APPEND _draguard_san_flags -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${_draguard_san_flags})
  add_link_options(-fsanitize=${_draguard_link_san})
endif()
