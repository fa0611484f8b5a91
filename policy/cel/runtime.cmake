# Stage `runtime`: values, function libraries and the evaluator.
add_library(draguard_cel_runtime STATIC
  ${CMAKE_CURRENT_LIST_DIR}/value.cc
  ${CMAKE_CURRENT_LIST_DIR}/evaluator.cc
  ${CMAKE_CURRENT_LIST_DIR}/program.cc
  ${CMAKE_CURRENT_LIST_DIR}/direct_predicate.cc
  ${CMAKE_CURRENT_LIST_DIR}/fast_predicate.cc
  ${CMAKE_CURRENT_LIST_DIR}/fast_predicate_build.cc
  ${CMAKE_CURRENT_LIST_DIR}/path_index.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/registry.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/standard.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/strings.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/regex.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/quantity.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/semver.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/optional.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/lists.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/sets.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/network.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/url.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/time.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/string_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/functions/named_formats.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/go_text.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/go_url.cc)
draguard_target_defaults(draguard_cel_runtime)
target_link_libraries(draguard_cel_runtime PUBLIC draguard::common PkgConfig::RE2)
if(TARGET draguard_cel_parser)
  target_link_libraries(draguard_cel_runtime PUBLIC draguard_cel_parser)
endif()
