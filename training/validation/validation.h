/* validation.h: the independent validation suite (training/validation/).
 *
 * These kernels are never used for training, for choosing features or for
 * choosing a method: they stand in for a user's kernels that the model has
 * never seen (docs/accuracy.md reports them once per method).  They use the
 * same job API as the training suite (training/kernels/suite.h); their device
 * sources live in this folder.  sp-runner selects them with
 * --suite validation. */
#ifndef SP_VALIDATION_H
#define SP_VALIDATION_H

#include <stddef.h>

#include "suite.h"

size_t validation_count(void);
const kdesc *validation_at(size_t i);
const kdesc *validation_find(const char *name);

#endif /* SP_VALIDATION_H */
