if(TARGET draguard_webhook_server)
  draguard_add_fuzzer(webhook_http
    SOURCES "${CMAKE_CURRENT_LIST_DIR}/webhook_http_fuzzer.cc"
    LIBS draguard::webhook_server)
endif()
