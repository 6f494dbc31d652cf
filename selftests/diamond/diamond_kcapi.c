// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_kcapi: the diamond AEAD through libkcapi (linked statically):
 * kcapi_aead_init / setkey / settaglen / setassoclen / encrypt / decrypt
 * with every vector of vectors/diamond.txt, both suites, alternating the
 * sendmsg and vmsplice access paths; negative steps must fail with the
 * vector's errno and the genuine step after them must still open. Also:
 * taglen other than 16 and malformed blobs are refused, and a random epoch
 * round-trips between two handles. TAP 13; exit 4 when kcapi_aead_init
 * cannot get the algorithm (module not loaded or crypto_user missing).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <kcapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/util.h>
#include "lib/vecfile.h"
#include "tap.h"
#include "dmd_test.h"

static const int access_mode[2] = { KCAPI_ACCESS_SENDMSG,
				    KCAPI_ACCESS_VMSPLICE };

static struct kcapi_handle *handle(unsigned int suite, const uint8_t *key,
				   size_t keylen, int *err)
{
	struct kcapi_handle *h = NULL;

	*err = kcapi_aead_init(&h, dmd_alg_name(suite), 0);
	if (*err)
		return NULL;
	*err = kcapi_aead_setkey(h, key, (uint32_t)keylen);
	if (!*err)
		*err = kcapi_aead_settaglen(h, DMD_TAG_SIZE);
	if (*err) {
		kcapi_aead_destroy(h);
		return NULL;
	}
	return h;
}

/* Decrypt: in AD || ct || tag, out AD || pt; 0 or -errno. */
static int k_open(struct kcapi_handle *h, const struct vec_step *s,
		  uint8_t *pt, int mode)
{
	size_t inlen = s->ad.len + s->ct.len,
	       outlen = inlen > DMD_TAG_SIZE ? inlen - DMD_TAG_SIZE : 0;
	uint8_t *in = malloc(inlen + 1), *out = malloc(outlen + 1), iv[8];
	ssize_t n;

	memcpy(in, s->ad.p, s->ad.len);
	memcpy(in + s->ad.len, s->ct.p, s->ct.len);
	dmd_store64_le(iv, s->epoch);
	kcapi_aead_setassoclen(h, s->ad.len);
	n = kcapi_aead_decrypt(h, in, inlen, iv, out, outlen, mode);
	if (n >= 0 && (size_t)n != outlen)
		n = -EPROTO;
	if (n >= 0)
		memcpy(pt, out + s->ad.len, outlen - s->ad.len);
	free(in);
	free(out);
	return n < 0 ? (int)n : 0;
}

static int k_seal(struct kcapi_handle *h, uint64_t epoch, const uint8_t *ad,
		  size_t adlen, const uint8_t *pt, size_t ptlen, uint8_t *ct,
		  int mode)
{
	size_t inlen = adlen + ptlen, outlen = inlen + DMD_TAG_SIZE;
	uint8_t *in = malloc(inlen + 1), *out = malloc(outlen), iv[8];
	ssize_t n;

	memcpy(in, ad, adlen);
	memcpy(in + adlen, pt, ptlen);
	dmd_store64_le(iv, epoch);
	kcapi_aead_setassoclen(h, adlen);
	n = kcapi_aead_encrypt(h, in, inlen, iv, out, outlen, mode);
	if (n >= 0 && (size_t)n != outlen)
		n = -EPROTO;
	if (n >= 0)
		memcpy(ct, out + adlen, ptlen + DMD_TAG_SIZE);
	free(in);
	free(out);
	return n < 0 ? (int)n : 0;
}

static void vector(const struct vec *v, unsigned int suite)
{
	unsigned int i, bad_open = 0, bad_seal = 0, nseal = 0;
	struct kcapi_handle *hd, *he;
	int err, want;

	hd = handle(suite, v->key.p, v->key.len, &err);
	he = hd ? handle(suite, v->key.p, v->key.len, &err) : NULL;
	if (!tap_result(hd && he, "%s: two kcapi handles keyed", v->name)) {
		tap_diag("got %s", dmd_errname(err));
		if (hd)
			kcapi_aead_destroy(hd);
		return;
	}
	for (i = 0; i < v->nsteps; i++) {
		const struct vec_step *s = &v->step[i];
		uint8_t *buf = malloc(s->ct.len + 1);

		want = vec_expect_errno(s->expect);
		err = k_open(hd, s, buf, access_mode[i % 2]);
		if (err != want ||
		    (!want && memcmp(buf, s->pt.p, s->pt.len))) {
			bad_open++;
			tap_diag("%s step %u decrypt: expected %s, got %s%s",
				 v->name, i, dmd_errname(want), dmd_errname(err),
				 !err && !want ? " (plaintext differs)" : "");
		}
		if (!want) {
			nseal++;
			err = k_seal(he, s->epoch, s->ad.p, s->ad.len, s->pt.p,
				     s->pt.len, buf, access_mode[(i + 1) % 2]);
			if (dmd_key_open_only(v->key.p, v->key.len)) {	/* spec section 2 */
				if (err != -EPERM) {
					bad_seal++;
					tap_diag("%s step %u encrypt on an open-only key: expected EPERM, got %s",
						 v->name, i, dmd_errname(err));
				}
			} else if (err || memcmp(buf, s->ct.p, s->ct.len)) {
				bad_seal++;
				tap_diag("%s step %u encrypt: expected ok and the vector's ct, got %s%s",
					 v->name, i, dmd_errname(err),
					 err ? "" : " (ciphertext differs)");
			}
		}
		free(buf);
	}
	tap_result(!bad_open, "%s: %u steps decrypt as the vector says",
		   v->name, v->nsteps);
	tap_result(!bad_seal, dmd_key_open_only(v->key.p, v->key.len) ?
		   "%s: %u positive steps refuse encrypt (open-only key)" :
		   "%s: %u positive steps encrypt to the vector's ct",
		   v->name, nseal);
	kcapi_aead_destroy(hd);
	kcapi_aead_destroy(he);
}

static void misc(unsigned int suite, struct dmd_rng *r)
{
	uint8_t blob[DMD_BLOB_MAX], ad[40], pt[600], ct[700], out[700];
	size_t bl = dmd_make_blob(r, blob, suite, 0, 8, 5), ptlen;
	struct kcapi_handle *h = NULL, *h2;
	struct vec_step s;
	unsigned int t;
	int err;

	err = kcapi_aead_init(&h, dmd_alg_name(suite), 0);
	if (!tap_result(!err, "suite%u: kcapi_aead_init", suite))
		return;
	static const unsigned int taglens[] = { 4, 8, 15, 17 };
	for (t = 0; t < sizeof(taglens) / sizeof(taglens[0]); t++) {
		err = kcapi_aead_settaglen(h, taglens[t]);
		if (!tap_result(err == -EINVAL, "suite%u: kcapi settaglen %u -> EINVAL",
				suite, taglens[t]))
			tap_diag("expected EINVAL, got %s", dmd_errname(err));
	}
	/* 12 is the packet grid's: a keyless tfm takes it (diamond_grid). */
	err = kcapi_aead_settaglen(h, 12);
	if (!tap_result(!err, "suite%u: kcapi settaglen 12 on a keyless tfm",
			suite))
		tap_diag("expected ok, got %s", dmd_errname(err));
	err = kcapi_aead_settaglen(h, 16);
	if (!tap_result(!err, "suite%u: kcapi settaglen 16 again", suite))
		tap_diag("expected ok, got %s", dmd_errname(err));
	blob[0] ^= 1;
	err = kcapi_aead_setkey(h, blob, (uint32_t)bl);
	if (!tap_result(err == -EINVAL, "suite%u: kcapi setkey bad magic -> EINVAL",
			suite))
		tap_diag("expected EINVAL, got %s", dmd_errname(err));
	blob[0] ^= 1;
	err = kcapi_aead_setkey(h, blob, (uint32_t)bl - 1);
	if (!tap_result(err == -EINVAL, "suite%u: kcapi setkey short blob -> EINVAL",
			suite))
		tap_diag("expected EINVAL, got %s", dmd_errname(err));
	kcapi_aead_destroy(h);

	h = handle(suite, blob, bl, &err);
	h2 = h ? handle(suite, blob, bl, &err) : NULL;
	if (!tap_result(h && h2, "suite%u: round-trip handles", suite)) {
		if (h)
			kcapi_aead_destroy(h);
		return;
	}
	for (t = 0; t < 8; t++) {
		dmd_rand_bytes(r, ad, sizeof(ad));
		ptlen = dmd_rand_body(r, pt, 1 + dmd_rand_below(r, 8), 60);
		err = k_seal(h, 5 + 2 * t, ad, sizeof(ad), pt, ptlen, ct,
			     access_mode[t % 2]);
		memset(&s, 0, sizeof(s));
		s.epoch = 5 + 2 * t;
		s.ad.p = ad;
		s.ad.len = sizeof(ad);
		s.ct.p = ct;
		s.ct.len = ptlen + DMD_TAG_SIZE;
		if (!err)
			err = k_open(h2, &s, out, access_mode[(t + 1) % 2]);
		if (!tap_result(!err && !memcmp(out, pt, ptlen),
				"suite%u: kcapi round trip epoch %u", suite,
				5 + 2 * t))
			tap_diag("expected ok, got %s", dmd_errname(err));
	}
	/* replay on the decrypting handle */
	err = k_open(h2, &s, out, KCAPI_ACCESS_HEURISTIC);
	if (!tap_result(err == -EKEYEXPIRED, "suite%u: kcapi replay -> EKEYEXPIRED",
			suite))
		tap_diag("expected EKEYEXPIRED, got %s", dmd_errname(err));
	kcapi_aead_destroy(h);
	kcapi_aead_destroy(h2);
}

int main(int argc, char **argv)
{
	const char *path = dmd_vectors_path(argc, argv);
	struct dmd_rng r = { dmd_seed() };
	struct kcapi_handle *h;
	struct vec_file *vf;
	const struct vec *v;
	unsigned int suite;
	int avail[3] = { 0 }, err;

	tap_header();
	kcapi_set_verbosity(KCAPI_LOG_NONE);
	for (suite = 1; suite <= 2; suite++) {
		h = NULL;
		err = kcapi_aead_init(&h, dmd_alg_name(suite), 0);
		if (!err) {
			avail[suite] = 1;
			kcapi_aead_destroy(h);
		} else {
			tap_diag("kcapi_aead_init %s: %s", dmd_alg_name(suite),
				 dmd_errname(err));
		}
	}
	if (!avail[1] && !avail[2]) {
		/* libkcapi binds type "aead" only (afalg.h). */
		err = afalg_bind(dmd_alg_name(1));
		afalg_close(err);
		tap_skip(err >= 0 ? "type aead refuses the instances (crypto.af_alg_restrict=1), and libkcapi binds no other type" :
			 "kcapi_aead_init failed for both suites", "diamond_kcapi");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	vf = vec_open(path);
	if (!tap_result(vf != NULL, "open %s", path)) {
		tap_trailing_plan();
		return TAP_EXIT_FAIL;
	}
	while ((v = vec_next(vf))) {
		suite = v->key.p[DMD_BLOB_OFF_SUITE];
		if (suite != 1 && suite != 2)
			continue;
		if (!avail[suite])
			tap_skip("suite not available", v->name);
		else
			vector(v, suite);
	}
	vec_close(vf);
	for (suite = 1; suite <= 2; suite++)
		if (avail[suite])
			misc(suite, &r);
	tap_trailing_plan();
	return tap_finish();
}
