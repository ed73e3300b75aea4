# vsa.cmake: the block-sparse attention forward family (kernels_src/vsa), included by
# tests/gpu/CMakeLists.txt. One generic kernel whose instances (`instance ... as NAME
# [entry E] [when (...)];`, one per element type, head dimension and block size) and entry
# point vsa are written by one cakec run into build/gen/vsa/; test_vsa links the entry point
# and every instance, and runs each instance on the shapes it takes and the entry point on
# all (also against the emulated driver, on small shapes). Uses gpu_emit, gpu_image_flags,
# gpu_runtime_c, gpu_first_gen, gpu_emu_env, Python3.

set(vsa_src ${CMAKE_SOURCE_DIR}/kernels_src/vsa/vsa.cake)
set(vsa_gen ${CMAKE_BINARY_DIR}/gen/vsa)
file(STRINGS ${vsa_src} vsa_inst_lines REGEX "^instance [A-Za-z_0-9]+<.*> as [A-Za-z_0-9]+( entry [A-Za-z_0-9]+)?( when .*)?;")
set(vsa_kernels)
foreach(line ${vsa_inst_lines})
  if(line MATCHES " as ([A-Za-z_0-9]+)( entry | when |;)")
    list(APPEND vsa_kernels ${CMAKE_MATCH_1})
  endif()
endforeach()
set(vsa_outputs ${vsa_gen}/manifest.json ${vsa_gen}/cakert.c ${vsa_gen}/cakert.h
  ${vsa_gen}/vsa.c ${vsa_gen}/vsa.h)
set(vsa_c ${vsa_gen}/vsa.c)
# every instance issues wgmma: built for sm_90a only, the target its targets(...) lists
foreach(k ${vsa_kernels})
  list(APPEND vsa_outputs ${vsa_gen}/${k}.c ${vsa_gen}/${k}.h ${vsa_gen}/${k}.ir
    ${vsa_gen}/${k}.sm_90a.ptx)
  list(APPEND vsa_c ${vsa_gen}/${k}.c)
endforeach()
add_custom_command(OUTPUT ${vsa_outputs}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${vsa_gen}
  COMMAND $<TARGET_FILE:cakec> --emit=${gpu_emit},ir ${gpu_image_flags} --depfile ${vsa_gen}.d
          -o ${vsa_gen} kernels_src/vsa/vsa.cake
  DEPENDS cakec ${vsa_src}
  DEPFILE ${vsa_gen}.d
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  COMMENT "cakec: kernels_src/vsa -> gen/vsa (${gpu_emit},ir)"
  VERBATIM)
add_custom_target(gen_vsa ALL DEPENDS ${vsa_outputs})
add_dependencies(gen_vsa ${gpu_first_gen})

# the PyTorch helper's library, prebuilt (as for the other families)
if(Python3_FOUND)
  add_custom_command(OUTPUT ${vsa_gen}/.cakec_torch/prebuilt.stamp
    COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
            ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py build
            --cuda-include ${CAKE_CUDA_INCLUDE} --stamp ${vsa_gen}/.cakec_torch/prebuilt.stamp ${vsa_gen}
    DEPENDS ${vsa_outputs} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py
    COMMENT "cakec_torch: shared library for gen/vsa"
    VERBATIM)
  add_custom_target(gen_vsa_py ALL DEPENDS ${vsa_gen}/.cakec_torch/prebuilt.stamp)
  add_dependencies(gen_vsa_py gen_vsa)
endif()

add_executable(test_vsa ${CMAKE_CURRENT_SOURCE_DIR}/test_vsa.c
  ${CMAKE_CURRENT_SOURCE_DIR}/gputest.c ${gpu_runtime_c} ${vsa_c})
set_source_files_properties(${vsa_c} PROPERTIES GENERATED TRUE)
add_dependencies(test_vsa gen_vsa ${gpu_first_gen} emu_cuda)
set_target_properties(test_vsa PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
target_include_directories(test_vsa PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${vsa_gen})
target_include_directories(test_vsa SYSTEM PRIVATE ${CAKE_CUDA_INCLUDE})
target_link_libraries(test_vsa PRIVATE ${CMAKE_DL_LIBS} Threads::Threads m)
add_test(NAME gpu/test_vsa COMMAND test_vsa)
set_tests_properties(gpu/test_vsa PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:" TIMEOUT 900)
# 3 emulated SMs: the persistent CTAs (num_sms of them, twice that at 64-token blocks)
# then walk several query blocks each, through both stages of every pipeline
add_test(NAME gpu/emu/test_vsa COMMAND test_vsa)
set_tests_properties(gpu/emu/test_vsa PROPERTIES TIMEOUT 900
  ENVIRONMENT "${gpu_emu_env};CAKE_GPU_TEST_SMALL=1;CAKE_GPU_TEST_REQUIRE=1;EMU_SMS=3")
