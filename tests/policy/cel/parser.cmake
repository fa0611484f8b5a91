draguard_add_test(cel_parser_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/debug_string_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/lexer_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/parser_test.cc
  LIBS draguard::cel_parser)
