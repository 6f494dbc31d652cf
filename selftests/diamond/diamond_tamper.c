// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_tamper: forgeries against the kernel's decrypt path, raw AF_ALG,
 * both suites and every aggregation mode.
 *  - The bit-flip matrix: one 4-record epoch with AD, sealed by the portable
 *    core; every single-bit flip of AD, length prefixes, records and tag is
 *    submitted. A flip outside a length prefix must give EBADMSG; a flip in
 *    a prefix may break parsing instead (EINVAL, or EMSGSIZE for a length
 *    over 4096); in every case the kernel's errno must equal what the core
 *    says for that message. After each rejected flip the output buffer holds
 *    no plaintext and the genuine epoch still opens to the right plaintext
 *    (the state did not move); the tfm is then re-keyed.
 *  - Structural forgeries: truncation (last record, tag bytes), record
 *    reordering and duplication, AD/body boundary shift, wrong epoch, wrong
 *    key, replay of an opened epoch and of an older one, far-future epoch.
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"
#include "lib/vecfile.h"

static const size_t rec_len[4] = { 5, 0, 9, 3 };
static const char *const agg_name[3] = { "xor", "add", "hash" };

struct epoch {
	unsigned int suite, agg;
	uint8_t blob[DMD_BLOB_MAX];
	size_t bloblen;
	uint8_t ad[6];
	uint8_t pt[64], ct[96];
	size_t ptlen, ctlen;
	size_t rec_off[4];	/* offset of each length prefix */
	int tfm;
	char tag[24];
};

/* The core's verdict on a (possibly forged) message, as an errno. */
static int core_verdict(const struct epoch *e, uint64_t epoch,
			const uint8_t *ad, size_t adlen, const uint8_t *ct,
			size_t ctlen)
{
	struct dmd_state st;
	uint8_t *pt = malloc(ctlen + 1);
	int rc;

	if (ctlen < DMD_TAG_SIZE) {
		free(pt);
		return -EINVAL;
	}
	dmd_blob_parse(&st, e->blob, e->bloblen);
	rc = dmd_open(&st, epoch, ad, adlen, ct, ctlen, pt,
		      DMD_DEFAULT_MAX_SKIP);
	free(pt);
	return vec_code_errno(rc);
}

/*
 * Submit a forgery expecting @want, then the genuine epoch 0 on the same
 * state. Returns 1 when both behave; fills @why otherwise.
 */
static int forge_then_genuine(struct epoch *e, uint64_t epoch,
			      const uint8_t *ad, size_t adlen,
			      const uint8_t *ct, size_t ctlen, int want,
			      char *why, size_t whylen)
{
	uint8_t pt[128];
	int err, leak = 0;

	err = dmd_rekey(e->tfm, e->blob, e->bloblen);
	if (err) {
		snprintf(why, whylen, "setkey: %s", dmd_errname(err));
		return 0;
	}
	err = dmd_kopen(e->tfm, 1, epoch, ad, adlen, ct, ctlen, pt, e->pt,
			&leak);
	if (err != want || leak) {
		snprintf(why, whylen, "forgery: expected %s, got %s%s",
			 dmd_errname(want), dmd_errname(err),
			 leak ? " with plaintext in the output buffer" : "");
		return 0;
	}
	err = dmd_kopen(e->tfm, 1, 0, e->ad, sizeof(e->ad), e->ct, e->ctlen,
			pt, NULL, NULL);
	if (err || memcmp(pt, e->pt, e->ptlen)) {
		snprintf(why, whylen,
			 "genuine epoch after forgery: expected ok, got %s%s",
			 dmd_errname(err), err ? "" : " (plaintext differs)");
		return 0;
	}
	return 1;
}

static int setup(struct epoch *e, struct dmd_rng *r, unsigned int suite,
		 unsigned int agg)
{
	struct dmd_state st;
	size_t pos = 0;
	unsigned int j;

	memset(e, 0, sizeof(*e));
	e->suite = suite;
	e->agg = agg;
	snprintf(e->tag, sizeof(e->tag), "suite%u/%s", suite, agg_name[agg]);
	e->bloblen = dmd_make_blob(r, e->blob, suite, agg, 4, 0);
	dmd_rand_bytes(r, e->ad, sizeof(e->ad));
	for (j = 0; j < 4; j++) {
		e->rec_off[j] = pos;
		e->pt[pos] = (uint8_t)rec_len[j];
		e->pt[pos + 1] = 0;
		dmd_rand_bytes(r, e->pt + pos + 2, rec_len[j]);
		pos += 2 + rec_len[j];
	}
	e->ptlen = pos;
	e->ctlen = pos + DMD_TAG_SIZE;
	dmd_blob_parse(&st, e->blob, e->bloblen);
	if (dmd_seal_body(&st, e->ad, sizeof(e->ad), e->pt, e->ptlen, e->ct))
		return -EINVAL;
	e->tfm = dmd_tfm(suite, e->blob, e->bloblen);
	return e->tfm < 0 ? e->tfm : 0;
}

static int in_prefix(const struct epoch *e, size_t off)
{
	unsigned int j;

	for (j = 0; j < 4; j++)
		if (off == e->rec_off[j] || off == e->rec_off[j] + 1)
			return 1;
	return 0;
}

/* Region of message byte @i (0 .. 6 + ctlen): AD, prefix, record, tag. */
enum region { R_AD, R_PREFIX, R_RECORD, R_TAG, R_N };
static const char *const region_name[R_N] = {
	"AD", "length prefixes", "record bytes", "tag"
};

static void flip_matrix(struct epoch *e)
{
	unsigned int flips[R_N] = { 0 }, bad[R_N] = { 0 }, reg, bit;
	size_t adlen = sizeof(e->ad), total = adlen + e->ctlen, i, off;
	uint8_t ad[sizeof(e->ad)], ct[96];
	char why[160];
	int want, shown = 0;

	for (i = 0; i < total; i++) {
		if (i < adlen)
			reg = R_AD;
		else if (i - adlen >= e->ptlen)
			reg = R_TAG;
		else
			reg = in_prefix(e, i - adlen) ? R_PREFIX : R_RECORD;
		for (bit = 0; bit < 8; bit++) {
			memcpy(ad, e->ad, adlen);
			memcpy(ct, e->ct, e->ctlen);
			if (i < adlen)
				ad[i] ^= (uint8_t)(1u << bit);
			else
				ct[i - adlen] ^= (uint8_t)(1u << bit);
			off = i;
			want = core_verdict(e, 0, ad, adlen, ct, e->ctlen);
			flips[reg]++;
			if (reg != R_PREFIX && want != -EBADMSG) {
				/* the reference itself would be wrong */
				snprintf(why, sizeof(why),
					 "core says %s for a non-prefix flip",
					 dmd_errname(want));
			} else if (reg == R_PREFIX && want != -EBADMSG &&
				   want != -EINVAL && want != -EMSGSIZE) {
				snprintf(why, sizeof(why),
					 "core says %s for a prefix flip",
					 dmd_errname(want));
			} else if (forge_then_genuine(e, 0, ad, adlen, ct,
						      e->ctlen, want, why,
						      sizeof(why))) {
				continue;
			}
			bad[reg]++;
			if (shown++ < 8)
				tap_diag("%s flip byte %zu bit %u (%s): %s",
					 e->tag, off, bit, region_name[reg], why);
		}
	}
	for (reg = 0; reg < R_N; reg++)
		tap_result(!bad[reg],
			   "%s: %u single-bit flips of the %s rejected, genuine epoch opens after each (%u failed)",
			   e->tag, flips[reg], region_name[reg], bad[reg]);
}

static void structural(struct epoch *e, struct dmd_rng *r)
{
	uint8_t ct[128], ad[sizeof(e->ad)], pt[128], blob[DMD_BLOB_MAX];
	size_t adlen = sizeof(e->ad), len, a, b;
	char why[160];
	int want, err, tfm2;

#define FORGE(name, epoch, adp, adl, ctp, ctl, wantv)                        \
	do {                                                                 \
		int ok_ = forge_then_genuine(e, epoch, adp, adl, ctp, ctl,   \
					     wantv, why, sizeof(why));        \
		if (!tap_result(ok_, "%s: %s", e->tag, name))                 \
			tap_diag("%s", why);                                 \
	} while (0)

	/* drop the last record, keep the tag */
	len = e->rec_off[3];
	memcpy(ct, e->ct, len);
	memcpy(ct + len, e->ct + e->ptlen, DMD_TAG_SIZE);
	FORGE("truncated: last record dropped -> EBADMSG", 0, e->ad, adlen, ct,
	      len + DMD_TAG_SIZE, -EBADMSG);

	/* drop the last records and their bytes, keep two */
	len = e->rec_off[2];
	memcpy(ct, e->ct, len);
	memcpy(ct + len, e->ct + e->ptlen, DMD_TAG_SIZE);
	FORGE("truncated: two records dropped -> EBADMSG", 0, e->ad, adlen, ct,
	      len + DMD_TAG_SIZE, -EBADMSG);

	/* cut bytes off the end: the body no longer parses, or the tag moves */
	for (len = 1; len <= DMD_TAG_SIZE; len *= 4) {
		char name[96];

		want = core_verdict(e, 0, e->ad, adlen, e->ct, e->ctlen - len);
		snprintf(name, sizeof(name), "truncated: last %zu bytes cut -> %s",
			 len, dmd_errname(want));
		FORGE(name, 0, e->ad, adlen, e->ct, e->ctlen - len, want);
	}
	FORGE("truncated: tag only (no records) -> EINVAL", 0, e->ad, adlen,
	      e->ct + e->ptlen, DMD_TAG_SIZE, -EINVAL);

	/* reorder records 0 and 2 (different lengths: the layout changes) */
	a = e->rec_off[1] - e->rec_off[0];
	b = e->rec_off[3] - e->rec_off[2];
	len = 0;
	memcpy(ct + len, e->ct + e->rec_off[2], b), len += b;
	memcpy(ct + len, e->ct + e->rec_off[1], e->rec_off[2] - e->rec_off[1]);
	len += e->rec_off[2] - e->rec_off[1];
	memcpy(ct + len, e->ct + e->rec_off[0], a), len += a;
	memcpy(ct + len, e->ct + e->rec_off[3], e->ctlen - e->rec_off[3]);
	FORGE("reordered: records 0 and 2 swapped -> EBADMSG", 0, e->ad, adlen,
	      ct, e->ctlen, -EBADMSG);

	/* reorder 2 and 3 */
	len = e->rec_off[2];
	memcpy(ct, e->ct, len);
	memcpy(ct + len, e->ct + e->rec_off[3], e->ptlen - e->rec_off[3]);
	len += e->ptlen - e->rec_off[3];
	memcpy(ct + len, e->ct + e->rec_off[2], e->rec_off[3] - e->rec_off[2]);
	memcpy(ct + e->ptlen, e->ct + e->ptlen, DMD_TAG_SIZE);
	FORGE("reordered: records 2 and 3 swapped -> EBADMSG", 0, e->ad, adlen,
	      ct, e->ctlen, -EBADMSG);

	/* duplicate record 0 in place of record 2 */
	len = e->rec_off[2];
	memcpy(ct, e->ct, len);
	memcpy(ct + len, e->ct, a), len += a;
	memcpy(ct + len, e->ct + e->rec_off[3], e->ctlen - e->rec_off[3]);
	len += e->ctlen - e->rec_off[3];
	FORGE("duplicated: record 0 replayed as record 2 -> EBADMSG", 0, e->ad,
	      adlen, ct, len, -EBADMSG);

	/* move the AD/body boundary: last 2 AD bytes read as a prefix */
	memcpy(ct, e->ad + adlen - 2, 2);
	memcpy(ct + 2, e->ct, e->ctlen);
	want = core_verdict(e, 0, e->ad, adlen - 2, ct, e->ctlen + 2);
	{
		char name[96];

		snprintf(name, sizeof(name),
			 "assoclen shifted by 2 -> %s", dmd_errname(want));
		FORGE(name, 0, e->ad, adlen - 2, ct, e->ctlen + 2, want);
	}
	memcpy(ad, e->ad, adlen);
	FORGE("AD dropped -> EBADMSG", 0, ad, 0, e->ct, e->ctlen, -EBADMSG);

	/* wrong epoch: must fail and must not skip the state forward */
	FORGE("epoch 0 presented as epoch 1 -> EBADMSG", 1, e->ad, adlen, e->ct,
	      e->ctlen, -EBADMSG);
	FORGE("epoch 0 presented as epoch 4096 -> EBADMSG", 4096, e->ad, adlen,
	      e->ct, e->ctlen, -EBADMSG);
	FORGE("epoch 0 presented as epoch 4097 -> ERANGE", 4097, e->ad, adlen,
	      e->ct, e->ctlen, -ERANGE);
	FORGE("epoch 0 presented as epoch 2^40 -> ERANGE",
	      1ull << 40, e->ad, adlen, e->ct, e->ctlen, -ERANGE);

	/* wrong key: same parameters, another E_0 */
	memcpy(blob, e->blob, e->bloblen);
	dmd_rand_bytes(r, blob + DMD_BLOB_OFF_KEY, e->bloblen - DMD_BLOB_OFF_KEY);
	tfm2 = dmd_tfm(e->suite, blob, e->bloblen);
	err = tfm2 < 0 ? tfm2 :
	      dmd_kopen(tfm2, 1, 0, e->ad, adlen, e->ct, e->ctlen, pt, e->pt,
			NULL);
	if (!tap_result(err == -EBADMSG, "%s: wrong key -> EBADMSG", e->tag))
		tap_diag("expected EBADMSG, got %s", dmd_errname(err));
	afalg_close(tfm2);

	/* replay: open epoch 0, then again; open 1 and 2, then 1 again */
	{
		struct dmd_state st;
		uint8_t ct1[96], ct2[96];
		int e0, e0b, e1, e2, e1b;

		dmd_blob_parse(&st, e->blob, e->bloblen);
		dmd_core_seal_at(&st, 1, e->ad, adlen, e->pt, e->ptlen, ct1);
		dmd_core_seal_at(&st, 2, e->ad, adlen, e->pt, e->ptlen, ct2);
		dmd_rekey(e->tfm, e->blob, e->bloblen);
		e0 = dmd_kopen(e->tfm, 1, 0, e->ad, adlen, e->ct, e->ctlen, pt,
			       NULL, NULL);
		e0b = dmd_kopen(e->tfm, 1, 0, e->ad, adlen, e->ct, e->ctlen, pt,
				NULL, NULL);
		e1 = dmd_kopen(e->tfm, 1, 1, e->ad, adlen, ct1, e->ctlen, pt,
			       NULL, NULL);
		e2 = dmd_kopen(e->tfm, 1, 2, e->ad, adlen, ct2, e->ctlen, pt,
			       NULL, NULL);
		e1b = dmd_kopen(e->tfm, 1, 1, e->ad, adlen, ct1, e->ctlen, pt,
				NULL, NULL);
		if (!tap_result(!e0 && e0b == -EKEYEXPIRED,
				"%s: replay of the epoch just opened -> EKEYEXPIRED",
				e->tag))
			tap_diag("expected ok then EKEYEXPIRED, got %s then %s",
				 dmd_errname(e0), dmd_errname(e0b));
		if (!tap_result(!e1 && !e2 && e1b == -EKEYEXPIRED,
				"%s: replay of an older epoch -> EKEYEXPIRED",
				e->tag))
			tap_diag("expected ok, ok, EKEYEXPIRED, got %s, %s, %s",
				 dmd_errname(e1), dmd_errname(e2),
				 dmd_errname(e1b));
	}
#undef FORGE
}

int main(void)
{
	struct dmd_rng r = { dmd_seed() };
	unsigned int suite, agg, any = 0;
	struct epoch e;
	int err;

	tap_header();
	tap_diag("seed %llu (set DMD_SEED to repeat)", (unsigned long long)r.s);
	for (suite = 1; suite <= 2; suite++) {
		if (!dmd_suite_available(suite))
			continue;
		any = 1;
		for (agg = 0; agg < 3; agg++) {
			err = setup(&e, &r, suite, agg);
			if (!tap_result(!err, "suite%u/%s: tfm and epoch set up",
					suite, agg_name[agg])) {
				tap_diag("got %s", dmd_errname(err));
				continue;
			}
			flip_matrix(&e);
			structural(&e, &r);
			afalg_close(e.tfm);
		}
	}
	tap_trailing_plan();
	return any ? tap_finish() : TAP_EXIT_SKIP;
}
