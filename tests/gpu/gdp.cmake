# gdp.cmake: the gated delta product decode family (kernels_src/gdp, docs/gdp.md), included
# by tests/gpu/CMakeLists.txt. Several designs of one computation, each a source with the
# same parameters and -D constants: base (gdp_decode.cake), rows, fused, warp, tma, ksplit and multi
# (gdp_decode_<design>.cake), and entry, the entry point of gdp_decode_multi.cake as shipped
# (multi's instance for T and NH; at T = NH = 1 tma's and fused's). Each variant below is
# its design's source compiled with its -D constants (and, for f16, its type respelled by gdp_variant.cmake) under its own name;
# the base design's variants, and the test variants of the designs that stage the state
# through shared memory (all but tma), are compiled twice: NAME with staging elision (the
# -O2 default) and NAME_staged with --no-staging-elision, the shared-memory staging as
# written. Each kernel goes to build/gen/gdp/<kernel>/ (its own cakec run: -D applies to a
# whole run); the list is written to build/gen/gdp/variants.json for bench/gdp.py and to
# gdp_variants.h for test_gdp. Uses gpu_target_flags, gpu_emit, gpu_image_flags, gpu_runtime_c,
# gpu_first_gen, Python3.
#
# Names: gdp_t<T>_h<NH>_k<KD>v<VD>_bv<BV>[_<design>][_l2]_<type>, the tma design's tag
# being tma_c<CPS>s<STAGES> (blocks per SM, pipeline stages), ksplit's ks<KS> (blocks of a
# cluster along K), multi's multi_f<TFUSE> where a
# variant sets TFUSE (and multi_c<MINB> where it sets the blocks per SM). Each folder also gets the
# kernel's optimized IR (<kernel>.ir), which the emulated driver runs.

# name | -D constants | dtype | use (test: test_gdp and the benchmark; bench: benchmark only)
# [| design (default base)]
set(gdp_variants
  "gdp_t1_h1_k128v128_bv32_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=false|bf16|test"
  "gdp_t1_h1_k128v128_bv32_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|test"
  "gdp_t2_h2_k128v128_bv16_l2_bf16|T=2,NH=2,KD=128,VD=128,BV=16,L2NORM=true|bf16|test"
  "gdp_t4_h3_k128v128_bv32_bf16|T=4,NH=3,KD=128,VD=128,BV=32,L2NORM=false|bf16|test"
  "gdp_t2_h1_k128v128_bv64_bf16|T=2,NH=1,KD=128,VD=128,BV=64,L2NORM=false|bf16|test"
  "gdp_t3_h1_k64v64_bv16_l2_f16|T=3,NH=1,KD=64,VD=64,BV=16,L2NORM=true|f16|test"
  "gdp_t1_h3_k64v128_bv32_f16|T=1,NH=3,KD=64,VD=128,BV=32,L2NORM=false|f16|test"
  "gdp_t4_h2_k128v64_bv8_l2_f16|T=4,NH=2,KD=128,VD=64,BV=8,L2NORM=true|f16|test"
  "gdp_t1_h1_k128v128_bv16_bf16|T=1,NH=1,KD=128,VD=128,BV=16,L2NORM=false|bf16|bench"
  "gdp_t1_h1_k128v128_bv64_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=false|bf16|bench"
  "gdp_t1_h1_k128v128_bv16_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=16,L2NORM=true|bf16|bench"
  "gdp_t1_h1_k128v128_bv64_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench"
  "gdp_t1_h2_k128v128_bv32_l2_bf16|T=1,NH=2,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench"
  "gdp_t1_h3_k128v128_bv32_l2_bf16|T=1,NH=3,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench"
  "gdp_t2_h1_k128v128_bv32_l2_bf16|T=2,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench"
  "gdp_t4_h1_k128v128_bv32_l2_bf16|T=4,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench"
  "gdp_t8_h1_k128v128_bv32_l2_bf16|T=8,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench"
  # rows: lanes along V, 8 rows a thread, warp partials combined in shared memory
  "gdp_t1_h1_k128v128_bv64_rows_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=false|bf16|test|rows"
  "gdp_t2_h2_k64v64_bv16_rows_l2_f16|T=2,NH=2,KD=64,VD=64,BV=16,L2NORM=true|f16|test|rows"
  "gdp_t1_h1_k128v128_bv32_rows_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=false|bf16|bench|rows"
  "gdp_t1_h1_k128v128_bv32_rows_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|rows"
  "gdp_t1_h1_k128v128_bv64_rows_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|rows"
  # fused: rows with S^T q summed in the pass of the first Householder step
  "gdp_t1_h1_k128v128_bv64_fused_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=false|bf16|test|fused"
  "gdp_t3_h2_k128v128_bv64_fused_l2_bf16|T=3,NH=2,KD=128,VD=128,BV=64,L2NORM=true|bf16|test|fused"
  "gdp_t1_h1_k128v128_bv32_fused_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=false|bf16|bench|fused"
  "gdp_t1_h1_k128v128_bv32_fused_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|fused"
  "gdp_t1_h1_k128v128_bv64_fused_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|fused"
  # multi: several tokens or steps a call; warp's mapping, inputs fetched up front, the decay kept apart
  "gdp_t8_h1_k128v128_bv64_multi_bf16|T=8,NH=1,KD=128,VD=128,BV=64,L2NORM=false|bf16|test|multi"
  # -D TFUSE=4: the rolled, hand-pipelined token loop (an option; an odd count of tokens)
  "gdp_t5_h1_k64v64_bv32_multi_l2_f16|T=5,NH=1,KD=64,VD=64,BV=32,L2NORM=true,TFUSE=4|f16|test|multi"
  "gdp_t3_h2_k128v128_bv32_multi_l2_bf16|T=3,NH=2,KD=128,VD=128,BV=32,L2NORM=true|bf16|test|multi"
  "gdp_t2_h3_k64v64_bv32_multi_l2_f16|T=2,NH=3,KD=64,VD=64,BV=32,L2NORM=true|f16|test|multi"
  "gdp_t2_h1_k128v128_bv32_multi_l2_bf16|T=2,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|multi"
  "gdp_t2_h1_k128v128_bv64_multi_l2_bf16|T=2,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|multi"
  "gdp_t4_h1_k128v128_bv32_multi_l2_bf16|T=4,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|multi"
  "gdp_t4_h1_k128v128_bv64_multi_l2_bf16|T=4,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|multi"
  "gdp_t8_h1_k128v128_bv32_multi_l2_bf16|T=8,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|multi"
  "gdp_t8_h1_k128v128_bv64_multi_l2_bf16|T=8,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|multi"
  # T = 8 fully unrolled (the default pipelines it since bench/RESULTS.md section 54)
  "gdp_t8_h1_k128v128_bv64_multi_u_l2_bf16|T=8,NH=1,KD=128,VD=128,BV=64,L2NORM=true,TFUSE=8|bf16|bench|multi"
  "gdp_t1_h2_k128v128_bv32_multi_l2_bf16|T=1,NH=2,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|multi"
  "gdp_t1_h2_k128v128_bv64_multi_l2_bf16|T=1,NH=2,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|multi"
  "gdp_t1_h3_k128v128_bv32_multi_l2_bf16|T=1,NH=3,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|multi"
  "gdp_t1_h3_k128v128_bv64_multi_l2_bf16|T=1,NH=3,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|multi"
  # warp: a warp owns all K rows of 16 columns (K = 128), 16 rows a thread, shuffles only
  "gdp_t1_h1_k128v128_bv64_warp_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=false|bf16|test|warp"
  "gdp_t2_h3_k64v128_bv32_warp_l2_f16|T=2,NH=3,KD=64,VD=128,BV=32,L2NORM=true|f16|test|warp"
  "gdp_t1_h1_k128v128_bv32_warp_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=false|bf16|bench|warp"
  "gdp_t1_h1_k128v128_bv32_warp_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=true|bf16|bench|warp"
  "gdp_t1_h1_k128v128_bv64_warp_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|warp"
  # tma: persistent, a producer warp feeding a STAGES-deep TMA pipeline, warp consumers
  "gdp_t1_h1_k128v128_bv64_tma_c2s3_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=false,STAGES=3,CPS=2|bf16|test|tma"
  "gdp_t2_h2_k64v64_bv32_tma_c2s2_l2_f16|T=2,NH=2,KD=64,VD=64,BV=32,L2NORM=true,STAGES=2,CPS=2|f16|test|tma"
  "gdp_t1_h1_k128v128_bv64_tma_c1s6_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=false,STAGES=6,CPS=1|bf16|bench|tma"
  "gdp_t1_h1_k128v128_bv128_tma_c1s3_bf16|T=1,NH=1,KD=128,VD=128,BV=128,L2NORM=false,STAGES=3,CPS=1|bf16|bench|tma"
  "gdp_t1_h1_k128v128_bv32_tma_c3s4_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=false,STAGES=4,CPS=3|bf16|bench|tma"
  "gdp_t1_h1_k128v128_bv32_tma_c2s6_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=false,STAGES=6,CPS=2|bf16|test|tma"
  "gdp_t1_h1_k128v128_bv64_tma_c2s3_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true,STAGES=3,CPS=2|bf16|bench|tma"
  "gdp_t8_h1_k128v128_bv64_tma_c2s3_l2_bf16|T=8,NH=1,KD=128,VD=128,BV=64,L2NORM=true,STAGES=3,CPS=2|bf16|bench|tma"
  "gdp_t8_h1_k128v128_bv32_tma_c3s4_l2_bf16|T=8,NH=1,KD=128,VD=128,BV=32,L2NORM=true,STAGES=4,CPS=3|bf16|bench|tma"
  "gdp_t4_h1_k128v128_bv64_tma_c2s3_l2_bf16|T=4,NH=1,KD=128,VD=128,BV=64,L2NORM=true,STAGES=3,CPS=2|bf16|bench|tma"
  # ksplit: rows with K split over the KS blocks of a cluster too (small batch)
  "gdp_t1_h1_k128v128_bv32_ks2_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=false,KS=2|bf16|test|ksplit"
  "gdp_t3_h1_k128v128_bv64_ks4_l2_bf16|T=3,NH=1,KD=128,VD=128,BV=64,L2NORM=true,KS=4|bf16|test|ksplit"
  "gdp_t2_h2_k64v64_bv32_ks2_l2_f16|T=2,NH=2,KD=64,VD=64,BV=32,L2NORM=true,KS=2|f16|test|ksplit"
  "gdp_t1_h1_k128v128_bv32_ks2_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=true,KS=2|bf16|bench|ksplit"
  "gdp_t1_h1_k128v128_bv32_ks4_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=32,L2NORM=true,KS=4|bf16|bench|ksplit"
  "gdp_t1_h1_k128v128_bv64_ks2_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true,KS=2|bf16|bench|ksplit"
  "gdp_t1_h1_k128v128_bv64_ks4_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true,KS=4|bf16|bench|ksplit"
  # entry: the shipped entry point (gdp_decode_multi.cake) over the instances for T and NH:
  # at T = NH = 1 tma's below 1024 heads (32 columns six deep up to 128 heads: tma_c2s6's
  # code, tested above), fused's above (other T and NH: multi's alone)
  "gdp_t1_h1_k128v128_bv64_entry_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=false|bf16|bench|entry"
  "gdp_t1_h1_k128v128_bv64_entry_l2_bf16|T=1,NH=1,KD=128,VD=128,BV=64,L2NORM=true|bf16|bench|entry"
)

# the designs generic over T and NH (their instance, not -D, fixes them)
set(gdp_generic "^(multi|tma|fused)$")
set(gdp_gen ${CMAKE_BINARY_DIR}/gen/gdp)
set(gdp_outputs)
set(gdp_test_c)
set(gdp_test_inc)
set(gdp_kernels)
set(gdp_header "/* gdp_variants.h: generated by tests/gpu/gdp.cmake; do not edit. */\n")
set(gdp_xmacro "/* X(kernel, instance, T, NH, KD, VD, BV, l2norm, f16, staged, twin): the launcher\n * kernel (an entry point, for multi) and the kernel it launches; twin is 1 when the\n * kernel has a staged twin (or is one) */\n#define GDP_VARIANTS(X) \\\n")
set(gdp_json "[\n")
set(gdp_sep "")
foreach(entry ${gdp_variants})
  string(REPLACE "|" ";" f "${entry}")
  list(GET f 0 name)
  list(GET f 1 consts)
  list(GET f 2 dtype)
  list(GET f 3 use)
  list(LENGTH f nf)
  if(nf GREATER 4)
    list(GET f 4 design)
  else()
    set(design base)
  endif()
  if(design STREQUAL "base")
    set(kname gdp_decode)
  elseif(design STREQUAL "entry")
    set(kname gdp_decode_multi)
  else()
    set(kname gdp_decode_${design})
  endif()
  set(gdp_src ${CMAKE_SOURCE_DIR}/kernels_src/gdp/${kname}.cake)
  string(REPLACE "," ";" consts "${consts}")
  set(defs)
  set(gdp_STAGES 0)
  set(gdp_CPS 0)
  set(gdp_TFUSE 0)
  set(gdp_KS 0)
  foreach(c ${consts})
    string(REPLACE "=" ";" kv "${c}")
    list(GET kv 0 cname)
    list(GET kv 1 cval)
    set(gdp_${cname} ${cval})
    if(cname STREQUAL "MINB")
      set(gdp_CPS ${cval})   # multi: blocks per SM, as tma's CPS
    endif()
    if(NOT ((design MATCHES "${gdp_generic}" OR design STREQUAL "entry") AND (cname STREQUAL "T" OR cname STREQUAL "NH")))
      list(APPEND defs -D ${c})
    endif()
  endforeach()
  set(extra_insts)
  if(design MATCHES "${gdp_generic}")
    set(keep "-DKEEP=${gdp_T}, ${gdp_NH}")
    set(isuffix _${gdp_T}_${gdp_NH})
  elseif(design STREQUAL "entry")
    set(keep "-DKEEP=${gdp_T}, ${gdp_NH}" -DKEEPALL=1)
    set(isuffix _${gdp_T}_${gdp_NH})
    if(gdp_T EQUAL 1 AND gdp_NH EQUAL 1)
      # gdp_decode_multi.cake's own names for the imported designs' instances
      set(isuffix _fused)
      set(extra_insts _tma)
    endif()
  else()
    set(keep)
    set(isuffix)
  endif()
  if(gdp_L2NORM STREQUAL "true")
    set(l2 1)
  else()
    set(l2 0)
  endif()
  if(use STREQUAL "test")
    set(use_is_test true)
  else()
    set(use_is_test false)
  endif()
  if(dtype STREQUAL "f16")
    set(f16 1)
  else()
    set(f16 0)
  endif()
  # the staged twin: the base design always, the other staging designs for the test
  if(design STREQUAL "base" OR (use_is_test AND NOT design STREQUAL "tma"))
    set(twin 1)
    set(stagings 0 1)
  else()
    set(twin 0)
    set(stagings 0)
  endif()
  set(src ${gdp_gen}/src/${name}.cake)
  add_custom_command(OUTPUT ${src}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${gdp_gen}/src
    COMMAND ${CMAKE_COMMAND} -DIN=${gdp_src} -DOUT=${src} -DKERNEL=${kname} -DNAME=${name}
            -DDTYPE=${dtype} ${keep} -P ${CMAKE_CURRENT_SOURCE_DIR}/gdp_variant.cmake
    DEPENDS ${gdp_src} ${CMAKE_CURRENT_SOURCE_DIR}/gdp_variant.cmake
    COMMENT "gdp: source of ${name}" VERBATIM)
  foreach(staged ${stagings})
    if(staged)
      set(k ${name}_staged)
      set(flags --no-staging-elision)
    else()
      set(k ${name})
      set(flags)
    endif()
    # -O3 (cakec --help) makes the base design 2% faster (fully unrolled; bench/RESULTS.md);
    # rows and fused come out the same, tma mixed; the warp design was 9% faster at -O3
    # until 4dd01a4 gave neighbouring rows one address, and is now faster at -O2 (section 55)
    if(design STREQUAL "base")
      list(APPEND flags -O3)
    endif()
    list(APPEND gdp_kernels ${k})
    set(out ${gdp_gen}/${k})
    # a generic design's folder: the entry point ${k} and its one instance ${k}${isuffix}
    set(outs ${out}/manifest.json ${out}/cakert.c ${out}/cakert.h ${out}/${k}.c ${out}/${k}.h
      ${out}/${k}${isuffix}.ir)
    if(isuffix)
      list(APPEND outs ${out}/${k}${isuffix}.c ${out}/${k}${isuffix}.h)
    endif()
    foreach(x ${extra_insts})
      list(APPEND outs ${out}/${k}${x}.c ${out}/${k}${x}.h)
    endforeach()
    # the staged twin needs a source of its own, to carry its own kernel name
    if(staged)
      set(ksrc ${gdp_gen}/src/${k}.cake)
      add_custom_command(OUTPUT ${ksrc}
        COMMAND ${CMAKE_COMMAND} -DIN=${gdp_src} -DOUT=${ksrc} -DKERNEL=${kname} -DNAME=${k}
                -DDTYPE=${dtype} ${keep} -P ${CMAKE_CURRENT_SOURCE_DIR}/gdp_variant.cmake
        DEPENDS ${gdp_src} ${CMAKE_CURRENT_SOURCE_DIR}/gdp_variant.cmake ${src}
        COMMENT "gdp: source of ${k}" VERBATIM)
    else()
      set(ksrc ${src})
    endif()
    # the source is a copy in gen/gdp/src: its imports (gdp_math.cake) are found through
    # -I, and the depfile lists them, so that editing one rebuilds the variants
    add_custom_command(OUTPUT ${outs}
      COMMAND ${CMAKE_COMMAND} -E rm -rf ${out}
      COMMAND $<TARGET_FILE:cakec> ${gpu_target_flags} --emit=${gpu_emit},ir ${gpu_image_flags} ${defs} ${flags}
              -I ${CMAKE_SOURCE_DIR}/kernels_src/gdp --depfile ${out}.d -o ${out} ${ksrc}
      DEPENDS cakec ${ksrc}
      DEPFILE ${out}.d
      COMMENT "cakec: ${k}" VERBATIM)
    list(APPEND gdp_outputs ${outs})
    if(use STREQUAL "test")
      list(APPEND gdp_test_c ${out}/${k}.c)
      if(isuffix)
        list(APPEND gdp_test_c ${out}/${k}${isuffix}.c)
      endif()
      list(APPEND gdp_test_inc ${out})
      string(APPEND gdp_header "#include \"${k}.h\"\n")
      string(APPEND gdp_xmacro "\tX(${k}, ${k}${isuffix}, ${gdp_T}, ${gdp_NH}, ${gdp_KD}, ${gdp_VD}, ${gdp_BV}, ${l2}, ${f16}, ${staged}, ${twin}) \\\n")
    endif()
    string(APPEND gdp_json "${gdp_sep}  {\"name\": \"${k}\", \"dir\": \"${k}\", \"design\": \"${design}\", \"T\": ${gdp_T}, \"NH\": ${gdp_NH}, \"KD\": ${gdp_KD}, \"VD\": ${gdp_VD}, \"BV\": ${gdp_BV}, \"stages\": ${gdp_STAGES}, \"cps\": ${gdp_CPS}, \"tfuse\": ${gdp_TFUSE}, \"ks\": ${gdp_KS}, \"l2norm\": ${gdp_L2NORM}, \"dtype\": \"${dtype}\", \"staged\": ${staged}, \"test\": ${use_is_test}}")
    set(gdp_sep ",\n")
  endforeach()
endforeach()
string(APPEND gdp_xmacro "\t/* end */\n")
string(APPEND gdp_json "\n]\n")
file(MAKE_DIRECTORY ${gdp_gen})
file(CONFIGURE OUTPUT ${gdp_gen}/variants.json CONTENT "${gdp_json}" @ONLY)
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/gdp/gdp_variants.h
  CONTENT "${gdp_header}\n${gdp_xmacro}" @ONLY)
add_custom_target(gen_gdp ALL DEPENDS ${gdp_outputs})
add_dependencies(gen_gdp ${gpu_first_gen})

# Prebuilt PyTorch helper libraries, one per kernel folder (as for the other families).
if(Python3_FOUND)
  set(gdp_py_stamps)
  foreach(k ${gdp_kernels})
    set(out ${gdp_gen}/${k})
    add_custom_command(OUTPUT ${out}/.cakec_torch/prebuilt.stamp
      COMMAND ${CMAKE_COMMAND} -E env CC=${CMAKE_C_COMPILER}
              ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/python/cakec_torch.py build
              --cuda-include ${CAKE_CUDA_INCLUDE} --stamp ${out}/.cakec_torch/prebuilt.stamp ${out}
      DEPENDS ${out}/manifest.json ${out}/${k}.c ${CMAKE_SOURCE_DIR}/python/cakec_torch.py
      COMMENT "cakec_torch: shared library for gen/gdp/${k}" VERBATIM)
    list(APPEND gdp_py_stamps ${out}/.cakec_torch/prebuilt.stamp)
  endforeach()
  add_custom_target(gen_gdp_py ALL DEPENDS ${gdp_py_stamps})
  add_dependencies(gen_gdp_py gen_gdp)
endif()

# test_gdp: every test variant and its staged twin (where it has one) in one program
# (case_gdp.c: inputs, float64 reference, checks, bitwise comparison of the twins); in CI against the emulated
# driver too, which runs each variant's IR through the interpreter.
add_executable(test_gdp ${CMAKE_CURRENT_SOURCE_DIR}/test_gdp.c ${CMAKE_CURRENT_SOURCE_DIR}/case_gdp.c
  ${CMAKE_CURRENT_SOURCE_DIR}/gputest.c ${gpu_runtime_c} ${gdp_test_c})
add_dependencies(test_gdp gen_gdp)
set_source_files_properties(${gdp_test_c} PROPERTIES GENERATED TRUE)
add_dependencies(test_gdp ${gpu_first_gen})
set_target_properties(test_gdp PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
target_include_directories(test_gdp PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/gdp
  ${gdp_test_inc})
target_include_directories(test_gdp SYSTEM PRIVATE ${CAKE_CUDA_INCLUDE})
target_link_libraries(test_gdp PRIVATE ${CMAKE_DL_LIBS} Threads::Threads m)
add_test(NAME gpu/test_gdp COMMAND test_gdp)
set_tests_properties(gpu/test_gdp PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:" TIMEOUT 900)
# EMU_SMS=3: the persistent tma design then takes several items a block, so the test runs
# its loop over items (at 132 SMs every small case fits in one wave)
add_test(NAME gpu/emu/test_gdp COMMAND test_gdp)
set_tests_properties(gpu/emu/test_gdp PROPERTIES TIMEOUT 900
  ENVIRONMENT "${gpu_emu_env};CAKE_GPU_TEST_SMALL=1;CAKE_GPU_TEST_REQUIRE=1;EMU_SMS=3")
add_dependencies(test_gdp emu_cuda)
