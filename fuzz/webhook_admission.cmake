draguard_add_fuzzer(webhook_admission
  SOURCES "${CMAKE_CURRENT_LIST_DIR}/webhook_admission_fuzzer.cc"
  LIBS draguard::webhook_admission nlohmann_json::nlohmann_json)
