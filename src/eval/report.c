/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report.c: the evaluation report directory: CSV tables, SVG plots (drawn
 * by plot/) and an index.html that shows the plots inline (it opens on its
 * own, as dse's and governor's do), written through util/reportdir.h: into a
 * temporary directory that is renamed into place only when complete.
 * predictions.csv, every prediction, is large and written on request. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/dataset.h"
#include "evaluation.h"
#include "plot/heatmap.h"
#include "plot/svgplot.h"
#include "report_memory.h"
#include "util/reportdir.h"
#include "util/status.h"
#include "util/textout.h"

static const char *const qname[2] = {"time", "power"};

/* The most methods an evaluation has: one bit of sp_eval_params.methods
 * each. */
#define MAX_METHODS 32

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
    case BY_K:
      return r->k;
    case BY_BASE:
      return r->base;
    case BY_KERNEL:
      return r->kernel;
    default:
      return 0;
  }
}

/* Statistics of every (method, quantity, group) present, sorted by key. */
static int grouped(const sp_evaluation *e, group_by by, size_t ngroups, group **out, size_t *nout) {
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
    G->median =
        cnt % 2 ? kv[i + cnt / 2].ape : 0.5 * (kv[i + cnt / 2 - 1].ape + kv[i + cnt / 2].ape);
    G->p90 = kv[i + (size_t)floor(0.9 * (double)(cnt - 1))].ape;
    i = j;
  }
  free(kv);
  *out = g;
  *nout = n;
  return SP_OK;
}

/* ---- the report ----------------------------------------------------------------- */

typedef struct report {
  const sp_evaluation *e;
  const sp_dataset *ds;
  const sp_eval_params *p;
  int best[2];     /* best non-oracle method per quantity, -1 if none */
  int predictions; /* write predictions.csv */
} report;

static void index_label(const report *r, group_by by, size_t i, char *buf, size_t n) {
  if (by == BY_BASE)
    sp_config_format(&r->p->bases[i], buf, n);
  else if (by == BY_K)
    snprintf(buf, n, "%zu", i);
  else if (by == BY_KERNEL)
    snprintf(buf, n, "%s", r->ds->kernels[i]);
  else
    buf[0] = '\0';
}

static size_t groups_for(const report *r, group_by by) {
  size_t maxk = 0;
  for (size_t i = 0; i < r->p->nclusters; i++)
    maxk = r->p->clusters[i] > maxk ? r->p->clusters[i] : maxk;
  return by == BY_K        ? maxk + 1
         : by == BY_BASE   ? r->p->nbases
         : by == BY_KERNEL ? r->ds->nkernels
                           : 1;
}

/* Statistics of one method and quantity, optionally at one cluster count
 * or base (SP_EVAL_ANY for all). */
static void stats_of(const report *r, size_t method, size_t quantity, size_t k, size_t base,
                     sp_eval_stats *out) {
  sp_eval_filter f;
  sp_eval_filter_init(&f);
  f.method = method;
  f.quantity = quantity;
  f.k = k;
  f.base = base;
  sp_evaluation_stats(r->e, &f, out);
}

/* ---- tables ------------------------------------------------------------------------ */

/* The filter of one group of a table. */
static void group_filter(const group *g, group_by by, sp_eval_filter *f) {
  sp_eval_filter_init(f);
  f->method = g->method;
  f->quantity = g->quantity;
  if (by == BY_K)
    f->k = g->index;
  else if (by == BY_BASE)
    f->base = g->index;
  else if (by == BY_KERNEL)
    f->kernel = g->index;
}

/* ",coverage,outside_n,outside_mape" with empty fields for NaN. */
static void write_interval_fields(FILE *fp, const sp_eval_stats *s) {
  if (isfinite(s->coverage))
    fprintf(fp, ",%.4f", s->coverage);
  else
    fputc(',', fp);
  fprintf(fp, ",%zu", s->n_outside);
  if (isfinite(s->mape_outside))
    fprintf(fp, ",%.4f", s->mape_outside);
  else
    fputc(',', fp);
}

/* The energy rows of the summary: time x power of the paired records. */
static void write_energy_rows(const report *r, FILE *fp) {
  for (int m = 0; m < (int)sp_method_count(); m++) {
    sp_eval_filter f;
    sp_eval_stats s;
    sp_eval_filter_init(&f);
    f.method = (size_t)m;
    if (sp_evaluation_energy_stats(r->e, &f, &s) || !s.n) continue;
    fprintf(fp, "%s,energy,%zu,%.4f,%.4f,%.4f,,,\n", sp_method_name((sp_method)m), s.n, s.mape,
            s.median, s.p90);
  }
}

static int write_table(const report *r, FILE *fp, group_by by, const char *column) {
  group *g;
  size_t n, ng = groups_for(r, by);
  if (grouped(r->e, by, ng, &g, &n)) return SP_ENOMEM;
  fprintf(fp,
          "method,quantity%s%s,n,mape_pct,median_ape_pct,p90_ape_pct,coverage90_pct,"
          "outside_n,outside_mape_pct\n",
          column ? "," : "", column ? column : "");
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
  return SP_OK;
}

static int csv_summary(const void *r, FILE *fp) { return write_table(r, fp, BY_NONE, NULL); }
static int csv_by_clusters(const void *r, FILE *fp) { return write_table(r, fp, BY_K, "k"); }
static int csv_by_base(const void *r, FILE *fp) { return write_table(r, fp, BY_BASE, "base"); }
static int csv_per_kernel(const void *r, FILE *fp) {
  return write_table(r, fp, BY_KERNEL, "kernel");
}

static int csv_histogram(const void *data, FILE *fp) {
  const report *r = data;
  fputs("method,quantity,ape_from_pct,ape_to_pct,count,fraction\n", fp);
  for (int m = 0; m < (int)sp_method_count(); m++)
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
  return SP_OK;
}

static int csv_predictions(const void *data, FILE *fp) {
  const report *r = data;
  fputs(
      "method,quantity,split,k,kernel,base,target,predicted,measured,ape_pct,lo90,hi90,"
      "novelty,outside_training\n",
      fp);
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
    if (isfinite(x->lo) && isfinite(x->hi))
      fprintf(fp, ",%.9g,%.9g", x->lo, x->hi);
    else
      fputs(",,", fp);
    if (isfinite(x->novelty))
      fprintf(fp, ",%.4f", x->novelty);
    else
      fputc(',', fp);
    fprintf(fp, ",%d\n", x->outside);
  }
  return SP_OK;
}

/* The tables; the last, predictions.csv, only when asked for. */
static const struct {
  const char *file;
  sp_report_fn fn;
} tables[] = {{"summary.csv", csv_summary},     {"by_clusters.csv", csv_by_clusters},
              {"by_base.csv", csv_by_base},     {"per_kernel.csv", csv_per_kernel},
              {"histogram.csv", csv_histogram}, {"predictions.csv", csv_predictions}};
#define NTABLES (sizeof tables / sizeof *tables)

/* ---- plots --------------------------------------------------------------------- */

static int methods_present(const report *r, sp_quantity q, int *list) {
  int n = 0;
  for (int m = 0; m < (int)sp_method_count(); m++) {
    sp_eval_stats s;
    stats_of(r, (size_t)m, q, SP_EVAL_ANY, SP_EVAL_ANY, &s);
    if (s.n) list[n++] = m;
  }
  return n;
}

typedef enum plot_kind {
  PLOT_CLUSTERS,
  PLOT_HISTOGRAM,
  PLOT_SCATTER,
  PLOT_BASES,
  PLOT_MEMORY,   /* report_memory.c: the other memory system's speedup per kernel */
  PLOT_MEMORY_CU /* the same per kernel and SM count */
} plot_kind;

/* One SVG of the report: what it shows and, for a base map, of which CU
 * count (the index of the dataset's CU axis). */
typedef struct plot {
  plot_kind kind;
  sp_quantity q;
  size_t cu;
  char file[64], title[160];
} plot;

typedef struct plot_job {
  const report *r;
  const plot *p;
} plot_job;

/* Paper Fig. 13: error against the number of clusters. */
static int plot_vs_clusters(const report *r, const plot *pl, FILE *fp) {
  int ms[MAX_METHODS], nm = methods_present(r, pl->q, ms);
  sp_series s[MAX_METHODS];
  size_t nk = r->p->nclusters < 256 ? r->p->nclusters : 256;
  double *xs = malloc(((size_t)nm * nk + 1) * sizeof *xs);
  double *ys = malloc(((size_t)nm * nk + 1) * sizeof *ys);
  if (!xs || !ys) {
    free(xs);
    free(ys);
    return SP_ENOMEM;
  }
  for (int i = 0; i < nm; i++) {
    double *x = xs + (size_t)i * nk, *y = ys + (size_t)i * nk;
    for (size_t j = 0; j < nk; j++) {
      sp_eval_stats st;
      stats_of(r, (size_t)ms[i], pl->q, r->p->clusters[j], SP_EVAL_ANY, &st);
      x[j] = (double)r->p->clusters[j];
      y[j] = st.n ? st.mape : NAN;
    }
    s[i] = (sp_series){.name = sp_method_name((sp_method)ms[i]), .x = x, .y = y, .n = nk};
  }
  sp_chart c = {.title = pl->title,
                .xlabel = "clusters per set (k)",
                .ylabel = "MAPE (%)",
                .kind = SP_CHART_LINES};
  int st = sp__svg_xy(fp, &c, s, (size_t)nm);
  free(xs);
  free(ys);
  return st;
}

/* Paper Figs. 14 and 17: distribution of errors in 10% bins. */
static int plot_histogram(const report *r, const plot *pl, FILE *fp) {
  int ms[MAX_METHODS], nm = methods_present(r, pl->q, ms);
  static const char *const bins[SP_EVAL_HIST_BINS] = {"0-10",  "10-20",  "20-30", "30-40",
                                                      "40-50", "50-60",  "60-70", "70-80",
                                                      "80-90", "90-100", ">100"};
  double v[MAX_METHODS * SP_EVAL_HIST_BINS];
  const char *names[MAX_METHODS];
  for (int i = 0; i < nm; i++) {
    sp_eval_stats st;
    stats_of(r, (size_t)ms[i], pl->q, SP_EVAL_ANY, SP_EVAL_ANY, &st);
    names[i] = sp_method_name((sp_method)ms[i]);
    for (int b = 0; b < SP_EVAL_HIST_BINS; b++)
      v[i * SP_EVAL_HIST_BINS + b] = 100.0 * (double)st.hist[b] / (double)st.n;
  }
  sp_chart c = {.title = pl->title,
                .xlabel = "absolute percentage error (%)",
                .ylabel = "predictions (%)",
                .width = 900,
                .height = 440};
  sp_bars b = {
      .groups = bins, .ngroups = SP_EVAL_HIST_BINS, .series = names, .nseries = (size_t)nm, .v = v};
  return sp__svg_bars(fp, &c, &b);
}

/* The method compared with wu2015 in the scatter plot, or -1. */
static int scatter_other(const report *r, sp_quantity q) {
  return r->best[q] >= 0 && r->best[q] != SP_METHOD_WU2015 ? r->best[q] : -1;
}

static size_t records_of(const report *r, int method, sp_quantity q) {
  size_t n = 0;
  for (size_t j = 0; j < r->e->n; j++)
    n += r->e->records[j].method == method && r->e->records[j].quantity == q;
  return n;
}

enum { SCATTER_CAP = 4000 };

/* Up to SCATTER_CAP of a method's (measured, predicted) pairs, an even
 * subsample that keeps the SVG small. */
static size_t scatter_points(const report *r, int method, sp_quantity q, double *x, double *y) {
  size_t total = records_of(r, method, q), n = 0, seen = 0;
  size_t stride = total > SCATTER_CAP ? (total + SCATTER_CAP - 1) / SCATTER_CAP : 1;
  for (size_t j = 0; j < r->e->n && n < SCATTER_CAP; j++) {
    const sp_eval_record *rec = &r->e->records[j];
    if (rec->method != method || rec->quantity != q || seen++ % stride) continue;
    x[n] = rec->measured;
    y[n++] = rec->predicted;
  }
  return n;
}

/* Predicted against measured, for wu2015 and the best method. */
static int plot_scatter(const report *r, const plot *pl, FILE *fp) {
  const int want[2] = {SP_METHOD_WU2015, scatter_other(r, pl->q)};
  size_t nseries = want[1] >= 0 ? 2 : 1;
  double *x = malloc(2 * SCATTER_CAP * sizeof(double));
  double *y = malloc(2 * SCATTER_CAP * sizeof(double));
  if (!x || !y) {
    free(x);
    free(y);
    return SP_ENOMEM;
  }
  sp_series s[2];
  for (size_t i = 0; i < nseries; i++) {
    double *xi = x + i * SCATTER_CAP, *yi = y + i * SCATTER_CAP;
    s[i] = (sp_series){.name = sp_method_name((sp_method)want[i]),
                       .x = xi,
                       .y = yi,
                       .n = scatter_points(r, want[i], pl->q, xi, yi)};
  }
  int time = pl->q == SP_TIME;
  sp_chart c = {.title = pl->title,
                .xlabel = time ? "measured time (ms)" : "measured power (W)",
                .ylabel = time ? "predicted time (ms)" : "predicted power (W)",
                .kind = SP_CHART_POINTS,
                .logx = time,
                .logy = time,
                .diagonal = 1,
                .width = 640,
                .height = 560};
  int st = sp__svg_xy(fp, &c, s, nseries);
  free(x);
  free(y);
  return st;
}

enum { MAX_AXIS = 64 };

/* wu2015's MAPE of each base configuration at CU index ic as an engine x
 * memory grid (v[im * ne + ie], NaN where no base is); returns how many
 * cells have a value. */
static size_t base_grid(const report *r, sp_quantity q, size_t ic, double *v, size_t *ne,
                        size_t *nm) {
  const int *ax[3];
  size_t n[3];
  for (int a = 0; a < 3; a++) n[a] = sp_dataset_axis(r->ds, a, &ax[a]);
  *ne = n[1] < MAX_AXIS ? n[1] : MAX_AXIS;
  *nm = n[2] < MAX_AXIS ? n[2] : MAX_AXIS;
  for (size_t i = 0; i < *ne * *nm; i++) v[i] = NAN;
  size_t filled = 0;
  for (size_t b = 0; b < r->p->nbases; b++) {
    const sp_config *c = &r->p->bases[b];
    if (c->cu != ax[0][ic]) continue;
    sp_eval_stats st;
    stats_of(r, SP_METHOD_WU2015, q, SP_EVAL_ANY, b, &st);
    for (size_t ie = 0; ie < *ne; ie++)
      for (size_t im = 0; im < *nm; im++)
        if (ax[1][ie] == c->engine_mhz && ax[2][im] == c->memory_mhz && st.n) {
          v[im * *ne + ie] = st.mape;
          filled++;
        }
  }
  return filled;
}

/* Paper Figs. 10 and 11: the error of wu2015 for each base configuration,
 * as an engine x memory map per CU count. */
static int plot_bases(const report *r, const plot *pl, FILE *fp) {
  double *v = malloc(MAX_AXIS * MAX_AXIS * sizeof(double));
  if (!v) return SP_ENOMEM;
  size_t ne, nm;
  base_grid(r, pl->q, pl->cu, v, &ne, &nm);
  const int *ax[3];
  for (int a = 1; a < 3; a++) sp_dataset_axis(r->ds, a, &ax[a]);
  char lab[2][MAX_AXIS][16];
  const char *cols[MAX_AXIS], *rows[MAX_AXIS];
  for (size_t ie = 0; ie < ne; ie++) {
    snprintf(lab[0][ie], sizeof lab[0][ie], "%d", ax[1][ie]);
    cols[ie] = lab[0][ie];
  }
  for (size_t im = 0; im < nm; im++) {
    snprintf(lab[1][im], sizeof lab[1][im], "%d", ax[2][im]);
    rows[im] = lab[1][im];
  }
  sp_heatmap hm = {.title = pl->title,
                   .xlabel = "base engine clock (MHz)",
                   .ylabel = "base memory clock (MHz)",
                   .cols = cols,
                   .ncols = ne,
                   .rows = rows,
                   .nrows = nm,
                   .npanels = 1,
                   .v = v,
                   .fmt = "%.1f",
                   .scale_label = "MAPE (%)"};
  int st = sp__svg_heatmap(fp, &hm);
  free(v);
  return st;
}

static int draw_plot(const void *data, FILE *fp) {
  const plot_job *j = data;
  switch (j->p->kind) {
    case PLOT_CLUSTERS:
      return plot_vs_clusters(j->r, j->p, fp);
    case PLOT_HISTOGRAM:
      return plot_histogram(j->r, j->p, fp);
    case PLOT_SCATTER:
      return plot_scatter(j->r, j->p, fp);
    case PLOT_MEMORY:
    case PLOT_MEMORY_CU:
      return sp__plot_memory_speedup(fp, j->r->e, j->r->ds, j->r->p, j->r->best[SP_TIME],
                                     j->p->kind == PLOT_MEMORY_CU, j->p->title);
    default:
      return plot_bases(j->r, j->p, fp);
  }
}

/* ---- which plots ------------------------------------------------------------------ */

typedef struct plan {
  plot *plots;
  size_t n;
  int present[2]; /* whether any method has records of the quantity */
} plan;

static plot *add(plan *pl, plot_kind kind, sp_quantity q, size_t cu) {
  plot *p = &pl->plots[pl->n++];
  *p = (plot){.kind = kind, .q = q, .cu = cu};
  return p;
}

static void plan_bases(const report *r, plan *pl, sp_quantity q, double *grid) {
  const int *cus;
  size_t ncu = sp_dataset_axis(r->ds, 0, &cus), ne, nm;
  for (size_t ic = 0; r->p->nbases >= 2 && ic < ncu; ic++) {
    if (!base_grid(r, q, ic, grid, &ne, &nm)) continue;
    plot *p = add(pl, PLOT_BASES, q, ic);
    snprintf(p->file, sizeof p->file, "base_map_%s_cu%d.svg", qname[q], cus[ic]);
    snprintf(p->title, sizeof p->title, "%s: wu2015 MAPE (%%) by base configuration, %d CUs",
             qname[q], cus[ic]);
  }
}

/* With a grid of several memory systems: what the other one buys each
 * kernel, as the best time method predicts it. */
static void plan_memory(const report *r, plan *pl, sp_quantity q) {
  int m = r->best[SP_TIME];
  if (q != SP_TIME || m < 0 || !sp__memory_axis_present(r->e, r->p, m)) return;
  plot *p = add(pl, PLOT_MEMORY, q, 0);
  snprintf(p->file, sizeof p->file, "memory_speedup.svg");
  snprintf(p->title, sizeof p->title,
           "time: the other memory system's speedup at the base's CU count, %s vs measured",
           sp_method_name((sp_method)m));
  p = add(pl, PLOT_MEMORY_CU, q, 0);
  snprintf(p->file, sizeof p->file, "memory_speedup_by_cu.svg");
  snprintf(p->title, sizeof p->title,
           "time: the other memory system's speedup at every CU count, %s vs measured",
           sp_method_name((sp_method)m));
}

static void plan_quantity(const report *r, plan *pl, sp_quantity q, double *grid) {
  int ms[MAX_METHODS];
  pl->present[q] = methods_present(r, q, ms) > 0;
  if (!pl->present[q]) return;
  plot *p;
  if (r->p->nclusters >= 2) {
    p = add(pl, PLOT_CLUSTERS, q, 0);
    snprintf(p->file, sizeof p->file, "error_vs_clusters_%s.svg", qname[q]);
    snprintf(p->title, sizeof p->title, "%s: mean absolute percentage error vs clusters", qname[q]);
  }
  p = add(pl, PLOT_HISTOGRAM, q, 0);
  snprintf(p->file, sizeof p->file, "histogram_%s.svg", qname[q]);
  snprintf(p->title, sizeof p->title, "%s: share of predictions per absolute-error bin", qname[q]);
  if (records_of(r, SP_METHOD_WU2015, q)) {
    p = add(pl, PLOT_SCATTER, q, 0);
    snprintf(p->file, sizeof p->file, "scatter_%s.svg", qname[q]);
    snprintf(p->title, sizeof p->title, "%s: predicted vs measured (held-out kernels)", qname[q]);
  }
  plan_bases(r, pl, q, grid);
  plan_memory(r, pl, q);
}

/* Every plot the report has, in the order index.html shows them. */
static int make_plan(const report *r, plan *pl) {
  const int *cus;
  size_t ncu = sp_dataset_axis(r->ds, 0, &cus);
  pl->n = 0;
  pl->plots = malloc(2 * (5 + ncu) * sizeof *pl->plots);
  double *grid = malloc(MAX_AXIS * MAX_AXIS * sizeof *grid);
  if (!pl->plots || !grid) {
    free(pl->plots);
    free(grid);
    pl->plots = NULL;
    return SP_ENOMEM;
  }
  for (int q = 0; q < 2; q++) plan_quantity(r, pl, (sp_quantity)q, grid);
  free(grid);
  return SP_OK;
}

/* ---- index.html ------------------------------------------------------------------ */

static void pick_best(report *r) {
  for (int q = 0; q < 2; q++) {
    double best = INFINITY;
    r->best[q] = -1;
    for (int m = 0; m < (int)sp_method_count(); m++) {
      if (sp_method_flags((sp_method)m) & SP_METHOD_FLAG_ORACLE) continue; /* it sees the answer */
      sp_eval_stats s;
      stats_of(r, (size_t)m, (size_t)q, SP_EVAL_ANY, SP_EVAL_ANY, &s);
      if (s.n && s.mape < best) {
        best = s.mape;
        r->best[q] = m;
      }
    }
  }
}

static void html_summary(const report *r, FILE *h) {
  fputs(
      "<table><tr><th>method</th><th>time MAPE</th><th>median</th><th>p90</th><th>n</th>"
      "<th>power MAPE</th><th>median</th><th>p90</th><th>n</th></tr>\n",
      h);
  for (int m = 0; m < (int)sp_method_count(); m++) {
    sp_eval_stats s[2];
    for (int q = 0; q < 2; q++) stats_of(r, (size_t)m, (size_t)q, SP_EVAL_ANY, SP_EVAL_ANY, &s[q]);
    if (!s[0].n && !s[1].n) continue;
    fprintf(h, "<tr><td>%s%s</td>", sp_method_name((sp_method)m),
            m == r->best[SP_TIME] ? " (best)" : "");
    for (int q = 0; q < 2; q++) {
      if (s[q].n)
        fprintf(h, "<td>%.2f%%</td><td>%.2f%%</td><td>%.2f%%</td><td>%zu</td>", s[q].mape,
                s[q].median, s[q].p90, s[q].n);
      else
        fputs("<td>-</td><td>-</td><td>-</td><td>0</td>", h);
    }
    fputs("</tr>\n", h);
  }
  fputs("</table>\n", h);
}

static void html_begin(const report *r, FILE *h) {
  const sp_eval_params *p = r->p;
  fputs(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>scalepredict evaluation"
      "</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}"
      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;"
      "text-align:right}svg{max-width:100%;height:auto}</style></head><body>\n"
      "<h1>scalepredict held-out evaluation</h1>\n<p>",
      h);
  fputs("Data: ", h);
  sp__xml_text(h, r->ds->runs_path);
  fprintf(h,
          " (%zu kernels). Protocol: %s, %zu split(s), seed %lu; %zu base configuration(s); "
          "cluster counts %zu",
          r->ds->nkernels, p->leave_one_out ? "leave-one-out" : "random holdout", r->e->splits,
          p->seed, p->nbases, p->clusters[0]);
  if (p->nclusters > 1) fprintf(h, " to %zu", p->clusters[p->nclusters - 1]);
  fputs(
      ". Errors are absolute percentage errors of held-out kernels at every target other "
      "than the base. Tables: <a href=\"summary.csv\">summary</a>, <a href=\"by_clusters.csv\">"
      "by clusters</a>, <a href=\"by_base.csv\">by base</a>, <a href=\"per_kernel.csv\">per "
      "kernel</a>, <a href=\"histogram.csv\">histogram</a>",
      h);
  fputs(r->predictions ? ", <a href=\"predictions.csv\">every prediction</a>.</p>\n"
                       : " (every prediction: evaluate --report-predictions writes "
                         "predictions.csv).</p>\n",
        h);
  for (int q = 0; q < 2; q++)
    if (r->e->note[q]) {
      fputs("<p><b>Note:</b> ", h);
      sp__xml_text(h, r->e->note[q]);
      fputs("</p>\n", h);
    }
  html_summary(r, h);
}

/* A plot inline (the same SVG as its file, which the caption links). */
static int html_figure(FILE *h, const report *r, const plot *p) {
  fputs("<figure>\n", h);
  plot_job j = {r, p};
  int st = draw_plot(&j, h);
  if (st) return st;
  fputs("<figcaption>", h);
  sp__xml_text(h, p->title);
  fprintf(h, " (<a href=\"%s\">%s</a>)</figcaption></figure>\n", p->file, p->file);
  return SP_OK;
}

typedef struct index_job {
  const report *r;
  const plan *pl;
} index_job;

static int write_index(const void *data, FILE *h) {
  const index_job *j = data;
  html_begin(j->r, h);
  int st = SP_OK;
  for (int q = 0; q < 2 && !st; q++) {
    if (!j->pl->present[q]) continue;
    fprintf(h, "<h2>%s</h2>\n", qname[q]);
    for (size_t i = 0; i < j->pl->n && !st; i++)
      if (j->pl->plots[i].q == (sp_quantity)q) st = html_figure(h, j->r, &j->pl->plots[i]);
  }
  fputs("</body></html>\n", h);
  return st;
}

/* ---- the directory ------------------------------------------------------------------ */

static int write_all(sp_reportdir *d, const report *r, const plan *pl, sp_error *err) {
  int st = SP_OK;
  for (size_t i = 0; i < NTABLES - !r->predictions && !st; i++)
    st = sp__reportdir_file(d, tables[i].file, tables[i].fn, r, err);
  for (size_t i = 0; i < pl->n && !st; i++) {
    plot_job j = {r, &pl->plots[i]};
    st = sp__reportdir_file(d, pl->plots[i].file, draw_plot, &j, err);
  }
  index_job ij = {r, pl};
  if (!st) st = sp__reportdir_file(d, "index.html", write_index, &ij, err);
  return st;
}

void sp_eval_report_options_init(sp_eval_report_options *o) { memset(o, 0, sizeof *o); }

int sp_evaluation_write_report(const sp_evaluation *e, const sp_dataset *ds,
                               const sp_eval_params *params, const char *dir, sp_error *err) {
  return sp_evaluation_write_report_with(e, ds, params, dir, NULL, err);
}

int sp_evaluation_write_report_with(const sp_evaluation *e, const sp_dataset *ds,
                                    const sp_eval_params *params, const char *dir,
                                    const sp_eval_report_options *opts, sp_error *err) {
  sp_error local;
  if (!err) err = &local;
  report r = {e, ds, params, {-1, -1}, opts && opts->predictions};
  pick_best(&r);
  plan pl;
  sp_c_numeric loc;
  if (make_plan(&r, &pl)) return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  if (sp__c_numeric_begin(&loc)) {
    free(pl.plots);
    return sp__fail(err, SP_ENOMEM, dir, 0, 0, NULL, "out of memory");
  }
  sp_reportdir d;
  int st = sp__reportdir_begin(&d, dir, err);
  if (!st) st = write_all(&d, &r, &pl, err);
  if (!st) st = sp__reportdir_commit(&d, err);
  sp__reportdir_abort(&d, err);
  sp__c_numeric_end(&loc);
  free(pl.plots);
  return st;
}
