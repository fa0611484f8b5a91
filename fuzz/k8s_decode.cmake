# YAML/JSON decoder: decode, locate every diagnostic, check positions lie inside the input.
draguard_add_fuzzer(k8s_decode
  SOURCES "${CMAKE_CURRENT_LIST_DIR}/k8s_decode_fuzzer.cc"
  LIBS draguard::k8s)
