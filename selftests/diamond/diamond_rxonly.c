// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_rxonly: open-only keys (spec section 2, byte 7 bit 0;
 * Documentation/kernel-api.rst "Open-only keys") through raw AF_ALG, both
 * suites. Every vector of vectors/diamond.txt is keyed with its blob made
 * open-only (same version, CRC made valid again). Before each decrypt step
 * an encrypt of the step's epoch is tried and must be -EPERM, and the step
 * must then give the vector's answer: the refusal left the state where it
 * was, and the key still opens everything it opened. Also: -EPERM whatever
 * else is wrong with the request, an unknown flag bit is -EINVAL at setkey,
 * and a keyless tfm stays -ENOKEY.
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/util.h>

#include "dmd_each_vector.h"

/* @key with byte 7 = @flags, in its own version; its length, 0 if bad. */
static size_t flagged(const struct vec_buf *key, uint8_t flags, uint8_t *out)
{
	struct dmd_state st;

	if (dmd_blob_parse(&st, key->p, key->len) != DMD_OK)
		return 0;
	st.flags = flags;
	if (key->p[DMD_BLOB_OFF_VERSION] == DMD_BLOB_VERSION)
		dmd_blob_write(out, &st);
	else
		dmd_blob2_write(out, &st);
	dmd_wipe(&st, sizeof(st));
	return key->len;
}

/*
 * Every step of @v on one open-only tfm, each after a refused encrypt of
 * its epoch. One TAP line per vector; the first miss is in the diag.
 */
static void vector_steps(const struct vec *v, unsigned int suite)
{
	uint8_t key[DMD_BLOB2_MAX];
	size_t len = flagged(&v->key, DMD_BLOB_FLAG_OPEN_ONLY, key);
	int tfm = len ? dmd_tfm(suite, key, len) : -EINVAL;
	unsigned int i, bad = 0;

	if (!tap_result(tfm >= 0, "%s: open-only setkey", v->name)) {
		tap_diag("expected ok, got %s", dmd_errname(tfm));
		return;
	}
	for (i = 0; i < v->nsteps && !bad; i++) {
		const struct vec_step *s = &v->step[i];
		int want = vec_expect_errno(s->expect), enc, err;
		size_t ptlen = s->ct.len > DMD_TAG_SIZE ?
			       s->ct.len - DMD_TAG_SIZE : 1;
		uint8_t *pt = calloc(1, ptlen + 1);
		uint8_t *ct = calloc(1, ptlen + DMD_TAG_SIZE + 1);

		/* Encrypt the step's plaintext (or any body): refused. */
		enc = dmd_kseal(tfm, 1, s->epoch, s->ad.p, s->ad.len,
				s->pt.len ? s->pt.p : pt,
				s->pt.len ? s->pt.len : ptlen, ct);
		err = dmd_kopen(tfm, 1, s->epoch, s->ad.p, s->ad.len, s->ct.p,
				s->ct.len, pt, NULL, NULL);
		if (enc != -EPERM || err != want ||
		    (!want && (s->pt.len != ptlen ||
			       memcmp(pt, s->pt.p, ptlen)))) {
			bad = 1;
			tap_diag("%s step %u epoch %llu: encrypt %s (want EPERM), decrypt %s (want %s)",
				 v->name, i, (unsigned long long)s->epoch,
				 dmd_errname(enc), dmd_errname(err),
				 dmd_errname(want));
		}
		free(pt);
		free(ct);
	}
	tap_result(!bad, "%s: %u steps open as the vector, every encrypt -> EPERM",
		   v->name, v->nsteps);
	afalg_close(tfm);
}

/* -EPERM before every other check of the request; -EINVAL, -ENOKEY kept. */
static void one_errno(const struct vec *v, unsigned int suite)
{
	uint8_t key[DMD_BLOB2_MAX], in[2048] = { 1, 0, 0x55 }, out[4096];
	uint8_t iv[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	size_t len = flagged(&v->key, DMD_BLOB_FLAG_OPEN_ONLY, key);
	int tfm = dmd_tfm(suite, key, len);
	ssize_t n;

	n = afalg_aead_once(tfm, 1, iv, 8, 2000, in, 2003, out, sizeof(out));
	tap_result(n == -EPERM, "suite%u: encrypt with AD 2000 and epoch 2^64-1 on an open-only key -> EPERM (got %s)",
		   suite, dmd_errname((int)n));
	in[0] = 0xff;	/* a record longer than the body: malformed */
	in[1] = 0xff;
	n = afalg_aead_once(tfm, 1, iv, 8, 0, in, 3, out, sizeof(out));
	tap_result(n == -EPERM, "suite%u: encrypt of a malformed body on an open-only key -> EPERM (got %s)",
		   suite, dmd_errname((int)n));
	afalg_close(tfm);

	tfm = afalg_bind(dmd_alg_name(suite));
	len = flagged(&v->key, DMD_BLOB_FLAG_OPEN_ONLY | 2, key);
	n = afalg_setkey(tfm, key, len);
	tap_result(n == -EINVAL, "suite%u: setkey with flags 0x03 -> EINVAL (got %s)",
		   suite, dmd_errname((int)n));
	afalg_setauthsize(tfm, DMD_TAG_SIZE);
	n = afalg_aead_once(tfm, 1, iv, 8, 0, in, 3, out, sizeof(out));
	tap_result(n == -ENOKEY, "suite%u: encrypt after the refused key -> ENOKEY, not EPERM (got %s)",
		   suite, dmd_errname((int)n));
	afalg_close(tfm);
}

/* Every vector on an open-only tfm; the refusals once per suite. */
static void vector(const struct vec *v, unsigned int suite)
{
	static unsigned int done[3];

	vector_steps(v, suite);
	if (!done[suite]++)
		one_errno(v, suite);
}

int main(int argc, char **argv)
{
	return dmd_each_vector(argc, argv, "diamond_rxonly", vector);
}
