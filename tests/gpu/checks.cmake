# checks.cmake: GPU checks of language features, included by tests/gpu/CMakeLists.txt.
# A check is a kernel written to exercise one feature of the language or the backend (the
# math library, a wgmma form, 64-bit indexing), not a shipped kernel: tests/gpu/checks/
# <name>.cake and the program check_<name>.c, which runs it through its generated launcher
# against a float64 reference (gputest.h). Each check is one line below naming the kernels
# its .cake defines. The program is build/tests/gpu/test_check_<name>, so bench/run_gpu.sh
# runs it with the other GPU tests; without a GPU it prints SKIPPED. A check whose line
# starts with EMU also runs against the emulated driver (tests/gpu/emu_libcuda.c) as
# gpu/emu/check_<name>; the others run on a GPU only (the math checks compare the GPU's
# own results).
# Uses gpu_emit, gpu_image_flags, gpu_runtime_c and gpu_first_gen from CMakeLists.txt.

function(cake_gpu_check name)
  # ARGN: [EMU] the kernels checks/<name>.cake defines
  set(emit ${gpu_emit})
  set(kernels ${ARGN})
  if(ARGV1 STREQUAL "EMU")
    list(REMOVE_AT kernels 0)
    set(emit ${gpu_emit},ir)
  endif()
  set(cake ${CMAKE_CURRENT_SOURCE_DIR}/checks/${name}.cake)
  set(out ${CMAKE_BINARY_DIR}/gen/checks/${name})
  set(outs ${out}/manifest.json ${out}/cakert.c ${out}/cakert.h)
  set(srcs ${CMAKE_CURRENT_SOURCE_DIR}/checks/check_${name}.c
    ${CMAKE_CURRENT_SOURCE_DIR}/gputest.c ${out}/cakert.c)
  foreach(k ${kernels})
    list(APPEND outs ${out}/${k}.c ${out}/${k}.h)
    list(APPEND srcs ${out}/${k}.c)
  endforeach()
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${cake})
  add_custom_command(OUTPUT ${outs}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${out}
    COMMAND $<TARGET_FILE:cakec> --emit=${emit} ${gpu_image_flags} -o ${out} ${rel}
    DEPENDS cakec ${cake}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "cakec: tests/gpu/checks/${name}.cake -> gen/checks/${name}"
    VERBATIM)
  add_custom_target(gen_check_${name} ALL DEPENDS ${outs})
  set(t test_check_${name})
  add_executable(${t} ${srcs})
  add_dependencies(${t} gen_check_${name})
  set_target_properties(${t} PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
  target_include_directories(${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${out})
  target_include_directories(${t} SYSTEM PRIVATE ${CAKE_CUDA_INCLUDE})
  target_link_libraries(${t} PRIVATE ${CMAKE_DL_LIBS} Threads::Threads m)
  add_test(NAME gpu/check_${name} COMMAND ${t})
  set_tests_properties(gpu/check_${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:" TIMEOUT 900)
  if(emit MATCHES ",ir$")
    add_test(NAME gpu/emu/check_${name} COMMAND ${t})
    set_tests_properties(gpu/emu/check_${name} PROPERTIES TIMEOUT 900
      ENVIRONMENT "${gpu_emu_env};CAKE_GPU_TEST_SMALL=1;CAKE_GPU_TEST_REQUIRE=1")
    add_dependencies(${t} emu_cuda)
  endif()
endfunction()

# name, then the kernels of checks/<name>.cake (one line per check)
cake_gpu_check(lang lang_exits lang_rowsum)
cake_gpu_check(wgmma_rs wgmma_rs wgmma_rs_f16)
cake_gpu_check(wgmma_kinds EMU wgmma_e4m3 wgmma_e5m2 wgmma_tf32)
cake_gpu_check(fragment EMU fragment_f32 fragment_bf16 fragment_f16)
cake_gpu_check(tile EMU tile_ops)
cake_gpu_check(rows EMU rows_ops)
cake_gpu_check(fp8 to8_f32 to8_half from8 small)
cake_gpu_check(interp_agree conv warpops contract)
cake_gpu_check(math math_f32 math_f64 math_vec)
cake_gpu_check(idx64 flat_rev rowsq64 rowsq32)
cake_gpu_check(rowstore EMU rs_f32x4 rs_bf16x8 rs_f16x3 rs_wide)
