# Profile-guided optimisation of the release build (scripts/build-pgo drives it):
#   DRAGUARD_PGO=generate  instrument every target; running a program writes its profile
#                          (*.gcda, beside each object file, so the same build directory
#                          must be reused for `use`)
#   DRAGUARD_PGO=use       compile with those profiles
# Why: the admission path of a spec never seen before runs through the lexer, parser,
# checker, validators and caches once per request, between the kernel's and TLS's work on the
# same cores; laid out by its profile (hot code together, cold code apart, branches as they
# go) it needs measurably less CPU a request (docs/benchmarks.md, "Profile-guided build").
# gcc only: clang's profiles need llvm-profdata, which the release toolchain does not ship.
set(DRAGUARD_PGO "" CACHE STRING "Profile-guided build: \"\", generate or use (gcc; scripts/build-pgo)")
if(DRAGUARD_PGO STREQUAL "")
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "DRAGUARD_PGO needs gcc (the compiler is ${CMAKE_CXX_COMPILER_ID})")
endif()
if(DRAGUARD_PGO STREQUAL "generate")
  # prefer-atomic: the server's I/O threads run the same code at once; plain counters would
  # lose updates (a skewed profile, never a wrong program).
  add_compile_options(-fprofile-generate -fprofile-update=prefer-atomic)
  add_link_options(-fprofile-generate)
elseif(DRAGUARD_PGO STREQUAL "use")
  # partial-training: code the training did not run is optimised as usual, not for size.
  # correction: counters of concurrently run code may disagree slightly (see above).
  # -Wno-missing-profile: objects of programs the training does not run (benchmarks).
  add_compile_options(-fprofile-use -fprofile-partial-training -fprofile-correction
                      -Wno-missing-profile)
else()
  message(FATAL_ERROR "DRAGUARD_PGO must be empty, generate or use, not ${DRAGUARD_PGO}")
endif()
