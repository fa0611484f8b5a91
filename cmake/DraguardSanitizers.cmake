# DRAGUARD_SANITIZE applies to everything compiled in this tree, so that libraries,
# tests and tools agree on the instrumented runtime.
if(DRAGUARD_SANITIZE)
  set(_draguard_san_flags -fsanitize=${DRAGUARD_SANITIZE} -fno-omit-frame-pointer)
  if(DRAGUARD_SANITIZE MATCHES "undefined")
    list(APPEND _draguard_san_flags -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${_draguard_san_flags})
  add_link_options(-fsanitize=${DRAGUARD_SANITIZE})
endif()
