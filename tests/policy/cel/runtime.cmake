# Test binary of stage `runtime` (values, libraries, evaluator) and of the DRA device binding
# (dra/, library draguard_cel_dra), which the runtime tests use as their `device`.
if(TARGET draguard_cel_dra AND TARGET draguard_cel_parser)
  draguard_add_test(cel_runtime_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/evaluator_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/dra/device_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/includes_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/value_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/functions_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/direct_predicate_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/fast_predicate_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/path_index_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/find_bytes_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/network_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/url_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/string_format_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/named_formats_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/go_text_test.cc
    LIBS draguard_cel_runtime draguard_cel_parser draguard_cel_dra)
endif()
# Counts heap allocations of one evaluation (it replaces the global operator new) and checks
# memory estimates against measured allocations: both want a binary of their own.
if(TARGET draguard_cel_dra AND TARGET draguard_cel_checker)
  draguard_add_test(cel_allocation_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/allocation_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/memory_estimate_test.cc
    LIBS draguard_cel_runtime draguard_cel_checker draguard_cel_parser draguard_cel_dra)
endif()
