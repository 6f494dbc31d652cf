// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Verifying one unit of the tag grid (spec section 14.5) at one position:
 * walk the unit's 16 record slots from R_{e,16u}, hash every record held,
 * rebuild each row and column tag whose records all arrived, compare its
 * 12 bytes in constant time, and release exactly the records a verified
 * tag covers. Which position to try, the copies and the bitmaps kept
 * between calls are the caller's (the gateway's); a call changes nothing
 * but its outputs.
 */
#include <diamond/packet.h>

#include <diamond/chain.h>
#include <diamond/tag.h>
#include <diamond/util.h>

struct grid_scratch {
	struct dmd_stream s;
	uint8_t key[DMD_KEY_MAX];	/* R_{e,16u+r} */
	uint8_t hp[32];
	uint8_t sigma[DMD_TAG_SIZE];
	uint8_t tag[DMD_GRID_TAGS][DMD_TAG_SIZE];	/* tau*, then S */
};

void dmd_grid_unit_add(struct dmd_grid_unit *g, const struct dmd_packet *p)
{
	unsigned int r = p->jm % DMD_GRID_UNIT, k, m;
	uint8_t t[2];

	g->rec[r] = p->rec;
	g->len[r] = p->len;
	m = dmd_packet_tags(r, t);
	for (k = 0; k < m; k++)
		g->tag[t[k]] = p->tags + k * DMD_PKT_TAG_SIZE;
}

/* The records tag t covers: a row's four, or a column's. */
static uint16_t cover(unsigned int t)
{
	return t < 4 ? (uint16_t)(0xfu << (4 * t)) :
		       (uint16_t)(0x1111u << (t - 4));
}

/* Which records are held: DMD_ESIZE for one over the longest. */
static int held_records(const struct dmd_grid_unit *g, uint16_t *held)
{
	unsigned int r;

	*held = 0;
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!g->rec[r])
			continue;
		if (g->len[r] > DMD_PKT_MAX_RECORD)
			return DMD_ESIZE;
		if (!g->pt[r])
			return DMD_EINVAL;
		*held |= (uint16_t)(1u << r);
	}
	return DMD_OK;
}

/*
 * Every slot of the unit: keystream into @pt of each record held, its
 * sigma into its row's and its column's S. Leaves R_{e,16u+16} in key.
 */
static void hash_records(struct grid_scratch *x, unsigned int suite,
			 uint64_t e, uint32_t u, struct dmd_grid_unit *g)
{
	unsigned int r, i;

	for (r = 0; r < DMD_GRID_UNIT; r++) {
		dmd_slot_open(&x->s, suite, x->key, x->key, x->hp);
		if (g->rec[r]) {
			dmd_stream_read(&x->s, g->pt[r], g->len[r]);
			dmd_uh_tag(suite, x->hp, g->rec[r], g->len[r], e,
				   u * DMD_GRID_UNIT + r, x->sigma);
			for (i = 0; i < DMD_TAG_SIZE; i++) {
				x->tag[r / 4][i] ^= x->sigma[i];
				x->tag[4 + r % 4][i] ^= x->sigma[i];
			}
		}
		dmd_stream_wipe(&x->s);
	}
}

/* Tags that verify, of those whose records and carrier all arrived. */
static uint8_t verify_tags(const struct grid_scratch *x,
			   const struct dmd_grid_unit *g, uint16_t held)
{
	uint8_t verified = 0;
	unsigned int t;

	for (t = 0; t < DMD_GRID_TAGS; t++) {
		/* What arrived is public: a branch on it leaks nothing. */
		if (!g->tag[t] || (held & cover(t)) != cover(t))
			continue;
		verified |= (uint8_t)(dmd_ct_equal(x->tag[t], g->tag[t],
						   DMD_PKT_TAG_SIZE) << t);
	}
	return verified;
}

/* Plaintext out where released (mask all ones), else the keystream wiped. */
static void release(uint8_t *pt, const uint8_t *ct, size_t len, uint8_t mask)
{
	size_t i;

	for (i = 0; i < len; i++)
		pt[i] = (uint8_t)((pt[i] ^ ct[i]) & mask);
}

int dmd_grid_open(unsigned int suite, const uint8_t *r, uint64_t e,
		  uint32_t u, struct dmd_grid_unit *g, uint16_t before,
		  struct dmd_grid_verdict *v, uint8_t *r_next)
{
	struct grid_scratch x;
	size_t k = dmd_key_size(suite);
	uint16_t held, rel = 0, bit;
	uint8_t verified, any;
	unsigned int i;
	int rc;

	if (!r || !g || !v || !k)
		return DMD_EINVAL;
	rc = held_records(g, &held);
	if (rc != DMD_OK)
		return rc;
	for (i = 0; i < k; i++)
		x.key[i] = r[i];
	dmd_grid_taus(suite, x.key, e, u, x.tag);
	hash_records(&x, suite, e, u, g);
	if (r_next)
		for (i = 0; i < k; i++)
			r_next[i] = x.key[i];
	verified = verify_tags(&x, g, held);
	/* Record i is released when its row or its column verified. */
	for (i = 0; i < DMD_GRID_UNIT; i++) {
		bit = (uint16_t)(((verified >> (i / 4)) | (verified >> (4 + i % 4)))
				 & (held >> i) & ~(before >> i) & 1);
		rel |= (uint16_t)(bit << i);
		if (g->rec[i])
			release(g->pt[i], g->rec[i], g->len[i],
				(uint8_t)(0 - bit));
	}
	v->verified = verified;
	v->released = rel;
	/* Any tag verified, as a bit: no branch on the verdict here. */
	any = (uint8_t)((verified | (uint8_t)(0 - verified)) >> 7);
	dmd_wipe(&x, sizeof(x));
	dmd_wipe_stack();
	return DMD_EBADMSG & ((int)any - 1);
}
