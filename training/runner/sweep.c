/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sweep.c: every selected kernel at every --cu level, resumably. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvlog.h"
#include "energy.h"
#include "runner.h"

static const char RUNS_HEADER[] = "kernel,cu,engine_mhz,memory_mhz,time_ms,power_w\n";
static const char DETAIL_HEADER[] =
    "kernel,cu,engine_mhz,memory_mhz,time_ms,q1_ms,q3_ms,min_ms,max_ms,"
    "samples,launches_per_sample,span_ms,power_w,energy_j,energy_span_ms,"
    "energy_updates,power_method,sm_mhz_before,sm_mhz_after,mem_mhz_before,"
    "mem_mhz_after,sm_mhz_during_mean,sm_mhz_during_min,temp_c_after,"
    "clock_event_reasons_after,verify_max_err,config_wall_ms,kernel_setup_ms,"
    "date\n";
/* With --sampled, the detail rows go on with how each time was obtained:
 * method (measure.h's msampled), the waves sampled (';'-separated), the
 * full grid's waves, the extrapolation's standard error and the device
 * measurement's wall time (first launch, sampling points, full run). */
static const char DETAIL_SAMPLED_HEADER[] =
    "kernel,cu,engine_mhz,memory_mhz,time_ms,q1_ms,q3_ms,min_ms,max_ms,"
    "samples,launches_per_sample,span_ms,power_w,energy_j,energy_span_ms,"
    "energy_updates,power_method,sm_mhz_before,sm_mhz_after,mem_mhz_before,"
    "mem_mhz_after,sm_mhz_during_mean,sm_mhz_during_min,temp_c_after,"
    "clock_event_reasons_after,verify_max_err,config_wall_ms,kernel_setup_ms,"
    "date,method,sample_waves,full_waves,fit_se_ms,measure_ms\n";
/* Every profiled launch, in order; checked is 0 when its result was wrong
 * (its counters are then not imported). */
static const char MANIFEST_HEADER[] = "kernel,cu,engine_mhz,memory_mhz,entry,checked\n";

/* Set by SIGTERM/SIGINT: the sweep stops between rows (a row in progress
 * is finished or dropped whole) and still closes its metadata block. */
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig) {
  (void)sig;
  stop_requested = 1;
}

static void catch_stop_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
}

typedef struct sweep {
  const runner_opts *o;
  bk *b;
  bk_info info;
  nvml *nv;
  energy *e;
  csvlog *runs, *detail, *manifest;
  int engine, memory;
  size_t written, skipped, failed;
  size_t unsupported; /* kernels this backend cannot compile */
  double setup_ms;    /* host setup + device preparation of the kernel */
  double level_t0;    /* when the current configuration started */
  mcounter counter;   /* the energy counter's update intervals */
} sweep;

static void key(char *buf, size_t size, const sweep *s, const char *kernel, int cu) {
  snprintf(buf, size, "%s,%d,%d,%d", kernel, cu, s->engine, s->memory);
}

static int done(const sweep *s, const char *kernel, int cu) {
  char k[256];
  if (s->runs == NULL) return 0;
  key(k, sizeof k, s, kernel, cu);
  return csvlog_has(s->runs, k);
}

static int kernel_done(const sweep *s, const kdesc *d) {
  for (int i = 0; i < s->o->ncu; ++i)
    if (!done(s, d->name, s->o->cu[i])) return 0;
  return 1;
}

static void failure(sweep *s, const char *kernel, int cu, const char *what, const char *why) {
  fprintf(stderr, "sp-runner: %s at %d CUs: %s: %s\n", kernel, cu, what, why);
  s->failed++;
}

/* Resets, launches once, reads back and checks the job.  Returns 0 when
 * right, 1 when the kernel ran but its result is wrong, -1 when it did not
 * run. */
static int checked_launch(sweep *s, kjob *job, const char *kernel, int cu) {
  const bk_ops *ops = s->b->ops;
  char msg[512];
  if (ops->reset(s->b, job) != 0 || ops->launch(s->b, job) != 0) {
    failure(s, kernel, cu, "launch", bk_error(s->b));
    return -1;
  }
  if (ops->read(s->b, job) != 0) {
    failure(s, kernel, cu, "reading the result", bk_error(s->b));
    return 1;
  }
  if (kjob_verify(job, msg, sizeof msg) != 0) {
    failure(s, kernel, cu, "result differs from the host reference", msg);
    return 1;
  }
  return 0;
}

static void append(sweep *s, csvlog *log, const char *line) {
  char err[512];
  if (log && csvlog_append(log, line, err, sizeof err) != 0) {
    fprintf(stderr, "sp-runner: %s\n", err);
    s->failed++;
  }
}

/* The --sampled detail columns (DETAIL_SAMPLED_HEADER) into buf. */
static void sampled_columns(const msampled *m, double measure_ms, char *buf, size_t size) {
  char waves[256] = "";
  size_t n = 0;
  for (int i = 0; i < m->fit.n && n < sizeof waves; ++i)
    n += (size_t)snprintf(waves + n, sizeof waves - n, "%s%.4g", i ? ";" : "", m->fit.w[i]);
  snprintf(buf, size, ",%s,%s,%.4g,%.4g,%.1f", m->method, waves, m->full_waves, m->fit_se_ms,
           measure_ms);
}

static void write_rows(sweep *s, const kdesc *d, int cu, const kjob *job, const mresult *r,
                       const nvml_clocks *c0, const nvml_clocks *c1, const char *extra) {
  char line[1400], pw[32] = "", date[40];
  if (!isnan(r->power_w)) snprintf(pw, sizeof pw, "%.2f", r->power_w);
  snprintf(line, sizeof line, "%s,%d,%d,%d,%.6g,%s\n", d->name, cu, s->engine, s->memory,
           r->median_ms, pw);
  append(s, s->runs, line);
  s->written++;
  meta_now(date, sizeof date);
  snprintf(line, sizeof line,
           "%s,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%d,%.1f,%s,%.4g,%.1f,%d,"
           "%s,%u,%u,%u,%u,%.0f,%u,%u,0x%llx,%.3g,%.1f,%.1f,%s%s\n",
           d->name, cu, s->engine, s->memory, r->median_ms, r->q1_ms, r->q3_ms, r->min_ms,
           r->max_ms, r->samples, r->per_sample, r->span_ms, pw, r->energy_j, r->energy_span_ms,
           r->energy_updates, r->power_method, c0->sm, c1->sm, c0->mem, c1->mem, r->sm_mhz_mean,
           r->sm_mhz_min, c1->temperature_c, c1->event_reasons, job->max_err,
           measure_now_ms() - s->level_t0, s->setup_ms, date, extra);
  append(s, s->detail, line);
  printf("%-22s %4d CUs  %10.4f ms  (IQR %.1f%%, %d x %d)  %s%s\n", d->name, cu, r->median_ms,
         100.0 * (r->q3_ms - r->q1_ms) / r->median_ms, r->samples, r->per_sample, pw[0] ? pw : "-",
         pw[0] ? " W" : "");
  fflush(stdout);
}

static void read_clocks(const sweep *s, nvml_clocks *c) {
  memset(c, 0, sizeof *c);
  if (s->nv) nvml_read_clocks(s->nv, c);
}

/* Times the checked job: sampled (--sampled) where measure_sampled can,
 * else in full, and writes its rows. */
static void measure_level(sweep *s, const kdesc *d, kjob *job, int cu) {
  nvml_clocks c0, c1;
  mresult r;
  msampled m;
  char extra[400] = "";
  int rc = 1;
  read_clocks(s, &c0);
  double t0 = measure_now_ms();
  if (s->o->mp.sampled) rc = measure_sampled(s->b, job, cu, s->info.cache_bytes, &s->o->mp, &r, &m);
  if (rc == 1) rc = measure_run(s->b, job, s->e, s->nv, &s->o->mp, &s->counter, &r);
  double spent = measure_now_ms() - t0;
  read_clocks(s, &c1);
  if (rc != 0) {
    failure(s, d->name, cu, "timing", bk_error(s->b));
    return;
  }
  if (s->o->mp.sampled) {
    if (strcmp(m.method, "full:not-sampleable") == 0)
      fprintf(stderr, "sp-runner: %s: measured in full: not marked sampleable\n", d->name);
    sampled_columns(&m, spent, extra, sizeof extra);
  }
  write_rows(s, d, cu, job, &r, &c0, &c1, extra);
}

/* A resident job's grid at this level: min(job->resident, the occupancy
 * calculator's groups per SM) x the SMs the level actually has, so that
 * every group is resident at once (a grid barrier never waits on a group
 * that cannot start).  Returns 0, or -1 after reporting the failure. */
static int size_resident(sweep *s, const kdesc *d, kjob *job, int cu, int actual) {
  int per_cu = 0;
  if (s->b->ops->groups_per_cu(s->b, job, &per_cu) != 0) {
    failure(s, d->name, cu, "sizing the resident grid", bk_error(s->b));
    return -1;
  }
  if (per_cu < 1 || actual < 1) {
    failure(s, d->name, cu, "sizing the resident grid", "no group fits a compute unit");
    return -1;
  }
  if (per_cu > job->resident) per_cu = job->resident;
  job->groups[0] = (size_t)per_cu * (size_t)actual;
  job->groups[1] = job->groups[2] = 1;
  printf("%-22s %4d CUs  resident grid: %d groups per CU x %d CUs = %zu groups\n", d->name, cu,
         per_cu, actual, job->groups[0]);
  fflush(stdout);
  return 0;
}

static void run_level(sweep *s, const kdesc *d, kjob *job, int cu) {
  const bk_ops *ops = s->b->ops;
  int actual = 0;
  if (done(s, d->name, cu)) {
    s->skipped++;
    return;
  }
  s->level_t0 = measure_now_ms();
  if (ops->set_cu(s->b, cu, &actual) != 0) {
    failure(s, d->name, cu, "setting the compute units", bk_error(s->b));
    return;
  }
  if (job->resident > 0 && size_resident(s, d, job, cu, actual) != 0) return;
  int check = checked_launch(s, job, d->name, cu);
  if (s->o->counters_base && check >= 0) {
    char line[512];
    snprintf(line, sizeof line, "%s,%d,%d,%d,%s,%d\n", d->name, cu, s->engine, s->memory,
             job->entry, check == 0);
    append(s, s->manifest, line);
    if (check == 0) {
      s->written++;
      printf("%-22s %4d CUs  launched once and checked\n", d->name, cu);
      fflush(stdout);
    }
  }
  if (check != 0 || s->o->counters_base) return;
  measure_level(s, d, job, cu);
}

static void run_kernel(sweep *s, const kdesc *d) {
  const bk_ops *ops = s->b->ops;
  kjob job;
  if (!s->o->counters_base && kernel_done(s, d)) {
    s->skipped += (size_t)s->o->ncu;
    return;
  }
  double t0 = measure_now_ms();
  if (d->setup(&job, d, s->o->size) != 0) {
    failure(s, d->name, 0, "setup", "out of host memory");
    kjob_free(&job);
    return;
  }
  if (!ops->accepts(job.source)) {
    /* Not a failure: a CUDA-only kernel is measured by the cuda backend. */
    fprintf(stderr,
            "sp-runner: %s: skipped: %s is CUDA C++, which the %s "
            "backend cannot compile\n",
            d->name, job.source, ops->name);
    s->unsupported++;
    kjob_free(&job);
    return;
  }
  int prepared = ops->prepare(s->b, &job, runner_source_dir(s->o, d));
  s->setup_ms = measure_now_ms() - t0;
  if (prepared != 0)
    failure(s, d->name, 0, "preparing the device", bk_error(s->b));
  else
    for (int i = 0; i < s->o->ncu && !stop_requested; ++i) run_level(s, d, &job, s->o->cu[i]);
  ops->release(s->b, &job);
  kjob_free(&job);
}

/* auto: NVML on NVIDIA devices, powercap on CPU devices, else none. */
static void open_energy(sweep *s) {
  const char *kind = s->o->power;
  if (strcmp(kind, "auto") == 0) kind = s->nv ? "nvml" : s->info.is_gpu ? "none" : "rapl";
  if (strcmp(kind, "none") != 0) s->e = energy_open(kind, s->nv);
  if (s->e == NULL && strcmp(s->o->power, "auto") != 0 && strcmp(kind, "none") != 0)
    fprintf(stderr,
            "sp-runner: warning: no %s energy counter can be read; "
            "power_w stays empty\n",
            kind);
}

/* --engine-mhz/--memory-mhz auto: NVML's maximum clocks. */
static int resolve_clocks(sweep *s) {
  nvml_clocks c;
  s->engine = s->o->engine_mhz;
  s->memory = s->o->memory_mhz;
  if (s->engine >= 0 && s->memory >= 0) return 0;
  read_clocks(s, &c);
  if (s->engine < 0) s->engine = (int)c.max_sm;
  if (s->memory < 0) s->memory = (int)c.max_mem;
  if (s->engine > 0 && s->memory > 0) return 0;
  fprintf(stderr,
          "sp-runner: --engine-mhz/--memory-mhz auto needs NVML; "
          "give the clocks as numbers\n");
  return -1;
}

static int open_log(const char *path, const char *header, csvlog **log) {
  char err[512];
  long dropped = 0;
  if (path == NULL) return 0;
  if (csvlog_open(path, header, log, &dropped, err, sizeof err) != 0) {
    fprintf(stderr, "sp-runner: %s\n", err);
    return -1;
  }
  if (dropped > 0)
    fprintf(stderr, "sp-runner: %s: cut off a torn last line (%ld bytes)\n", path, dropped);
  return 0;
}

static int open_logs(sweep *s) {
  const runner_opts *o = s->o;
  if (o->counters_base) {
    /* A profiler numbers launches per process, so the manifest lists this
     * run's launches only. */
    if (o->manifest && unlink(o->manifest) != 0 && errno != ENOENT) {
      fprintf(stderr, "sp-runner: %s: %s\n", o->manifest, strerror(errno));
      return -1;
    }
    return open_log(o->manifest, MANIFEST_HEADER, &s->manifest);
  }
  if (open_log(o->runs, RUNS_HEADER, &s->runs) != 0) return -1;
  return open_log(o->detail, o->mp.sampled ? DETAIL_SAMPLED_HEADER : DETAIL_HEADER, &s->detail);
}

static int start(sweep *s) {
  char err[1024];
  const bk_ops *ops = bk_find(s->o->backend);
  const char *dirs[RUNNER_INCLUDE_DIRS];
  runner_include_dirs(s->o, dirs);
  int rc = ops->open(&s->b, s->o->device, dirs, err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "sp-runner: %s backend %s: %s\n", s->o->backend,
            rc == 1 ? "unavailable" : "failed", err);
    return rc == 1 ? RUNNER_UNAVAILABLE : RUNNER_FAILED;
  }
  ops->info(s->b, &s->info);
  if (s->info.is_nvidia) s->nv = nvml_open(s->info.pci_bus_id);
  if (s->nv && s->info.driver[0] == '\0')
    snprintf(s->info.driver, sizeof s->info.driver, "%s", nvml_driver(s->nv));
  if (resolve_clocks(s) != 0) return RUNNER_USAGE;
  if (!s->o->counters_base) open_energy(s);
  return open_logs(s) == 0 ? RUNNER_OK : RUNNER_FAILED;
}

static void stop(sweep *s) {
  csvlog_close(s->runs);
  csvlog_close(s->detail);
  csvlog_close(s->manifest);
  energy_close(s->e);
  nvml_close(s->nv);
  if (s->b) s->b->ops->close(s->b);
}

int runner_sweep(const runner_opts *o) {
  static sweep s; /* large (the counter history): not on the stack */
  char started[40];
  memset(&s, 0, sizeof s);
  s.o = o;
  meta_now(started, sizeof started);
  int rc = start(&s);
  if (rc != RUNNER_OK) {
    stop(&s);
    return rc;
  }
  runner_opts eff = *o;
  eff.engine_mhz = s.engine;
  eff.memory_mhz = s.memory;
  meta_state m = {&eff, s.info, s.nv, s.e ? energy_name(s.e) : "none", started};
  meta_begin(&m);
  catch_stop_signals();
  for (size_t k = 0; k < o->nkernels && !stop_requested; ++k) run_kernel(&s, o->kernels[k]);
  meta_tally t = {s.written,     s.skipped,           s.failed,
                  s.unsupported, stop_requested != 0, mcounter_period(&s.counter),
                  s.counter.n};
  meta_end(&m, &t);
  if (stop_requested) fprintf(stderr, "sp-runner: stopped by a signal; run again to resume\n");
  fprintf(stderr,
          "sp-runner: %zu rows written, %zu already present, "
          "%zu failures",
          s.written, s.skipped, s.failed);
  if (s.unsupported) fprintf(stderr, ", %zu CUDA-only kernels skipped", s.unsupported);
  fprintf(stderr, "\n");
  stop(&s);
  return s.failed || stop_requested ? RUNNER_FAILED : RUNNER_OK;
}
