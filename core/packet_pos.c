// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Where a packet may sit (spec section 14.5): its full epoch and index
 * rebuilt from the receiver's cursor and the packet's j mod 64 (and its
 * anchor's e mod 2^32), as LoRaWAN rebuilds a frame counter from its low
 * bits. A wrong guess only fails verification, so what bounds a forger's
 * work is the number of candidates: at most three near the cursor and one
 * in the newest anchored epoch held.
 */
#include <diamond/packet.h>

/*
 * Positions of epoch @e from index @from on whose index is @jm mod 64,
 * appended to @out until @want are listed.
 */
static void in_epoch(uint64_t e, uint32_t from, uint32_t jm, uint32_t b,
		     unsigned int want, struct dmd_pkt_pos *out,
		     unsigned int *n)
{
	uint32_t i = from + ((jm - from) & DMD_PKT_CTL_J);

	for (; i < b && *n < want; i += 64) {
		out[*n].epoch = e;
		out[(*n)++].index = i;
	}
}

/* The first positions at or after the cursor in stream order. */
static void near_cursor(const struct dmd_pkt_cursor *c, uint32_t jm,
			struct dmd_pkt_pos *out, unsigned int *n)
{
	uint64_t e = c->epoch;
	uint32_t from = c->unit * DMD_GRID_UNIT;

	/* jm < b: every epoch from index 0 on adds one, so this ends. */
	for (;;) {
		in_epoch(e, from, jm, c->b, DMD_PKT_NEAR, out, n);
		if (*n == DMD_PKT_NEAR || e == DMD_EPOCH_LAST ||
		    e - c->epoch >= c->max_skip)
			return;
		e++;
		from = 0;
	}
}

/* The newest anchored epoch held, unless it is listed already. */
static void held_epoch(const struct dmd_pkt_cursor *c, uint32_t jm,
		       struct dmd_pkt_pos *out, unsigned int *n)
{
	unsigned int k;

	if (!c->held || c->held_epoch <= c->epoch)
		return;
	for (k = 0; k < *n; k++)
		if (out[k].epoch == c->held_epoch && out[k].index == jm)
			return;
	out[*n].epoch = c->held_epoch;
	out[(*n)++].index = jm;
}

int dmd_packet_candidates(const struct dmd_pkt_cursor *c,
			  const struct dmd_packet *p,
			  struct dmd_pkt_pos out[DMD_PKT_CANDIDATES],
			  unsigned int *n)
{
	uint64_t ea;

	if (!c || !p || !out || !n)
		return DMD_EINVAL;
	*n = 0;
	if (p->jm >= c->b)
		return DMD_EFORMAT;	/* b < 64 and no index has it */
	if (!p->anchored) {
		near_cursor(c, p->jm, out, n);
		held_epoch(c, p->jm, out, n);
		return *n ? DMD_OK : DMD_EEXPIRED;
	}
	/* The first epoch at or after the cursor's with these low bits. */
	ea = c->epoch + (uint32_t)(p->anchor - (uint32_t)c->epoch);
	if (ea - c->epoch > c->max_skip)
		return DMD_ESKIP;
	if (ea > DMD_EPOCH_LAST)
		return DMD_EFULL;
	in_epoch(ea, ea == c->epoch ? c->unit * DMD_GRID_UNIT : 0, p->jm,
		 c->b, DMD_PKT_NEAR, out, n);
	return *n ? DMD_OK : DMD_EEXPIRED;
}
