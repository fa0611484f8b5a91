# CEL evaluator: parse, plan and evaluate against a fixed DRA device.
if(TARGET draguard_cel_dra AND TARGET draguard_cel_parser)
  draguard_add_fuzzer(cel_eval
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/cel_eval_fuzzer.cc
    LIBS draguard_cel_runtime draguard_cel_parser draguard_cel_dra)
endif()
