/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_classifier.c: unit tests for the FANN cluster classifier. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <doublefann.h>

#include "model/classifier.h"
#include "scalepredict.h"

/* A separable 3-class problem with 4 normalized inputs: eight jittered
 * copies of one prototype per class, sample s of class s % 3. */
#define NIN 4
#define NCLS 3
#define NSAMP 24
static const double prototype[NCLS][NIN] = {
    {0.82, 0.13, 0.385, 0.61}, {0.17, 0.74, 0.52, 0.29}, {0.45, 0.36, 0.91, 0.07}};
static const double jitter[NSAMP / NCLS][NIN] = {
    {0.031, -0.047, 0.012, 0.058},   {-0.052, 0.023, -0.038, 0.006}, {0.017, 0.061, 0.044, -0.029},
    {-0.008, -0.019, -0.057, 0.041}, {0.049, 0.005, 0.027, -0.053},  {-0.036, -0.064, 0.009, 0.022},
    {0.062, 0.038, -0.016, -0.011},  {-0.027, 0.014, 0.053, 0.035}};

static double xs[NSAMP * NIN];
static size_t labels[NSAMP];

static void make_problem(void) {
  for (size_t s = 0; s < NSAMP; s++) {
    labels[s] = s % NCLS;
    for (size_t j = 0; j < NIN; j++) xs[s * NIN + j] = prototype[s % NCLS][j] + jitter[s / NCLS][j];
  }
}

static const double probe[NIN] = {0.5125, 0.4375, 0.6893, 0.2385};

static sp_classifier_params params(unsigned long seed) {
  sp_classifier_params p = {seed, 2000, 1e-4};
  return p;
}

static sp_classifier *train_ok(unsigned long seed) {
  const sp_classifier_params p = params(seed);
  sp_classifier *c = NULL;
  ck_assert_int_eq(sp__classifier_train(xs, labels, NSAMP, NIN, NCLS, &p, &c), SP_OK);
  ck_assert_ptr_nonnull(c);
  return c;
}

/* ---- a temporary directory per test ------------------------------------ */

static char tmpdir[256];

static void make_tmpdir(void) {
  const char *base = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/sp_classifier_XXXXXX",
           base != NULL && *base != '\0' ? base : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void tmp_path(char *buf, size_t size, const char *name) {
  ck_assert_int_lt(snprintf(buf, size, "%s/%s", tmpdir, name), (int)size);
}

static void write_file(const char *path, const char *text, size_t len) {
  FILE *fp = fopen(path, "wb");
  ck_assert_ptr_nonnull(fp);
  ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
  ck_assert_int_eq(fclose(fp), 0);
}

/* The whole file, NUL-terminated; *len receives its length. */
static char *read_file(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  ck_assert_ptr_nonnull(fp);
  ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
  const long size = ftell(fp);
  ck_assert_int_ge(size, 0);
  rewind(fp);
  char *text = malloc((size_t)size + 1);
  ck_assert_ptr_nonnull(text);
  ck_assert_uint_eq(fread(text, 1, (size_t)size, fp), (size_t)size);
  text[size] = '\0';
  fclose(fp);
  *len = (size_t)size;
  return text;
}

/* Saves a freshly trained network as name in the temporary directory. */
static void save_trained(const char *name, char *path, size_t size) {
  sp_classifier *c = train_ok(2385);
  tmp_path(path, size, name);
  ck_assert_int_eq(sp__classifier_save(c, path), SP_OK);
  sp__classifier_free(c);
}

/* A copy of the file at src with the first occurrence of from replaced by
 * to, written to dst. */
static void write_edited(const char *src, const char *dst, const char *from, const char *to) {
  size_t len;
  char *text = read_file(src, &len);
  char *at = strstr(text, from);
  ck_assert_ptr_nonnull(at);
  FILE *fp = fopen(dst, "wb");
  ck_assert_ptr_nonnull(fp);
  fwrite(text, 1, (size_t)(at - text), fp);
  fputs(to, fp);
  fputs(at + strlen(from), fp);
  ck_assert_int_eq(fclose(fp), 0);
  free(text);
}

/* Saves a network made with FANN directly, for topologies the classifier
 * itself never produces. */
static void save_fann(struct fann *ann, const char *name, char *path, size_t size) {
  ck_assert_ptr_nonnull(ann);
  tmp_path(path, size, name);
  ck_assert_int_eq(fann_save(ann, path), 0);
  fann_destroy(ann);
}

/* Removes dir and everything in it (plain files and directories). */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  ck_assert_ptr_nonnull(d);
  const struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char path[1024];
    struct stat st;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    ck_assert_int_lt(snprintf(path, sizeof path, "%s/%s", dir, e->d_name), (int)sizeof path);
    ck_assert_int_eq(lstat(path, &st), 0);
    if (S_ISDIR(st.st_mode))
      remove_tree(path);
    else
      ck_assert_int_eq(unlink(path), 0);
  }
  closedir(d);
  ck_assert_int_eq(rmdir(dir), 0);
}

static void remove_tmpdir(void) { remove_tree(tmpdir); }

static void expect_load(const char *path, size_t nin, size_t ncls, int want) {
  sp_classifier *c = (sp_classifier *)&c; /* must be reset to NULL */
  ck_assert_int_eq(sp__classifier_load(path, nin, ncls, &c), want);
  ck_assert_ptr_null(c);
}

/* ---- training ------------------------------------------------------------ */

START_TEST(test_learns_separable) {
  sp_classifier *c = train_ok(2385);
  double out[NCLS], mse = 0.0;
  ck_assert_int_eq(sp__classifier_has_network(c), 1);
  ck_assert_uint_eq(sp__classifier_inputs(c), NIN);
  ck_assert_uint_eq(sp__classifier_classes(c), NCLS);
  for (size_t s = 0; s < NSAMP; s++) {
    ck_assert_uint_eq(sp__classifier_classify(c, xs + s * NIN, out), labels[s]);
    for (size_t j = 0; j < NCLS; j++) {
      ck_assert(out[j] >= 0.0 && out[j] <= 1.0);
      mse += pow(out[j] - (j == labels[s] ? 1.0 : 0.0), 2);
    }
  }
  /* The reported MSE is that of the final network (FANN sums in float). */
  mse /= NSAMP * NCLS;
  ck_assert_double_eq_tol(sp__classifier_train_mse(c), mse, 1e-5 * mse + 1e-9);
  ck_assert_uint_eq(sp__classifier_classify(c, xs, NULL), labels[0]);
  sp__classifier_free(c);
}
END_TEST

/* Same seed, same network, whatever happened to rand() in between. */
START_TEST(test_deterministic) {
  double a[NCLS], b[NCLS], other[NCLS];
  sp_classifier *c = train_ok(20150207);
  sp__classifier_classify(c, probe, a);
  const double mse = sp__classifier_train_mse(c);
  sp__classifier_free(c);

  srand((unsigned)time(NULL));
  (void)rand();
  c = train_ok(20150207);
  sp__classifier_classify(c, probe, b);
  ck_assert_mem_eq(a, b, sizeof a);
  ck_assert_mem_eq(&mse, &(double){sp__classifier_train_mse(c)}, sizeof mse);
  sp__classifier_free(c);

  c = train_ok(20150208);
  sp__classifier_classify(c, probe, other);
  ck_assert(memcmp(a, other, sizeof a) != 0);
  sp__classifier_free(c);
}
END_TEST

START_TEST(test_train_invalid) {
  const sp_classifier_params p = params(1);
  sp_classifier_params bad;
  sp_classifier *c = (sp_classifier *)&c;
  size_t bad_labels[NSAMP];
  double bad_x[NSAMP * NIN];

  ck_assert_int_eq(sp__classifier_train(xs, labels, NSAMP, NIN, NCLS, &p, NULL), SP_EINVAL);
#define EXPECT_EINVAL(call)              \
  do {                                   \
    c = (sp_classifier *)&c;             \
    ck_assert_int_eq((call), SP_EINVAL); \
    ck_assert_ptr_null(c);               \
  } while (0)
  EXPECT_EINVAL(sp__classifier_train(xs, labels, NSAMP, NIN, NCLS, NULL, &c));
  EXPECT_EINVAL(sp__classifier_train(xs, labels, 0, NIN, NCLS, &p, &c));
  EXPECT_EINVAL(sp__classifier_train(xs, labels, NSAMP, NIN, 0, &p, &c));
  EXPECT_EINVAL(sp__classifier_train(xs, labels, NSAMP, 0, NCLS, &p, &c));
  EXPECT_EINVAL(sp__classifier_train(NULL, labels, NSAMP, NIN, NCLS, &p, &c));
  EXPECT_EINVAL(sp__classifier_train(xs, NULL, NSAMP, NIN, NCLS, &p, &c));
  EXPECT_EINVAL(sp__classifier_train(xs, labels, NSAMP, NIN, 1u << 20, &p, &c));

  memcpy(bad_labels, labels, sizeof labels);
  bad_labels[17] = NCLS;
  EXPECT_EINVAL(sp__classifier_train(xs, bad_labels, NSAMP, NIN, NCLS, &p, &c));

  const double non_finite[] = {NAN, INFINITY, -INFINITY};
  for (size_t i = 0; i < 3; i++) {
    memcpy(bad_x, xs, sizeof xs);
    bad_x[NSAMP * NIN - 3] = non_finite[i];
    EXPECT_EINVAL(sp__classifier_train(bad_x, labels, NSAMP, NIN, NCLS, &p, &c));
  }

  const double bad_error[] = {NAN, -1e-4, 1.25, INFINITY};
  for (size_t i = 0; i < 4; i++) {
    bad = p;
    bad.desired_error = bad_error[i];
    EXPECT_EINVAL(sp__classifier_train(xs, labels, NSAMP, NIN, NCLS, &bad, &c));
  }
#undef EXPECT_EINVAL
}
END_TEST

/* FANN must neither print nor log anything, on success or on failure. */
START_TEST(test_silent) {
  char out_path[300], net[300], cut[300], missing[300];
  size_t len;
  make_tmpdir();
  tmp_path(out_path, sizeof out_path, "captured");
  tmp_path(missing, sizeof missing, "no/such/dir/net");
  tmp_path(cut, sizeof cut, "cut");
  save_trained("net", net, sizeof net);
  char *text = read_file(net, &len);
  write_file(cut, text, len - len / 7);
  free(text);

  /* Start from a FANN that logs to stderr, as if nothing had silenced it
   * yet in this process. */
  fann_set_error_log(NULL, stderr);
  fflush(stdout);
  fflush(stderr);
  const int saved_out = dup(1), saved_err = dup(2);
  const int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ck_assert_int_ge(fd, 0);
  dup2(fd, 1);
  dup2(fd, 2);

  sp_classifier *c = train_ok(7);
  ck_assert_int_eq(sp__classifier_save(c, net), SP_OK);
  sp__classifier_free(c);
  ck_assert_int_eq(sp__classifier_load(net, NIN, NCLS, &c), SP_OK);
  sp__classifier_free(c);
  const sp_classifier_params p = {7, 3, 1e-4};
  ck_assert_int_eq(sp__classifier_train(xs, labels, NSAMP, NIN, NCLS, &p, &c), SP_OK);
  const int save_st = sp__classifier_save(c, missing);
  sp__classifier_free(c);
  const int load_st = sp__classifier_load(cut, NIN, NCLS, &c);

  fflush(stdout);
  fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  close(fd);

  ck_assert_int_eq(save_st, SP_EIO);
  ck_assert_int_eq(load_st, SP_EMODEL);
  struct stat st;
  ck_assert_int_eq(stat(out_path, &st), 0);
  ck_assert_int_eq(st.st_size, 0);
  remove_tmpdir();
}
END_TEST

/* ---- save and load ------------------------------------------------------- */

START_TEST(test_round_trip) {
  char path[300];
  double before[NSAMP + 1][NCLS], after[NSAMP + 1][NCLS];
  make_tmpdir();
  sp_classifier *c = train_ok(2385);
  for (size_t s = 0; s < NSAMP; s++) sp__classifier_classify(c, xs + s * NIN, before[s]);
  sp__classifier_classify(c, probe, before[NSAMP]);
  tmp_path(path, sizeof path, "net");
  ck_assert_int_eq(sp__classifier_save(c, path), SP_OK);
  sp__classifier_free(c);

  c = NULL;
  ck_assert_int_eq(sp__classifier_load(path, NIN, NCLS, &c), SP_OK);
  ck_assert_int_eq(sp__classifier_has_network(c), 1);
  ck_assert_uint_eq(sp__classifier_inputs(c), NIN);
  ck_assert_uint_eq(sp__classifier_classes(c), NCLS);
  ck_assert(isnan(sp__classifier_train_mse(c)));
  for (size_t s = 0; s < NSAMP; s++) sp__classifier_classify(c, xs + s * NIN, after[s]);
  sp__classifier_classify(c, probe, after[NSAMP]);
  ck_assert_mem_eq(before, after, sizeof before);

  /* Saving the loaded network gives the same file. */
  char again[300];
  size_t len1, len2;
  tmp_path(again, sizeof again, "again");
  ck_assert_int_eq(sp__classifier_save(c, again), SP_OK);
  char *t1 = read_file(path, &len1), *t2 = read_file(again, &len2);
  ck_assert_uint_eq(len1, len2);
  ck_assert_mem_eq(t1, t2, len1);
  free(t1);
  free(t2);
  sp__classifier_free(c);
  remove_tmpdir();
}
END_TEST

START_TEST(test_load_wrong_shape) {
  char path[300];
  make_tmpdir();
  save_trained("net", path, sizeof path);
  expect_load(path, NIN + 1, NCLS, SP_EMODEL);
  expect_load(path, NIN - 1, NCLS, SP_EMODEL);
  expect_load(path, NIN, NCLS + 1, SP_EMODEL);
  expect_load(path, NIN, NCLS - 1, SP_EMODEL);
  remove_tmpdir();
}
END_TEST

/* Networks of other topologies or activations, made with FANN itself. */
START_TEST(test_load_foreign_network) {
  char path[300];
  make_tmpdir();
  save_fann(fann_create_standard(3, NIN, NCLS + 2, NCLS), "hidden", path, sizeof path);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  save_fann(fann_create_standard(4, NIN, NCLS, NCLS, NCLS), "deep", path, sizeof path);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  save_fann(fann_create_shortcut(3, NIN, NCLS, NCLS), "shortcut", path, sizeof path);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  save_fann(fann_create_sparse(0.5f, 3, NIN, NCLS, NCLS), "sparse", path, sizeof path);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  /* The right shape with FANN's default (sigmoid-stepwise) activation. */
  save_fann(fann_create_standard(3, NIN, NCLS, NCLS), "stepwise", path, sizeof path);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  remove_tmpdir();
}
END_TEST

/* Edits that FANN's loader accepts but that would break fann_run. */
START_TEST(test_load_tampered) {
  char net[300], path[300];
  make_tmpdir();
  save_trained("net", net, sizeof net);
  tmp_path(path, sizeof path, "edited");
  /* A connection from a neuron that does not exist. */
  write_edited(net, path, "weight)=(0, ", "weight)=(987, ");
  expect_load(path, NIN, NCLS, SP_EMODEL);
  /* A connection from the wrong (existing) neuron. */
  write_edited(net, path, "weight)=(0, ", "weight)=(2, ");
  expect_load(path, NIN, NCLS, SP_EMODEL);
  /* A first weight that is not finite (the last connection of the file is
   * then one too many, which FANN does not read). */
  write_edited(net, path, "weight)=(0, ", "weight)=(0, nan) (0, ");
  expect_load(path, NIN, NCLS, SP_EMODEL);
  /* A hidden neuron with a linear activation. */
  write_edited(net, path, "(5, 3, ", "(5, 0, ");
  expect_load(path, NIN, NCLS, SP_EMODEL);
  /* A hidden neuron missing one of its inputs. */
  write_edited(net, path, "(5, 3, ", "(4, 3, ");
  expect_load(path, NIN, NCLS, SP_EMODEL);
  /* A shortcut network with the expected layer sizes. */
  write_edited(net, path, "network_type=0", "network_type=1");
  expect_load(path, NIN, NCLS, SP_EMODEL);
  /* Layer sizes that are not numbers. */
  write_edited(net, path, "layer_sizes=5", "layer_sizes=five");
  expect_load(path, NIN, NCLS, SP_EMODEL);
  remove_tmpdir();
}
END_TEST

START_TEST(test_load_missing) {
  make_tmpdir();
  char path[300];
  tmp_path(path, sizeof path, "does-not-exist");
  expect_load(path, NIN, NCLS, SP_EIO);
  /* A directory opens but cannot be read. */
  expect_load(tmpdir, NIN, NCLS, SP_EIO);
  remove_tmpdir();
}
END_TEST

START_TEST(test_load_garbage) {
  char net[300], path[300];
  make_tmpdir();
  tmp_path(path, sizeof path, "garbage");
  static const char elf[] =
      "\x7f"
      "ELF\x02\x01\x01 not a network\n\0\xff";
  write_file(path, elf, sizeof elf - 1);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  write_file(path, "", 0);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  write_file(path, "FANN_FLO_2.1\nnum_layers=3\n", 26);
  expect_load(path, NIN, NCLS, SP_EMODEL);

  /* A valid file cut short inside the connections: FANN's loader itself
   * finds this one. */
  size_t len;
  save_trained("net", net, sizeof net);
  char *text = read_file(net, &len);
  write_file(path, text, len - len / 5);
  free(text);
  expect_load(path, NIN, NCLS, SP_EMODEL);
  remove_tmpdir();
}
END_TEST

/* FANN 2.2 writes messages naming the file into a 128-byte heap buffer; a
 * long path must neither crash nor corrupt the heap, on success or error. */
START_TEST(test_long_paths) {
  char dir[600], path[700];
  make_tmpdir();
  ck_assert_int_lt(snprintf(dir, sizeof dir, "%s/%0200d", tmpdir, 0), (int)sizeof dir);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  ck_assert_int_lt(snprintf(path, sizeof path, "%s/%0150d", dir, 1), (int)sizeof path);

  sp_classifier *c = train_ok(11), *back = NULL;
  double a[NCLS], b[NCLS];
  ck_assert_int_eq(sp__classifier_save(c, path), SP_OK);
  ck_assert_int_eq(sp__classifier_load(path, NIN, NCLS, &back), SP_OK);
  sp__classifier_classify(c, probe, a);
  sp__classifier_classify(back, probe, b);
  ck_assert_mem_eq(a, b, sizeof a);
  sp__classifier_free(back);
  expect_load(path, NIN + 2, NCLS, SP_EMODEL);

  ck_assert_int_lt(snprintf(path, sizeof path, "%s/%0150d/net", dir, 2), (int)sizeof path);
  ck_assert_int_eq(sp__classifier_save(c, path), SP_EIO);
  expect_load(path, NIN, NCLS, SP_EIO);
  sp__classifier_free(c);
  remove_tmpdir();
}
END_TEST

START_TEST(test_save_errors) {
  char path[300];
  make_tmpdir();
  sp_classifier *c = train_ok(5);
  tmp_path(path, sizeof path, "missing-dir/net");
  ck_assert_int_eq(sp__classifier_save(c, path), SP_EIO);
  ck_assert_int_eq(sp__classifier_save(c, NULL), SP_EINVAL);
  ck_assert_int_eq(sp__classifier_save(NULL, path), SP_EINVAL);
  /* A full device: the write error must be noticed. */
  if (access("/dev/full", W_OK) == 0) ck_assert_int_eq(sp__classifier_save(c, "/dev/full"), SP_EIO);
  sp__classifier_free(c);
  remove_tmpdir();
}
END_TEST

START_TEST(test_load_invalid) {
  sp_classifier *c;
  ck_assert_int_eq(sp__classifier_load("x", NIN, NCLS, NULL), SP_EINVAL);
  c = (sp_classifier *)&c;
  ck_assert_int_eq(sp__classifier_load(NULL, NIN, NCLS, &c), SP_EINVAL);
  ck_assert_ptr_null(c);
  expect_load("x", NIN, 0, SP_EINVAL);
  expect_load("x", 0, NCLS, SP_EINVAL);
  expect_load("x", UINT_MAX, NCLS, SP_EINVAL);
}
END_TEST

/* A network whose outputs are all equal picks the lowest index. */
START_TEST(test_ties_pick_lowest) {
  char path[300];
  double out[NCLS];
  make_tmpdir();
  struct fann *ann = fann_create_standard(3, NIN, NCLS, NCLS);
  ck_assert_ptr_nonnull(ann);
  fann_set_activation_function_hidden(ann, FANN_SIGMOID);
  fann_set_activation_function_output(ann, FANN_SIGMOID);
  fann_randomize_weights(ann, 0.0, 0.0);
  save_fann(ann, "flat", path, sizeof path);
  sp_classifier *c = NULL;
  ck_assert_int_eq(sp__classifier_load(path, NIN, NCLS, &c), SP_OK);
  ck_assert_uint_eq(sp__classifier_classify(c, probe, out), 0);
  for (size_t j = 0; j < NCLS; j++) ck_assert_double_eq(out[j], 0.5);
  sp__classifier_free(c);
  remove_tmpdir();
}
END_TEST

/* ---- the trivial classifier ---------------------------------------------- */

static void check_trivial(sp_classifier *c, size_t nin) {
  double out[1] = {-2.385};
  ck_assert_ptr_nonnull(c);
  ck_assert_int_eq(sp__classifier_has_network(c), 0);
  ck_assert_uint_eq(sp__classifier_inputs(c), nin);
  ck_assert_uint_eq(sp__classifier_classes(c), 1);
  ck_assert_double_eq(sp__classifier_train_mse(c), 0.0);
  ck_assert_uint_eq(sp__classifier_classify(c, probe, out), 0);
  ck_assert_double_eq(out[0], 1.0);
  ck_assert_uint_eq(sp__classifier_classify(c, probe, NULL), 0);
}

START_TEST(test_trivial) {
  sp_classifier *c = NULL;
  const size_t zeros[NSAMP] = {0};
  const sp_classifier_params p = params(3);
  char path[300];
  make_tmpdir();

  ck_assert_int_eq(sp__classifier_trivial(NIN, &c), SP_OK);
  check_trivial(c, NIN);
  tmp_path(path, sizeof path, "trivial");
  ck_assert_int_eq(sp__classifier_save(c, path), SP_OK);
  ck_assert_int_eq(access(path, F_OK), -1);
  sp__classifier_free(c);

  ck_assert_int_eq(sp__classifier_train(xs, zeros, NSAMP, NIN, 1, &p, &c), SP_OK);
  check_trivial(c, NIN);
  sp__classifier_free(c);

  /* Without counters there is nothing to read, but one class is fine. */
  ck_assert_int_eq(sp__classifier_train(NULL, zeros, NSAMP, 0, 1, &p, &c), SP_OK);
  check_trivial(c, 0);
  sp__classifier_free(c);

  ck_assert_int_eq(sp__classifier_load(NULL, NIN, 1, &c), SP_OK);
  check_trivial(c, NIN);
  sp__classifier_free(c);

  ck_assert_int_eq(sp__classifier_trivial(NIN, NULL), SP_EINVAL);
  sp__classifier_free(NULL);
  remove_tmpdir();
}
END_TEST

static Suite *classifier_suite(void) {
  Suite *s = suite_create("classifier");
  TCase *tc = tcase_create("core");
  tcase_add_unchecked_fixture(tc, make_problem, NULL);
  tcase_add_test(tc, test_learns_separable);
  tcase_add_test(tc, test_deterministic);
  tcase_add_test(tc, test_train_invalid);
  tcase_add_test(tc, test_silent);
  tcase_add_test(tc, test_round_trip);
  tcase_add_test(tc, test_load_wrong_shape);
  tcase_add_test(tc, test_load_foreign_network);
  tcase_add_test(tc, test_load_tampered);
  tcase_add_test(tc, test_load_missing);
  tcase_add_test(tc, test_load_garbage);
  tcase_add_test(tc, test_long_paths);
  tcase_add_test(tc, test_save_errors);
  tcase_add_test(tc, test_load_invalid);
  tcase_add_test(tc, test_ties_pick_lowest);
  tcase_add_test(tc, test_trivial);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(classifier_suite());
  srunner_run_all(sr, CK_NORMAL);
  const int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
