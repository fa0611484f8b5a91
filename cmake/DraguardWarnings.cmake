# Warning flags for draguard's own targets (never for third-party code).
add_library(draguard_warnings INTERFACE)
target_compile_options(draguard_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Wimplicit-fallthrough
  -Wno-missing-field-initializers
  # gcc can limit shadowing warnings to locals; clang has no such option.
  $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>)
if(DRAGUARD_WERROR)
  target_compile_options(draguard_warnings INTERFACE -Werror)
endif()

# The common settings of every draguard library, test and tool.
function(draguard_target_defaults target)
  target_link_libraries(${target} PRIVATE draguard_warnings)
  target_include_directories(${target} PUBLIC "${PROJECT_SOURCE_DIR}")
endfunction()
