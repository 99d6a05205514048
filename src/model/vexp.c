/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vexp.c: e^x for arrays (vexp.h).  A prediction with intervals takes
 * three exponentials per grid point, and libm's, one call at a time, were
 * a quarter of the synthetic model's whole answer.  Here four values go
 * through one reduction and one polynomial together, in the compiler's
 * vector types (GCC and Clang): x = n ln 2 + r with |r| <= ln 2 / 2 (ln 2
 * split in two so that n ln 2 is exact), e^r by its Taylor series to
 * degree 13 (the first term left out is under 1e-17 of e^r), and 2^n put
 * into the exponent's bits.  Every operation is a separate IEEE double
 * operation in the same order on every lane and in both the baseline and
 * the AVX2 variant (x86-64, where the processor has it), so with the
 * default flags the bits do not depend on the machine. */
#include "vexp.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef double vd __attribute__((vector_size(32)));
typedef int64_t vi __attribute__((vector_size(32)));

enum { LANES = 4 };

/* Four doubles at a time are two SSE2 operations each on any x86-64, one
 * AVX2 operation where the processor has it: the library carries both and
 * asks the processor at each call (a load and a test).  Not through the
 * loader's ifunc (target_clones): its resolver runs before the
 * sanitizers' runtimes are up, and Clang 14 left the symbol undefined. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VEXP_AVX2 1
#endif

/* e^x of four values whose e^x is a normal number (|x| checked by the
 * caller). */
static inline __attribute__((always_inline)) void exp4(const vd *px, vd *out) {
  const vd x = *px;
  const double shifter = 0x1.8p52;
  const vd t = x * 0x1.71547652b82fep0 + shifter; /* n + 1.5 * 2^52: n rounded */
  const vd n = t - shifter;
  const vd r = (x - n * 0x1.62e42fee00000p-1) - n * 0x1.a39ef35793c76p-33;
  /* the series 1 + r + r^2/2 + ... + r^13/13!, its terms past r in pairs
   * (Estrin's scheme: short chains instead of one of thirteen steps),
   * summed from the smallest, then r and 1 */
  const vd r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const vd a1 = 1.0 / 2 + r * (1.0 / 6), a2 = 1.0 / 24 + r * (1.0 / 120);
  const vd a3 = 1.0 / 720 + r * (1.0 / 5040), a4 = 1.0 / 40320 + r * (1.0 / 362880);
  const vd a5 = 1.0 / 3628800 + r * (1.0 / 39916800);
  const vd a6 = 1.0 / 479001600 + r * (1.0 / 6227020800);
  const vd high = r8 * ((a4 + r2 * a5) + r4 * a6) + r4 * (a2 + r2 * a3);
  const vd p = 1.0 + (r + (r2 * a1 + high));
  /* t's low mantissa bits hold n; moved into the exponent field with its
   * bias, they make 2^n */
  vi bits;
  memcpy(&bits, &t, sizeof bits);
  bits = (bits + 1023) << 52;
  vd scale;
  memcpy(&scale, &bits, sizeof scale);
  *out = p * scale;
}

/* Whether every lane's e^x is a normal number (NaN is not). */
static inline __attribute__((always_inline)) int in_range(const vd *x) {
  const vi ok = (*x > -708.0) & (*x < 709.0);
  return ok[0] & ok[1] & ok[2] & ok[3] & 1;
}

/* e^x times scale of four values at x, in place: libm's where one's
 * e^x would not be a normal number. */
static inline __attribute__((always_inline)) void vexp_block(double *x, double scale) {
  vd v;
  memcpy(&v, x, sizeof v);
  if (in_range(&v)) {
    exp4(&v, &v);
    v *= scale;
    memcpy(x, &v, sizeof v);
    return;
  }
  for (size_t k = 0; k < LANES; k++) x[k] = scale * exp(x[k]);
}

/* The whole array, in the instructions of the function it is inlined
 * into. */
static inline __attribute__((always_inline)) void vexp_all(double *x, size_t n, double scale) {
  size_t i = 0;
  for (; i + LANES <= n; i += LANES) vexp_block(x + i, scale);
  if (i == n) return;
  /* the last few through a block of four whose other lanes are 0, so a
   * value's bits do not depend on where it falls */
  double tail[LANES] = {0, 0, 0, 0};
  memcpy(tail, x + i, (n - i) * sizeof *x);
  vexp_block(tail, scale);
  memcpy(x + i, tail, (n - i) * sizeof *x);
}

static void vexp_baseline(double *x, size_t n, double scale) { vexp_all(x, n, scale); }

#ifdef VEXP_AVX2
__attribute__((target("avx2"))) static void vexp_avx2(double *x, size_t n, double scale) {
  vexp_all(x, n, scale);
}
#endif

void sp__vexp_scaled(double *x, size_t n, double scale) {
#ifdef VEXP_AVX2
  if (__builtin_cpu_supports("avx2")) {
    vexp_avx2(x, n, scale);
    return;
  }
#endif
  vexp_baseline(x, n, scale);
}
