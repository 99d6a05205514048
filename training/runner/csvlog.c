/* SPDX-License-Identifier: GPL-3.0-or-later */
/* csvlog.c: see csvlog.h. */
#define _POSIX_C_SOURCE 200809L
#include "csvlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The keys in file order, and an open-addressing hash index over them
 * (at most half full; a slot holds a key's hash and its index + 1, 0 when
 * empty) so that a lookup costs the same in a sweep of a million rows as in
 * one of ten. */
typedef struct slot {
  uint64_t hash;
  size_t key; /* index into keys + 1; 0 = empty */
} slot;

struct csvlog {
  int fd;
  char *path;
  char **keys;
  size_t nkeys, capkeys;
  slot *slots;
  size_t nslots;
};

static uint64_t hash_key(const char *key) {
  uint64_t h = 14695981039346656037u; /* FNV-1a */
  for (; *key; ++key) h = (h ^ (unsigned char)*key) * 1099511628211u;
  h ^= h >> 29; /* the low bits index the table: mix the high ones in */
  h *= 0xbf58476d1ce4e5b9u;
  return h ^ h >> 32;
}

/* The slot holding key (hash h), or the empty slot where it would go. */
static size_t find_slot(const csvlog *log, const char *key, uint64_t h) {
  size_t i = (size_t)h & (log->nslots - 1);
  while (log->slots[i].key &&
         (log->slots[i].hash != h || strcmp(log->keys[log->slots[i].key - 1], key) != 0))
    i = (i + 1) & (log->nslots - 1);
  return i;
}

static int grow_index(csvlog *log) {
  size_t n = log->nslots ? 2 * log->nslots : 1024;
  slot *old = log->slots;
  size_t nold = log->nslots;
  if ((log->slots = calloc(n, sizeof *log->slots)) == NULL) {
    log->slots = old;
    return -1;
  }
  log->nslots = n;
  /* The keys in the index are distinct: each goes to the first empty slot. */
  for (size_t i = 0; i < nold; ++i) {
    if (!old[i].key) continue;
    size_t j = (size_t)old[i].hash & (n - 1);
    while (log->slots[j].key) j = (j + 1) & (n - 1);
    log->slots[j] = old[i];
  }
  free(old);
  return 0;
}

static int add_key(csvlog *log, const char *line, size_t len) {
  /* The key is everything before the fourth comma. */
  size_t commas = 0, end = 0;
  while (end < len && !(line[end] == ',' && ++commas == 4)) ++end;
  if (log->nkeys == log->capkeys) {
    size_t cap = log->capkeys ? 2 * log->capkeys : 256;
    char **k = realloc(log->keys, cap * sizeof *k);
    if (k == NULL) return -1;
    log->keys = k;
    log->capkeys = cap;
  }
  if (2 * (log->nkeys + 1) > log->nslots && grow_index(log) != 0) return -1;
  char *key = strndup(line, end);
  if (key == NULL) return -1;
  uint64_t h = hash_key(key);
  size_t i = find_slot(log, key, h);
  log->keys[log->nkeys++] = key;
  if (log->slots[i].key == 0) { /* a key twice in the file keeps its first row */
    log->slots[i].hash = h;
    log->slots[i].key = log->nkeys;
  }
  return 0;
}

static char *read_all(int fd, size_t *len) {
  struct stat st;
  if (fstat(fd, &st) != 0) return NULL;
  char *buf = malloc((size_t)st.st_size + 1);
  size_t got = 0;
  while (buf && got < (size_t)st.st_size) {
    ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
    if (n <= 0) {
      free(buf);
      return NULL;
    }
    got += (size_t)n;
  }
  if (buf) buf[got] = '\0';
  *len = got;
  return buf;
}

static int write_line(int fd, const char *line, char *err, size_t size) {
  size_t len = strlen(line);
  ssize_t n = write(fd, line, len);
  if (n != (ssize_t)len || fsync(fd) != 0) {
    snprintf(err, size, "appending a row failed: %s", n < 0 ? strerror(errno) : "short write");
    return -1;
  }
  return 0;
}

/* Cuts a torn last line off, checks the header and loads the keys. */
static int load(csvlog *log, const char *header, long *dropped, char *err, size_t size) {
  size_t len = 0;
  char *text = read_all(log->fd, &len);
  if (text == NULL) {
    snprintf(err, size, "%s: could not be read", log->path);
    return -1;
  }
  size_t keep = len;
  while (keep > 0 && text[keep - 1] != '\n') --keep;
  *dropped = (long)(len - keep);
  if (keep < len && ftruncate(log->fd, (off_t)keep) != 0) {
    snprintf(err, size, "%s: cutting a torn last line failed: %s", log->path, strerror(errno));
    free(text);
    return -1;
  }
  int rc = 0;
  size_t hlen = strlen(header);
  if (keep == 0) {
    rc = write_line(log->fd, header, err, size);
  } else if (keep < hlen || memcmp(text, header, hlen) != 0) {
    snprintf(err, size, "%s:1: expected the header '%.*s'", log->path, (int)(hlen - 1), header);
    rc = -1;
  }
  for (size_t pos = hlen; rc == 0 && pos < keep;) {
    const char *nl = memchr(text + pos, '\n', keep - pos);
    size_t l = (size_t)(nl - (text + pos));
    if (l > 0 && add_key(log, text + pos, l) != 0) {
      snprintf(err, size, "out of memory");
      rc = -1;
    }
    pos += l + 1;
  }
  free(text);
  return rc;
}

int csvlog_open(const char *path, const char *header, csvlog **out, long *dropped, char *err,
                size_t size) {
  csvlog *log = calloc(1, sizeof *log);
  if (log == NULL || (log->path = strdup(path)) == NULL) {
    free(log);
    snprintf(err, size, "out of memory");
    return -1;
  }
  log->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log->fd < 0) {
    snprintf(err, size, "%s: %s", path, strerror(errno));
    csvlog_close(log);
    return -1;
  }
  if (flock(log->fd, LOCK_EX | LOCK_NB) != 0) {
    snprintf(err, size, "%s: another process is writing it", path);
    csvlog_close(log);
    return -1;
  }
  if (load(log, header, dropped, err, size) != 0) {
    csvlog_close(log);
    return -1;
  }
  *out = log;
  return 0;
}

void csvlog_close(csvlog *log) {
  if (log == NULL) return;
  if (log->fd >= 0) close(log->fd);
  for (size_t i = 0; i < log->nkeys; ++i) free(log->keys[i]);
  free(log->keys);
  free(log->slots);
  free(log->path);
  free(log);
}

int csvlog_has(const csvlog *log, const char *key) {
  return log->nslots > 0 && log->slots[find_slot(log, key, hash_key(key))].key != 0;
}

size_t csvlog_rows(const csvlog *log) { return log->nkeys; }

int csvlog_append(csvlog *log, const char *line, char *err, size_t size) {
  size_t len = strlen(line);
  if (len == 0 || line[len - 1] != '\n' || memchr(line, '\n', len - 1)) {
    snprintf(err, size, "internal: a row must be one complete line");
    return -1;
  }
  if (write_line(log->fd, line, err, size) != 0) return -1;
  if (add_key(log, line, len - 1) != 0) {
    snprintf(err, size, "out of memory");
    return -1;
  }
  return 0;
}
