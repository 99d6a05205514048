/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profile.h: a vendor profile of the user's application in memory: its
 * kernel launches with the vendor metrics the model's counters need, and
 * the launches grouped into entries (one kernel at one launch shape).
 * Internal. */
#ifndef SP_PROFILE_H
#define SP_PROFILE_H

#include <stddef.h>

#include "metricmap.h"
#include "scalepredict.h"

/* One profiled launch. */
typedef struct sp__launch {
  char *kernel;
  char *shape; /* "grid X,Y,Z block X,Y,Z" as the profiler reports it */
  double *v;   /* a value per wanted metric, NaN when n/a or absent */
  long line;   /* where it starts in the profile */
  double id;   /* ncu: the launch's ID (NaN for rocprofv3, whose rows a dispatch shares) */
} sp__launch;

/* Launches of one kernel at one launch shape. */
typedef struct sp__entry {
  char *name;   /* the kernel, with its shape when it has several */
  size_t rep;   /* the launch of median time, whose counters stand */
  size_t first; /* its first launch: entries keep the profile's order */
  size_t count;
  double median_ms, total_ms; /* over the launches with a time */
} sp__entry;

/* A further SM count's pass (second.c): its times, or why it has none. */
typedef struct sp__second {
  int sms;    /* the SM count it ran at */
  double *ms; /* per entry, its median time there; NULL: no point (refused, not run) */
  char *path; /* the pass's CSV, copied into the profile; NULL: none to keep */
  char *note; /* how the SM count was chosen, or why there is no point; or NULL */
} sp__second;

/* Metrics read besides the model's: the time, and what the profile says
 * about the device. */
enum { CTX_TIME, CTX_TIME_END, CTX_SMS, CTX_SM_HZ, CTX_MEM_HZ, CTX_N };

/* Where a reader finds things in the profile's header row. */
typedef struct sp__columns {
  size_t ncols;                 /* the header's width */
  int units;                    /* ncu: the units row was read */
  long id, kernel, grid, block; /* ncu: ID, Kernel Name, Grid Size, Block Size;
                                   rocprofv3: Dispatch_Id, Kernel_Name,
                                   Grid_Size, Workgroup_Size */
  long name, value;             /* rocprofv3: Counter_Name, Counter_Value */
  long device;                  /* ncu: device__attribute_display_name */
  long *metric;                 /* per wanted metric, its column or -1 */
  /* rocprofv3: dispatch id -> launch, open addressing */
  size_t hcap;
  char **hkey;
  size_t *hval;
} sp__columns;

struct sp_profile {
  int vendor;
  sp__columns cols;
  char *path;
  long header_line;
  /* The wanted metrics: every metric of the model's counters' rules, then
   * the context metrics. */
  size_t nmetrics;
  char **metrics;
  unsigned char *seen; /* 1 when the profile has the metric */
  double *scale;       /* per wanted metric: 1, or the alternative's scale */
  const char **source; /* per wanted metric: NULL, or the alternative read */
  size_t ctx[CTX_N];   /* their indexes in metrics, or (size_t)-1 */
  size_t ncounters;
  const sp_counter_rule **rules; /* the model's counters, in its order */
  size_t (*at)[SP_RULE_METRICS]; /* rule metric j of counter c: metrics[at[c][j]] */
  size_t nlaunches, cap;
  sp__launch *launches;
  size_t nentries;
  sp__entry *entries;
  char *device;
  size_t nmissing;
  char **missing; /* wanted metrics the profile lacks */
  size_t nsecond;
  sp__second *second; /* the further SM counts' passes, in the order run */
  char *note;         /* why no further pass ran (profile.txt's "second: none:"), or NULL */
  char *origin;       /* what profile.txt names as the source (path when NULL) */
};

/* Adds a launch (kernel and shape copied); its values start NaN. */
int sp__profile_push(sp_profile *p, const char *kernel, const char *shape, long line,
                     sp__launch **out, sp_error *err);
/* Index of metric name among the wanted ones, or (size_t)-1. */
size_t sp__profile_metric(const sp_profile *p, const char *name);

/* The name of pass s's CSV in the profile directory, into buf (64 bytes):
 * profile-second-raw.csv for the first pass, profile-second-raw-N.csv
 * (N its SM count) for the others. */
void sp__second_file(const sp_profile *p, const sp__second *s, char *buf, size_t size);

/* A launch's kernel name (not empty) and time in ns (inside the bounds
 * runs.csv is read with, so that what profile writes predict reads), at
 * line and 0-based column col of the profile, the field named; text is
 * the time as written. */
int sp__check_kernel(const sp_profile *p, const char *name, long line, long col, sp_error *err);
int sp__check_launch_ns(const sp_profile *p, double ns, const char *text, long line, long col,
                        const char *field, sp_error *err);

/* A copy of text (NULL for NULL) into *slot, the old one freed;
 * SP_ENOMEM leaves *slot as it was. */
int sp__replace_text(char **slot, const char *text);

/* Column of name in a header row, or -1. */
long sp__profile_column(const char *const *fields, size_t n, const char *name);

#endif
