/* SPDX-License-Identifier: GPL-3.0-or-later */
/* meta.c: the metadata file, one block per runner session, in
 * "key: value" lines.  It records what the rows alone cannot: the device,
 * driver, how compute units were restricted, the clock convention and the
 * clocks read back before and after, the power source and the measurement
 * parameters. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "energy.h"
#include "runner.h"

void meta_now(char *buf, size_t size) {
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void clocks_line(FILE *fp, const char *key, nvml *nv) {
  nvml_clocks c;
  if (nv == NULL) return;
  nvml_read_clocks(nv, &c);
  fprintf(fp,
          "%s: sm=%u mem=%u graphics=%u max_sm=%u max_mem=%u app_sm=%u "
          "app_mem=%u default_app_sm=%u default_app_mem=%u temp_c=%u "
          "clock_event_reasons=0x%llx\n",
          key, c.sm, c.mem, c.graphics, c.max_sm, c.max_mem, c.app_sm, c.app_mem, c.default_app_sm,
          c.default_app_mem, c.temperature_c, c.event_reasons);
}

static FILE *open_meta(const runner_opts *o) {
  if (o->meta == NULL) return NULL;
  FILE *fp = fopen(o->meta, "a");
  if (fp == NULL) fprintf(stderr, "sp-runner: warning: %s cannot be written\n", o->meta);
  return fp;
}

static void cu_list(FILE *fp, const runner_opts *o) {
  fprintf(fp, "cu_levels: ");
  for (int i = 0; i < o->ncu; ++i) fprintf(fp, "%s%d", i ? "," : "", o->cu[i]);
  fprintf(fp, "\n");
}

void meta_begin(const meta_state *m) {
  const runner_opts *o = m->o;
  const bk_info *i = &m->info;
  const mparams *p = &o->mp;
  FILE *fp = open_meta(o);
  if (fp == NULL) return;
  fprintf(fp, "\n[session]\nstarted: %s\ncommand: %s\n", m->started, o->command);
  fprintf(fp, "mode: %s\n", o->counters_base ? "counters-base" : "measure");
  fprintf(fp, "backend: %s\ndevice: %s\nvendor: %s\ndriver: %s\n", i->api, i->device, i->vendor,
          i->driver);
  if (m->nv)
    fprintf(fp, "nvml_driver: %s\nnvml_device: %s\n", nvml_driver(m->nv), nvml_name(m->nv));
  fprintf(fp, "api_version: %s\npci_bus_id: %s\ncompute_units: %d\n", i->api_version, i->pci_bus_id,
          i->compute_units);
  fprintf(fp, "cu_method: %s\n", i->cu_method);
  cu_list(fp, o);
  fprintf(fp, "suite: %s\n", runner_suite_name(o->suite));
  fprintf(fp, "kernels: %zu\nsize: %s\n", o->nkernels, o->size == KSIZE_FULL ? "full" : "small");
  fprintf(fp, "engine_mhz: %d\nmemory_mhz: %d\n", o->engine_mhz, o->memory_mhz);
  clocks_line(fp, "clocks_before", m->nv);
  fprintf(fp, "power_source: %s\n", m->power_source);
  fprintf(fp,
          "measurement: min_time_ms=%g power_window_ms=%g lead_ms=%g "
          "poll_ms=%g warmup_ms=%g group_min_ms=%g min_samples=%d "
          "max_samples=%d\n",
          p->min_time_ms, p->power_window_ms, p->lead_ms, p->poll_ms, p->warmup_ms, p->group_min_ms,
          p->min_samples, p->max_samples);
  fclose(fp);
}

void meta_end(const meta_state *m, const meta_tally *t) {
  char now[40];
  FILE *fp = open_meta(m->o);
  if (fp == NULL) return;
  meta_now(now, sizeof now);
  clocks_line(fp, "clocks_after", m->nv);
  if (t->counter_intervals >= MCOUNTER_MIN)
    fprintf(fp, "energy_counter_period_ms: %.2f (median of %d intervals)\n", t->counter_period_ms,
            t->counter_intervals);
  else if (t->counter_intervals > 0)
    fprintf(fp,
            "energy_counter_period_ms: unknown (%d intervals seen, "
            "%d needed)\n",
            t->counter_intervals, MCOUNTER_MIN);
  fprintf(fp,
          "finished: %s%s\nrows_written: %zu\n"
          "rows_already_present: %zu\nfailures: %zu\n"
          "kernels_skipped_cuda_only: %zu\n",
          now, t->interrupted ? " (stopped by a signal before the end)" : "", t->written,
          t->skipped, t->failed, t->unsupported);
  fclose(fp);
}
