# Fuzz target `allocator`: real allocator vs the brute-force reference on random inventories.
include("${PROJECT_SOURCE_DIR}/tests/policy/allocator/support.cmake")
draguard_add_fuzzer(allocator
  SOURCES "${PROJECT_SOURCE_DIR}/fuzz/allocator_fuzzer.cc"
  LIBS draguard_allocator_testing)
