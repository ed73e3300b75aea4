# hopper_family.cmake: gpu_hopper_family(FAMILY EMU_ENV), for a family of one generic kernel
# built for sm_90a only (kernels_src/FAMILY/FAMILY.cake: vsa, ssd), included by
# tests/gpu/CMakeLists.txt. Its instances (`instance ... as NAME [entry E] [when (...)];`)
# and entry point FAMILY are written by one cakec run into build/gen/FAMILY/; test_FAMILY
# links the entry point and every instance, and runs on the GPU (gpu/test_FAMILY) and on
# the emulated driver with small shapes (gpu/emu/test_FAMILY, with EMU_ENV added to the
# environment). Defines the target gen_FAMILY. Uses gpu_emit, gpu_image_flags,
# gpu_runtime_c, gpu_first_gen, gpu_emu_env, Python3.

function(gpu_hopper_family family emu_env)
  # NO_ENTRY after emu_env: the instances take different arguments (per_rank tables of
  # different sizes), so cakec writes no entry point FAMILY.c / FAMILY.h
  set(entry ON)
  if("NO_ENTRY" IN_LIST ARGN)
    set(entry OFF)
  endif()
  set(src ${CMAKE_SOURCE_DIR}/kernels_src/${family}/${family}.cake)
  set(gen ${CMAKE_BINARY_DIR}/gen/${family})
  # the instances are read here, at configure time: a changed .cake configures again
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
  # (a declaration's `when` may go on to the next lines)
  file(STRINGS ${src} inst_lines REGEX "^instance [A-Za-z_0-9]+<.*> as [A-Za-z_0-9]+( entry [A-Za-z_0-9]+)?( when .*|;)?$")
  set(kernels)
  foreach(line ${inst_lines})
    if(line MATCHES " as ([A-Za-z_0-9]+)( entry | when |;|$)")
      list(APPEND kernels ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(outputs ${gen}/manifest.json ${gen}/cakert.c ${gen}/cakert.h)
  set(csrc)
  if(entry)
    list(APPEND outputs ${gen}/${family}.c ${gen}/${family}.h)
    list(APPEND csrc ${gen}/${family}.c)
  endif()
  # every instance issues wgmma: built for sm_90a only, the target its targets(...) lists
  foreach(k ${kernels})
    list(APPEND outputs ${gen}/${k}.c ${gen}/${k}.h ${gen}/${k}.ir ${gen}/${k}.sm_90a.ptx)
    list(APPEND csrc ${gen}/${k}.c)
  endforeach()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${gen}
    COMMAND $<TARGET_FILE:cakec> --emit=${gpu_emit},ir ${gpu_image_flags} --depfile ${gen}.d
            -o ${gen} kernels_src/${family}/${family}.cake
    DEPENDS cakec ${src}
    DEPFILE ${gen}.d
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "cakec: kernels_src/${family} -> gen/${family} (${gpu_emit},ir)"
    VERBATIM)
  add_custom_target(gen_${family} ALL DEPENDS ${outputs})
  add_dependencies(gen_${family} ${gpu_first_gen})

  # the PyTorch helper's library, prebuilt (as for the other families)
  if(Python3_FOUND)
    add_custom_command(OUTPUT ${gen}/.cakec_torch/prebuilt.stamp
      COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
              ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py build
              --cuda-include ${CAKE_CUDA_INCLUDE} --stamp ${gen}/.cakec_torch/prebuilt.stamp ${gen}
      DEPENDS ${outputs} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py
      COMMENT "cakec_torch: shared library for gen/${family}"
      VERBATIM)
    add_custom_target(gen_${family}_py ALL DEPENDS ${gen}/.cakec_torch/prebuilt.stamp)
    add_dependencies(gen_${family}_py gen_${family})
  endif()

  set(test test_${family})
  add_executable(${test} ${CMAKE_CURRENT_SOURCE_DIR}/${test}.c
    ${CMAKE_CURRENT_SOURCE_DIR}/gputest.c ${gpu_runtime_c} ${csrc})
  set_source_files_properties(${csrc} PROPERTIES GENERATED TRUE)
  add_dependencies(${test} gen_${family} ${gpu_first_gen} emu_cuda)
  set_target_properties(${test} PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
  target_include_directories(${test} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${gen})
  target_include_directories(${test} SYSTEM PRIVATE ${CAKE_CUDA_INCLUDE})
  target_link_libraries(${test} PRIVATE ${CMAKE_DL_LIBS} Threads::Threads m)
  add_test(NAME gpu/${test} COMMAND ${test})
  set_tests_properties(gpu/${test} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:" TIMEOUT 900)
  add_test(NAME gpu/emu/${test} COMMAND ${test})
  set_tests_properties(gpu/emu/${test} PROPERTIES TIMEOUT 900
    ENVIRONMENT "${gpu_emu_env};CAKE_GPU_TEST_SMALL=1;CAKE_GPU_TEST_REQUIRE=1;${emu_env}")
endfunction()
