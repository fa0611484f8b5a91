# cel_checker_test: types, environments, checker, cost estimator, selector compiler.
if(TARGET draguard_cel_parser)
  draguard_add_test(cel_checker_test
    SOURCES
      ${CMAKE_CURRENT_LIST_DIR}/checker_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/compiler_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/cost_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/env_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/format_validator_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/list_attributes_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/selector_shape_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/types_test.cc
    LIBS draguard_cel_checker draguard_cel_parser)
else()
  draguard_add_test(cel_checker_test
    SOURCES
      ${CMAKE_CURRENT_LIST_DIR}/env_test.cc
      ${CMAKE_CURRENT_LIST_DIR}/types_test.cc
    LIBS draguard_cel_checker)
endif()
