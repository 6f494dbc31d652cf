// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The grid trailers of spec section 14.3: per unit, eight tau* keyed from
 * the grid-trailer domain of the slot key of the unit's first record, a
 * domain no record, group or epoch use reaches. Each tau* is a one-block
 * hash of GTB under its own H* and P*, so every tag on the air is masked
 * by a pad used for it alone (the bound of section 14.4 rests on that).
 */
#include <diamond/packet.h>

#include <diamond/stream.h>
#include <diamond/tag.h>
#include <diamond/util.h>

void dmd_grid_taus(unsigned int suite, const uint8_t *r, uint64_t e,
		   uint32_t u, uint8_t tau[DMD_GRID_TAGS][DMD_TAG_SIZE])
{
	static const uint8_t no_data[1];
	struct dmd_stream s;
	uint8_t hp[32];	/* H*_{u,t} || P*_{u,t}: Z_u[32t : 32t + 32] */
	uint32_t t;

	dmd_stream_init(&s, suite, r, DMD_DOMAIN_GRID);
	for (t = 0; t < DMD_GRID_TAGS; t++) {
		dmd_stream_read(&s, hp, sizeof(hp));
		dmd_uh_tag(suite, hp, no_data, 0, e,
			   DMD_GRID_FLAG | t << DMD_GRID_TAG_SHIFT |
				   u * DMD_GRID_UNIT,
			   tau[t]);
	}
	dmd_stream_wipe(&s);
	dmd_wipe(hp, sizeof(hp));
	dmd_wipe_stack();
}
