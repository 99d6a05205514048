/* SPDX-License-Identifier: GPL-3.0-or-later */
/* inputreg.c: the files and directories a command reads, so that none is
 * replaced by one of its outputs (issue 26): `complete --runs F --out F`
 * would turn the measurements into the completion of a smaller grid, and
 * `dse --profile prof --report prof` would put a report where the profile
 * was.  An input is known by its device and inode, so another name or a
 * link to it is the same input; a directory output is checked against the
 * directories above each input, on the path as given and on the path its
 * links lead to. */
#define _GNU_SOURCE /* realpath, strdup */
#include "inputreg.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "path.h"
#include "scalepredict.h"
#include "status.h"

typedef struct input {
  dev_t dev;
  ino_t ino;
  int dir;     /* a directory (a model, a profile): what is in it is input too */
  char *path;  /* as given, for messages */
  char *label; /* the option that named it, or NULL */
} input;

/* Registered by the tool from its command line, before any output. */
static input *inputs;
static size_t ninputs;

int sp_output_add_input(const char *path, const char *label, sp_error *err) {
  struct stat st;
  if (!path || !*path || stat(path, &st) != 0) return SP_OK; /* nothing there to keep */
  input *grown = realloc(inputs, (ninputs + 1) * sizeof *inputs);
  if (!grown) return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  inputs = grown;
  input in = {st.st_dev, st.st_ino, S_ISDIR(st.st_mode), strdup(path),
              label ? strdup(label) : NULL};
  if (!in.path || (label && !in.label)) {
    free(in.path);
    free(in.label);
    return sp__fail(err, SP_ENOMEM, path, 0, 0, NULL, "out of memory");
  }
  inputs[ninputs++] = in;
  return SP_OK;
}

void sp_output_clear_inputs(void) {
  for (size_t i = 0; i < ninputs; i++) {
    free(inputs[i].path);
    free(inputs[i].label);
  }
  free(inputs);
  inputs = NULL;
  ninputs = 0;
}

/* Whether a directory on the absolute, resolved path abs, or abs itself,
 * is the file dev/ino. */
static int on_chain(char *abs, dev_t dev, ino_t ino) {
  struct stat st;
  for (;;) {
    if (stat(abs, &st) == 0 && st.st_dev == dev && st.st_ino == ino) return 1;
    char *slash = strrchr(abs, '/');
    if (!slash || slash == abs) break;
    *slash = '\0';
  }
  return stat("/", &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

/* Whether the directory dev/ino holds in, at any depth: the directories
 * above it as named (its parent resolved) and above where its links lead. */
static int holds(const input *in, dev_t dev, ino_t ino) {
  char buf[PATH_MAX];
  int found = 0;
  if (realpath(in->path, buf)) found = on_chain(buf, dev, ino);
  char *parent = sp__dup_parent(in->path);
  if (!found && parent && realpath(parent, buf)) found = on_chain(buf, dev, ino);
  free(parent);
  return found;
}

/* Whether the input directory in holds path, at any depth: on the path
 * as named (its parent resolved) or where its links lead. */
static int within(const input *in, const char *path) {
  char buf[PATH_MAX];
  int found = 0;
  char *parent = sp__dup_parent(path);
  if (parent && realpath(parent, buf)) found = on_chain(buf, in->dev, in->ino);
  if (!found && realpath(path, buf)) found = on_chain(buf, in->dev, in->ino);
  free(parent);
  return found;
}

sp__input_clash sp__input_clash_of(const char *path, int dir_kind, const char **label,
                                   const char **in_path) {
  struct stat st;
  if (!ninputs || stat(path, &st) != 0) return SP_INPUT_APART;
  for (size_t i = 0; i < ninputs; i++) {
    sp__input_clash clash = SP_INPUT_APART;
    if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
      clash = SP_INPUT_SAME;
    else if (dir_kind && S_ISDIR(st.st_mode) && holds(&inputs[i], st.st_dev, st.st_ino))
      clash = SP_INPUT_HOLDS;
    else if (inputs[i].dir && within(&inputs[i], path))
      clash = SP_INPUT_WITHIN;
    if (clash) {
      *label = inputs[i].label;
      *in_path = inputs[i].path;
      return clash;
    }
  }
  return SP_INPUT_APART;
}
