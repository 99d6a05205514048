/* SPDX-License-Identifier: GPL-3.0-or-later */
// app.cu: a small multi-kernel application to profile and predict with
// scalepredict (docs/profile.md, README "Predict your own application").
//
// One iteration runs six launches of five kernels that stress different
// parts of the GPU: a stream (saxpy, at two launch shapes), a polynomial
// (compute, a template whose name holds a comma), a 5-point stencil, a
// random gather (latency) and a block reduction (shared memory, atomics).
//
//   app [--iters N]        run N iterations (default 10): what you profile
//   app --time [--iters N] time each launch shape alone (median of 30) and
//                          the whole N-iteration run (median of 5), as CSV
//   app --probe            count the SMs a wide kernel actually ran on
//
// With SP_GREEN_SMS=N in the environment it runs on a green context of N
// SMs (greenctx/scalepredict_greenctx.h), which is how the measurements in
// docs/accuracy.md were taken at each SM count.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#ifdef APP_UNAWARE
// Built with -DAPP_UNAWARE the program knows nothing of green contexts: the
// two-point profile's preload (docs/profile.md, "Two points") puts it on N
// SMs from outside.
static int sp_greenctx_from_env(int *actual, char *err, size_t size) {
  (void)err, (void)size;
  *actual = 0;
  return 0;
}
#else
#include "scalepredict_greenctx.h"
#endif

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "app: %s: %s\n", #call, cudaGetErrorString(e_));       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <int DEG, int UNROLL>
__global__ void poly(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = v[i], r = 0.0f;
#pragma unroll UNROLL
  for (int k = 0; k < DEG; k++) r = r * x + 1.0f / (k + 1);
  v[i] = r;
}

__global__ void stencil(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  size_t i = (size_t)y * nx + x;
  out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

__global__ void gather(const int *idx, const float *src, float *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[idx[i]];
}

__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

__global__ void probe(unsigned *seen) {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (threadIdx.x == 0) atomicOr(&seen[sm / 32], 1u << (sm % 32));
  for (volatile int k = 0; k < 2000; k++) {
  }
}

enum { N = 1 << 25, NX = 4096, NY = 4096, NG = 1 << 23, SRC = 1 << 26, T = 256 };

struct buffers {
  float *x, *y, *v, *a, *b, *src, *dst, *sum;
  int *idx;
};

// The launch shapes of one iteration, in order; count is per iteration.
struct shape {
  const char *label, *function;
  int grid_x, count;
};
static const shape SHAPES[] = {
    {"saxpy_full", "saxpy", N / T, 1},   {"poly", "poly<", N / 2 / T, 1},
    {"stencil", "stencil", NX / 32, 2},  {"gather", "gather", NG / T, 1},
    {"reduce", "reduce", 1056, 1},       {"saxpy_quarter", "saxpy", N / 4 / T, 2},
};
enum { NSHAPES = sizeof SHAPES / sizeof *SHAPES };

static void launch(int s, const buffers &b) {
  switch (s) {
    case 0: saxpy<<<N / T, T>>>(1.5f, b.x, b.y, N); break;
    case 1: poly<256, 4><<<N / 2 / T, T>>>(b.v, N / 2); break;
    case 2: stencil<<<dim3(NX / 32, NY / 8), dim3(32, 8)>>>(b.a, b.b, NX, NY); break;
    case 3: gather<<<NG / T, T>>>(b.idx, b.src, b.dst, NG); break;
    case 4: reduce<<<1056, T>>>(b.x, b.sum, N); break;
    default: saxpy<<<N / 4 / T, T>>>(0.5f, b.x, b.y, N / 4); break;
  }
}

static void iteration(const buffers &b) {
  for (int s = 0; s < NSHAPES; s++)
    for (int k = 0; k < SHAPES[s].count; k++) launch(s, b);
}

static void setup(buffers &b) {
  CHECK(cudaMalloc(&b.x, N * sizeof(float)));
  CHECK(cudaMalloc(&b.y, N * sizeof(float)));
  CHECK(cudaMalloc(&b.v, N / 2 * sizeof(float)));
  CHECK(cudaMalloc(&b.a, (size_t)NX * NY * sizeof(float)));
  CHECK(cudaMalloc(&b.b, (size_t)NX * NY * sizeof(float)));
  CHECK(cudaMalloc(&b.src, SRC * sizeof(float)));
  CHECK(cudaMalloc(&b.dst, NG * sizeof(float)));
  CHECK(cudaMalloc(&b.sum, sizeof(float)));
  CHECK(cudaMalloc(&b.idx, NG * sizeof(int)));
  std::vector<int> idx(NG);
  unsigned s = 12345u;
  for (int i = 0; i < NG; i++) idx[i] = (int)((s = s * 1664525u + 1013904223u) % SRC);
  CHECK(cudaMemcpy(b.idx, idx.data(), NG * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(b.x, 0, N * sizeof(float)));
  CHECK(cudaMemset(b.y, 0, N * sizeof(float)));
  CHECK(cudaMemset(b.v, 0, N / 2 * sizeof(float)));
  CHECK(cudaMemset(b.a, 0, (size_t)NX * NY * sizeof(float)));
  CHECK(cudaMemset(b.src, 0, SRC * sizeof(float)));
}

// Median time in ms of `reps` runs of fn, each bracketed by events.
template <typename F>
static double median_ms(int reps, F fn) {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> t(reps);
  fn();  // warm-up
  for (int r = 0; r < reps; r++) {
    CHECK(cudaEventRecord(e0));
    fn();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&t[r], e0, e1));
  }
  std::sort(t.begin(), t.end());
  return t[reps / 2];
}

static int count_sms() {
  unsigned *seen, host[32];
  CHECK(cudaMalloc(&seen, sizeof host));
  CHECK(cudaMemset(seen, 0, sizeof host));
  probe<<<4096, 64>>>(seen);
  CHECK(cudaMemcpy(host, seen, sizeof host, cudaMemcpyDeviceToHost));
  int n = 0;
  for (int i = 0; i < 32; i++) n += __builtin_popcount(host[i]);
  CHECK(cudaFree(seen));
  return n;
}

int main(int argc, char **argv) {
  int iters = 10, timing = 0, probing = 0, green = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--time")) timing = 1;
    else if (!strcmp(argv[i], "--probe")) probing = 1;
    else {
      fprintf(stderr, "usage: app [--iters N] [--time] [--probe]\n");
      return 2;
    }
  }
  char err[512];
  if (sp_greenctx_from_env(&green, err, sizeof err)) {
    fprintf(stderr, "app: %s\n", err);
    return 1;
  }
  if (probing) {
    printf("sms_used,%d\n", count_sms());
    return 0;
  }
  buffers b;
  setup(b);
  if (!timing) {
    for (int it = 0; it < iters; it++) iteration(b);
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  int sms = green;
  if (!sms) CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  printf("label,function,grid_x,count_per_iteration,sms,time_ms\n");
  for (int s = 0; s < NSHAPES; s++)
    printf("%s,%s,%d,%d,%d,%.6g\n", SHAPES[s].label, SHAPES[s].function, SHAPES[s].grid_x,
           SHAPES[s].count, sms, median_ms(30, [&] { launch(s, b); }));
  printf("application,-,0,%d,%d,%.6g\n", iters, sms, median_ms(5, [&] {
    for (int it = 0; it < iters; it++) iteration(b);
  }));
  return 0;
}
