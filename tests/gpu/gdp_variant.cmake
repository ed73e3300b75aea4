# gdp_variant.cmake: writes one variant's source of a kernels_src/gdp design (cmake
# -DIN=... -DOUT=... [-DKERNEL=gdp_decode_rows] -DNAME=... -DDTYPE=bf16|f16 [-DKEEP="2, 1"]
# -P gdp_variant.cmake): the kernel KERNEL (default gdp_decode) renamed NAME, so that
# several variants link into one program, and for DTYPE f16 every bf16 (the inputs, the
# output, their conversions) spelled f16. The constants (T, NH, KD, VD, BV, L2NORM, and a
# design's own) are set by cakec -D; only the type needs the text (docs/gdp.md). A
# generic design (multi: kernel KERNEL<T, NH> and its instances, one entry point) keeps
# the instance KEEP (its generic arguments) alone: the entry point NAME then launches
# NAME_<T>_<NH>, and the variant compiles one kernel, not every instance.
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
  string(REGEX REPLACE "\ninstance ${KERNEL}<[^>]*>;" "" stripped "${src}")
  string(FIND "${src}" "\ninstance ${KERNEL}<${KEEP}>;" kept)
  if(kept LESS 0)
    message(FATAL_ERROR "gdp_variant.cmake: ${IN} has no 'instance ${KERNEL}<${KEEP}>;'")
  endif()
  set(src "${stripped}\ninstance ${NAME}<${KEEP}>;\n")
  string(REPLACE "kernel ${KERNEL}<" "kernel ${NAME}<" src "${src}")
endif()
if(DTYPE STREQUAL "f16")
  string(REPLACE "bf16" "f16" src "${src}")
elseif(NOT DTYPE STREQUAL "bf16")
  message(FATAL_ERROR "gdp_variant.cmake: DTYPE is bf16 or f16, not '${DTYPE}'")
endif()
file(WRITE "${OUT}.tmp" "${src}")
file(RENAME "${OUT}.tmp" "${OUT}")
