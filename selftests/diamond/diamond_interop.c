// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_interop: the kernel against itself and against the portable core
 * (the core sources linked in), raw AF_ALG, both suites, every aggregation mode,
 * random bodies (1..b records of 0..4096 bytes), random AD and epoch gaps.
 *  - round trip: epochs sealed on one tfm open on another tfm keyed with
 *    the same blob;
 *  - kernel -> core: the kernel's epochs open in dmd_open, and the
 *    ciphertext equals what dmd_seal_body produces for the same input;
 *  - core -> kernel: epochs sealed by the core open in the kernel.
 *  - split requests: one epoch sent in two sendmsg pieces (MSG_MORE) at
 *    every cut offset, and in 3-4 pieces at random offsets, must open (and
 *    seal) exactly as when sent whole; the same around page boundaries with
 *    a multi-page epoch.
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/util.h>
#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

#define EPOCHS 24

static const char *const agg_name[3] = { "xor", "add", "hash" };

struct cfg {
	uint32_t b;
	size_t maxrec;
};

static const struct cfg cfgs[] = {
	{ 1, 4096 }, { 4, 600 }, { 16, 4096 }, { 300, 24 },
};

static void run(unsigned int suite, unsigned int agg, const struct cfg *c,
		struct dmd_rng *r)
{
	uint8_t blob[DMD_BLOB_MAX], ad[DMD_MAX_AD];
	uint8_t *pt = malloc(DMD_T_BUF * 2), *ct = malloc(DMD_T_BUF * 2),
		*ct2 = malloc(DMD_T_BUF * 2), *out = malloc(DMD_T_BUF * 2);
	struct dmd_state core_tx, core_rx;
	unsigned int i, nrec, fail_rt = 0, fail_k2c = 0, fail_c2k = 0,
			      fail_eq = 0;
	size_t bl, ptlen, adlen;
	uint64_t epoch = 0;
	int tx, rx, rx2, err, rc;
	char tag[48];

	snprintf(tag, sizeof(tag), "suite%u/%s/b%u", suite, agg_name[agg], c->b);
	bl = dmd_make_blob(r, blob, suite, agg, c->b, dmd_rand_below(r, 3) ?
			   0 : dmd_rand(r) >> 20);
	dmd_blob_parse(&core_tx, blob, bl);
	dmd_blob_parse(&core_rx, blob, bl);
	epoch = core_tx.epoch;
	tx = dmd_tfm(suite, blob, bl);
	rx = dmd_tfm(suite, blob, bl);
	rx2 = dmd_tfm(suite, blob, bl);
	if (!tap_result(tx >= 0 && rx >= 0 && rx2 >= 0, "%s: three tfms keyed",
			tag)) {
		tap_diag("got %s / %s / %s", dmd_errname(tx), dmd_errname(rx),
			 dmd_errname(rx2));
		goto out;
	}
	for (i = 0; i < EPOCHS; i++) {
		nrec = 1 + dmd_rand_below(r, c->b < 16 ? c->b : 16);
		if (c->b > 16 && i % 4 == 3)
			nrec = c->b;	/* a full epoch of many records */
		ptlen = dmd_rand_body(r, pt, nrec, c->maxrec);
		adlen = dmd_rand_below(r, 8) ? dmd_rand_below(r, 48) :
					       DMD_MAX_AD;
		dmd_rand_bytes(r, ad, adlen);
		if (i && !dmd_rand_below(r, 3))
			epoch += 1 + dmd_rand_below(r, 5);	/* lost epochs */

		/* kernel seals; another tfm and the core open it */
		err = dmd_kseal(tx, 1, epoch, ad, adlen, pt, ptlen, ct);
		if (err) {
			fail_rt++;
			tap_diag("%s epoch %llu: kernel seal: %s", tag,
				 (unsigned long long)epoch, dmd_errname(err));
			continue;
		}
		err = dmd_kopen(rx, 1, epoch, ad, adlen, ct, ptlen + 16, out,
				NULL, NULL);
		if (err || memcmp(out, pt, ptlen)) {
			fail_rt++;
			tap_diag("%s epoch %llu (%u records, %zu bytes): round trip open: %s%s",
				 tag, (unsigned long long)epoch, nrec, ptlen,
				 dmd_errname(err), err ? "" : " (plaintext differs)");
		}
		rc = dmd_open(&core_rx, epoch, ad, adlen, ct, ptlen + 16, out,
			      DMD_DEFAULT_MAX_SKIP);
		if (rc || memcmp(out, pt, ptlen)) {
			fail_k2c++;
			tap_diag("%s epoch %llu: core dmd_open of the kernel's epoch: %d",
				 tag, (unsigned long long)epoch, rc);
		}
		/* the core seals the same input: same bytes */
		rc = dmd_core_seal_at(&core_tx, epoch, ad, adlen, pt, ptlen, ct2);
		if (rc || memcmp(ct, ct2, ptlen + 16)) {
			fail_eq++;
			tap_diag("%s epoch %llu: core seal %d, bytes %s", tag,
				 (unsigned long long)epoch, rc,
				 rc ? "-" : "differ");
		}
		/* and the core's epoch opens in a third tfm */
		err = dmd_kopen(rx2, 1, epoch, ad, adlen, ct2, ptlen + 16, out,
				NULL, NULL);
		if (err || memcmp(out, pt, ptlen)) {
			fail_c2k++;
			tap_diag("%s epoch %llu: kernel open of the core's epoch: %s",
				 tag, (unsigned long long)epoch,
				 dmd_errname(err));
		}
		epoch++;
	}
	tap_result(!fail_rt, "%s: %u epochs sealed on one tfm open on another (%u failed)",
		   tag, EPOCHS, fail_rt);
	tap_result(!fail_k2c, "%s: kernel-sealed epochs open in the core (%u failed)",
		   tag, fail_k2c);
	tap_result(!fail_eq, "%s: kernel ciphertext equals the core's (%u differ)",
		   tag, fail_eq);
	tap_result(!fail_c2k, "%s: core-sealed epochs open in the kernel (%u failed)",
		   tag, fail_c2k);
out:
	afalg_close(tx);
	afalg_close(rx);
	afalg_close(rx2);
	free(pt);
	free(ct);
	free(ct2);
	free(out);
}

static const char *where(size_t off, size_t adlen, const uint8_t *body,
			 size_t bodylen)
{
	size_t pos = 0, len;

	if (off < adlen)
		return "AD";
	off -= adlen;
	while (pos < bodylen) {
		if (off < pos + 2)
			return "prefix";
		len = body[pos] | body[pos + 1] << 8;
		if (off < pos + 2 + len)
			return "record";
		pos += 2 + len;
	}
	return "tag";
}

/*
 * Every two-piece cut of one epoch (and @nrand random 3-4 piece splits),
 * decrypting core-sealed epochs and sealing against the core.
 */
static void split_sweep(unsigned int suite, struct dmd_rng *r,
			const size_t *lens, unsigned int nrec, size_t adlen,
			size_t cut_from, size_t cut_to, const char *what)
{
	uint8_t blob[DMD_BLOB_MAX], *in = malloc(DMD_T_BUF),
		*pt = malloc(DMD_T_BUF), *ct = malloc(DMD_T_BUF),
		*out = malloc(DMD_T_BUF);
	struct dmd_state tx, rx;
	size_t bl, ptlen = 0, cut[3], c, inlen;
	unsigned int j, bad_dec = 0, bad_enc = 0, tried = 0, shown = 0;
	uint64_t epoch = 0;
	uint8_t iv[8];
	int dtfm, etfm, op;
	ssize_t n;

	for (j = 0; j < nrec; j++) {
		pt[ptlen] = (uint8_t)lens[j];
		pt[ptlen + 1] = (uint8_t)(lens[j] >> 8);
		dmd_rand_bytes(r, pt + ptlen + 2, lens[j]);
		ptlen += 2 + lens[j];
	}
	bl = dmd_make_blob(r, blob, suite, DMD_AGG_XOR, nrec, 0);
	dmd_blob_parse(&tx, blob, bl);
	dmd_blob_parse(&rx, blob, bl);
	dtfm = dmd_tfm(suite, blob, bl);
	etfm = dmd_tfm(suite, blob, bl);
	if (!tap_result(dtfm >= 0 && etfm >= 0, "suite%u: %s: tfms keyed",
			suite, what))
		goto out;
	dmd_rand_bytes(r, in, adlen);
	if (cut_to > adlen + ptlen + DMD_TAG_SIZE - 1)
		cut_to = adlen + ptlen + DMD_TAG_SIZE - 1;
	for (c = cut_from; c <= cut_to + 40; c++, epoch++) {
		int random = c > cut_to;
		unsigned int ncut = 1, k;

		cut[0] = c;
		/* decrypt: AD || core ciphertext, split */
		dmd_core_seal_at(&tx, epoch, in, adlen, pt, ptlen, in + adlen);
		inlen = adlen + ptlen + DMD_TAG_SIZE;
		if (random) {	/* 2 or 3 random cut points */
			ncut = 2 + dmd_rand_below(r, 2);
			for (k = 0; k < ncut; k++)
				cut[k] = 1 + dmd_rand_below(r, (uint32_t)inlen - 1);
			for (k = 1; k < ncut; k++)
				if (cut[k] < cut[k - 1]) {
					size_t t = cut[k];

					cut[k] = cut[k - 1];
					cut[k - 1] = t;
					k = 0;
				}
		}
		dmd_store64_le(iv, epoch);
		op = afalg_accept(dtfm);
		n = op < 0 ? op :
		    afalg_aead_op_split(op, 0, iv, 8, (uint32_t)adlen, in, inlen,
					cut, ncut, out, inlen - DMD_TAG_SIZE);
		afalg_close(op);
		tried++;
		if (n != (ssize_t)(inlen - DMD_TAG_SIZE) ||
		    memcmp(out + adlen, pt, ptlen)) {
			bad_dec++;
			if (shown++ < 12)
				tap_diag("suite%u %s: decrypt cut at %zu%s (%s, of %zu bytes): %s",
					 suite, what, cut[0], ncut > 1 ? "+" : "",
					 where(cut[0], adlen, in + adlen, ptlen),
					 inlen, n < 0 ? dmd_errname((int)n) :
					 "wrong output");
			/* keep going from a known state */
			dmd_rekey(dtfm, blob, bl);
			rx = tx;
		}
		/* encrypt: AD || plaintext, split, against the core's bytes */
		memcpy(out, in, adlen + ptlen + DMD_TAG_SIZE);	/* core ct */
		memcpy(in + adlen, pt, ptlen);
		inlen = adlen + ptlen;
		if (!random && c >= inlen)
			continue;
		if (random)
			for (k = 0; k < ncut; k++)
				cut[k] = cut[k] > inlen ? inlen : cut[k];
		op = afalg_accept(etfm);
		n = op < 0 ? op :
		    afalg_aead_op_split(op, 1, iv, 8, (uint32_t)adlen, in, inlen,
					cut, ncut, ct, inlen + DMD_TAG_SIZE);
		afalg_close(op);
		if (n != (ssize_t)(inlen + DMD_TAG_SIZE) ||
		    memcmp(ct + adlen, out + adlen, ptlen + DMD_TAG_SIZE)) {
			bad_enc++;
			if (shown++ < 12)
				tap_diag("suite%u %s: encrypt cut at %zu%s (%s): %s",
					 suite, what, cut[0], ncut > 1 ? "+" : "",
					 where(cut[0], adlen, pt, ptlen),
					 n < 0 ? dmd_errname((int)n) :
					 "differs from the core");
		}
	}
	(void)rx;
	tap_result(!bad_dec, "suite%u: %s: %u split decrypts open (%u failed)",
		   suite, what, tried, bad_dec);
	tap_result(!bad_enc, "suite%u: %s: split encrypts equal the core (%u failed)",
		   suite, what, bad_enc);
out:
	afalg_close(dtfm);
	afalg_close(etfm);
	free(in);
	free(pt);
	free(ct);
	free(out);
}

int main(void)
{
	struct dmd_rng r = { dmd_seed() };
	unsigned int suite, agg, any = 0;
	size_t c;

	tap_header();
	tap_diag("seed %llu (set DMD_SEED to repeat)", (unsigned long long)r.s);
	for (suite = 1; suite <= 2; suite++) {
		if (!dmd_suite_available(suite))
			continue;
		any = 1;
		for (agg = 0; agg < 3; agg++)
			for (c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++)
				run(suite, agg, &cfgs[c], &r);
		{
			static const size_t small[] = { 7, 0, 12 };
			static const size_t big[] = { 3000, 1, 2500 };

			split_sweep(suite, &r, small, 3, 5, 1, 1000,
				    "3 records, every 2-piece cut");
			split_sweep(suite, &r, big, 3, 100, 4080, 4110,
				    "5.6 KB epoch, cuts around the page boundary");
		}
	}
	tap_trailing_plan();
	return any ? tap_finish() : TAP_EXIT_SKIP;
}
