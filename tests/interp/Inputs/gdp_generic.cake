// The generic gdp designs at two tokens of two Householder steps, for tests/interp's
// test_kernels.c (their own files make only <1, 1>): instances of kernels imported from
// kernels_src/gdp, whose constants (KD, BV, ...) keep their defaults.
import "../../../kernels_src/gdp/gdp_decode_tma.cake";
import "../../../kernels_src/gdp/gdp_decode_fused.cake";

instance gdp_decode_tma<2, 2>;
instance gdp_decode_fused<2, 2>;
