# The Kubernetes watch-stream and list decoder: bytes split into lines, parsed as events of one
# kind and applied to the informer store; the same bytes parsed as a list page and discovery.
if(TARGET draguard_webhook_kube)
  draguard_add_fuzzer(kube_watch
    SOURCES "${CMAKE_CURRENT_LIST_DIR}/kube_watch_fuzzer.cc"
    LIBS draguard::webhook_kube)
endif()
