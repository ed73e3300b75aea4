# gdp_variant.cmake: writes one variant's source of a kernels_src/gdp design (cmake
# -DIN=... -DOUT=... [-DKERNEL=gdp_decode_rows] -DNAME=... -DDTYPE=bf16|f16 [-DKEEP="2, 1"]
# -P gdp_variant.cmake): the kernel KERNEL (default gdp_decode) renamed NAME, so that
# several variants link into one program, and for DTYPE f16 every bf16 (the inputs, the
# output, their conversions) spelled f16. The constants (T, NH, KD, VD, BV, L2NORM, and a
# design's own) are set by cakec -D; only the type needs the text (docs/gdp.md). A
# generic design (multi, tma and fused: kernel KERNEL<T, NH>) gets the instance KEEP (its generic
# arguments) alone, whatever instances the file declares: the entry point NAME then
# launches NAME_<T>_<NH>, and the variant compiles one kernel, not every instance. With
# -DKEEPALL=1 (the design `entry`: the shipped entry point as the user gets it, for T and NH
# given) every instance of KEEP stays, of whichever kernel, and the entry point NAME chooses
# among them as gdp_decode_multi does.
if(NOT DEFINED KERNEL)
  set(KERNEL gdp_decode)
endif()
file(READ "${IN}" src)
string(FIND "${src}" "kernel ${KERNEL}(" at)
string(FIND "${src}" "kernel ${KERNEL}<" generic)
if(at LESS 0 AND generic LESS 0)
  message(FATAL_ERROR "gdp_variant.cmake: ${IN} has no 'kernel ${KERNEL}(' or 'kernel ${KERNEL}<'")
endif()
if(generic LESS 0)
  string(REPLACE "kernel ${KERNEL}(" "kernel ${NAME}(" src "${src}")
else()
  if(NOT DEFINED KEEP)
    message(FATAL_ERROR "gdp_variant.cmake: ${KERNEL} is generic: give -DKEEP=<its arguments>")
  endif()
  if(KEEPALL)
    # the file's entry point over the instances of KEEP alone, of every kernel (multi's
    # takes tma's at small batch), each in its place, KERNEL renamed NAME throughout
    # (its kernel, its instances, `entry KERNEL`, `as KERNEL_...`)
    # (matched without their `;`: a CMake list would split there)
    string(REGEX MATCHALL "\ninstance [^;]*" insts "${src}")
    string(REGEX REPLACE "\ninstance [^;]*;" "" src "${src}")
    foreach(i ${insts})
      string(FIND "${i}" "<${KEEP}>" has)
      if(has GREATER -1)
        string(APPEND src "${i};")
      endif()
    endforeach()
    string(APPEND src "\n")
    string(REPLACE "${KERNEL}" "${NAME}" src "${src}")
  else()
    # every instance goes (another kernel's too: multi's entry point takes one of tma's),
    # the kept one comes back alone under the variant's name
    string(REGEX REPLACE "\ninstance [^;]*;" "" stripped "${src}")
    set(src "${stripped}\ninstance ${NAME}<${KEEP}>;\n")
    string(REPLACE "kernel ${KERNEL}<" "kernel ${NAME}<" src "${src}")
  endif()
endif()
if(DTYPE STREQUAL "f16")
  string(REPLACE "bf16" "f16" src "${src}")
elseif(NOT DTYPE STREQUAL "bf16")
  message(FATAL_ERROR "gdp_variant.cmake: DTYPE is bf16 or f16, not '${DTYPE}'")
endif()
file(WRITE "${OUT}.tmp" "${src}")
file(RENAME "${OUT}.tmp" "${OUT}")
