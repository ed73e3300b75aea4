# cakecKernels.cmake: the functions of cakec's CMake package (cakecConfig.cmake includes it).
#
# cakec_add_kernels(<target> SOURCES a.cake ... [TARGETS sm_90a ...] [OUTPUT_DIR dir]
#                   [OPTIONS opt ...])
#   Runs cakec at build time on the sources (each kernel for TARGETS, default the targets
#   its targets(...) lists; OPTIONS go to cakec as they are, e.g. -D N=4, or --ptx-only
#   for launchers without the cubins cakec embeds by default when it finds ptxas) into OUTPUT_DIR
#   (default ${CMAKE_CURRENT_BINARY_DIR}/cakec_<target>), and adds the generated launchers
#   and runtime to <target>, with OUTPUT_DIR and cuda.h's folder on its include path. An
#   edited source regenerates; an unchanged one does not. The generated files' names come
#   from the kernels in the sources: cakec lists them at configure time, and an edit of a
#   source configures again (so a new kernel gets its files).
#
# cakec_add_checked_in_kernels(<target> DIR dir)
#   Adds a generated folder checked into the project (cakec -o dir --emit=ptx,host, with
#   the embedded cubins or --ptx-only) to <target>: no cakec needed to build. `cakec --check-generated` tells
#   whether the folder is still what cakec would write.
#
# Both link <target> with the C library's dlopen (the runtime loads libcuda.so.1 itself:
# no CUDA library at link time) and need cuda.h (CUDA toolkit; found in $CUDA_HOME/include,
# /usr/local/cuda/include, or CAKEC_CUDA_INCLUDE).

function(_cakec_runtime_deps target dir)
  find_path(CAKEC_CUDA_INCLUDE cuda.h HINTS "$ENV{CUDA_HOME}/include" /usr/local/cuda/include)
  if(NOT CAKEC_CUDA_INCLUDE)
    message(FATAL_ERROR "cakec: cuda.h not found (install the CUDA toolkit, or set CAKEC_CUDA_INCLUDE)")
  endif()
  target_include_directories(${target} PRIVATE "${dir}")
  target_include_directories(${target} SYSTEM PRIVATE "${CAKEC_CUDA_INCLUDE}")
  target_link_libraries(${target} PRIVATE ${CMAKE_DL_LIBS})
  find_package(Threads REQUIRED)
  target_link_libraries(${target} PRIVATE Threads::Threads)
endfunction()

function(cakec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT_DIR" "SOURCES;TARGETS;OPTIONS")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "cakec_add_kernels(${target}): no SOURCES")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cakec_add_kernels(${target}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/cakec_${target}")
  endif()
  get_target_property(cakec cakec::cakec IMPORTED_LOCATION)
  set(srcs "")
  foreach(s IN LISTS ARG_SOURCES)
    get_filename_component(s "${s}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND srcs "${s}")
  endforeach()
  set(flags --emit=ptx,host)
  foreach(t IN LISTS ARG_TARGETS)
    list(APPEND flags --target ${t})
  endforeach()
  list(APPEND flags ${ARG_OPTIONS})
  # the files cakec writes: their names follow the kernels in the sources
  execute_process(COMMAND "${cakec}" ${flags} --list-outputs ${srcs}
    RESULT_VARIABLE rc OUTPUT_VARIABLE names ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cakec_add_kernels(${target}): cakec failed:\n${err}")
  endif()
  string(REPLACE "\n" ";" names "${names}")
  set(outs "")
  set(csrcs "")
  foreach(file IN LISTS names)
    if(NOT file STREQUAL "")
      list(APPEND outs "${ARG_OUTPUT_DIR}/${file}")
      if(file MATCHES "\\.c$")
        list(APPEND csrcs "${ARG_OUTPUT_DIR}/${file}")
      endif()
    endif()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${srcs})
  add_custom_command(OUTPUT ${outs}
    COMMAND "${cakec}" ${flags} -o "${ARG_OUTPUT_DIR}" ${srcs}
    DEPENDS ${srcs} "${cakec}"
    COMMENT "cakec: ${ARG_SOURCES}" VERBATIM)
  target_sources(${target} PRIVATE ${csrcs})
  _cakec_runtime_deps(${target} "${ARG_OUTPUT_DIR}")
endfunction()

function(cakec_add_checked_in_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "DIR" "")
  if(NOT ARG_DIR)
    message(FATAL_ERROR "cakec_add_checked_in_kernels(${target}): no DIR")
  endif()
  get_filename_component(dir "${ARG_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  file(GLOB csrcs CONFIGURE_DEPENDS "${dir}/*.c")
  if(NOT csrcs)
    message(FATAL_ERROR "cakec_add_checked_in_kernels(${target}): no generated .c files in ${dir}")
  endif()
  target_sources(${target} PRIVATE ${csrcs})
  _cakec_runtime_deps(${target} "${dir}")
endfunction()
