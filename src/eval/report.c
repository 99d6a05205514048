/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.c: the evaluation report directory: CSV tables, SVG plots and
 * an index.html.  Everything is written into a temporary directory that is
 * renamed into place only when complete. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "evaluate.h"
#include "plot/heatmap.h"
#include "plot/svgplot.h"
#include "util/fsutil.h"
#include "util/status.h"
#include "util/textout.h"

static const char *const qname[2] = {"time", "power"};

/* ---- grouped statistics ----------------------------------------------------- */

typedef enum group_by { BY_NONE, BY_K, BY_BASE, BY_KERNEL } group_by;

typedef struct keyed {
  size_t key;
  double ape;
} keyed;

typedef struct group {
  size_t method, quantity, index, n;
  double mape, median, p90;
} group;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->ape > y->ape) - (x->ape < y->ape);
}

static size_t group_index(const sp_eval_record *r, group_by by) {
  switch (by) {
    case BY_K: return r->k;
    case BY_BASE: return r->base;
    case BY_KERNEL: return r->kernel;
    default: return 0;
  }
}

/* Statistics of every (method, quantity, group) present, sorted by key. */
static int grouped(const sp_evaluation *e, group_by by, size_t ngroups, group **out,
                   size_t *nout) {
  keyed *kv = malloc((e->n + 1) * sizeof *kv);
  group *g = malloc((e->n + 1) * sizeof *g);
  if (!kv || !g) {
    free(kv);
    free(g);
    return SP_ENOMEM;
  }
  for (size_t i = 0; i < e->n; i++) {
    const sp_eval_record *r = &e->records[i];
    kv[i].key = ((size_t)r->method * 2 + r->quantity) * ngroups + group_index(r, by);
    kv[i].ape = 100.0 * fabs(r->predicted - r->measured) / r->measured;
  }
  qsort(kv, e->n, sizeof *kv, cmp_keyed);
  size_t n = 0;
  for (size_t i = 0; i < e->n;) {
    size_t j = i;
    double sum = 0;
    while (j < e->n && kv[j].key == kv[i].key) sum += kv[j++].ape;
    size_t cnt = j - i;
    group *G = &g[n++];
    G->index = kv[i].key % ngroups;
    G->quantity = (kv[i].key / ngroups) % 2;
    G->method = kv[i].key / ngroups / 2;
    G->n = cnt;
    G->mape = sum / (double)cnt;
    G->median = cnt % 2 ? kv[i + cnt / 2].ape : 0.5 * (kv[i + cnt / 2 - 1].ape + kv[i + cnt / 2].ape);
    G->p90 = kv[i + (size_t)floor(0.9 * (double)(cnt - 1))].ape;
    i = j;
  }
  free(kv);
  *out = g;
  *nout = n;
  return SP_OK;
}

/* ---- files -------------------------------------------------------------------- */

typedef struct report {
  const sp_evaluation *e;
  const sp_dataset *ds;
  const sp_eval_params *p;
  const char *dir;   /* the temporary directory being filled */
  sp_error *err;
  FILE *html;
  int best[2];       /* best non-oracle method per quantity, -1 if none */
} report;

static FILE *open_out(report *r, const char *name, sp_atomic_file *af) {
  char *path = sp__path_join(r->dir, name);
  if (!path) return NULL;
  int st = sp__atomic_open(af, path, r->err);
  free(path);
  return st ? NULL : af->fp;
}

static void index_label(const report *r, group_by by, size_t i, char *buf, size_t n) {
  if (by == BY_BASE) sp_config_format(&r->p->bases[i], buf, n);
  else if (by == BY_K) snprintf(buf, n, "%zu", i);
  else if (by == BY_KERNEL) snprintf(buf, n, "%s", r->ds->kernels[i]);
  else buf[0] = '\0';
}

static size_t groups_for(const report *r, group_by by) {
  size_t maxk = 0;
  for (size_t i = 0; i < r->p->nclusters; i++) maxk = r->p->clusters[i] > maxk ? r->p->clusters[i] : maxk;
  return by == BY_K ? maxk + 1 : by == BY_BASE ? r->p->nbases : by == BY_KERNEL ? r->ds->nkernels : 1;
}

/* Statistics of one method and quantity, optionally at one cluster count
 * or base (SP_EVAL_ANY for all). */
static void stats_of(const report *r, size_t method, size_t quantity, size_t k,
                     size_t base, sp_eval_stats *out) {
  sp_eval_filter f;
  sp_eval_filter_init(&f);
  f.method = method;
  f.quantity = quantity;
  f.k = k;
  f.base = base;
  sp_evaluation_stats(r->e, &f, out);
}

/* The filter of one group of a table. */
static void group_filter(const group *g, group_by by, sp_eval_filter *f) {
  sp_eval_filter_init(f);
  f->method = g->method;
  f->quantity = g->quantity;
  if (by == BY_K) f->k = g->index;
  else if (by == BY_BASE) f->base = g->index;
  else if (by == BY_KERNEL) f->kernel = g->index;
}

/* ",coverage,outside_n,outside_mape" with empty fields for NaN. */
static void write_interval_fields(FILE *fp, const sp_eval_stats *s) {
  if (isfinite(s->coverage)) fprintf(fp, ",%.4f", s->coverage);
  else fputc(',', fp);
  fprintf(fp, ",%zu", s->n_outside);
  if (isfinite(s->mape_outside)) fprintf(fp, ",%.4f", s->mape_outside);
  else fputc(',', fp);
}

/* The energy rows of the summary: time x power of the paired records. */
static void write_energy_rows(report *r, FILE *fp) {
  for (int m = 0; m < SP_METHOD_COUNT; m++) {
    sp_eval_filter f;
    sp_eval_stats s;
    sp_eval_filter_init(&f);
    f.method = (size_t)m;
    if (sp_evaluation_energy_stats(r->e, &f, &s) || !s.n) continue;
    fprintf(fp, "%s,energy,%zu,%.4f,%.4f,%.4f,,,\n", sp_method_name((sp_method)m), s.n, s.mape,
            s.median, s.p90);
  }
}

static int write_table(report *r, const char *name, group_by by, const char *column) {
  group *g;
  size_t n, ng = groups_for(r, by);
  if (grouped(r->e, by, ng, &g, &n)) return sp__oom(r->err);
  sp_atomic_file af;
  FILE *fp = open_out(r, name, &af);
  if (!fp) {
    free(g);
    return r->err->status ? r->err->status : SP_ENOMEM;
  }
  fprintf(fp, "method,quantity%s%s,n,mape_pct,median_ape_pct,p90_ape_pct,coverage90_pct,"
          "outside_n,outside_mape_pct\n", column ? "," : "", column ? column : "");
  char label[512];
  for (size_t i = 0; i < n; i++) {
    sp_eval_filter f;
    sp_eval_stats st;
    group_filter(&g[i], by, &f);
    sp_evaluation_stats(r->e, &f, &st);
    fprintf(fp, "%s,%s", sp_method_name((sp_method)g[i].method), qname[g[i].quantity]);
    if (column) {
      index_label(r, by, g[i].index, label, sizeof label);
      fputc(',', fp);
      sp_csv_write_field(fp, label);
    }
    fprintf(fp, ",%zu,%.4f,%.4f,%.4f", g[i].n, g[i].mape, g[i].median, g[i].p90);
    write_interval_fields(fp, &st);
    fputc('\n', fp);
  }
  if (by == BY_NONE) write_energy_rows(r, fp);
  free(g);
  return sp__atomic_commit(&af, r->err);
}

static int write_histogram(report *r) {
  sp_atomic_file af;
  FILE *fp = open_out(r, "histogram.csv", &af);
  if (!fp) return r->err->status;
  fputs("method,quantity,ape_from_pct,ape_to_pct,count,fraction\n", fp);
  for (int m = 0; m < SP_METHOD_COUNT; m++)
    for (int q = 0; q < 2; q++) {
      sp_eval_stats s;
      stats_of(r, (size_t)m, (size_t)q, SP_EVAL_ANY, SP_EVAL_ANY, &s);
      for (int b = 0; s.n && b < SP_EVAL_HIST_BINS; b++) {
        /* The last bin is open-ended: its upper bound is left empty. */
        fprintf(fp, "%s,%s,%d,", sp_method_name((sp_method)m), qname[q], 10 * b);
        if (b + 1 < SP_EVAL_HIST_BINS) fprintf(fp, "%d", 10 * (b + 1));
        fprintf(fp, ",%zu,%.6f\n", s.hist[b], (double)s.hist[b] / (double)s.n);
      }
    }
  return sp__atomic_commit(&af, r->err);
}

static int write_predictions(report *r) {
  sp_atomic_file af;
  FILE *fp = open_out(r, "predictions.csv", &af);
  if (!fp) return r->err->status;
  fputs("method,quantity,split,k,kernel,base,target,predicted,measured,ape_pct,lo90,hi90,"
        "novelty,outside_training\n", fp);
  char base[64], target[64];
  for (size_t i = 0; i < r->e->n; i++) {
    const sp_eval_record *x = &r->e->records[i];
    sp_config_format(&r->p->bases[x->base], base, sizeof base);
    sp_config_format(&x->target, target, sizeof target);
    fprintf(fp, "%s,%s,%u,%u,", sp_method_name((sp_method)x->method), qname[x->quantity],
            (unsigned)x->split, x->k);
    sp_csv_write_field(fp, r->ds->kernels[x->kernel]);
    fprintf(fp, ",%s,%s,%.9g,%.9g,%.4f", base, target, x->predicted, x->measured,
            100.0 * fabs(x->predicted - x->measured) / x->measured);
    if (isfinite(x->lo) && isfinite(x->hi)) fprintf(fp, ",%.9g,%.9g", x->lo, x->hi);
    else fputs(",,", fp);
    if (isfinite(x->novelty)) fprintf(fp, ",%.4f", x->novelty);
    else fputc(',', fp);
    fprintf(fp, ",%d\n", x->outside);
  }
  return sp__atomic_commit(&af, r->err);
}

/* ---- plots --------------------------------------------------------------------- */

static int methods_present(const report *r, sp_quantity q, int *list) {
  int n = 0;
  for (int m = 0; m < SP_METHOD_COUNT; m++) {
    sp_eval_stats s;
    stats_of(r, (size_t)m, q, SP_EVAL_ANY, SP_EVAL_ANY, &s);
    if (s.n) list[n++] = m;
  }
  return n;
}

static int begin_svg(report *r, const char *name, sp_atomic_file *af, const char *caption) {
  if (!open_out(r, name, af)) return r->err->status;
  fprintf(r->html, "<figure><img src=\"%s\" alt=\"", name);
  sp__xml_text(r->html, caption);
  fputs("\"><figcaption>", r->html);
  sp__xml_text(r->html, caption);
  fputs("</figcaption></figure>\n", r->html);
  return SP_OK;
}

/* Paper Fig. 13: error against the number of clusters. */
static int plot_vs_clusters(report *r, sp_quantity q) {
  if (r->p->nclusters < 2) return SP_OK;
  int ms[SP_METHOD_COUNT], nm = methods_present(r, q, ms);
  double xs[SP_METHOD_COUNT][256], ys[SP_METHOD_COUNT][256];
  sp_series s[SP_METHOD_COUNT];
  size_t nk = r->p->nclusters < 256 ? r->p->nclusters : 256;
  for (int i = 0; i < nm; i++) {
    for (size_t j = 0; j < nk; j++) {
      sp_eval_stats st;
      stats_of(r, (size_t)ms[i], q, r->p->clusters[j], SP_EVAL_ANY, &st);
      xs[i][j] = (double)r->p->clusters[j];
      ys[i][j] = st.n ? st.mape : NAN;
    }
    s[i] = (sp_series){.name = sp_method_name((sp_method)ms[i]), .x = xs[i], .y = ys[i],
                       .n = nk};
  }
  char name[64], title[128];
  snprintf(name, sizeof name, "error_vs_clusters_%s.svg", qname[q]);
  snprintf(title, sizeof title, "%s: mean absolute percentage error vs clusters", qname[q]);
  sp_atomic_file af;
  int st = begin_svg(r, name, &af, title);
  sp_chart c = {.title = title, .xlabel = "clusters per set (k)", .ylabel = "MAPE (%)",
                .kind = SP_CHART_LINES};
  if (!st) st = sp__svg_xy(af.fp, &c, s, (size_t)nm);
  return st ? (sp__atomic_abort(&af), st) : sp__atomic_commit(&af, r->err);
}

/* Paper Figs. 14 and 17: distribution of errors in 10% bins. */
static int plot_histogram(report *r, sp_quantity q) {
  int ms[SP_METHOD_COUNT], nm = methods_present(r, q, ms);
  if (!nm) return SP_OK;
  static const char *const bins[SP_EVAL_HIST_BINS] = {"0-10", "10-20", "20-30", "30-40",
                                                      "40-50", "50-60", "60-70", "70-80",
                                                      "80-90", "90-100", ">100"};
  double v[SP_METHOD_COUNT * SP_EVAL_HIST_BINS];
  const char *names[SP_METHOD_COUNT];
  for (int i = 0; i < nm; i++) {
    sp_eval_stats st;
    stats_of(r, (size_t)ms[i], q, SP_EVAL_ANY, SP_EVAL_ANY, &st);
    names[i] = sp_method_name((sp_method)ms[i]);
    for (int b = 0; b < SP_EVAL_HIST_BINS; b++)
      v[i * SP_EVAL_HIST_BINS + b] = 100.0 * (double)st.hist[b] / (double)st.n;
  }
  char name[64], title[128];
  snprintf(name, sizeof name, "histogram_%s.svg", qname[q]);
  snprintf(title, sizeof title, "%s: share of predictions per absolute-error bin", qname[q]);
  sp_atomic_file af;
  int st = begin_svg(r, name, &af, title);
  sp_chart c = {.title = title, .xlabel = "absolute percentage error (%)",
                .ylabel = "predictions (%)", .width = 900, .height = 440};
  sp_bars b = {.groups = bins, .ngroups = SP_EVAL_HIST_BINS, .series = names,
               .nseries = (size_t)nm, .v = v};
  if (!st) st = sp__svg_bars(af.fp, &c, &b);
  return st ? (sp__atomic_abort(&af), st) : sp__atomic_commit(&af, r->err);
}

/* Predicted against measured, for wu2015 and the best method. */
static int plot_scatter(report *r, sp_quantity q) {
  const int want[2] = {SP_METHOD_WU2015, r->best[q]};
  int nseries = r->best[q] >= 0 && r->best[q] != SP_METHOD_WU2015 ? 2 : 1;
  enum { CAP = 4000 };
  double *x = malloc(2 * CAP * sizeof(double)), *y = malloc(2 * CAP * sizeof(double));
  if (!x || !y) {
    free(x);
    free(y);
    return sp__oom(r->err);
  }
  sp_series s[2];
  for (int i = 0; i < nseries; i++) {
    size_t total = 0, n = 0;
    for (size_t j = 0; j < r->e->n; j++)
      total += r->e->records[j].method == want[i] && r->e->records[j].quantity == q;
    size_t stride = total > CAP ? (total + CAP - 1) / CAP : 1, seen = 0;
    for (size_t j = 0; j < r->e->n && n < CAP; j++) {
      const sp_eval_record *rec = &r->e->records[j];
      if (rec->method != want[i] || rec->quantity != q) continue;
      if (seen++ % stride) continue; /* an even subsample keeps the SVG small */
      x[i * CAP + n] = rec->measured;
      y[i * CAP + n] = rec->predicted;
      n++;
    }
    s[i] = (sp_series){.name = sp_method_name((sp_method)want[i]), .x = x + i * CAP,
                       .y = y + i * CAP, .n = n};
  }
  char name[64], title[128];
  snprintf(name, sizeof name, "scatter_%s.svg", qname[q]);
  snprintf(title, sizeof title, "%s: predicted vs measured (held-out kernels)", qname[q]);
  sp_atomic_file af;
  int st = s[0].n ? begin_svg(r, name, &af, title) : SP_OK;
  sp_chart c = {.title = title,
                .xlabel = q == SP_TIME ? "measured time (ms)" : "measured power (W)",
                .ylabel = q == SP_TIME ? "predicted time (ms)" : "predicted power (W)",
                .kind = SP_CHART_POINTS, .logx = q == SP_TIME, .logy = q == SP_TIME,
                .diagonal = 1, .width = 640, .height = 560};
  if (!st && s[0].n) st = sp__svg_xy(af.fp, &c, s, (size_t)nseries);
  free(x);
  free(y);
  if (!s[0].n) return st;
  return st ? (sp__atomic_abort(&af), st) : sp__atomic_commit(&af, r->err);
}

/* Paper Figs. 10 and 11: the error of wu2015 for each base configuration,
 * as an engine x memory map per CU count (or bars when bases vary on one
 * axis only). */
static int plot_bases(report *r, sp_quantity q) {
  const sp_eval_params *p = r->p;
  if (p->nbases < 2) return SP_OK;
  double *mape = malloc(p->nbases * sizeof(double));
  if (!mape) return sp__oom(r->err);
  size_t scored = 0;
  for (size_t b = 0; b < p->nbases; b++) {
    sp_eval_stats st;
    stats_of(r, SP_METHOD_WU2015, q, SP_EVAL_ANY, b, &st);
    mape[b] = st.n ? st.mape : NAN;
    scored += st.n > 0;
  }
  int st = SP_OK;
  const int *ax[3];
  size_t n[3];
  for (int a = 0; a < 3; a++) n[a] = sp_dataset_axis(r->ds, a, &ax[a]);
  char title[160], name[64];
  char lab[3][64][16];
  const char *cols[64], *rows[64];
  for (size_t ic = 0; scored && ic < n[0] && !st; ic++) {
    size_t ne = n[1] < 64 ? n[1] : 64, nm = n[2] < 64 ? n[2] : 64, filled = 0;
    double *v = malloc(ne * nm * sizeof(double));
    if (!v) { st = SP_ENOMEM; break; }
    for (size_t i = 0; i < ne * nm; i++) v[i] = NAN;
    for (size_t b = 0; b < p->nbases; b++) {
      const sp_config *c = &p->bases[b];
      if (c->cu != ax[0][ic]) continue;
      for (size_t ie = 0; ie < ne; ie++)
        for (size_t im = 0; im < nm; im++)
          if (ax[1][ie] == c->engine_mhz && ax[2][im] == c->memory_mhz) {
            v[im * ne + ie] = mape[b];
            filled += isfinite(mape[b]);
          }
    }
    for (size_t ie = 0; ie < ne; ie++) snprintf(lab[1][ie], 16, "%d", ax[1][ie]), cols[ie] = lab[1][ie];
    for (size_t im = 0; im < nm; im++) snprintf(lab[2][im], 16, "%d", ax[2][im]), rows[im] = lab[2][im];
    if (filled) {
      snprintf(name, sizeof name, "base_map_%s_cu%d.svg", qname[q], ax[0][ic]);
      snprintf(title, sizeof title, "%s: wu2015 MAPE (%%) by base configuration, %d CUs", qname[q], ax[0][ic]);
      sp_atomic_file af;
      st = begin_svg(r, name, &af, title);
      sp_heatmap hm = {.title = title, .xlabel = "base engine clock (MHz)",
                       .ylabel = "base memory clock (MHz)", .cols = cols, .ncols = ne,
                       .rows = rows, .nrows = nm, .npanels = 1, .v = v, .fmt = "%.1f",
                       .scale_label = "MAPE (%)"};
      if (!st) st = sp__svg_heatmap(af.fp, &hm);
      st = st ? (sp__atomic_abort(&af), st) : sp__atomic_commit(&af, r->err);
    }
    free(v);
  }
  free(mape);
  return st == SP_ENOMEM ? sp__fail(r->err, st, NULL, 0, 0, NULL, "out of memory") : st;
}

/* ---- index.html ------------------------------------------------------------------ */

static void pick_best(report *r) {
  for (int q = 0; q < 2; q++) {
    double best = INFINITY;
    r->best[q] = -1;
    for (int m = 0; m < SP_METHOD_COUNT; m++) {
      if (m == SP_METHOD_ORACLE) continue; /* it sees the answer */
      sp_eval_stats s;
      stats_of(r, (size_t)m, (size_t)q, SP_EVAL_ANY, SP_EVAL_ANY, &s);
      if (s.n && s.mape < best) {
        best = s.mape;
        r->best[q] = m;
      }
    }
  }
}

static void html_summary(report *r) {
  FILE *h = r->html;
  fputs("<table><tr><th>method</th><th>time MAPE</th><th>median</th><th>p90</th><th>n</th>"
        "<th>power MAPE</th><th>median</th><th>p90</th><th>n</th></tr>\n", h);
  for (int m = 0; m < SP_METHOD_COUNT; m++) {
    sp_eval_stats s[2];
    for (int q = 0; q < 2; q++)
      stats_of(r, (size_t)m, (size_t)q, SP_EVAL_ANY, SP_EVAL_ANY, &s[q]);
    if (!s[0].n && !s[1].n) continue;
    fprintf(h, "<tr><td>%s%s</td>", sp_method_name((sp_method)m),
            m == r->best[SP_TIME] ? " (best)" : "");
    for (int q = 0; q < 2; q++) {
      if (s[q].n) fprintf(h, "<td>%.2f%%</td><td>%.2f%%</td><td>%.2f%%</td><td>%zu</td>",
                          s[q].mape, s[q].median, s[q].p90, s[q].n);
      else fputs("<td>-</td><td>-</td><td>-</td><td>0</td>", h);
    }
    fputs("</tr>\n", h);
  }
  fputs("</table>\n", h);
}

static void html_begin(report *r) {
  FILE *h = r->html;
  const sp_eval_params *p = r->p;
  fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>scalepredict evaluation"
        "</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;"
        "text-align:right}img{max-width:100%}</style></head><body>\n"
        "<h1>scalepredict held-out evaluation</h1>\n<p>", h);
  fputs("Data: ", h);
  sp__xml_text(h, r->ds->runs_path);
  fprintf(h, " (%zu kernels). Protocol: %s, %zu split(s), seed %lu; %zu base configuration(s); "
             "cluster counts %zu", r->ds->nkernels,
          p->leave_one_out ? "leave-one-out" : "random holdout", r->e->splits, p->seed, p->nbases,
          p->clusters[0]);
  if (p->nclusters > 1) fprintf(h, " to %zu", p->clusters[p->nclusters - 1]);
  fputs(". Errors are absolute percentage errors of held-out kernels at every target other "
        "than the base. Tables: <a href=\"summary.csv\">summary</a>, <a href=\"by_clusters.csv\">"
        "by clusters</a>, <a href=\"by_base.csv\">by base</a>, <a href=\"per_kernel.csv\">per "
        "kernel</a>, <a href=\"histogram.csv\">histogram</a>, <a href=\"predictions.csv\">every "
        "prediction</a>.</p>\n", h);
  for (int q = 0; q < 2; q++)
    if (r->e->note[q]) {
      fputs("<p><b>Note:</b> ", h);
      sp__xml_text(h, r->e->note[q]);
      fputs("</p>\n", h);
    }
  html_summary(r);
}

static int write_all(report *r) {
  int st = write_table(r, "summary.csv", BY_NONE, NULL);
  if (!st) st = write_table(r, "by_clusters.csv", BY_K, "k");
  if (!st) st = write_table(r, "by_base.csv", BY_BASE, "base");
  if (!st) st = write_table(r, "per_kernel.csv", BY_KERNEL, "kernel");
  if (!st) st = write_histogram(r);
  if (!st) st = write_predictions(r);
  for (int q = 0; q < 2 && !st; q++) {
    int present[SP_METHOD_COUNT];
    if (!methods_present(r, (sp_quantity)q, present)) continue;
    fprintf(r->html, "<h2>%s</h2>\n", qname[q]);
    st = plot_vs_clusters(r, (sp_quantity)q);
    if (!st) st = plot_histogram(r, (sp_quantity)q);
    if (!st) st = plot_scatter(r, (sp_quantity)q);
    if (!st) st = plot_bases(r, (sp_quantity)q);
  }
  return st;
}

int sp_evaluation_write_report(const sp_evaluation *e, const sp_dataset *ds,
                               const sp_eval_params *params, const char *dir, sp_error *err) {
  char *tmp = NULL;
  int st = sp__tmpdir_create(dir, SP_OUTPUT_REPORT, &tmp, err);
  if (st) return st;
  report r = {e, ds, params, tmp, err, NULL, {-1, -1}};
  sp_c_numeric cnum;
  sp__c_numeric_begin(&cnum);
  sp_atomic_file html;
  pick_best(&r);
  r.html = open_out(&r, "index.html", &html);
  st = r.html ? SP_OK : (err->status ? err->status : SP_EIO);
  if (!st) {
    html_begin(&r);
    st = write_all(&r);
    fputs("</body></html>\n", r.html);
    st = st ? (sp__atomic_abort(&html), st) : sp__atomic_commit(&html, err);
  }
  sp__c_numeric_end(&cnum);
  if (!st) st = sp__tmpdir_commit(tmp, dir, SP_OUTPUT_REPORT, err);
  if (st) sp__tmpdir_abort(tmp, dir, err);
  free(tmp);
  return st;
}
