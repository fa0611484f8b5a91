# Stage `parser` of policy/cel: lexer, parser, macro expansion, debug dump, issue rendering;
# also the format() clause grammar (internal/format_string.cc), which both the checker and
# the runtime use.
add_library(draguard_cel_parser STATIC
  ${CMAKE_CURRENT_LIST_DIR}/cel_issue.cc
  ${CMAKE_CURRENT_LIST_DIR}/debug_string.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/expr_factory.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/format_string.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/literals.cc
  ${CMAKE_CURRENT_LIST_DIR}/lexer.cc
  ${CMAKE_CURRENT_LIST_DIR}/macros.cc
  ${CMAKE_CURRENT_LIST_DIR}/parser.cc)
add_library(draguard::cel_parser ALIAS draguard_cel_parser)
draguard_target_defaults(draguard_cel_parser)
target_link_libraries(draguard_cel_parser PUBLIC draguard::common)
