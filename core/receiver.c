// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The receiver (spec section 9): verify a whole epoch against its aggregate
 * tag, and only then decrypt it and advance the state. Until the tag has
 * matched, @pt holds keystream only; on a mismatch it is wiped and the state
 * is left exactly as it was.
 */
#include <diamond/core.h>

#include <diamond/chain.h>
#include <diamond/tag.h>
#include <diamond/util.h>
#include "open.h"

struct open_scratch {
	uint8_t ekey[DMD_KEY_MAX];	/* E_{epoch+1} once derived */
	uint8_t r[DMD_KEY_MAX];		/* R_{epoch,j} */
	uint8_t hp[32];
	uint8_t sigma[DMD_TAG_SIZE];
	uint8_t tag[DMD_TAG_SIZE];
	struct dmd_agg agg;
	struct dmd_stream s;
};

/* Derive E_{epoch+1} and R_{epoch,0} from the state, skipping lost epochs. */
static void derive_epoch(const struct dmd_state *st, uint64_t epoch,
			 struct open_scratch *x)
{
	uint64_t e;
	size_t i;

	for (i = 0; i < DMD_KEY_MAX; i++)
		x->ekey[i] = st->key[i];
	for (e = st->epoch; e <= epoch; e++)
		dmd_epoch_update(st->suite, x->ekey, x->ekey, x->r);
}

/* Pass 1: keystream into @pt, tags of all records and the trailer. */
static void compute_tag(const struct dmd_state *st, uint64_t epoch,
			const uint8_t *ad, size_t adlen, const uint8_t *ct,
			uint32_t n, uint8_t *pt, struct open_scratch *x)
{
	size_t pos = 0, len;
	uint32_t j;

	dmd_agg_init(&x->agg, st->agg);
	for (j = 0; j < n; j++) {
		len = (size_t)ct[pos] | (size_t)ct[pos + 1] << 8;
		pt[pos] = ct[pos];
		pt[pos + 1] = ct[pos + 1];
		pos += DMD_BODY_LEN_SIZE;
		dmd_slot_open(&x->s, st->suite, x->r, x->r, x->hp);
		dmd_stream_read(&x->s, pt + pos, len);
		dmd_uh_tag(st->suite, x->hp, ct + pos, len, epoch,
			   j, x->sigma);
		dmd_agg_add(&x->agg, x->sigma);
		pos += len;
	}
	dmd_slot_open(&x->s, st->suite, x->r, x->r, x->hp);
	dmd_uh_tag(st->suite, x->hp, ad, adlen, epoch,
		   DMD_TRAILER_FLAG | n, x->sigma);
	dmd_agg_final(&x->agg, x->sigma, x->tag);
}

void dmd_release(const uint8_t *ct, size_t body_len, uint8_t *pt,
		 uint8_t mask)
{
	size_t pos = 0, len, i;

	while (pos < body_len) {
		len = (size_t)ct[pos] | (size_t)ct[pos + 1] << 8;
		pt[pos] &= mask;
		pt[pos + 1] &= mask;
		pos += DMD_BODY_LEN_SIZE;
		for (i = 0; i < len; i++)
			pt[pos + i] = (uint8_t)((pt[pos + i] ^ ct[pos + i]) &
						mask);
		pos += len;
	}
}

/* Commit E_{epoch+1} under @mask, keep the old state otherwise. */
static void commit(struct dmd_state *st, const struct open_scratch *x,
		   uint64_t epoch, uint8_t mask)
{
	uint64_t m64 = (uint64_t)0 - (mask & 1);
	size_t i;

	for (i = 0; i < DMD_KEY_MAX; i++)
		st->key[i] = (uint8_t)((x->ekey[i] & mask) |
				       (st->key[i] & (uint8_t)~mask));
	st->epoch = ((epoch + 1) & m64) | (st->epoch & ~m64);
}

int dmd_open(struct dmd_state *st, uint64_t epoch, const uint8_t *ad,
	     size_t adlen, const uint8_t *ct, size_t ct_len, uint8_t *pt,
	     uint32_t max_skip)
{
	struct open_scratch x;
	size_t body_len;
	uint32_t n;
	uint8_t mask;
	int rc;

	if (!st || !ct || !pt || (!ad && adlen))
		return DMD_EINVAL;
	if (dmd_state_check(st) != DMD_OK)
		return DMD_EKEY;
	/* Spec 9.2: lengths, then the epoch, then the body, then the tag. */
	if (ct_len < DMD_TAG_SIZE)
		return DMD_EFORMAT;
	if (adlen > DMD_MAX_AD)
		return DMD_ESIZE;
	body_len = ct_len - DMD_TAG_SIZE;
	rc = dmd_check_epoch(st->epoch, epoch, max_skip);
	if (rc == DMD_OK)
		rc = dmd_body_count(ct, body_len, st->b, &n);
	if (rc != DMD_OK)
		return rc;

	derive_epoch(st, epoch, &x);
	compute_tag(st, epoch, ad, adlen, ct, n, pt, &x);
	/* The verdict stays a mask until the return: no branch on it here. */
	mask = (uint8_t)(0 - dmd_ct_equal(x.tag, ct + body_len, DMD_TAG_SIZE));
	dmd_release(ct, body_len, pt, mask);
	commit(st, &x, epoch, mask);
	rc = DMD_EBADMSG & ~(int)(int8_t)mask;
	dmd_wipe(&x, sizeof(x));
	dmd_wipe_stack();
	return rc;
}
