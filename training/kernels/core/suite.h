/* SPDX-License-Identifier: GPL-3.0-or-later */
/* suite.h: the host half of the kernel suites (the job API every suite of
 * training/suites.txt uses) and the core suite's table.
 *
 * Every suite kernel is one entry point in a device source (a .cl file in
 * its suite's folder, compiled as OpenCL C or CUDA C++ through sp_port.h) plus
 * a setup function here that builds a job: the buffers with their initial
 * contents, the kernel arguments, the launch geometry and the host reference
 * that the first launch at every configuration is checked against.
 *
 * A job is backend-neutral: the runner's OpenCL and CUDA backends turn it
 * into device buffers and launches.  Setup functions allocate with malloc
 * and never print; they return 0 or -1 (out of memory).
 */
#ifndef SP_SUITE_H
#define SP_SUITE_H

#include <stddef.h>
#include <stdint.h>

enum { KJOB_MAX_BUFS = 8, KJOB_MAX_ARGS = 12 };

/* Problem sizes: small for CI on a CPU OpenCL device, full for GPUs (a few
 * milliseconds per launch on 8 H100 SMs). */
typedef enum ksize { KSIZE_SMALL = 0, KSIZE_FULL = 1 } ksize;

/* What the runner does with a buffer around the checked launch.
 * KB_IN: uploaded once.  KB_OUT: filled with poison (all bits set) before
 * the checked launch, so an element the kernel fails to write shows up.
 * KB_INOUT: its initial contents are uploaded again before the checked
 * launch (the kernel updates it in place). */
typedef enum kb_role { KB_IN, KB_OUT, KB_INOUT } kb_role;

/* How a buffer is compared with its reference after the checked launch. */
typedef enum kb_cmp { KC_NONE, KC_F32, KC_F64, KC_U32 } kb_cmp;

typedef struct kbuf {
  size_t bytes;
  void *host; /* initial contents (KB_IN, KB_INOUT) */
  kb_role role;
  kb_cmp cmp;
  void *ref;         /* expected contents, same element type */
  size_t count;      /* elements compared (from the start, or sampled) */
  size_t *sample;    /* indices compared; NULL: elements 0..count-1 */
  double rtol, atol; /* float pass rule: |out-ref| <= atol + rtol*|ref| */
  void *result;      /* the read-back, filled by the runner */
} kbuf;

typedef enum karg_kind { KA_BUF, KA_I32, KA_U32, KA_F32, KA_F64 } karg_kind;

typedef struct karg {
  karg_kind kind;
  int buf;
  union {
    int32_t i;
    uint32_t u;
    float f;
    double d;
  } v;
} karg;

struct kjob;
/* An extra check beyond the per-buffer comparison (e.g. a tolerated share of
 * mismatching pixels).  Returns 0 when the result is right, else writes why
 * into msg. */
typedef int (*kcheck_fn)(const struct kjob *job, char *msg, size_t size);

typedef struct kjob {
  const char *source; /* device source file in the suite's folder;
                       * a .cu file is CUDA C++ (CUDA backend only) */
  const char *entry;  /* kernel function name */
  size_t groups[3];   /* work-groups (CUDA: grid) */
  size_t local[3];    /* work-group size (CUDA: block) */
  size_t dyn_local;   /* bytes of dynamic shared memory per block, for
                       * CUDA-only .cu kernels (portable sources have
                       * fixed-size local arrays only): 0 elsewhere */
  kbuf buf[KJOB_MAX_BUFS];
  int nbuf;
  karg arg[KJOB_MAX_ARGS];
  int narg;
  kcheck_fn check; /* NULL: per-buffer comparisons only */
  void *priv;      /* data for check, freed with free() */
  double max_err;  /* largest normalized error seen by the last check */
  int sampleable;  /* work-groups independent of the grid size (no
                    * grid-stride loops, no last-group reductions), so a
                    * partial grid does part of the same work: see
                    * kjob_sampleable */
  int resident;    /* > 0: a resident grid (kjob_resident): at every SM
                    * count the runner launches exactly the groups that are
                    * resident at once, min(resident, the occupancy
                    * calculator's groups per SM) x the level's actual SM
                    * count, in groups[0] (groups[1], groups[2] stay 1);
                    * 0: the grid above at every count */
} kjob;

typedef struct kdesc {
  const char *name;     /* suite name, unique, [a-z0-9_] */
  const char *stresses; /* what the kernel stresses */
  const char *scaling;  /* expected SM-scaling class */
  int (*setup)(kjob *job, const struct kdesc *d, ksize size);
  int param; /* variant parameter of the family */
} kdesc;

/* The core suite's table, in run order: every suite of training/suites.txt
 * has one, NAME_count and NAME_at (sp-runner finds them by the name). */
size_t core_count(void);
const kdesc *core_at(size_t i);

/* Job construction helpers (job.c). */
void kjob_init(kjob *job, const char *source, const char *entry);
void kjob_free(kjob *job);
/* Adds a buffer and returns its index.  Its host copy (not for KB_OUT) is
 * zero-filled, or NULL when out of memory: the caller checks. */
int kjob_buf(kjob *job, size_t bytes, kb_role role);
/* Gives buffer b a reference of count elements compared with cmp; the
 * reference array is allocated zero-filled and returned (NULL: no memory). */
void *kjob_ref(kjob *job, int b, kb_cmp cmp, size_t count, double rtol, double atol);
/* Makes buffer b compare only the elements listed in the returned array
 * (count entries, as given to kjob_ref; NULL: no memory). */
size_t *kjob_sample(kjob *job, int b);
void kjob_arg_buf(kjob *job, int b);
void kjob_arg_i32(kjob *job, int32_t v);
void kjob_arg_u32(kjob *job, uint32_t v);
void kjob_arg_f32(kjob *job, float v);
void kjob_arg_f64(kjob *job, double v);
void kjob_grid(kjob *job, size_t gx, size_t gy, size_t gz, size_t lx, size_t ly, size_t lz);
/* 1-D launch of at least n work-items in groups of lx. */
void kjob_grid1(kjob *job, size_t n, size_t lx);
/* Marks the job as sampleable: each work-group does the same work whatever
 * the grid's size, so the first k waves of its grid time a k-wave share of
 * the launch (sp-runner --sampled).  Set only by setup functions whose
 * kernels were checked for that. */
void kjob_sampleable(kjob *job);
/* Makes the job's grid resident at every SM count: groups[0] becomes
 * min(per_cu, the occupancy calculator's groups per SM) x the SM count
 * before the first launch at each count, so every group runs at once.
 * For kernels whose groups wait for one another (a grid barrier) or that
 * keep a working set spread over all groups; their results must not depend
 * on the grid's size. */
void kjob_resident(kjob *job, int per_cu);
/* Compares every buffer's result with its reference and runs job->check.
 * Returns 0 when all pass; else writes the first failure into msg. */
int kjob_verify(kjob *job, char *msg, size_t size);

/* The c-th of count indices spread over [0, n): c * (n / count) plus an
 * offset that varies with c, so sampled checks do not all hit the same
 * position inside a work-group. */
size_t kspread(size_t c, size_t count, size_t n);

/* Gives buffer b (n elements, compared with cmp) a sampled reference of
 * min(n, max) elements spread over it (kspread).  Returns the reference
 * array, or NULL when out of memory; the sampled indices are in
 * job->buf[b].sample, ascending. */
void *kjob_ref_sampled(kjob *job, int b, kb_cmp cmp, size_t n, size_t max, double rtol,
                       double atol);
/* Gives buffer b a reference of count elements at indices the caller
 * writes into *idx (ascending): for outputs of which only a known part is
 * written.  Returns the reference array, or NULL when out of memory. */
void *kjob_ref_at(kjob *job, int b, kb_cmp cmp, size_t count, double rtol, double atol,
                  size_t **idx);
/* A new buffer of n 32-bit words with the given role, its host copy
 * zero-filled; returns its index, or -1 when out of memory. */
int kjob_buf_u32(kjob *job, size_t n, kb_role role);
/* Copies the first len bytes of p over the rest of its n bytes, so that a
 * big input repeats one drawn stretch and setting up stays quick. */
void krepeat(void *p, size_t len, size_t n);

/* Deterministic pseudo-random numbers (splitmix64), seeded per kernel. */
typedef struct krng {
  uint64_t s;
} krng;
void krng_seed(krng *r, const char *name, uint64_t salt);
uint64_t krng_u64(krng *r);
uint32_t krng_u32(krng *r);
/* Uniform in [lo, hi). */
double krng_uniform(krng *r, double lo, double hi);
/* Uniform integer in [0, n). */
uint32_t krng_below(krng *r, uint32_t n);

void kfill_f32(float *a, size_t n, krng *r, double lo, double hi);
void kfill_f64(double *a, size_t n, krng *r, double lo, double hi);
void kfill_u32(uint32_t *a, size_t n, krng *r);
/* largest |a[i]| */
double kmaxabs_f32(const float *a, size_t n);

/* Family setup functions (one .c file per family). */
#define SP_SETUP(fn) int fn(kjob *job, const kdesc *d, ksize size)
SP_SETUP(setup_stream);
SP_SETUP(setup_ws);
SP_SETUP(setup_reduce);
SP_SETUP(setup_scan);
SP_SETUP(setup_stencil);
SP_SETUP(setup_matmul);
SP_SETUP(setup_spmv);
SP_SETUP(setup_hist);
SP_SETUP(setup_transpose);
SP_SETUP(setup_nbody);
SP_SETUP(setup_fft);
SP_SETUP(setup_mc);
SP_SETUP(setup_poly);
SP_SETUP(setup_hash);
SP_SETUP(setup_irregular);
SP_SETUP(setup_chase);
SP_SETUP(setup_lmem);
SP_SETUP(setup_branch);
SP_SETUP(setup_atomics);
SP_SETUP(setup_sort);
SP_SETUP(setup_conv);
SP_SETUP(setup_gemv);
SP_SETUP(setup_misc);
SP_SETUP(setup_floor);
SP_SETUP(setup_rw);
SP_SETUP(setup_l2);
SP_SETUP(setup_atom);
SP_SETUP(setup_sched);
SP_SETUP(setup_pw);
SP_SETUP(setup_tc);
SP_SETUP(setup_occ);
SP_SETUP(setup_vec);
SP_SETUP(setup_shape);
SP_SETUP(setup_append);
SP_SETUP(setup_lbm);
SP_SETUP(setup_star3d);
SP_SETUP(setup_persist);
SP_SETUP(setup_bigblock);
SP_SETUP(setup_lrate);
SP_SETUP(setup_inflight);
SP_SETUP(setup_ridge);
SP_SETUP(setup_l2part);
SP_SETUP(setup_gsync);

/* Variant parameters of the families above (each family's .c file says
 * what its fields mean), so that suite.c spells a launch shape out. */
enum { RW_RD = 1, RW_RD64, RW_WR, RW_CP, RW_STRIDE, RW_RD_TINY };
#define RW_PARAM(kind, unroll, grid) ((kind)*10000000 + (unroll)*1000000 + (grid))
enum { L2_READ = 1, L2_RMW };
#define L2_PARAM(kind, mib) ((kind)*10000 + (mib))
enum { ATOM_GLOBAL = 1, ATOM_COALESCED, ATOM_LOCAL, ATOM_CAS, ATOM_F32 };
#define ATOM_PARAM(kind, bits) ((kind)*100 + (bits))
enum { SC_TINY = 1, SC_BIG, SC_SMALL, SC_ILP, SC_IMB, SC_BAR, SC_QUEUE, SC_REDLAST };
#define SCHED_PARAM(kind, a, b) ((kind)*1000000 + (a)*10000 + (b))
enum { PW_INT = 1, PW_SFU, PW_DFMA, PW_AI32, PW_AI64 };
#define PW_PARAM(kind, k, grid) ((kind)*10000000 + (k)*10000 + (grid))
enum {
  TC_F16_WARP = 1,
  TC_BF16_WARP,
  TC_TF32_WARP,
  TC_F16_TILED,
  TC_HFMA2_1,
  TC_HFMA2_8,
  TC_MIXED
};
#define TC_PARAM(kind, shape) ((kind)*100 + (shape))
enum { OCC_SMEM = 1, OCC_REG, OCC_SPILL };
#define OCC_PARAM(kind, value) ((kind)*1000 + (value))
enum { VEC_RD4 = 1, VEC_WR4, VEC_ROT };
#define VEC_PARAM(kind, grid) ((kind)*10000 + (grid))
enum { SHAPE_COPY = 1, SHAPE_TRIAD, SHAPE_SPMV_PL };
#define SHAPE_PARAM(kind, value) ((kind)*100000 + (value))
enum { APP_ITEM = 1, APP_QUEUE, APP_WARP, APP_PAIRS };
#define APPEND_PARAM(kind, percent) ((kind)*1000 + (percent))
enum { LBM_D2Q9 = 1, LBM_D3Q19 };
#define LBM_PARAM(lattice, f64) ((lattice)*10 + (f64))
#define STAR3D_PARAM(radius, zchunks) ((radius)*100 + (zchunks))
#define PERSIST_PARAM(groups, hidden, steps) ((groups)*1000000 + (hidden) / 4 * 1000 + (steps))
enum { BB_NORM = 1, BB_SCALE };
#define BIGBLOCK_PARAM(kind, images) ((kind)*10000 + (images))
enum { LR_COPY = 1, LR_SCALE };
#define LRATE_PARAM(kind, local, per_item, log2n) \
  ((kind)*1000000 + (local)*10000 + (per_item)*100 + (log2n))
enum { IF_READ = 1, IF_WRITE };
#define INFLIGHT_PARAM(kind, bytes, warps) ((kind)*10000 + (bytes)*100 + (warps))
enum { RIDGE_F64 = 1, RIDGE_H2 };
#define RIDGE_PARAM(precision, k) ((precision)*1000 + (k))
enum { L2P_READ = 1, L2P_RMW };
#define L2PART_PARAM(kind, mib) ((kind)*10000 + (mib))
#define GSYNC_PARAM(per_cu, log2n, steps) ((per_cu)*100000 + (log2n)*1000 + (steps))

#endif /* SP_SUITE_H */
