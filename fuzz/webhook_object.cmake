draguard_add_fuzzer(webhook_object
  SOURCES "${CMAKE_CURRENT_LIST_DIR}/webhook_object_fuzzer.cc"
  LIBS draguard::webhook_admission nlohmann_json::nlohmann_json)
