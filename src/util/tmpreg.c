/* tmpreg.c: the temporaries of outputs in progress, for sp_output_cleanup.
 * A model or report is built in a temporary sibling and renamed into place;
 * when the tool is interrupted (SIGINT, SIGTERM) its handler calls
 * sp_output_cleanup, which removes what is recorded here.  The table is
 * fixed-size and static so that the handler needs no allocation to read it. */
#include "tmpreg.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "scalepredict.h"

#define SLOTS 16

static char paths[SLOTS][PATH_MAX];
static volatile sig_atomic_t used[SLOTS];

void sp__tmp_register(const char *path) {
  for (size_t i = 0; i < SLOTS; i++)
    if (!used[i]) {
      int n = snprintf(paths[i], sizeof paths[i], "%s", path);
      used[i] = n > 0 && (size_t)n < sizeof paths[i];
      return;
    }
}

void sp__tmp_unregister(const char *path) {
  for (size_t i = 0; i < SLOTS; i++)
    if (used[i] && !strcmp(paths[i], path)) used[i] = 0;
}

void sp_output_cleanup(void) {
  for (size_t i = 0; i < SLOTS; i++) {
    if (!used[i]) continue;
    used[i] = 0;
    struct stat st;
    if (lstat(paths[i], &st) != 0) continue;
    if (S_ISDIR(st.st_mode))
      sp__tree_remove(paths[i]);
    else
      unlink(paths[i]);
  }
}
