/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli.h: shared pieces of the scalepredict command-line tool.  The tool uses
 * only the public header scalepredict.h. */
#ifndef SP_CLI_H
#define SP_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "scalepredict.h"

/* Exit statuses (documented in scalepredict(1)). */
enum {
  EXIT_OK = 0,
  EXIT_USAGE = 1,  /* bad command line */
  EXIT_DATA = 2,   /* invalid input data */
  EXIT_MODEL = 3,  /* invalid or corrupt model */
  EXIT_SYSTEM = 4, /* I/O or memory failure */
  EXIT_NUMERIC = 5 /* numerical failure */
};

typedef enum { FMT_TABLE, FMT_CSV, FMT_JSON } cli_format;

/* --force, in every command that writes a file or directory: let it replace
 * what scalepredict did not write (sp_output_set_force). */
#define CLI_OPT_FORCE 0x100
#define CLI_FORCE_HELP                                                              \
  "  --force           replace an output path that holds files scalepredict did\n"  \
  "                    not write, also files added inside an older output, which\n" \
  "                    are removed with it (by default they are kept and the\n"     \
  "                    command fails); an input of the command is never replaced"
/* --ignore-counter NAME (repeatable), --skip-unknown-kernels and
 * --skip-kernels-without-counters, in every command that reads counters.csv:
 * cli_data_option takes them (-1 when c is none of them, else 0 or the exit
 * status of a usage error), cli_dataset_load applies them and notes on
 * stderr what they skipped. */
#define CLI_OPT_IGNORE_COUNTER 0x101
#define CLI_OPT_SKIP_UNKNOWN 0x102
#define CLI_OPT_SKIP_UNCOUNTED 0x103
#define CLI_DATA_OPTIONS                                                    \
  {"ignore-counter", required_argument, 0, CLI_OPT_IGNORE_COUNTER},         \
      {"skip-unknown-kernels", no_argument, 0, CLI_OPT_SKIP_UNKNOWN}, {     \
    "skip-kernels-without-counters", no_argument, 0, CLI_OPT_SKIP_UNCOUNTED \
  }
#define CLI_DATA_HELP                                                                \
  "  --ignore-counter NAME\n"                                                        \
  "                    drop every counters.csv column named NAME (repeatable; a\n"   \
  "                    duplicated column is otherwise an error)\n"                   \
  "  --skip-unknown-kernels\n"                                                       \
  "                    skip counters.csv rows of kernels runs.csv lacks (else an\n"  \
  "                    error); what was skipped is noted on standard error\n"        \
  "  --skip-kernels-without-counters\n"                                              \
  "                    leave out the kernels of runs.csv that counters.csv has no\n" \
  "                    row of (else an error); noted on standard error"
int cli_data_option(int c, const char *arg, const char *cmd);
/* 1 when --skip-kernels-without-counters was given: the data may lack
 * kernels of runs.csv that another input (evaluate --families) names. */
int cli_data_skips_kernels(void);

/* A command's options as one table (options.c): each row gives
 * getopt_long an option and --help its lines, so that the two cannot
 * drift; rows of kind CLI_TEXT are lines of the help only (headings, blank
 * lines).  --help itself (-h) is every table's without a row.  What a row
 * does with its value:
 *   CLI_STRING  stores the argument (const char *) at offset of the context
 *   CLI_FLAG    sets the int at offset to 1
 *   CLI_UNFLAG  sets the int at offset to 0 (the off switch of a default)
 *   CLI_COUNT   an integer from 1 to 1000000 into the unsigned at offset
 *   CLI_DATA    cli_data_option(code, ...): the counters.csv options
 *   CLI_CALL    set(context, argument, command prefix): parses and checks
 *               the value, 0 or the exit status of a usage error
 *   CLI_OTHER   an option of another command that shares the parser (plan
 *               and complete): refused as unknown, by its whole name; not
 *               in the help */
typedef enum {
  CLI_TEXT,
  CLI_STRING,
  CLI_FLAG,
  CLI_UNFLAG,
  CLI_COUNT,
  CLI_DATA,
  CLI_CALL,
  CLI_OTHER
} cli_option_kind;
typedef int (*cli_setter)(void *ctx, const char *arg, const char *cmd);
typedef struct cli_option {
  cli_option_kind kind;
  const char *name; /* the long name, or NULL: a short option alone */
  int short_name;   /* its short option, or 0 */
  const char *arg;  /* the value's name in the help, NULL: no value */
  size_t offset;    /* CLI_STRING, CLI_(UN)FLAG, CLI_COUNT: the field */
  cli_setter set;   /* CLI_CALL */
  int code;         /* CLI_DATA: CLI_OPT_IGNORE_COUNTER ... */
  const char *help; /* the help's lines, LF between them (CLI_TEXT: as is);
                       NULL: the usage lines of the head name it */
  int column;       /* where the help starts, 0: the command's column */
} cli_option;
typedef struct cli_command {
  const char *prefix;    /* "evaluate " for the messages */
  const char *optstring; /* getopt_long's, ":h" for most */
  int operands;          /* arguments beside the options are the command's */
  const char *head;      /* the help before the options */
  const cli_option *opts;
  size_t nopts;
  int column;         /* where the options' help starts */
  const char *tail;   /* the help after them, or NULL */
  void (*more)(void); /* prints the help's end, or NULL */
} cli_command;
#define CLI_ROW_TEXT(text) \
  { CLI_TEXT, NULL, 0, NULL, 0, NULL, 0, text, 0 }
#define CLI_ROW(kind, name, arg, type, field, help) \
  { kind, name, 0, arg, offsetof(type, field), NULL, 0, help, 0 }
#define CLI_ROW_CALL(name, arg, set, help) \
  { CLI_CALL, name, 0, arg, 0, set, 0, help, 0 }
#define CLI_ROW_OTHER(name, arg) \
  { CLI_OTHER, name, 0, arg, 0, NULL, 0, NULL, 0 }
/* physet's options, train's and evaluate's alike: trees (unsigned),
 * median and line (int) are the fields of context type. */
#define CLI_ROWS_PHYSET(type, trees, median, line)                        \
  CLI_ROW(CLI_COUNT, "trees", "N", type, trees,                           \
          "trees in each of physet's forests (default 100)"),             \
      CLI_ROW(CLI_FLAG, "physet-median", NULL, type, median,              \
              "physet on the SM axis, from one measurement: the median\n" \
              "of similar kernels, the time under the block bound and\n"  \
              "not under the base time on fewer SMs (the default;\n"      \
              "docs/method.md)"),                                         \
      CLI_ROW(CLI_UNFLAG, "physet-mean", NULL, type, median,              \
              "physet from one measurement: the mean of similar\n"        \
              "kernels, the time up to the block bound's slack (what\n"   \
              "physet did before the median became its default)"),        \
      CLI_ROW(CLI_UNFLAG, "physet-no-line", NULL, type, line,             \
              "physet without the block-count lines: a kernel measured\n" \
              "at more SM counts is not predicted along a line in its\n"  \
              "blocks or waves per SM even where the model finds one\n"   \
              "holds (what physet did before; docs/method.md)")
#define CLI_ROW_FORCE                                                 \
  {                                                                   \
    CLI_CALL, "force", 0, NULL, 0, cli_set_force, 0,                  \
        "replace an output path that holds files scalepredict did\n"  \
        "not write, also files added inside an older output, which\n" \
        "are removed with it (by default they are kept and the\n"     \
        "command fails); an input of the command is never replaced",  \
        20                                                            \
  }
#define CLI_ROWS_DATA                                                                    \
  {CLI_DATA,                                                                             \
   "ignore-counter",                                                                     \
   0,                                                                                    \
   "NAME",                                                                               \
   0,                                                                                    \
   NULL,                                                                                 \
   CLI_OPT_IGNORE_COUNTER,                                                               \
   "drop every counters.csv column named NAME (repeatable; a\n"                          \
   "duplicated column is otherwise an error)",                                           \
   20},                                                                                  \
      {CLI_DATA,                                                                         \
       "skip-unknown-kernels",                                                           \
       0,                                                                                \
       NULL,                                                                             \
       0,                                                                                \
       NULL,                                                                             \
       CLI_OPT_SKIP_UNKNOWN,                                                             \
       "skip counters.csv rows of kernels runs.csv lacks (else an\n"                     \
       "error); what was skipped is noted on standard error",                            \
       20},                                                                              \
  {                                                                                      \
    CLI_DATA, "skip-kernels-without-counters", 0, NULL, 0, NULL, CLI_OPT_SKIP_UNCOUNTED, \
        "leave out the kernels of runs.csv that counters.csv has no\n"                   \
        "row of (else an error); noted on standard error",                               \
        20                                                                               \
  }
/* --force's setter (sp_output_set_force). */
int cli_set_force(void *ctx, const char *arg, const char *cmd);
/* Parses argv by the table: 0 with *done set after --help, else 0 or the
 * exit status of a usage error (the message printed).  Arguments beside
 * the options are an error unless cmd->operands (then from optind). */
int cli_parse_options(const cli_command *cmd, void *ctx, int argc, char **argv, int *done);
/* The command's help on standard output, its option list from the table. */
void cli_print_help(const cli_command *cmd);
int cli_dataset_load(const char *runs, const char *counters, sp_dataset **ds, sp_error *err);

/* Refuses, before any work, an output path the save would refuse: 0, or
 * the exit status after the message.  Under --force, notes on stderr the
 * files that replacing path removes although scalepredict did not write
 * them. */
int cli_check_output(const char *path, sp_output_kind kind);
/* Registers what a command reads as inputs that no output may replace
 * (sp_output_add_input): pairs of the option and the path it named (a NULL
 * path is skipped), ended by a NULL option.  0, or the exit status after
 * the message. */
int cli_add_inputs(const char *option, const char *path, ...);
/* Removes the temporaries of unfinished outputs on SIGINT, SIGTERM, SIGHUP,
 * after passing the signal on to the program cli_run_child runs. */
void cli_install_cleanup(void);
/* Runs argv (argv[0] a path) in a process group of its own and waits for
 * it (child.c): its exit status, or 128 + the signal that ended it (also
 * in *sig, else 0 there), or -1 when it could not be started. */
int cli_run_child(char *const *argv, int *sig);
/* For the signal handler: passes sig on to the running child's group and
 * waits for it to end (killing it after a grace period); async-signal-safe. */
void cli_stop_child(int sig);
/* Flushes and closes standard output: rc, or EXIT_SYSTEM after a message
 * naming standard output and the cause when a write to it failed. */
int cli_close_stdout(int rc);

/* Prints "scalepredict: <error>" and returns the exit status for it. */
int cli_fail(const sp_error *err);
/* Prints "scalepredict: <message>" plus a hint to run --help; EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One line "scalepredict: TEXT" on standard error, TEXT formatted as printf
 * does, with control characters escaped (\n, \t, \xNN) as every error line
 * is: for notes and messages that quote a path or a program name. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_exit_for(int status);
/* The usage error for getopt_long's answer c (":" for optstrings, so that
 * a missing value is told apart from an unknown option). */
int cli_bad_option(const char *cmd, int c, char **argv);

int cli_parse_format(const char *s, cli_format *out);
/* --format for the commands whose output is several tables (evaluate, dse,
 * governor): table or json, the same as --json; csv is refused, naming
 * where their CSV tables are.  0, or the exit status of a usage error. */
int cli_parse_format_tables(const char *cmd, const char *s, int *json);
/* Writes v as a JSON number (%.6g), or null when it is not finite. */
void cli_json_number(double v);
int cli_parse_ulong(const char *s, unsigned long *out);
/* A positive (or non-negative) finite number: 0, else -1. */
int cli_parse_positive(const char *s, double *out);
/* --grid-interp's value (dse, export): a whole number from 1 to 1000 into
 * *out, else the exit status of the usage error (printed). */
int cli_set_grid_interp(const char *arg, const char *cmd, unsigned *out);
int cli_parse_nonnegative(const char *s, double *out);
/* "N" or "A/B" (1 <= A <= B): N, or the share A/B of whole rounded to the
 * nearest and at least 1, into *out; -1 when s is neither. */
int cli_parse_share(const char *s, size_t whole, size_t *out);
/* Parses "CFG[,CFG...]" into out (room for cap entries), setting *n.  A
 * malformed configuration is sp_config_parse's error; more than cap
 * entries is SP_EINVAL. */
int cli_parse_config_list(const char *spec, sp_config *out, size_t cap, size_t *n, sp_error *err);

/* --method NAME: makes name the model's method in use; an error naming the
 * methods the model does carry (model_dir for the message) when it lacks
 * it. */
int cli_use_method(sp_model *m, const char *name, const char *model_dir, sp_error *err);
/* Progress on stderr when it is a terminal (sp_progress_fn). */
void cli_progress(void *user, size_t done, size_t total, const char *what);

/* Directory holding the bundled models/ (see cmd_default.c); NULL if none. */
const char *cli_data_root(void);
/* --model DIR|NAME: a model directory, or the name of a bundled model
 * (under cli_data_root()/models or the installed models); its directory
 * into buf. */
int cli_find_model(const char *spec, char *buf, size_t size, sp_error *err);

/* The files of a directory 'scalepredict profile' wrote, for --profile DIR
 * of predict, dse and export. */
typedef struct cli_profile {
  char dir[4096], runs[4096], counters[4096], launches[4096];
} cli_profile;
/* Fills p from dir; 1 (after a usage message) when dir is too long. */
int cli_profile_paths(const char *dir, const char *cmd, cli_profile *p);
/* Every kernel of ds (read from a profile's runs.csv, path runs) has a
 * launch count in the profile's launches.csv: a kernel without one would
 * leave the whole application's row silently (an edited or mixed
 * profile).  SP_EPARSE naming launches.csv and the kernel. */
int cli_profile_counts_check(const char *launches, const char *runs, const sp_dataset *ds,
                             sp_error *err);

/* What the commands that apply a saved model to a workload (dse, governor,
 * export) read: loads the model (a directory or a bundled model's name, as
 * cli_find_model finds it), selects its method (method NULL: the one
 * the model recommends) and, when runs is not NULL, loads the dataset. */
int cli_load_inputs(const char *model_dir, const char *method, const char *runs,
                    const char *counters, sp_model **m, sp_dataset **ds, sp_error *err);
/* A note on stderr about counters clamped to the training range. */
void cli_note_clamped(const char *kernel, size_t clamped, const char *first);

typedef struct predict_opts {
  const char *model_dir;
  const char *runs;
  const char *counters;
  const char *base;   /* NULL = the model's base */
  const char *target; /* configuration or "all" */
  const char *kernel; /* NULL = every kernel */
  cli_format format;
  int main_job;              /* printing for the bundled-model main job */
  const char *method;        /* NULL = the model's recommended method */
  const char *use_measured;  /* NULL, "all" or a list of configurations */
  double floor_w;            /* the board's floor at the base (W), 0: not given */
  const char *weights;       /* launches.csv of a profile: application rows */
  const char *profile_dir;   /* --profile's directory, or NULL */
  const char *target_memory; /* --target-memory: an unmeasured memory system */
  double target_floor_w;     /* the target card's floor (W), 0: not given */
} predict_opts;

int cli_predict_run(const predict_opts *o);

/* The commands, which main.c dispatches to. */
int cmd_train(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_surfaces(int argc, char **argv);
int cmd_default(int argc, char **argv);
int cmd_evaluate(int argc, char **argv);
/* plan and complete: adaptive measurement campaigns (cmd_plan.c). */
int cmd_plan(int argc, char **argv);
int cmd_complete(int argc, char **argv);
int cmd_dse(int argc, char **argv);
int cmd_governor(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_models(int argc, char **argv);

/* The tool's line-oriented text inputs (textin.c): calls fn on each line of
 * path, without its LF or CRLF end; fn returns 0 to go on, anything else
 * to stop with that.  A NUL byte, a line longer than max_line bytes or
 * more than max_lines lines is SP_EPARSE at the file and line, so that
 * /dev/zero or endless blank lines end at once; SP_EIO when path cannot be
 * read.  A FIFO nobody writes to reads as empty. */
typedef int (*cli_line_fn)(void *user, char *line, long ln, sp_error *err);
int cli_read_lines(const char *path, size_t max_line, long max_lines, cli_line_fn fn, void *user,
                   sp_error *err);

/* Names in text tables and notes (table.c): shown as UTF-8 characters,
 * with control characters, a backslash and bytes that are not UTF-8
 * escaped (\n, \\, \xNN); CSV and JSON write names exactly. */
/* The width of s as shown, in characters. */
size_t cli_text_width(const char *s);
/* Writes s as shown. */
void cli_put_text(FILE *fp, const char *s);
/* Writes s as shown in a column of exactly width characters: padded, or
 * shortened in the middle with "..." when longer. */
void cli_put_cell(FILE *fp, const char *s, size_t width);
/* A column's width: the longest entry's, at least least and at most most. */
size_t cli_column_width(size_t longest, size_t least, size_t most);

#endif
