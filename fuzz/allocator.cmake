# Fuzz target `allocator`: real allocator vs the brute-force reference on random inventories.
draguard_add_fuzzer(allocator
  SOURCES
    "${PROJECT_SOURCE_DIR}/fuzz/allocator_fuzzer.cc"
    "${PROJECT_SOURCE_DIR}/tests/policy/allocator/fake_evaluator.cc"
    "${PROJECT_SOURCE_DIR}/tests/policy/allocator/random_inventory.cc"
    "${PROJECT_SOURCE_DIR}/tests/policy/allocator/reference_allocator.cc"
    "${PROJECT_SOURCE_DIR}/tests/policy/allocator/test_inventory.cc"
  LIBS draguard::allocator)
