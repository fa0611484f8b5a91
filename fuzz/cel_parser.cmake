draguard_add_fuzzer(cel_parser
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/cel_parser_fuzzer.cc
  LIBS draguard::cel_parser)
