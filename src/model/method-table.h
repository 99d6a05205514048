/* SPDX-License-Identifier: GPL-3.0-or-later */
/* method-table.h: every prediction method, one line each, and the one list
 * of them: the model's methods (method.c), evaluation's rows
 * (eval/method-rows.c), the public sp_method constants (generated from
 * these lines: tests/arch/check-methods.sh) and every list and help text
 * of the tool derive from it.  SP_METHOD(name, id, kind, flags, about):
 *
 *   name   the method's name, and its type's: the file that defines it
 *          defines sp__method_<name> (model/method.h) when a model carries
 *          it, sp__compare_<name> (eval/compare.h) when evaluation only
 *          compares it;
 *   id     its sp_method value (SP_METHOD_<NAME>), its bit of
 *          sp_eval_params.methods and its sp_eval_record.method: 0, 1, 2
 *          ..., each once, a new method taking the next;
 *   kind   core (wu2015: every model carries it, in slot 0, and evaluation
 *          scores it through its cluster choices), carried (a model
 *          carries it when trained with it: train --methods) or compared
 *          (evaluation's baselines and bounds);
 *   flags  SP_METHOD_FLAG_CLUSTERED (scored at every cluster count),
 *          SP_METHOD_FLAG_OPT_IN (compared only when asked for by name),
 *          SP_METHOD_FLAG_ORACLE (sees the measured surface: a bound);
 *   about  one line for the help texts (at most 66 characters).
 *
 * The lines' order is the order evaluation scores the methods in (that of
 * its records); a model's methods are the core, then the carried ones in
 * this order, which gives their bits of sp_train_params.methods.  Adding a
 * method is its file (and that file in src/Makefile.am) and one line here.
 * Included by model/method.c and eval/method-rows.c, which define
 * SP_METHOD; no include guard, on purpose. */
/* clang-format off */
SP_METHOD(nearest,   2, compared, 0, "surface of the nearest training kernel (counters)")
SP_METHOD(knn,       6, compared, 0, "distance-weighted surfaces of the 3 nearest kernels")
SP_METHOD(linear,    3, compared, 0, "per-target ridge fit of the log ratio on counters")
SP_METHOD(constant,  4, compared, 0, "no scaling: the base value everywhere")
SP_METHOD(mix,       7, compared, 0, "engine/memory/CU shares predicted by ridge regression")
SP_METHOD(stack,     8, compared, 0, "nearest, knn, linear, mix, constant blended by leave-one-out")
SP_METHOD(physet,    9, carried,  0, "physical prior plus the residuals of similar kernels")
SP_METHOD(static,   10, carried,  SP_METHOD_FLAG_OPT_IN, "static features only (PTX, launch shape), base time too")
SP_METHOD(wu2015,    0, core,     SP_METHOD_FLAG_CLUSTERED, "the paper's method: a centroid per cluster set, classified")
SP_METHOD(oracle,    1, compared, SP_METHOD_FLAG_CLUSTERED | SP_METHOD_FLAG_ORACLE, "the centroid nearest the kernel's true surface (a bound)")
SP_METHOD(soft,      5, compared, SP_METHOD_FLAG_CLUSTERED, "centroids blended by the network's outputs")
/* clang-format on */
