/* SPDX-License-Identifier: GPL-3.0-or-later */
/* classifier.c: the per-cluster-set neural-network classifier (paper III-D).
 *
 * A FANN (double precision) network with ninputs linear inputs, nclasses
 * sigmoid hidden neurons and nclasses sigmoid outputs, trained with iRPROP-
 * on one-hot targets.  iRPROP- is a batch algorithm without randomness, so
 * once the initial weights are fixed by the seed, training is reproducible.
 *
 * Thread safety: FANN draws its initial weights from the C library's rand(),
 * whose state is global, and reseeds it when it creates a network.  Network
 * creation, srand() and the weight draw therefore happen under one lock, so
 * concurrent trainings (the evaluation's worker threads) stay reproducible;
 * the rest of training touches only the network itself.  Training still
 * changes what rand() returns to the rest of the process.  Training and loading also set FANN's
 * global default error log, a plain store of the same value every time.  fann_run writes the neuron
 * values inside the network, and the input scratch buffer is shared, so classifying holds the
 * classifier's own lock from the input copy to the read of the outputs: predictions on one model
 * from several threads are safe (they wait for each other only here, for a few hundred nanoseconds
 * per cluster set).
 *
 * FANN 2.2 formats its error messages into a 128-byte heap buffer with
 * vsprintf and puts the file name in them, so any error concerning a long
 * path overflows the heap.  This file therefore opens and closes files
 * itself and hands FANN only the stream and the short name FANN_FILE_NAME,
 * using the stream functions that fann.h declares through fann_internal.h.
 * It also checks a file's version and layer sizes before FANN parses it, so
 * that a foreign file or one of another shape is rejected without FANN's
 * error path, which in 2.2 leaks its message buffer for errors found in the
 * header (before the network exists).
 *
 * Saved networks are text with numbers printed and scanned by FANN through
 * the C library, so LC_NUMERIC must be "C" (the library never changes the
 * locale).
 */
#include "classifier.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doublefann.h>

#include "scalepredict.h"
#include "util/inread.h"

/* Outputs are copied out bit for bit, which needs the double build. */
_Static_assert(sizeof(fann_type) == sizeof(double),
               "classifier.c must be built against doublefann.h");

/* The name FANN puts in its messages instead of the path; see above. */
#define FANN_FILE_NAME "network"

/* Initial weights are uniform in [-INIT_WEIGHT, INIT_WEIGHT], the range
 * FANN itself uses for a new network. */
#define INIT_WEIGHT 0.1

struct sp_classifier {
  size_t ninputs;
  size_t nclasses;
  struct fann *ann;         /* NULL for a trivial classifier */
  fann_type *input;         /* fann_run takes a non-const input: a scratch copy */
  pthread_mutex_t run_lock; /* held around input, fann_run and its outputs */
  double train_mse;         /* NaN when unknown (a loaded network) */
};

/* FANN prints errors to stderr unless told otherwise, both for errors tied
 * to a network and for those raised before one exists (the default log). */
static void silence_fann(struct fann *ann) {
  fann_set_error_log(NULL, NULL);
  if (ann != NULL) fann_set_error_log((struct fann_error *)ann, NULL);
}

/* FANN counts neurons and connections in unsigned int; a network of this
 * shape has nclasses * (ninputs + 1 + nclasses + 1) connections. */
static int shape_fits(size_t ninputs, size_t nclasses) {
  if (ninputs == 0 || nclasses == 0) return 0;
  if (ninputs > UINT_MAX - 2 || nclasses > UINT_MAX - 2) return 0;
  return ninputs + nclasses + 2 <= UINT_MAX / nclasses;
}

static size_t connection_count(size_t ninputs, size_t nclasses) {
  return nclasses * (ninputs + 1) + nclasses * (nclasses + 1);
}

static sp_classifier *classifier_alloc(size_t ninputs, size_t nclasses, int with_network) {
  sp_classifier *c = calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  c->ninputs = ninputs;
  c->nclasses = nclasses;
  c->train_mse = 0.0;
  if (pthread_mutex_init(&c->run_lock, NULL)) {
    free(c);
    return NULL;
  }
  if (with_network) {
    c->input = malloc(ninputs * sizeof *c->input);
    if (c->input == NULL) {
      pthread_mutex_destroy(&c->run_lock);
      free(c);
      return NULL;
    }
  }
  return c;
}

int sp__classifier_trivial(size_t ninputs, sp_classifier **out) {
  if (out == NULL) return SP_EINVAL;
  *out = classifier_alloc(ninputs, 1, 0);
  return *out != NULL ? SP_OK : SP_ENOMEM;
}

static int check_train_args(const double *x, const size_t *labels, size_t n, size_t ninputs,
                            size_t nclasses, const sp_classifier_params *params) {
  if (params == NULL || n == 0 || n > UINT_MAX || nclasses == 0) return SP_EINVAL;
  if (nclasses > 1 && !shape_fits(ninputs, nclasses)) return SP_EINVAL;
  if (ninputs > 0 && n > SIZE_MAX / ninputs) return SP_EINVAL;
  /* Outputs and targets lie in [0, 1], and so does any reachable MSE; the
   * bound also keeps the conversion to FANN's float defined. */
  if (!(params->desired_error >= 0.0 && params->desired_error <= 1.0)) return SP_EINVAL;
  if (labels == NULL || (x == NULL && ninputs > 0)) return SP_EINVAL;
  for (size_t i = 0; i < n; i++)
    if (labels[i] >= nclasses) return SP_EINVAL;
  for (size_t i = 0; i < n * ninputs; i++)
    if (!isfinite(x[i])) return SP_EINVAL;
  return SP_OK;
}

/* Inputs as given; targets one-hot: 1 for the label, 0 elsewhere. */
static struct fann_train_data *make_train_data(const double *x, const size_t *labels, size_t n,
                                               size_t ninputs, size_t nclasses) {
  struct fann_train_data *data =
      fann_create_train((unsigned)n, (unsigned)ninputs, (unsigned)nclasses);
  if (data == NULL) return NULL;
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < ninputs; j++) data->input[i][j] = x[i * ninputs + j];
    for (size_t j = 0; j < nclasses; j++) data->output[i][j] = j == labels[i] ? 1.0 : 0.0;
  }
  return data;
}

/* A new network with weights drawn from rand() seeded by seed.  FANN
 * seeds rand() from /dev/urandom or the clock when it creates a network,
 * so the weights are drawn again after creation.  srand() takes an unsigned
 * int; the high half of a 64-bit seed is folded in rather than dropped. */
static pthread_mutex_t rand_lock = PTHREAD_MUTEX_INITIALIZER;

static struct fann *new_network(size_t ninputs, size_t nclasses, unsigned long seed) {
  pthread_mutex_lock(&rand_lock);
  struct fann *ann =
      fann_create_standard(3, (unsigned)ninputs, (unsigned)nclasses, (unsigned)nclasses);
  if (ann == NULL) {
    pthread_mutex_unlock(&rand_lock);
    return NULL;
  }
  silence_fann(ann);
  fann_set_activation_function_hidden(ann, FANN_SIGMOID);
  fann_set_activation_function_output(ann, FANN_SIGMOID);
  fann_set_training_algorithm(ann, FANN_TRAIN_RPROP);
  srand((unsigned)(seed ^ (seed >> 16 >> 16)));
  fann_randomize_weights(ann, -INIT_WEIGHT, INIT_WEIGHT);
  pthread_mutex_unlock(&rand_lock);
  return ann;
}

int sp__classifier_train(const double *x, const size_t *labels, size_t n, size_t ninputs,
                         size_t nclasses, const sp_classifier_params *params, sp_classifier **out) {
  if (out == NULL) return SP_EINVAL;
  *out = NULL;
  const int st = check_train_args(x, labels, n, ninputs, nclasses, params);
  if (st != SP_OK) return st;
  if (nclasses == 1) return sp__classifier_trivial(ninputs, out);

  silence_fann(NULL);
  sp_classifier *c = classifier_alloc(ninputs, nclasses, 1);
  struct fann_train_data *data = make_train_data(x, labels, n, ninputs, nclasses);
  if (c != NULL && data != NULL) c->ann = new_network(ninputs, nclasses, params->seed);
  if (c == NULL || data == NULL || c->ann == NULL) {
    sp__classifier_free(c);
    fann_destroy_train(data);
    return SP_ENOMEM;
  }
  /* No reports (0 epochs between them) and no shuffling: deterministic and
   * silent. */
  fann_train_on_data(c->ann, data, params->max_epochs, 0, (float)params->desired_error);
  /* FANN's own MSE after training belongs to the weights before the last
   * update; measure the final network instead. */
  c->train_mse = fann_test_data(c->ann, data);
  fann_destroy_train(data);
  *out = c;
  return SP_OK;
}

size_t sp__classifier_classify(const sp_classifier *c, const double *x, double *outputs) {
  assert(c != NULL);
  if (c->ann == NULL) {
    if (outputs != NULL) outputs[0] = 1.0;
    return 0;
  }
  assert(x != NULL);
  /* The lock is the classifier's own, not part of what const promises. */
  pthread_mutex_t *lock = (pthread_mutex_t *)&c->run_lock;
  pthread_mutex_lock(lock);
  for (size_t i = 0; i < c->ninputs; i++) c->input[i] = x[i];
  const fann_type *y = fann_run(c->ann, c->input);
  /* Strictly greater, so that ties go to the lowest index. */
  size_t best = 0;
  for (size_t j = 1; j < c->nclasses; j++)
    if (y[j] > y[best]) best = j;
  if (outputs != NULL)
    for (size_t j = 0; j < c->nclasses; j++) outputs[j] = y[j];
  pthread_mutex_unlock(lock);
  return best;
}

size_t sp__classifier_inputs(const sp_classifier *c) {
  assert(c != NULL);
  return c->ninputs;
}

size_t sp__classifier_classes(const sp_classifier *c) {
  assert(c != NULL);
  return c->nclasses;
}

double sp__classifier_train_mse(const sp_classifier *c) {
  assert(c != NULL);
  return c->train_mse;
}

int sp__classifier_has_network(const sp_classifier *c) {
  assert(c != NULL);
  return c->ann != NULL;
}

int sp__classifier_save(const sp_classifier *c, const char *path) {
  if (c == NULL || path == NULL) return SP_EINVAL;
  if (c->ann == NULL) return SP_OK;
  FILE *fp = fopen(path, "w");
  if (fp == NULL) return SP_EIO;
  /* Returns the fixed-point decimal point, meaningless for floats; write
   * errors show in the stream instead. */
  (void)fann_save_internal_fd(c->ann, fp, FANN_FILE_NAME, 0);
  /* The file goes into a model's temporary directory, which is renamed into
   * place once the manifest is committed; its data must be on disk before
   * then, or a crash could leave a model whose network file is empty. */
  int failed = fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) != 0;
  if (fclose(fp) != 0) failed = 1;
  return failed ? SP_EIO : SP_OK;
}

/* Whether a "layer_sizes=" line gives the expected three layers; FANN's
 * sizes count the bias neuron that ends each layer. */
static int sizes_match(const char *line, size_t ninputs, size_t nclasses) {
  unsigned in, hidden, out;
  if (sscanf(line, "layer_sizes=%u %u %u", &in, &hidden, &out) != 3) return 0;
  return in == ninputs + 1 && hidden == nclasses + 1 && out == nclasses + 1;
}

/* FANN sizes arrays by the counts of cascade activation functions and
 * steepnesses that a file states (a huge count is a huge allocation):
 * 0 when line states one that is not a small decimal number, else 1. */
#define FANN_COUNT_MAX 64
static int small_count(const char *line) {
  static const char *const keys[] = {"cascade_activation_functions_count=",
                                     "cascade_activation_steepnesses_count="};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    const size_t n = strlen(keys[k]);
    if (strncmp(line, keys[k], n) != 0) continue;
    const char *p = line + n;
    unsigned v = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 3; p++, digits++) v = v * 10 + (unsigned)(*p - '0');
    return digits > 0 && (*p == '\n' || *p == '\0') && v <= FANN_COUNT_MAX;
  }
  return 1;
}

/* The connections into a neuron of layer (0 input, 1 hidden, 2 output) of
 * the fully connected network: none for input and bias neurons (each
 * layer's last), one per input plus bias for a hidden neuron, one per
 * hidden neuron plus bias for an output neuron. */
static size_t fan_in(int layer, int bias, size_t ninputs, size_t nclasses) {
  if (bias || layer == 0) return 0;
  return layer == 1 ? ninputs + 1 : nclasses + 1;
}

/* FANN sizes its connection array by the sum of the input counts that the
 * neurons line states per neuron, read as unsigned int (a huge or wrapped
 * count is a huge allocation, before check_ranges could look): 1 when line
 * is that line and every neuron states exactly its fan_in, in decimal,
 * else 0. */
static int neurons_match(const char *line, size_t ninputs, size_t nclasses) {
  static const char key[] = "neurons (num_inputs, activation_function, activation_steepness)=";
  const size_t per_layer[3] = {ninputs + 1, nclasses + 1, nclasses + 1};
  if (strncmp(line, key, sizeof key - 1) != 0) return 0;
  const char *p = line + sizeof key - 1;
  for (int layer = 0; layer < 3; layer++)
    for (size_t i = 0; i < per_layer[layer]; i++) {
      const size_t want = fan_in(layer, i + 1 == per_layer[layer], ninputs, nclasses);
      size_t v = 0;
      int digits = 0;
      if (*p++ != '(') return 0;
      for (; *p >= '0' && *p <= '9' && digits < 10; p++, digits++) v = v * 10 + (size_t)(*p - '0');
      if (digits == 0 || *p != ',' || v != want || !(p = strchr(p, ')'))) return 0;
      p += p[1] == ' ' ? 2 : 1;
    }
  return *p == '\n' || *p == '\0';
}

/* Reads the header of a FANN file up to its neurons and checks that it
 * describes the expected three-layer network.  Returns SP_EIO when the
 * stream cannot be read, SP_EMODEL when the header is foreign or of another
 * shape. */
static int check_header(FILE *fp, size_t ninputs, size_t nclasses) {
  char *line = NULL;
  size_t cap = 0;
  int st = SP_EMODEL, sized = 0;
  if (getline(&line, &cap, fp) >= 0 && strcmp(line, FANN_FLO_VERSION "\n") == 0 &&
      getline(&line, &cap, fp) >= 0 && strcmp(line, "num_layers=3\n") == 0) {
    while (getline(&line, &cap, fp) >= 0) {
      if (!small_count(line)) break;
      if (!sized && strncmp(line, "layer_sizes=", 12) == 0) {
        if (!(sized = sizes_match(line, ninputs, nclasses))) break;
      } else if (strncmp(line, "neurons ", 8) == 0 || strncmp(line, "connections ", 12) == 0) {
        if (sized && neurons_match(line, ninputs, nclasses)) st = SP_OK;
        break;
      }
    }
  }
  if (ferror(fp)) st = SP_EIO;
  free(line);
  return st;
}

static int check_layers(struct fann *ann, size_t ninputs, size_t nclasses) {
  unsigned sizes[3];
  if (fann_get_network_type(ann) != FANN_NETTYPE_LAYER || fann_get_num_layers(ann) != 3)
    return SP_EMODEL;
  fann_get_layer_array(ann, sizes);
  if (sizes[0] != ninputs || sizes[1] != nclasses || sizes[2] != nclasses ||
      fann_get_num_input(ann) != ninputs || fann_get_num_output(ann) != nclasses)
    return SP_EMODEL;
  /* shape_fits() keeps nclasses far below INT_MAX. */
  for (int layer = 1; layer <= 2; layer++)
    for (size_t i = 0; i < nclasses; i++) {
      const fann_type s = fann_get_activation_steepness(ann, layer, (int)i);
      if (fann_get_activation_function(ann, layer, (int)i) != FANN_SIGMOID ||
          !(isfinite(s) && s > 0))
        return SP_EMODEL;
    }
  return SP_OK;
}

/* Checks count connections into neurons to0.. from neurons from0..from0+
 * nfrom-1 each, in FANN's order, with finite weights; advances *con. */
static int check_block(const struct fann_connection **con, size_t from0, size_t nfrom, size_t to0,
                       size_t count) {
  for (size_t t = 0; t < count; t++)
    for (size_t f = 0; f < nfrom; f++) {
      const struct fann_connection *k = (*con)++;
      if (k->from_neuron != from0 + f || k->to_neuron != to0 + t || !isfinite(k->weight))
        return SP_EMODEL;
    }
  return SP_OK;
}

/* FANN's loader adds up the connection counts that a file gives per neuron
 * in unsigned int without checking for wrap-around, so the total can come
 * out right while single neurons claim ranges far outside the connection
 * array, which fann_get_connection_array and fann_run then walk.  Each
 * neuron's range must be exactly where a fully connected network has it
 * (fan_in). */
static int check_ranges(const struct fann *ann, size_t ninputs, size_t nclasses) {
  size_t next = 0;
  int layer = 0;
  for (const struct fann_layer *l = ann->first_layer; l != ann->last_layer; l++, layer++) {
    assert(layer < 3);
    for (const struct fann_neuron *n = l->first_neuron; n != l->last_neuron; n++) {
      const size_t want = fan_in(layer, n + 1 == l->last_neuron, ninputs, nclasses);
      if (n->first_con != next || n->last_con != next + want) return SP_EMODEL;
      next += want;
    }
  }
  return SP_OK;
}

/* FANN's loader trusts the connection list of a file: a source index out of
 * range would make fann_run read outside the network.  Checks that the
 * network is exactly fully connected layer to layer.  Neurons are numbered
 * across layers, each layer ending with its bias neuron. */
static int check_connections(struct fann *ann, size_t ninputs, size_t nclasses) {
  const size_t total = connection_count(ninputs, nclasses);
  if (fann_get_total_connections(ann) != total || check_ranges(ann, ninputs, nclasses) != SP_OK)
    return SP_EMODEL;
  struct fann_connection *all = malloc(total * sizeof *all);
  if (all == NULL) return SP_ENOMEM;
  fann_get_connection_array(ann, all);
  const struct fann_connection *con = all;
  const size_t hidden0 = ninputs + 1, output0 = hidden0 + nclasses + 1;
  int st = check_block(&con, 0, ninputs + 1, hidden0, nclasses);
  if (st == SP_OK) st = check_block(&con, hidden0, nclasses + 1, output0, nclasses);
  free(all);
  return st;
}

/* Reads and validates the network in fp. */
static int read_network(FILE *fp, size_t ninputs, size_t nclasses, struct fann **out) {
  *out = NULL;
  int st = check_header(fp, ninputs, nclasses);
  if (st != SP_OK) return st;
  rewind(fp);
  silence_fann(NULL);
  struct fann *ann = fann_create_from_fd(fp, FANN_FILE_NAME);
  if (ann == NULL) return ferror(fp) ? SP_EIO : SP_EMODEL;
  silence_fann(ann);
  st = check_layers(ann, ninputs, nclasses);
  if (st == SP_OK) st = check_connections(ann, ninputs, nclasses);
  if (st != SP_OK) {
    fann_destroy(ann);
    return st;
  }
  *out = ann;
  return SP_OK;
}

int sp__classifier_load(const char *path, size_t ninputs, size_t nclasses, sp_classifier **out) {
  if (out == NULL) return SP_EINVAL;
  *out = NULL;
  if (nclasses == 1) return sp__classifier_trivial(ninputs, out);
  if (path == NULL || !shape_fits(ninputs, nclasses)) return SP_EINVAL;
  FILE *fp = sp__open_bounded(path, SP_NETWORK_FILE_MAX_BYTES, SP_EIO, "network file", NULL);
  if (fp == NULL) return SP_EIO;
  struct fann *ann;
  int st = read_network(fp, ninputs, nclasses, &ann);
  fclose(fp);
  if (st != SP_OK) return st;
  sp_classifier *c = classifier_alloc(ninputs, nclasses, 1);
  if (c == NULL) {
    fann_destroy(ann);
    return SP_ENOMEM;
  }
  c->ann = ann;
  /* FANN does not save the training error. */
  c->train_mse = NAN;
  *out = c;
  return SP_OK;
}

void sp__classifier_free(sp_classifier *c) {
  if (c == NULL) return;
  if (c->ann != NULL) fann_destroy(c->ann);
  free(c->input);
  pthread_mutex_destroy(&c->run_lock);
  free(c);
}
