# The policy file (--config) and inline suppression comments: any bytes, no crash, every
# diagnostic placed inside the file.
draguard_add_fuzzer(policy_config
  SOURCES "${CMAKE_CURRENT_LIST_DIR}/policy_config_fuzzer.cc"
  LIBS draguard::config draguard::lint draguard::diagnostics)
