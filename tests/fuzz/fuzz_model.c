/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz_model.c: the saved-model loader (manifest.txt + FANN networks).
 *
 * Input: one flags byte, then the manifest, then any number of network
 * files, each introduced by a line "@@file NAME".  A manifest ends with a
 * SHA-256 of itself, which random mutations almost never keep right, so
 * the flags let the harness repair checksums and reach the parser behind
 * them:
 *   bit 0  append "sha256 HEX" over the manifest as given;
 *   bit 1  first set every "network NAME sha256 HEX" of a set line to the
 *          checksum of the supplied file NAME;
 *   bit 2  after a successful load, save the model and load it again.
 * Properties: a rejected model leaves an error and no model; an accepted
 * one predicts, for counters inside, at and outside its training range,
 * positive finite values or SP_ENUMERIC, never NaN; a saved copy loads and
 * predicts the same. */
#define _GNU_SOURCE /* memmem */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "model/model.h"
#include "scalepredict.h"
#include "util/sha256.h"

#define FILE_MARK "\n@@file "
#define MAX_FILES 16

typedef struct file {
  char name[64];
  const uint8_t *data;
  size_t size;
} file;

/* Splits the input after the flags byte into the manifest and files. */
static size_t split(const uint8_t *data, size_t size, size_t *manifest_size, file *files) {
  const size_t mark = strlen(FILE_MARK);
  const uint8_t *at = memmem(data, size, FILE_MARK, mark);
  *manifest_size = at ? (size_t)(at - data) + 1 : size;
  size_t n = 0;
  while (at && n < MAX_FILES) {
    const uint8_t *name = at + mark, *end = data + size;
    const uint8_t *nl = memchr(name, '\n', (size_t)(end - name));
    if (!nl) break;
    const uint8_t *next = memmem(nl, (size_t)(end - nl), FILE_MARK, mark);
    size_t len = (size_t)(nl - name);
    file *f = &files[n];
    if (len > 0 && len < sizeof f->name && !memchr(name, '/', len) && !memchr(name, '\0', len) &&
        !(len <= 2 && name[0] == '.')) {
      memcpy(f->name, name, len);
      f->name[len] = '\0';
      f->data = nl + 1;
      f->size = next ? (size_t)(next + 1 - f->data) : (size_t)(end - f->data);
      n++;
    }
    at = next;
  }
  return n;
}

static void hash_hex(const void *data, size_t size, char hex[65]) {
  sp_sha256 h;
  sp__sha256_init(&h);
  sp__sha256_update(&h, data, size);
  sp__sha256_final_hex(&h, hex);
}

/* Rewrites the 64-digit checksum after "network NAME sha256 " on set lines
 * when NAME is one of the files. */
static void fix_network_sums(char *text, const file *files, size_t nfiles) {
  for (char *line = text; line && *line;) {
    char *nl = strchr(line, '\n');
    if (!strncmp(line, "set ", 4)) {
      char *net = strstr(line, " network ");
      if (net && (!nl || net < nl)) {
        char *name = net + 9, *sp = strchr(name, ' ');
        for (size_t i = 0; sp && i < nfiles; i++) {
          size_t len = strlen(files[i].name);
          if ((size_t)(sp - name) != len || strncmp(name, files[i].name, len) ||
              strncmp(sp, " sha256 ", 8))
            continue;
          char *hex = sp + 8;
          size_t avail = strcspn(hex, " \n");
          if (avail != 64) break;
          char sum[65];
          hash_hex(files[i].data, files[i].size, sum);
          memcpy(hex, sum, 64);
          break;
        }
      }
    }
    line = nl ? nl + 1 : NULL;
  }
}

/* Writes the model directory; returns its path (fz_path's buffer). */
static const char *write_model(const uint8_t *data, size_t size, unsigned flags) {
  file files[MAX_FILES];
  size_t msize;
  size_t nfiles = split(data, size, &msize, files);
  fz_remove("model");
  if (mkdir(fz_path("model"), 0700) != 0) abort();
  char name[sizeof files[0].name + 6] = "model/";
  for (size_t i = 0; i < nfiles; i++) {
    memcpy(name + 6, files[i].name, sizeof files[i].name);
    fz_write(name, files[i].data, files[i].size);
  }
  char *text = malloc(msize + 64 + 9);
  if (!text) abort();
  memcpy(text, data, msize);
  text[msize] = '\0';
  /* Text functions stop at a NUL; only repair what they can see. */
  size_t visible = strlen(text);
  if ((flags & 2) && visible == msize) fix_network_sums(text, files, nfiles);
  if (flags & 1) {
    char sum[65];
    hash_hex(text, msize, sum);
    msize += (size_t)sprintf(text + msize, "sha256 %s\n", sum);
  }
  fz_write("model/manifest.txt", text, msize);
  free(text);
  return fz_path("model");
}

/* Predicts every configuration of q for counters at a fraction f of each
 * training range (outside it for f < 0 or f > 1). */
static int predict(const sp_model *m, sp_quantity q, double f, double *out) {
  size_t nc = sp_model_counter_count(m);
  double *ctr = malloc(nc * sizeof *ctr);
  if (!ctr) abort();
  for (size_t c = 0; c < nc; c++) {
    /* The range may be too wide for double (cmax - cmin overflows). */
    double v = m->cmin[c] + f * (m->cmax[c] - m->cmin[c]);
    ctr[c] = f == 0.0 ? m->cmin[c] : f == 1.0 ? m->cmax[c] : v;
    if (!isfinite(ctr[c])) ctr[c] = f < 0.5 ? m->cmin[c] : m->cmax[c];
  }
  sp_observation obs = {
      .kernel = "fuzz", .base_time_ms = 2.385, .base_power_w = 131.75, .counters = ctr};
  sp_predict_info info;
  int st = sp_model_predict_all(m, q, &obs, out, &info);
  free(ctr);
  return st;
}

static void check_predictions(const sp_model *m, const sp_model *copy) {
  static const double at[] = {0.0, 0.5, 1.0, -3.0, 7.0};
  for (int q = SP_TIME; q <= SP_POWER; q++) {
    size_t n = sp_model_config_count(m, (sp_quantity)q);
    FZ_CHECK(q == SP_POWER || n >= 2);
    if (n == 0) continue;
    double *a = malloc(2 * n * sizeof *a), *b = a + n;
    if (!a) abort();
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
      /* Centroids are only checked to be positive, so a product of them
       * may overflow: that must be SP_ENUMERIC, never a value. */
      const int st = predict(m, (sp_quantity)q, at[i], a);
      FZ_CHECK(st == SP_OK || st == SP_ENUMERIC);
      for (size_t j = 0; st == SP_OK && j < n; j++) FZ_CHECK(isfinite(a[j]) && a[j] > 0);
      if (!copy) continue;
      FZ_CHECK(predict(copy, (sp_quantity)q, at[i], b) == st);
      FZ_CHECK(st != SP_OK || !memcmp(a, b, n * sizeof *a));
    }
    free(a);
  }
}

static void round_trip(const sp_model *m) {
  sp_error err;
  sp_error_clear(&err);
  const char *dir = fz_path("saved");
  char saved[8192];
  snprintf(saved, sizeof saved, "%s", dir);
  FZ_CHECK(sp_model_save(m, saved, &err) == SP_OK);
  sp_model *copy = NULL;
  if (sp_model_load(saved, &copy, &err) != SP_OK) {
    char line[2048];
    sp_error_format(&err, line, sizeof line);
    fz_print(line);
    FZ_CHECK(!"a saved model loads again");
  }
  FZ_CHECK(sp_model_counter_count(copy) == sp_model_counter_count(m));
  FZ_CHECK(sp_model_has_power(copy) == sp_model_has_power(m));
  check_predictions(m, copy);
  sp_model_free(copy);
  fz_remove("saved");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  unsigned flags = data[0];
  char dir[8192];
  snprintf(dir, sizeof dir, "%s", write_model(data + 1, size - 1, flags));
  sp_model *m = (sp_model *)&m; /* must be reset by the loader */
  sp_error err;
  sp_error_clear(&err);
  int st = sp_model_load(dir, &m, &err);
  if (st != SP_OK) {
    FZ_CHECK(m == NULL);
    FZ_CHECK(err.status == st);
    char line[2048];
    FZ_CHECK(sp_error_format(&err, line, sizeof line) > 0);
    if (fz_verbose()) fz_print(line);
    return 0;
  }
  if (fz_verbose())
    printf("loaded: %zu counters, %zu time configurations, power %s\n", sp_model_counter_count(m),
           sp_model_config_count(m, SP_TIME), sp_model_has_power(m) ? "yes" : "no");
  FZ_CHECK(sp_model_name(m) && sp_model_counter_count(m) > 0);
  check_predictions(m, NULL);
  if (flags & 4) round_trip(m);
  sp_model_free(m);
  return 0;
}
