# naive.cmake: the plain-code corpus of bench/naive (docs/testing.md, bench/naive.py),
# included by tests/gpu/CMakeLists.txt. Every bench/naive/*.cake is compiled in one cakec
# run, for sm_90a, sm_100a and sm_103a, into ${CMAKE_BINARY_DIR}/gen/naive/ (PTX, launchers,
# manifest, runtime, IR), with the Python helper's library prebuilt there: bench/naive.py
# loads it on the GPU machine beside the CUDA C++ twins (bench/naive/*.cu), which NVRTC
# compiles there. tests/kernels/naive-corpus.test checks the corpus itself (ptxas, the
# twins' signatures, NVRTC). Uses gpu_target_flags, gpu_emit, CAKE_CUDA_INCLUDE, Python3.

file(GLOB naive_cakes CONFIGURE_DEPENDS RELATIVE ${CMAKE_SOURCE_DIR}
  ${CMAKE_SOURCE_DIR}/bench/naive/*.cake)
list(SORT naive_cakes)
set(naive_out ${CMAKE_BINARY_DIR}/gen/naive)
set(naive_outputs ${naive_out}/manifest.json ${naive_out}/cakert.c ${naive_out}/cakert.h)
foreach(cake ${naive_cakes})
  get_filename_component(k ${cake} NAME_WE)
  list(APPEND naive_outputs ${naive_out}/${k}.c ${naive_out}/${k}.h ${naive_out}/${k}.ir)
  foreach(t ${gpu_targets})
    list(APPEND naive_outputs ${naive_out}/${k}.${t}.ptx)
  endforeach()
endforeach()
list(TRANSFORM naive_cakes PREPEND ${CMAKE_SOURCE_DIR}/ OUTPUT_VARIABLE naive_paths)
add_custom_command(OUTPUT ${naive_outputs}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${naive_out}
  COMMAND $<TARGET_FILE:cakec> ${gpu_target_flags} --emit=${gpu_emit},ir --depfile ${naive_out}.d
          -o ${naive_out} ${naive_cakes}
  DEPENDS cakec ${naive_paths}
  DEPFILE ${naive_out}.d
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
  COMMENT "cakec: bench/naive -> gen/naive (${gpu_emit},ir)"
  VERBATIM)
add_custom_target(gen_naive ALL DEPENDS ${naive_outputs})
if(Python3_FOUND)
  add_custom_command(OUTPUT ${naive_out}/.cakec_torch/prebuilt.stamp
    COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
            ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py build
            --cuda-include ${CAKE_CUDA_INCLUDE} --stamp ${naive_out}/.cakec_torch/prebuilt.stamp ${naive_out}
    DEPENDS ${naive_outputs} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py
    COMMENT "cakec_torch: shared library for gen/naive"
    VERBATIM)
  add_custom_target(gen_naive_py ALL DEPENDS ${naive_out}/.cakec_torch/prebuilt.stamp)
  add_dependencies(gen_naive_py gen_naive)
  # without a GPU (none is made visible) the benchmark checks its corpus and the generated
  # folder, then stops with a clear message and exit 1, not a traceback
  add_test(NAME bench/naive-no-gpu
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/bench/naive.py --build ${CMAKE_BINARY_DIR})
  set_tests_properties(bench/naive-no-gpu PROPERTIES ENVIRONMENT "CUDA_VISIBLE_DEVICES="
    PASS_REGULAR_EXPRESSION "naive.py: corpus: 12 kernels.*naive.py: FAIL: (cannot import (torch|cupy)|no CUDA device)"
    FAIL_REGULAR_EXPRESSION "Traceback")
endif()
