# gdp_variant.cmake: writes one variant's source of kernels_src/gdp/gdp_decode.cake
# (cmake -DIN=... -DOUT=... -DNAME=... -DDTYPE=bf16|f16 -P gdp_variant.cmake): the kernel
# renamed NAME, so that several variants link into one program, and for DTYPE f16 every
# bf16 (the inputs, the output, their conversions) spelled f16. The constants (T, NH, KD,
# VD, BV, L2NORM) are set by cakec -D; only the type needs the text (docs/gdp.md).
file(READ "${IN}" src)
string(FIND "${src}" "kernel gdp_decode(" at)
if(at LESS 0)
  message(FATAL_ERROR "gdp_variant.cmake: ${IN} has no 'kernel gdp_decode('")
endif()
string(REPLACE "kernel gdp_decode(" "kernel ${NAME}(" src "${src}")
if(DTYPE STREQUAL "f16")
  string(REPLACE "bf16" "f16" src "${src}")
elseif(NOT DTYPE STREQUAL "bf16")
  message(FATAL_ERROR "gdp_variant.cmake: DTYPE is bf16 or f16, not '${DTYPE}'")
endif()
file(WRITE "${OUT}.tmp" "${src}")
file(RENAME "${OUT}.tmp" "${OUT}")
