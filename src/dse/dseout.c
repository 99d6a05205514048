/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dseout.c: dse results as CSV tables and JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dse.h"
#include "util/textout.h"

#define DIGITS 6    /* significant digits of measured quantities */
#define EL_DIGITS 4 /* of elasticities */

static const char *const table_names[SP_DSE_TABLE_COUNT] = {
    "objectives", "pareto-energy", "pareto-power", "sensitivity",
    "axes",       "kernels",       "candidates",   "configs"};

static const char *const axis_keys[3] = {"cu", "engine", "memory"};

const char *sp_dse_table_name(int table) {
  return table >= 0 && table < SP_DSE_TABLE_COUNT ? table_names[table] : NULL;
}

/* ---- CSV -------------------------------------------------------------------- */

static void csv_config(FILE *fp, const sp_config *c) {
  fprintf(fp, "%dcu/%d/%d,%d,%d,%d", c->cu, c->engine_mhz, c->memory_mhz, c->cu, c->engine_mhz,
          c->memory_mhz);
}

#define CHOICE_HEADER                                                           \
  "config,cu,engine_mhz,memory_mhz,time_ms,energy_mj,avg_power_w,peak_power_w," \
  "edp_mj_ms,ed2p_mj_ms2,time_vs_reference,energy_vs_reference"

/* config columns, values and ratios to the reference of one choice. */
static void csv_choice(FILE *fp, const sp_dse_result *r, const sp_dse_choice *c,
                       const sp_dse_choice *ref) {
  if (c->config == SP_NO_CONFIG) {
    fputs(",,,,,,,,,,,", fp);
    return;
  }
  csv_config(fp, &r->configs[c->config]);
  const double v[8] = {c->time_ms,
                       c->energy_mj,
                       c->avg_power_w,
                       c->peak_power_w,
                       sp__dse_score(c, SP_DSE_MIN_EDP),
                       sp__dse_score(c, SP_DSE_MIN_ED2P),
                       c->time_ms / ref->time_ms,
                       c->energy_mj / ref->energy_mj};
  for (int i = 0; i < 8; i++) {
    fputc(',', fp);
    sp__csv_number(fp, v[i], DIGITS);
  }
}

static void write_objectives(const sp_dse_result *r, FILE *fp) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fputs("objective," CHOICE_HEADER SP_CSV_EOL, fp);
  fputs("reference,", fp);
  csv_choice(fp, r, &ref, &ref);
  fputs(SP_CSV_EOL, fp);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    if (r->best[o].config == SP_NO_CONFIG) continue;
    fprintf(fp, "%s,", sp_dse_objective_name(o));
    csv_choice(fp, r, &r->best[o], &ref);
    fputs(SP_CSV_EOL, fp);
  }
}

static void write_front(const sp_dse_result *r, const size_t *front, size_t n, FILE *fp) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fputs("point," CHOICE_HEADER SP_CSV_EOL, fp);
  for (size_t i = 0; i < n; i++) {
    sp_dse_choice c = sp_dse_at(r, front[i]);
    fprintf(fp, "%zu,", i + 1);
    csv_choice(fp, r, &c, &ref);
    fputs(SP_CSV_EOL, fp);
  }
}

static void csv_sensitivity(FILE *fp, const sp_dse_sensitivity *s) {
  const double *rows[3] = {s->time, s->power, s->energy};
  for (int q = 0; q < 3; q++)
    for (int a = 0; a < 3; a++) {
      fputc(',', fp);
      sp__csv_number(fp, rows[q][a], EL_DIGITS);
    }
  fprintf(fp, ",%s" SP_CSV_EOL, sp_dse_bound_name(s->bound));
}

static void write_sensitivity(const sp_dse_result *r, FILE *fp) {
  fputs("scope,kernel,weight", fp);
  static const char *const q[3] = {"time", "power", "energy"};
  for (int i = 0; i < 3; i++)
    for (int a = 0; a < 3; a++) fprintf(fp, ",%s_elasticity_%s", q[i], axis_keys[a]);
  fputs(",class" SP_CSV_EOL, fp);
  fputs("workload,,", fp);
  csv_sensitivity(fp, &r->sens);
  for (size_t k = 0; k < r->nkernels; k++) {
    fputs("kernel,", fp);
    sp_csv_write_field(fp, r->kernels[k].name);
    fputc(',', fp);
    sp__csv_number(fp, r->kernels[k].weight, DIGITS);
    csv_sensitivity(fp, &r->kernels[k].sens);
  }
}

static void write_axes(const sp_dse_result *r, FILE *fp) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fputs("axis," CHOICE_HEADER ",avg_power_vs_reference" SP_CSV_EOL, fp);
  for (int a = 0; a < 3; a++)
    for (size_t j = 0; j < r->naxis[a]; j++) {
      sp_dse_choice c = sp_dse_at(r, sp__dse_along(r, r->reference, a, j));
      fprintf(fp, "%s,", axis_keys[a]);
      csv_choice(fp, r, &c, &ref);
      fputc(',', fp);
      sp__csv_number(fp, c.avg_power_w / ref.avg_power_w, DIGITS);
      fputs(SP_CSV_EOL, fp);
    }
}

static void write_kernels(const sp_dse_result *r, FILE *fp) {
  fputs(
      "kernel,weight,base_time_ms,base_power_w,reference_time_ms,reference_power_w,"
      "reference_energy_mj,class",
      fp);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++)
    fprintf(fp, ",%s_config", sp_dse_objective_name(o));
  fputs(",clamped_counters,first_clamped_counter" SP_CSV_EOL, fp);
  for (size_t k = 0; k < r->nkernels; k++) {
    const sp_dse_kernel *kn = &r->kernels[k];
    sp_csv_write_field(fp, kn->name);
    const double v[6] = {kn->weight,
                         kn->base_time_ms,
                         kn->base_power_w,
                         kn->reference.time_ms,
                         kn->reference.avg_power_w,
                         kn->reference.energy_mj};
    for (int i = 0; i < 6; i++) {
      fputc(',', fp);
      sp__csv_number(fp, v[i], DIGITS);
    }
    fprintf(fp, ",%s", sp_dse_bound_name(kn->sens.bound));
    for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
      const sp_config *c =
          kn->best[o].config == SP_NO_CONFIG ? NULL : &r->configs[kn->best[o].config];
      if (c)
        fprintf(fp, ",%dcu/%d/%d", c->cu, c->engine_mhz, c->memory_mhz);
      else
        fputc(',', fp);
    }
    fprintf(fp, ",%zu,", kn->clamped);
    sp_csv_write_field(fp, kn->first_clamped);
    fputs(SP_CSV_EOL, fp);
  }
}

static void write_candidates(const sp_dse_result *r, FILE *fp) {
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  fputs("rank,name," CHOICE_HEADER ",meets_cap,meets_budget" SP_CSV_EOL, fp);
  for (size_t i = 0; i < r->ncandidates; i++) {
    const sp_dse_candidate *c = &r->candidates[i];
    sp_dse_choice ch = sp_dse_at(r, c->config);
    fprintf(fp, "%zu,", c->rank);
    sp_csv_write_field(fp, c->name);
    fputc(',', fp);
    csv_choice(fp, r, &ch, &ref);
    fprintf(fp, ",%s,%s" SP_CSV_EOL, c->meets_cap ? "yes" : "no", c->meets_budget ? "yes" : "no");
  }
}

static unsigned char *front_mask(const sp_dse_result *r, const size_t *front, size_t n) {
  unsigned char *m = calloc(r->nconfigs ? r->nconfigs : 1, 1);
  for (size_t i = 0; m && i < n; i++) m[front[i]] = 1;
  return m;
}

static int write_configs(const sp_dse_result *r, FILE *fp) {
  unsigned char *pe = front_mask(r, r->pareto_energy, r->npareto_energy);
  unsigned char *pp = front_mask(r, r->pareto_power, r->npareto_power);
  int st = pe && pp ? SP_OK : SP_ENOMEM;
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  if (!st) fputs(CHOICE_HEADER ",pareto_energy,pareto_power" SP_CSV_EOL, fp);
  for (size_t i = 0; i < r->nconfigs && !st; i++) {
    sp_dse_choice c = sp_dse_at(r, i);
    csv_choice(fp, r, &c, &ref);
    fprintf(fp, ",%d,%d" SP_CSV_EOL, pe[i], pp[i]);
  }
  free(pe);
  free(pp);
  return st;
}

int sp_dse_write_csv(const sp_dse_result *r, int table, FILE *fp) {
  if (!sp_dse_table_name(table)) return SP_EINVAL;
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return SP_ENOMEM;
  int st = SP_OK;
  switch (table) {
    case SP_DSE_TABLE_OBJECTIVES:
      write_objectives(r, fp);
      break;
    case SP_DSE_TABLE_PARETO_ENERGY:
      write_front(r, r->pareto_energy, r->npareto_energy, fp);
      break;
    case SP_DSE_TABLE_PARETO_POWER:
      write_front(r, r->pareto_power, r->npareto_power, fp);
      break;
    case SP_DSE_TABLE_SENSITIVITY:
      write_sensitivity(r, fp);
      break;
    case SP_DSE_TABLE_AXES:
      write_axes(r, fp);
      break;
    case SP_DSE_TABLE_KERNELS:
      write_kernels(r, fp);
      break;
    case SP_DSE_TABLE_CANDIDATES:
      write_candidates(r, fp);
      break;
    default:
      st = write_configs(r, fp);
  }
  sp__c_numeric_end(&loc);
  return st ? st : ferror(fp) ? SP_EIO : SP_OK;
}

/* ---- JSON ---------------------------------------------------------------------- */

static void json_choice(FILE *fp, const sp_dse_result *r, const sp_dse_choice *c) {
  if (c->config == SP_NO_CONFIG) {
    fputs("null", fp);
    return;
  }
  const sp_config *g = &r->configs[c->config];
  fprintf(fp, "{\"config\":\"%dcu/%d/%d\",\"time_ms\":", g->cu, g->engine_mhz, g->memory_mhz);
  sp__json_number(fp, c->time_ms, DIGITS);
  fputs(",\"energy_mj\":", fp);
  sp__json_number(fp, c->energy_mj, DIGITS);
  fputs(",\"avg_power_w\":", fp);
  sp__json_number(fp, c->avg_power_w, DIGITS);
  fputs(",\"peak_power_w\":", fp);
  sp__json_number(fp, c->peak_power_w, DIGITS);
  fputs(",\"edp\":", fp);
  sp__json_number(fp, sp__dse_score(c, SP_DSE_MIN_EDP), DIGITS);
  fputs(",\"ed2p\":", fp);
  sp__json_number(fp, sp__dse_score(c, SP_DSE_MIN_ED2P), DIGITS);
  fputc('}', fp);
}

static void json_axis_values(FILE *fp, const sp_dse_result *r, int a) {
  fputc('[', fp);
  for (size_t j = 0; j < r->naxis[a]; j++) fprintf(fp, "%s%d", j ? "," : "", r->axis[a][j]);
  fputc(']', fp);
}

static void json_sensitivity(FILE *fp, const sp_dse_sensitivity *s) {
  static const char *const q[3] = {"time", "power", "energy"};
  const double *rows[3] = {s->time, s->power, s->energy};
  fputc('{', fp);
  for (int i = 0; i < 3; i++) {
    fprintf(fp, "\"%s\":{", q[i]);
    for (int a = 0; a < 3; a++) {
      fprintf(fp, "%s\"%s\":", a ? "," : "", axis_keys[a]);
      sp__json_number(fp, rows[i][a], EL_DIGITS);
    }
    fputs("},", fp);
  }
  fprintf(fp, "\"class\":\"%s\"}", sp_dse_bound_name(s->bound));
}

static void json_header(FILE *fp, const sp_dse_result *r) {
  fputs("{\"model\":", fp);
  sp_json_write_string(fp, r->model_name);
  fprintf(fp, ",\"synthetic\":%s,\"source\":", r->synthetic ? "true" : "false");
  sp_json_write_string(fp, r->model_source);
  fprintf(fp, ",\n\"space\":{\"configs\":%zu,\"grid_interp\":%u", r->nconfigs,
          r->params.grid_interp);
  static const char *const keys[3] = {"cu", "engine_mhz", "memory_mhz"};
  for (int a = 0; a < 3; a++) {
    fprintf(fp, ",\"%s\":", keys[a]);
    json_axis_values(fp, r, a);
  }
  /* Axes with one value: their elasticities are null and no kernel is
   * classed on them. */
  fputs(",\"not_varied\":[", fp);
  for (int a = 0, n = 0; a < 3; a++)
    if (r->naxis[a] < 2) fprintf(fp, "%s\"%s\"", n++ ? "," : "", keys[a]);
  fputs("]},\n\"constraints\":{\"power_cap_w\":", fp);
  sp__json_number(fp, r->params.power_cap_w > 0 ? r->params.power_cap_w : NAN, DIGITS);
  fputs(",\"time_budget\":", fp);
  sp__json_number(fp, r->params.time_budget > 0 ? r->params.time_budget : NAN, DIGITS);
  fputs("},\n\"reference\":", fp);
  sp_dse_choice ref = sp_dse_at(r, r->reference);
  json_choice(fp, r, &ref);
}

static void json_objectives(FILE *fp, const sp_dse_result *r) {
  fputs(",\n\"objectives\":{", fp);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    fprintf(fp, "%s\n\"%s\":", o ? "," : "", sp_dse_objective_name(o));
    json_choice(fp, r, &r->best[o]);
  }
  fputc('}', fp);
}

static void json_front(FILE *fp, const sp_dse_result *r, const char *key, const size_t *f,
                       size_t n) {
  fprintf(fp, ",\n\"%s\":[", key);
  for (size_t i = 0; i < n; i++) {
    sp_dse_choice c = sp_dse_at(r, f[i]);
    fputs(i ? ",\n" : "\n", fp);
    json_choice(fp, r, &c);
  }
  fputc(']', fp);
}

static void json_kernel(FILE *fp, const sp_dse_result *r, const sp_dse_kernel *k) {
  fputs("{\"kernel\":", fp);
  sp_json_write_string(fp, k->name);
  fputs(",\"weight\":", fp);
  sp__json_number(fp, k->weight, DIGITS);
  fputs(",\"base_time_ms\":", fp);
  sp__json_number(fp, k->base_time_ms, DIGITS);
  fputs(",\"base_power_w\":", fp);
  sp__json_number(fp, k->base_power_w, DIGITS);
  fprintf(fp, ",\"clamped_counters\":%zu,\"first_clamped_counter\":", k->clamped);
  if (k->first_clamped)
    sp_json_write_string(fp, k->first_clamped);
  else
    fputs("null", fp);
  fputs(",\"reference\":", fp);
  json_choice(fp, r, &k->reference);
  fputs(",\"best\":{", fp);
  for (int o = 0; o < SP_DSE_OBJECTIVE_COUNT; o++) {
    fprintf(fp, "%s\"%s\":", o ? "," : "", sp_dse_objective_name(o));
    json_choice(fp, r, &k->best[o]);
  }
  fputs("},\"sensitivity\":", fp);
  json_sensitivity(fp, &k->sens);
  fputc('}', fp);
}

static void json_candidates(FILE *fp, const sp_dse_result *r) {
  fputs(",\n\"candidates\":[", fp);
  for (size_t i = 0; i < r->ncandidates; i++) {
    const sp_dse_candidate *c = &r->candidates[i];
    sp_dse_choice ch = sp_dse_at(r, c->config);
    fprintf(fp, "%s{\"rank\":%zu,\"name\":", i ? ",\n" : "\n", c->rank);
    sp_json_write_string(fp, c->name);
    fprintf(fp,
            ",\"meets_cap\":%s,\"meets_budget\":%s,\"result\":", c->meets_cap ? "true" : "false",
            c->meets_budget ? "true" : "false");
    json_choice(fp, r, &ch);
    fputc('}', fp);
  }
  fprintf(fp, "],\n\"rank_by\":\"%s\"", sp_dse_objective_name(r->params.rank_by));
}

int sp_dse_write_json(const sp_dse_result *r, FILE *fp) {
  sp_c_numeric loc;
  if (sp__c_numeric_begin(&loc)) return SP_ENOMEM;
  json_header(fp, r);
  json_objectives(fp, r);
  json_front(fp, r, "pareto_energy", r->pareto_energy, r->npareto_energy);
  json_front(fp, r, "pareto_power", r->pareto_power, r->npareto_power);
  fputs(",\n\"sensitivity\":", fp);
  json_sensitivity(fp, &r->sens);
  fputs(",\n\"kernels\":[", fp);
  for (size_t k = 0; k < r->nkernels; k++) {
    fputs(k ? ",\n" : "\n", fp);
    json_kernel(fp, r, &r->kernels[k]);
  }
  fputc(']', fp);
  json_candidates(fp, r);
  fputs("}\n", fp);
  sp__c_numeric_end(&loc);
  return ferror(fp) ? SP_EIO : SP_OK;
}
