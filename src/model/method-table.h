/* SPDX-License-Identifier: GPL-3.0-or-later */
/* method-table.h: the methods a model can carry, one line each: wu2015
 * first (every model carries it), then the others in the order their bits
 * of sp_train_params.methods go (SP_TRAIN_PHYSET = 0 names the second
 * line, SP_TRAIN_STATIC = 1 the third).  SP_METHOD(name) names the type sp__method_<name>, which
 * the method's own file defines.  Included by methods.c, which defines the macro; no include guard,
 * on purpose. */
SP_METHOD(wu2015)
SP_METHOD(physet)
SP_METHOD(static)
