# cp_fixup.cmake: the context-parallel state fix-up family (kernels_src/cp_fixup,
# docs/cp_fixup.md), included by tests/gpu/CMakeLists.txt. One generic kernel whose
# instances (`instance ... as NAME [when (...)];`) and entry point cp_fixup are written by
# one cakec run into build/gen/cp_fixup/; test_cp_fixup links the entry point and every
# instance, and runs each instance on the shapes it takes and the entry point on all
# (also against the emulated driver, on small shapes). Uses gpu_target_flags, gpu_emit, gpu_image_flags,
# gpu_runtime_c, gpu_first_gen, gpu_emu_env, Python3.

set(cpf_src ${CMAKE_SOURCE_DIR}/kernels_src/cp_fixup/cp_fixup.cake)
set(cpf_gen ${CMAKE_BINARY_DIR}/gen/cp_fixup)
file(STRINGS ${cpf_src} cpf_inst_lines REGEX "^instance [A-Za-z_0-9]+<.*> as [A-Za-z_0-9]+( entry [A-Za-z_0-9]+)?( when .*)?;")
set(cpf_kernels)
foreach(line ${cpf_inst_lines})
  if(line MATCHES " as ([A-Za-z_0-9]+)( entry | when |;)")
    list(APPEND cpf_kernels ${CMAKE_MATCH_1})
  endif()
endforeach()
set(cpf_outputs ${cpf_gen}/manifest.json ${cpf_gen}/cakert.c ${cpf_gen}/cakert.h
  ${cpf_gen}/cp_fixup.c ${cpf_gen}/cp_fixup.h)
set(cpf_c ${cpf_gen}/cp_fixup.c)
# each kernel is built for the targets its targets(...) lists: the SIMT design for all,
# the MMA design (cp_fixup_mma_*, wgmma) for sm_90a; the entry point tries an instance only
# on a device it is built for
foreach(k ${cpf_kernels})
  list(APPEND cpf_outputs ${cpf_gen}/${k}.c ${cpf_gen}/${k}.h ${cpf_gen}/${k}.ir)
  list(APPEND cpf_c ${cpf_gen}/${k}.c)
  set(cpf_targets ${gpu_targets})
  if(k MATCHES "^cp_fixup_mma_")
    set(cpf_targets sm_90a)
  endif()
  foreach(t ${cpf_targets})
    list(APPEND cpf_outputs ${cpf_gen}/${k}.${t}.ptx)
  endforeach()
endforeach()
add_custom_command(OUTPUT ${cpf_outputs}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${cpf_gen}
  COMMAND $<TARGET_FILE:cakec> --emit=${gpu_emit},ir ${gpu_image_flags} --depfile ${cpf_gen}.d
          -o ${cpf_gen} kernels_src/cp_fixup/cp_fixup.cake
  DEPENDS cakec ${cpf_src}
  DEPFILE ${cpf_gen}.d
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  COMMENT "cakec: kernels_src/cp_fixup -> gen/cp_fixup (${gpu_emit},ir)"
  VERBATIM)
add_custom_target(gen_cp_fixup ALL DEPENDS ${cpf_outputs})
add_dependencies(gen_cp_fixup ${gpu_first_gen})

# the PyTorch helper's library, prebuilt for bench/cp_fixup.py (as for the other families)
if(Python3_FOUND)
  add_custom_command(OUTPUT ${cpf_gen}/.cakec_torch/prebuilt.stamp
    COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
            ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py build
            --cuda-include ${CAKE_CUDA_INCLUDE} --stamp ${cpf_gen}/.cakec_torch/prebuilt.stamp ${cpf_gen}
    DEPENDS ${cpf_outputs} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py
    COMMENT "cakec_torch: shared library for gen/cp_fixup"
    VERBATIM)
  add_custom_target(gen_cp_fixup_py ALL DEPENDS ${cpf_gen}/.cakec_torch/prebuilt.stamp)
  add_dependencies(gen_cp_fixup_py gen_cp_fixup)
endif()

add_executable(test_cp_fixup ${CMAKE_CURRENT_SOURCE_DIR}/test_cp_fixup.c
  ${CMAKE_CURRENT_SOURCE_DIR}/gputest.c ${gpu_runtime_c} ${cpf_c})
set_source_files_properties(${cpf_c} PROPERTIES GENERATED TRUE)
add_dependencies(test_cp_fixup gen_cp_fixup ${gpu_first_gen} emu_cuda)
set_target_properties(test_cp_fixup PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
target_include_directories(test_cp_fixup PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${cpf_gen})
target_include_directories(test_cp_fixup SYSTEM PRIVATE ${CAKE_CUDA_INCLUDE})
target_link_libraries(test_cp_fixup PRIVATE ${CMAKE_DL_LIBS} Threads::Threads m)
add_test(NAME gpu/test_cp_fixup COMMAND test_cp_fixup)
set_tests_properties(gpu/test_cp_fixup PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:" TIMEOUT 900)
# 16 emulated SMs: the small shapes then make the entry point pick each column slice
add_test(NAME gpu/emu/test_cp_fixup COMMAND test_cp_fixup)
set_tests_properties(gpu/emu/test_cp_fixup PROPERTIES TIMEOUT 900
  ENVIRONMENT "${gpu_emu_env};CAKE_GPU_TEST_SMALL=1;CAKE_GPU_TEST_REQUIRE=1;EMU_SMS=16")
