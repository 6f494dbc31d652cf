// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet of spec section 14.1, read: address, control byte, anchor,
 * record and the tags it carries. The PHY gives the length, so the record's
 * length is what the fields before and after it leave; a length that does
 * not parse, or F = 1, drops the packet before any key is looked at.
 */
#include <diamond/packet.h>

#include <diamond/util.h>

/*
 * Rows ride in the packets of r = 3, 7, 11, 15 (t = r / 4), columns in
 * those of r = 12 .. 15 (t = r - 8); the packet of r = 15 carries its row's
 * tag, then its column's.
 */
unsigned int dmd_packet_tags(unsigned int r, uint8_t t[2])
{
	unsigned int m = 0;

	if ((r & 3) == 3)
		t[m++] = (uint8_t)(r >> 2);
	if (r >= 12 && r <= 15)
		t[m++] = (uint8_t)(r - 8);
	return m;
}

int dmd_packet_parse(struct dmd_packet *p, const uint8_t *pkt, size_t pl,
		     unsigned int a)
{
	uint8_t t[2], ctl;
	size_t fixed;
	unsigned int i;

	if (!p || !pkt || a < 1 || a > DMD_PKT_ADDR_MAX)
		return DMD_EINVAL;
	if (pl < a + 1)
		return DMD_EFORMAT;
	ctl = pkt[a];
	if (ctl & DMD_PKT_CTL_F)
		return DMD_EFORMAT;	/* reserved: dropped and counted */
	p->anchored = !!(ctl & DMD_PKT_CTL_N);
	p->jm = ctl & DMD_PKT_CTL_J;
	p->m = (uint8_t)dmd_packet_tags(p->jm % DMD_GRID_UNIT, t);
	fixed = a + 1 + (p->anchored ? DMD_PKT_ANCHOR_SIZE : 0);
	if (pl < fixed)
		return DMD_EFORMAT;
	if (pl - fixed < (size_t)p->m * DMD_PKT_TAG_SIZE)
		return DMD_EFORMAT;
	p->len = pl - fixed - (size_t)p->m * DMD_PKT_TAG_SIZE;
	if (p->len > DMD_PKT_MAX_RECORD)
		return DMD_ESIZE;
	p->addr = 0;
	for (i = a; i--;)
		p->addr = p->addr << 8 | pkt[i];
	p->anchor = p->anchored ? dmd_load32_le(pkt + a + 1) : 0;
	p->rec = pkt + fixed;
	p->tags = p->rec + p->len;
	return DMD_OK;
}

int dmd_packet_key_check(const struct dmd_state *st)
{
	if (!st || dmd_state_check(st) != DMD_OK)
		return DMD_EKEY;
	/* Section 14.2: the bound of 14.4 is argued for XOR alone. */
	if (st->agg != DMD_AGG_XOR || st->b % DMD_GRID_UNIT)
		return DMD_EKEY;
	if (st->group && st->group != st->b)
		return DMD_EKEY;	/* the grid replaces groups */
	return DMD_OK;
}
