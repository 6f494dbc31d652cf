// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet sender (spec section 14.3): spec section 10's sender, whose
 * record chain and sigma_j are unchanged, with the eight accumulators of
 * the open unit beside it. A unit's first seal takes its tau* from the
 * slot key before the seal erases it; each sigma_j goes into its row's and
 * its column's accumulator; a tag leaves with the packet of the last
 * record it covers, and its accumulator is erased then.
 */
#include <diamond/packet.h>

#include <diamond/util.h>

int dmd_psender_init(struct dmd_psender *ps, const struct dmd_state *st,
		     unsigned int a, uint32_t addr, uint8_t *window,
		     size_t window_size, size_t pre_len)
{
	int rc;

	if (!ps)
		return DMD_EINVAL;
	rc = dmd_packet_key_check(st);
	if (rc != DMD_OK)
		return rc;
	if (a < 1 || a > DMD_PKT_ADDR_MAX ||
	    (a < 4 && addr >> (8 * a)))
		return DMD_EINVAL;
	dmd_wipe(ps, sizeof(*ps));
	rc = dmd_sender_init(&ps->s, st, window, window_size, pre_len);
	if (rc != DMD_OK)
		return rc;
	ps->a = (uint8_t)a;
	ps->addr = addr;
	return DMD_OK;
}

int dmd_psender_begin(struct dmd_psender *ps, struct dmd_state *reserve)
{
	if (!ps)
		return DMD_EINVAL;
	/* An epoch cut short: its open unit's tags never go out. */
	dmd_sender_end(&ps->s);
	dmd_wipe(ps->acc, sizeof(ps->acc));
	return dmd_sender_begin(&ps->s, reserve);
}

/* Address, control byte and anchor; returns their length. */
static size_t packet_header(const struct dmd_psender *ps, uint8_t *pkt,
			   uint32_t j, int anchor)
{
	size_t n = ps->a, i;

	for (i = 0; i < n; i++)
		pkt[i] = (uint8_t)(ps->addr >> (8 * i));
	pkt[n++] = (uint8_t)((anchor ? DMD_PKT_CTL_N : 0) |
			     (j & DMD_PKT_CTL_J));
	if (anchor) {
		dmd_store32_le(pkt + n, (uint32_t)ps->s.epoch);
		n += DMD_PKT_ANCHOR_SIZE;
	}
	return n;
}

/*
 * The record's sigma_j into its row's and its column's accumulator. The
 * sender's aggregate is XOR (dmd_packet_key_check()) and zero before each
 * seal, so after the seal it is exactly sigma_j: no second hash, and the
 * seal's own paths stay as they are. It is zeroed again at once, so the
 * sender holds no sum of past sigmas beside the open unit's accumulators
 * (spec 14.7).
 */
static void fold_sigma(struct dmd_psender *ps, unsigned int r)
{
	uint8_t *row = ps->acc[r / 4], *col = ps->acc[4 + r % 4];
	unsigned int i;

	for (i = 0; i < DMD_TAG_SIZE; i++) {
		row[i] ^= ps->s.agg.acc[i];
		col[i] ^= ps->s.agg.acc[i];
	}
	dmd_wipe(ps->s.agg.acc, sizeof(ps->s.agg.acc));
}

int dmd_psender_seal(struct dmd_psender *ps, const uint8_t *m, size_t len,
		     int anchor, uint8_t *pkt, size_t pkt_size,
		     size_t *pkt_len)
{
	uint8_t t[2];
	unsigned int r, k, i, ntags;
	size_t n;
	int rc;

	if (!ps || !ps->s.open || !pkt || !pkt_len || (!m && len))
		return DMD_EINVAL;
	if (len > DMD_PKT_MAX_RECORD)
		return DMD_ESIZE;
	if (ps->s.index >= ps->s.st.b)
		return DMD_EFULL;
	r = ps->s.index % DMD_GRID_UNIT;
	anchor = anchor || !ps->s.index;
	ntags = dmd_packet_tags(r, t);
	if (pkt_size < ps->a + 1u + (anchor ? DMD_PKT_ANCHOR_SIZE : 0) + len +
			       ntags * DMD_PKT_TAG_SIZE)
		return DMD_ESPACE;
	if (!r)
		dmd_grid_taus(ps->s.st.suite, dmd_sender_slot_key(&ps->s),
			      ps->s.epoch, ps->s.index / DMD_GRID_UNIT,
			      ps->acc);
	n = packet_header(ps, pkt, ps->s.index, anchor);
	rc = dmd_sender_seal(&ps->s, m, len, pkt + n, NULL);
	if (rc != DMD_OK)
		return rc;	/* not reached: every check is above */
	fold_sigma(ps, r);
	n += len;
	for (k = 0; k < ntags; k++) {
		for (i = 0; i < DMD_PKT_TAG_SIZE; i++)
			pkt[n++] = ps->acc[t[k]][i];
		dmd_wipe(ps->acc[t[k]], DMD_TAG_SIZE);
	}
	*pkt_len = n;
	return DMD_OK;
}

void dmd_psender_wipe(struct dmd_psender *ps)
{
	if (!ps)
		return;
	dmd_sender_wipe(&ps->s);
	dmd_wipe(ps, sizeof(*ps));
}
