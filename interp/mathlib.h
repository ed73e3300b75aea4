/* interp/mathlib.h: the math library's f32 functions as the GPU computes them (interp/math.c). */
#ifndef CAKE_INTERP_MATHLIB_H
#define CAKE_INTERP_MATHLIB_H

float im_exp(float x);
float im_log(float x);
float im_sin(float x);
float im_cos(float x);
float im_tanh(float x);
float im_erf(float x);
float im_pow(float x, float y);

#endif
