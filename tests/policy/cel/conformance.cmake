# Stage `conformance`: the cel-spec simple test files, one CTest test per file.
if(TARGET draguard_cel_runtime AND TARGET draguard_cel_checker AND TARGET draguard_cel_parser)
  draguard_add_test(cel_conformance_test
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/conformance_test.cc
            ${CMAKE_CURRENT_LIST_DIR}/conformance/textproto.cc
            ${CMAKE_CURRENT_LIST_DIR}/conformance/textproto_test.cc
    LIBS draguard_cel_runtime draguard_cel_checker draguard_cel_parser)
  target_compile_definitions(cel_conformance_test PRIVATE
    DRAGUARD_CEL_CONFORMANCE_SKIPS="${CMAKE_CURRENT_LIST_DIR}/conformance_skips.txt")
endif()
