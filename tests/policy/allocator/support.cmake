# The allocator's test support (fake evaluator, random and fixed inventories, the slow reference
# allocator), compiled once for allocator_test and the allocator fuzz target. Included from both,
# whichever comes first defines it.
if(NOT TARGET draguard_allocator_testing)
  add_library(draguard_allocator_testing STATIC
    "${CMAKE_CURRENT_LIST_DIR}/fake_evaluator.cc"
    "${CMAKE_CURRENT_LIST_DIR}/random_inventory.cc"
    "${CMAKE_CURRENT_LIST_DIR}/reference_allocator.cc"
    "${CMAKE_CURRENT_LIST_DIR}/test_inventory.cc")
  # Not -O0 like other test code (draguard_target_defaults only): the reference allocator's
  # exhaustive search is most of allocator_test's run time, which at -O0 under clang's ASan
  # was the longest test of `make test`.
  draguard_target_defaults(draguard_allocator_testing)
  target_link_libraries(draguard_allocator_testing PUBLIC draguard::allocator)
endif()
