/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metricmap.h: the one table from vendor profiler metrics to the model's
 * counters (docs/profile.md lists it per vendor).  The harness importer
 * (training/runner/ncu.c) compiles metricmap.c too, so that a model trained
 * on the harness and a user's profile compute every counter the same way.
 * metricmap.c uses the C library only, for that reason.  Internal. */
#ifndef SP_METRICMAP_H
#define SP_METRICMAP_H

#include <stddef.h>

#include "scalepredict.h"

/* The most vendor metrics one counter reads. */
#define SP_RULE_METRICS 8

/* One counter: the vendor metrics it is computed from and how. */
typedef struct sp_counter_rule {
  const char *counter;                  /* the model's counter name */
  const char *metrics[SP_RULE_METRICS]; /* NULL after the last */
  /* The counter from the metrics' values, v[i] for metrics[i] (NaN where a
   * value is "n/a"); NaN when it cannot be computed. */
  double (*fn)(const double *v);
  const char *analogue; /* the paper's Table II counter, or "" */
} sp_counter_rule;

/* The most alternatives one metric has. */
#define SP_METRIC_ALTS 4

/* A vendor metric that some metric sets lack, and the metrics that give
 * the same quantity: the metric's value is an alternative's times its
 * scale.  Only exact equivalences are listed (a byte count from a count of
 * 32-byte sectors), never estimates. */
typedef struct sp_metric_alternatives {
  const char *metric;
  const char *alt[SP_METRIC_ALTS]; /* NULL after the last */
  double scale[SP_METRIC_ALTS];
} sp_metric_alternatives;

/* Alternative i of vendor's metric, its scale into *scale; NULL past the
 * last (and for a metric without alternatives). */
const char *sp__metric_alternative(int vendor, const char *metric, size_t i, double *scale);

/* The rule for counter under vendor (SP_VENDOR_*), or NULL. */
const sp_counter_rule *sp__metricmap_find(int vendor, const char *counter);
/* Rule i of vendor's table, NULL past the last. */
const sp_counter_rule *sp__metricmap_at(int vendor, size_t i);
/* A metric's value as a profiler prints it ("1,234.5" with thousands
 * separators); NaN for "n/a", "" or anything else that is not a number. */
double sp__metric_number(const char *s);
/* How many metrics rule r reads. */
size_t sp__rule_metric_count(const sp_counter_rule *r);

#endif
