// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Packets held per undecided unit (spec 14.5, with section 8.1's copy
 * rule): up to DLIB_PRX_COPIES distinct packets per record, in arrival order,
 * never replaced, so a damaged or forged copy that came first never
 * deletes the genuine one; at most DLIB_PRX_UNITS units per device, and
 * when they are all taken the unit farthest from where packets resume with
 * nothing decided in it gives way to a nearer one (the genuine position of
 * a packet is almost always its nearest candidate). Packets resume at the
 * cursor, or at record 0 of the newest anchored epoch held: after a reset
 * the sender's new epoch is the near one, and the cursor's candidates of
 * the same packets are the far ones (spec 14.5, candidate 2).
 */
#include <stdlib.h>

#include "prx.h"

/*
 * How far (@e, @u) lies from where packets resume, in units: from record 0
 * of the held anchored epoch for its own units, else from the cursor.
 * Units of epochs past e_c + max_skip are never held, so this never wraps.
 */
static uint64_t distance(const struct dlib_pdev *d, uint64_t e, uint32_t u)
{
	uint64_t units = d->ps.st.b / DMD_GRID_UNIT;

	if (d->held && e == d->held_epoch)
		return u;
	return (e - dlib_prx_ec(d)) * units + u - d->ps.uc;
}

/* A free slot for (@e, @u), or the farthest undecided one past it. */
static struct dlib_punit *new_unit(struct dlib_pdev *d, uint64_t e, uint32_t u)
{
	struct dlib_punit *far = NULL, *pu;
	uint64_t fard = 0, pd;
	unsigned int i;

	for (i = 0; i < DLIB_PRX_UNITS; i++) {
		pu = &d->unit[i];
		if (!pu->used)
			goto take;
		if (pu->bits.rel || pu->bits.ver)
			continue;	/* stored bitmaps stay */
		pd = distance(d, pu->bits.e, pu->bits.u);
		if (!far || pd > fard) {
			far = pu;
			fard = pd;
		}
	}
	if (!far || distance(d, e, u) >= fard)
		return NULL;
	pu = far;
	dlib_prx_unit_drop(pu);
take:
	pu->used = 1;
	pu->bits.e = e;
	pu->bits.u = u;
	return pu;
}

int dlib_prx_hold(struct diamond_prx *x, struct dlib_pdev *d,
		  const uint8_t *pkt, size_t len, uint64_t e, uint32_t u,
		  unsigned int r, struct dlib_punit **out)
{
	struct dlib_punit *pu = dlib_prx_unit(d, e, u);
	unsigned int c;
	uint8_t *copy;

	(void)x;
	if (!pu)
		pu = new_unit(d, e, u);
	*out = pu;
	if (!pu)
		return 2;
	for (c = 0; c < pu->ncopy[r]; c++)
		if (pu->len[r][c] == len && !memcmp(pu->pkt[r][c], pkt, len))
			return 1;
	if (pu->ncopy[r] == DLIB_PRX_COPIES)
		return 2;
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, pkt, len);
	pu->pkt[r][pu->ncopy[r]] = copy;
	pu->len[r][pu->ncopy[r]++] = (uint16_t)len;
	return 0;
}
