/* SPDX-License-Identifier: GPL-3.0-or-later */
/* options.c: the commands' options as tables (cli.h, cli_option): one
 * table per command gives getopt_long its options and --help its option
 * list, so that the two cannot drift apart. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Rows that are options, and the longest optstring a table can ask for. */
#define MAX_ROWS 96

static int is_option(const cli_option *o) { return o->kind != CLI_TEXT; }

/* Builds getopt_long's table from the command's rows: each option row's
 * index is its val, past the short options' characters (256 on). */
static size_t long_options(const cli_command *cmd, struct option *lo) {
  size_t n = 0;
  for (size_t i = 0; i < cmd->nopts && n < MAX_ROWS; i++) {
    const cli_option *o = &cmd->opts[i];
    if (!is_option(o) || !o->name) continue;
    lo[n++] = (struct option){o->name, o->arg ? required_argument : no_argument, 0,
                              o->short_name ? o->short_name : 256 + (int)i};
  }
  lo[n++] = (struct option){"help", no_argument, 0, 'h'};
  lo[n] = (struct option){0, 0, 0, 0};
  return n;
}

static const cli_option *row_of(const cli_command *cmd, int ch) {
  if (ch >= 256) return &cmd->opts[ch - 256];
  for (size_t i = 0; i < cmd->nopts; i++)
    if (is_option(&cmd->opts[i]) && cmd->opts[i].short_name == ch) return &cmd->opts[i];
  return NULL;
}

int cli_set_force(void *ctx, const char *arg, const char *cmd) {
  (void)ctx, (void)arg, (void)cmd;
  sp_output_set_force(1);
  return 0;
}

/* Stores or checks one option's value: 0, or the exit status of a usage
 * error (the message printed). */
static int apply(const cli_command *cmd, const cli_option *o, void *ctx, const char *arg) {
  char *field = (char *)ctx + o->offset;
  unsigned long v;
  switch (o->kind) {
    case CLI_STRING:
      *(const char **)field = arg;
      return 0;
    case CLI_FLAG:
    case CLI_UNFLAG:
      *(int *)field = o->kind == CLI_FLAG;
      return 0;
    case CLI_COUNT:
      if (cli_parse_ulong(arg, &v) || v < 1 || v > 1000000)
        return cli_usage_error(cmd->prefix, "'--%s' needs an integer from 1 to 1000000", o->name);
      *(unsigned *)field = (unsigned)v;
      return 0;
    case CLI_DATA:
      return cli_data_option(o->code, arg, cmd->prefix);
    case CLI_CALL:
      return o->set(ctx, arg, cmd->prefix);
    case CLI_OTHER:
      return cli_usage_error(cmd->prefix, "unknown option '--%s'", o->name);
    default:
      return 0;
  }
}

int cli_parse_options(const cli_command *cmd, void *ctx, int argc, char **argv, int *done) {
  struct option lo[MAX_ROWS + 2];
  long_options(cmd, lo);
  int ch;
  opterr = 0;
  *done = 0;
  while ((ch = getopt_long(argc, argv, cmd->optstring, lo, NULL)) != -1) {
    const cli_option *o = ch == 'h' ? NULL : row_of(cmd, ch);
    if (ch == 'h') {
      cli_print_help(cmd);
      *done = 1;
      return EXIT_OK;
    }
    if (!o) return cli_bad_option(cmd->prefix, ch, argv);
    int rc = apply(cmd, o, ctx, optarg);
    if (rc) return rc;
  }
  if (optind < argc && !cmd->operands)
    return cli_usage_error(cmd->prefix, "unexpected argument '%s'", argv[optind]);
  return EXIT_OK;
}

/* "  --name ARG" (or "  -x ARG" for a short option alone), then the help
 * from column col, on the next line when the lead reaches it. */
static void print_row(const cli_command *cmd, const cli_option *o) {
  if (!is_option(o)) {
    fputs(o->help, stdout);
    return;
  }
  if (!o->help) return; /* told in the usage lines */
  const int col = o->column ? o->column : cmd->column;
  int w = o->name ? printf("  --%s", o->name) : printf("  -%c", o->short_name);
  if (o->arg) w += printf(" %s", o->arg);
  if (w + 1 > col) {
    putchar('\n');
    w = 0;
  }
  for (const char *s = o->help; *s;) {
    const char *end = strchr(s, '\n');
    size_t len = end ? (size_t)(end - s) : strlen(s);
    printf("%*s%.*s\n", col - w, "", (int)len, s);
    w = 0;
    s += len + (end != NULL);
  }
}

void cli_print_help(const cli_command *cmd) {
  fputs(cmd->head, stdout);
  for (size_t i = 0; i < cmd->nopts; i++) print_row(cmd, &cmd->opts[i]);
  if (cmd->tail) fputs(cmd->tail, stdout);
  if (cmd->more) cmd->more();
}
