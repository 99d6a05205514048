/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sha256.h: SHA-256 (FIPS 180-4) for model provenance and integrity.
 * Internal to libscalepredict. */
#ifndef SP_SHA256_H
#define SP_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct sp_sha256 {
  uint32_t h[8];
  uint64_t length; /* bytes hashed so far */
  unsigned char block[64];
  size_t used; /* bytes in block */
} sp_sha256;

void sp__sha256_init(sp_sha256 *s);
void sp__sha256_update(sp_sha256 *s, const void *data, size_t n);
/* Writes the digest as 64 lowercase hex digits plus NUL into hex[65]. */
void sp__sha256_final_hex(sp_sha256 *s, char hex[65]);
/* Hashes a whole file; returns 0 or -1 when it cannot be read. */
int sp__sha256_file(const char *path, char hex[65]);
/* Hashes what is left of fp; -1 when it cannot be read or holds more than
 * max bytes. */
int sp__sha256_stream(FILE *fp, size_t max, char hex[65]);

#endif
