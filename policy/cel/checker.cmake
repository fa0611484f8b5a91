# Stage `checker` of policy/cel: types, declarations, environments, type checker, cost
# estimator and the API-server selector compiler.
add_library(draguard_cel_checker STATIC
  ${CMAKE_CURRENT_LIST_DIR}/checked_ast.cc
  ${CMAKE_CURRENT_LIST_DIR}/checker.cc
  ${CMAKE_CURRENT_LIST_DIR}/checker_internal/ext_decls.cc
  ${CMAKE_CURRENT_LIST_DIR}/checker_internal/format_validator.cc
  ${CMAKE_CURRENT_LIST_DIR}/checker_internal/k8s_decls.cc
  ${CMAKE_CURRENT_LIST_DIR}/checker_internal/literal_validators.cc
  ${CMAKE_CURRENT_LIST_DIR}/checker_internal/standard_decls.cc
  ${CMAKE_CURRENT_LIST_DIR}/checker_internal/unify.cc
  ${CMAKE_CURRENT_LIST_DIR}/decls.cc
  ${CMAKE_CURRENT_LIST_DIR}/env.cc
  ${CMAKE_CURRENT_LIST_DIR}/types.cc)
add_library(draguard::cel_checker ALIAS draguard_cel_checker)
draguard_target_defaults(draguard_cel_checker)
target_link_libraries(draguard_cel_checker PUBLIC draguard::common PRIVATE PkgConfig::RE2)
if(TARGET draguard_cel_parser)
  # The selector compiler parses before checking.
  target_sources(draguard_cel_checker PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/compiler.cc
    ${CMAKE_CURRENT_LIST_DIR}/selector_shape.cc
    ${CMAKE_CURRENT_LIST_DIR}/cost.cc)
  target_link_libraries(draguard_cel_checker PUBLIC draguard_cel_parser)
else()
  target_sources(draguard_cel_checker PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cost.cc)
endif()
