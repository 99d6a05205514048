/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_ptx.c: src/ptx, the static features of a kernel read from PTX
 * (docs/estimate.md), linked against its layer alone (ptx and util).  A
 * hand-written kernel with two nested loops, whose features are counted
 * by hand below; the launch shape; the feature names; and malformed PTX,
 * whose errors name the line. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "scalepredict.h"

/* Nineteen instructions.  i0-i3 run once; the outer loop ($outer, i4-i14)
 * holds the inner one ($inner, i6-i11), so i4, i5 and i12-i14 weigh 8 and
 * i6-i11 weigh 8 x 8 = 64; i15-i18 run once. */
static const char nest_ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".shared .align 8 .b8 mod_buf[16];\n"
    "\n"
    ".visible .entry _Z4nestPdi(\n"
    "\t.param .u64 p0,\n"
    "\t.param .u32 p1\n"
    ")\n"
    "{\n"
    "\t.reg .pred %p<3>;\n"
    "\t.reg .f64 %fd<4>;\n"
    "\t.reg .b32 %r<5>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\t.shared .align 8 .f64 tile[8];\n"
    "\n"
    "\tld.param.u64 %rd1, [p0];\n"
    "\tld.param.u32 %r1, [p1];\n"
    "\tcvta.to.global.u64 %rd2, %rd1;\n"
    "\tmov.u32 %r2, 0;\n"
    "$outer:\n"
    "\tld.global.f64 %fd1, [%rd2];\n"
    "\tmov.u32 %r3, 0;\n"
    "$inner:\n"
    "\tfma.rn.f64 %fd2, %fd1, %fd1, %fd2;\n"
    "\tsqrt.rn.f64 %fd3, %fd2;\n"
    "\tst.shared.f64 [tile], %fd3;\n"
    "\tadd.s32 %r3, %r3, 1;\n"
    "\tsetp.lt.s32 %p1, %r3, %r1;\n"
    "\t@%p1 bra $inner;\n"
    "\tadd.s32 %r2, %r2, 1;\n"
    "\tsetp.lt.s32 %p2, %r2, %r1;\n"
    "\t@%p2 bra $outer;\n"
    "\tbar.sync 0;\n"
    "\tred.global.add.u32 [%rd2], 1;\n"
    "\tst.global.f64 [%rd2], %fd3;\n"
    "\tret;\n"
    "}\n";

static sp_kernel_features *features(const char *text, const char *kernel, const sp_launch *l) {
  sp_kernel_features *f = NULL;
  sp_error err;
  int st = sp_ptx_features_mem(text, strlen(text), "nest.ptx", kernel, l, &f, &err);
  ck_assert_msg(st == SP_OK, "%s", err.message);
  return f;
}

static double feature(const sp_kernel_features *f, const char *name) {
  double v = -1;
  ck_assert_msg(sp_kernel_features_get(f, name, &v) == SP_OK, "no feature %s", name);
  return v;
}

/* ---- counted by hand ---------------------------------------------------------- */

START_TEST(test_mix_weighted_by_loops) {
  sp_kernel_features *f = features(nest_ptx, "nest", NULL);
  ck_assert_str_eq(sp_kernel_features_entry(f), "_Z4nestPdi");
  ck_assert_double_eq(feature(f, "inst"), 19);
  ck_assert_double_eq(feature(f, "loops"), 2);
  /* 4 x 1 + 2 x 8 + 6 x 64 + 3 x 8 + 4 x 1 */
  ck_assert_double_eq(feature(f, "inst_thread"), 432);
  ck_assert_double_eq(feature(f, "arith_f64"), 64); /* fma */
  ck_assert_double_eq(feature(f, "special"), 64);   /* sqrt, not arith_f64 */
  /* add and setp inside both loops, and once more in the outer one */
  ck_assert_double_eq(feature(f, "arith_int"), 64 + 64 + 8 + 8);
  ck_assert_double_eq(feature(f, "arith_f32"), 0);
  ck_assert_double_eq(feature(f, "ld_param"), 2);
  ck_assert_double_eq(feature(f, "ld_global"), 8);
  ck_assert_double_eq(feature(f, "st_shared"), 64);
  ck_assert_double_eq(feature(f, "st_global"), 1);
  ck_assert_double_eq(feature(f, "atomic"), 1); /* red */
  ck_assert_double_eq(feature(f, "branch"), 64 + 8);
  ck_assert_double_eq(feature(f, "barrier"), 1);
  sp_kernel_features_free(f);
}
END_TEST

/* Opcode parts count once per instruction as written, loops not unrolled. */
START_TEST(test_opcode_parts_as_written) {
  sp_kernel_features *f = features(nest_ptx, "_Z4nestPdi", NULL);
  ck_assert_double_eq(feature(f, "ld"), 3);
  ck_assert_double_eq(feature(f, "st"), 2);
  ck_assert_double_eq(feature(f, "param"), 2);
  ck_assert_double_eq(feature(f, "f64"), 5);
  ck_assert_double_eq(feature(f, "fma"), 1);
  ck_assert_double_eq(feature(f, "sqrt"), 1);
  ck_assert_double_eq(feature(f, "setp"), 2);
  ck_assert_double_eq(feature(f, "bra"), 2);
  ck_assert_double_eq(feature(f, "bar"), 1);
  ck_assert_double_eq(feature(f, "ret"), 1);
  sp_kernel_features_free(f);
}
END_TEST

/* Registers in 32-bit units (predicates not counted); static shared
 * memory of the kernel and of the module. */
START_TEST(test_registers_and_shared) {
  sp_kernel_features *f = features(nest_ptx, "nest", NULL);
  ck_assert_double_eq(feature(f, "regs"), 4 * 2 + 5 + 3 * 2);
  ck_assert_double_eq(feature(f, "shared_static_bytes"), 8 * 8 + 16);
  ck_assert(isnan(feature(f, "grid_blocks")));
  ck_assert(isnan(feature(f, "shared_bytes")));
  sp_kernel_features_free(f);
}
END_TEST

START_TEST(test_launch_shape) {
  const sp_launch l = {{4, 2, 0}, {64, 0, 0}, 128};
  sp_kernel_features *f = features(nest_ptx, "nest", &l);
  ck_assert_double_eq(feature(f, "grid_blocks"), 8);
  ck_assert_double_eq(feature(f, "block_threads"), 64);
  ck_assert_double_eq(feature(f, "threads"), 512);
  ck_assert_double_eq(feature(f, "dyn_shared_bytes"), 128);
  ck_assert_double_eq(feature(f, "shared_bytes"), 80 + 128);
  sp_kernel_features_free(f);
}
END_TEST

/* The features, the list the static method goes by and the public test
 * agree, name for name; a DCGM column is not a static feature. */
START_TEST(test_feature_names) {
  sp_kernel_features *f = features(nest_ptx, "nest", NULL);
  ck_assert_uint_eq(sp_kernel_features_count(f), sp__static_feature_count());
  for (size_t i = 0; i < sp_kernel_features_count(f); i++) {
    const char *name = sp_kernel_features_name(f, i);
    ck_assert_str_eq(name, sp__static_feature_at(i));
    ck_assert(sp__static_feature_name(name));
    ck_assert(sp_static_feature_name(name));
    for (size_t j = 0; j < i; j++) ck_assert_str_ne(name, sp_kernel_features_name(f, j));
  }
  ck_assert(!sp_static_feature_name("DRAMA"));
  ck_assert(!sp__static_feature_name("time_ms"));
  sp_kernel_features_free(f);
}
END_TEST

/* ---- malformed PTX ------------------------------------------------------------ */

/* What replacing line `line` (1-based) of nest_ptx with `with` gives. */
static char *with_line(int line, const char *with) {
  char *out = malloc(sizeof nest_ptx + strlen(with) + 1);
  const char *p = nest_ptx;
  size_t o = 0;
  for (int n = 1; *p; n++) {
    const char *end = strchr(p, '\n');
    size_t len = (size_t)(end - p) + 1;
    if (n == line) {
      o += (size_t)sprintf(out + o, "%s\n", with);
    } else {
      memcpy(out + o, p, len);
      o += len;
    }
    p += len;
  }
  out[o] = '\0';
  return out;
}

static void expect_error(const char *text, size_t size, const char *kernel, int status, int line,
                         const char *says) {
  sp_kernel_features *f = (sp_kernel_features *)1;
  sp_error err;
  ck_assert_int_eq(sp_ptx_features_mem(text, size, "bad.ptx", kernel, NULL, &f, &err), status);
  ck_assert_ptr_null(f);
  ck_assert_str_eq(err.file, "bad.ptx");
  if (line) ck_assert_int_eq(err.line, line);
  ck_assert_msg(strstr(err.message, says), "'%s' does not say '%s'", err.message, says);
}

START_TEST(test_malformed) {
  /* Line 26 is "\tsqrt.rn.f64 %fd3, %fd2;", line 34 "\tbar.sync 0;". */
  char *t = with_line(26, "\tsqrt.rn.f64 %fd3, %fd2");
  expect_error(t, strlen(t), "nest", SP_EPARSE, 26, "statement without ';'");
  free(t);
  t = with_line(34, "\tbarr.sync 0;");
  expect_error(t, strlen(t), "nest", SP_EPARSE, 34, "unknown opcode");
  free(t);
  /* A NUL byte inside line 26 (a binary file given as PTX). */
  t = malloc(sizeof nest_ptx);
  memcpy(t, nest_ptx, sizeof nest_ptx);
  char *at = strstr(t, "sqrt.rn.f64");
  at[4] = '\0';
  expect_error(t, sizeof nest_ptx - 1, "nest", SP_EPARSE, 26, "NUL");
  free(t);
  /* A kernel that is not there: the error lists the one that is. */
  expect_error(nest_ptx, strlen(nest_ptx), "nope", SP_ENOTFOUND, 0, "_Z4nestPdi");
}
END_TEST

int main(void) {
  Suite *s = suite_create("ptx");
  TCase *tc = tcase_create("features");
  tcase_add_test(tc, test_mix_weighted_by_loops);
  tcase_add_test(tc, test_opcode_parts_as_written);
  tcase_add_test(tc, test_registers_and_shared);
  tcase_add_test(tc, test_launch_shape);
  tcase_add_test(tc, test_feature_names);
  tcase_add_test(tc, test_malformed);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
