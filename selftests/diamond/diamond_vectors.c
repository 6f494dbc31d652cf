// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_vectors: every step of vectors/diamond.txt through raw AF_ALG,
 * both suites. Decrypt: each step on one tfm keyed with the vector's blob,
 * in order, expecting the vector's result (errno for the negative steps,
 * the plaintext body otherwise); a negative step is followed in the file by
 * the genuine epoch, which must still open, so the state cannot have moved.
 * After a rejected step the output buffer must hold no plaintext.
 * Encrypt: a second tfm with the same blob seals every positive step and
 * must produce the vector's ciphertext body and tag byte for byte; with an
 * open-only key (spec section 2) every such encrypt must be -EPERM.
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmd_each_vector.h"

/* The plaintext a later genuine step of the same epoch opens to. */
static const struct vec_buf *genuine_pt(const struct vec *v, unsigned int i)
{
	unsigned int j;

	for (j = i + 1; j < v->nsteps; j++)
		if (v->step[j].epoch == v->step[i].epoch &&
		    !strcmp(v->step[j].expect, "ok") &&
		    v->step[j].ct.len == v->step[i].ct.len)
			return &v->step[j].pt;
	return NULL;
}

static void open_steps(const struct vec *v, unsigned int suite)
{
	int tfm = dmd_tfm(suite, v->key.p, v->key.len);
	unsigned int i;

	if (!tap_result(tfm >= 0, "%s: decrypt tfm setkey", v->name)) {
		tap_diag("expected ok, got %s", dmd_errname(tfm));
		return;
	}
	for (i = 0; i < v->nsteps; i++) {
		const struct vec_step *s = &v->step[i];
		const struct vec_buf *g = genuine_pt(v, i);
		int want = vec_expect_errno(s->expect), err, leak = 0, ok;
		uint8_t *pt = malloc(s->ct.len + 1);

		err = dmd_kopen(tfm, 1, s->epoch, s->ad.p, s->ad.len, s->ct.p,
				s->ct.len, pt, g ? g->p : NULL, &leak);
		ok = err == want && !leak;
		if (ok && !want)
			ok = s->ct.len - DMD_TAG_SIZE == s->pt.len &&
			     !memcmp(pt, s->pt.p, s->pt.len);
		if (!tap_result(ok, "%s: step %u decrypt epoch %llu -> %s",
				v->name, i, (unsigned long long)s->epoch,
				s->expect))
			tap_diag("expected %s, got %s%s%s", dmd_errname(want),
				 dmd_errname(err),
				 leak ? " (plaintext in output buffer)" : "",
				 !err && !want ? " (plaintext differs)" : "");
		free(pt);
	}
	afalg_close(tfm);
}

static void seal_steps(const struct vec *v, unsigned int suite)
{
	int tfm = dmd_tfm(suite, v->key.p, v->key.len);
	unsigned int i;

	if (!tap_result(tfm >= 0, "%s: encrypt tfm setkey", v->name)) {
		tap_diag("expected ok, got %s", dmd_errname(tfm));
		return;
	}
	for (i = 0; i < v->nsteps; i++) {
		const struct vec_step *s = &v->step[i];
		uint8_t *ct;
		int err, ok;

		if (strcmp(s->expect, "ok"))
			continue;
		ct = malloc(s->pt.len + DMD_TAG_SIZE);
		err = dmd_kseal(tfm, 1, s->epoch, s->ad.p, s->ad.len, s->pt.p,
				s->pt.len, ct);
		if (dmd_key_open_only(v->key.p, v->key.len)) {
			if (!tap_result(err == -EPERM, "%s: step %u encrypt "
					"epoch %llu on an open-only key -> EPERM",
					v->name, i,
					(unsigned long long)s->epoch))
				tap_diag("got %s", dmd_errname(err));
			free(ct);
			continue;
		}
		ok = !err && !memcmp(ct, s->ct.p, s->ct.len);
		if (!tap_result(ok, "%s: step %u encrypt epoch %llu matches",
				v->name, i, (unsigned long long)s->epoch))
			tap_diag("expected ok and the vector's ct, got %s%s",
				 dmd_errname(err),
				 err ? "" : " (ciphertext differs)");
		free(ct);
	}
	afalg_close(tfm);
}

/* Decrypt then encrypt, on a tfm each. */
static void vector(const struct vec *v, unsigned int suite)
{
	open_steps(v, suite);
	seal_steps(v, suite);
}

int main(int argc, char **argv)
{
	return dmd_each_vector(argc, argv, "diamond_vectors", vector);
}
