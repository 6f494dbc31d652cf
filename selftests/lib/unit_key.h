/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The chain key of a grid unit (spec sections 3 and 14.3) by the portable
 * core, for the tests that check a receiver against it (test_packet,
 * diamond_grid). Header-only.
 */
#ifndef DIAMOND_UNIT_KEY_H
#define DIAMOND_UNIT_KEY_H

#include <stdint.h>
#include <string.h>

#include <diamond/chain.h>
#include <diamond/core.h>
#include <diamond/packet.h>
#include <diamond/stream.h>

/* R_{e,16u} (and E_{e+1} into @e_next) from @st, at an epoch <= e. */
static inline void unit_key(const struct dmd_state *st, uint64_t e, uint32_t u,
			    uint8_t r[DMD_KEY_MAX], uint8_t e_next[DMD_KEY_MAX])
{
	struct dmd_stream s;
	uint8_t key[DMD_KEY_MAX], hp[32];
	uint64_t x;
	uint32_t j;

	memcpy(key, st->key, sizeof(key));
	for (x = st->epoch; x <= e; x++)
		dmd_epoch_update(st->suite, key, key, r);
	for (j = 0; j < u * DMD_GRID_UNIT; j++) {
		dmd_slot_open(&s, st->suite, r, r, hp);
		dmd_stream_wipe(&s);
	}
	if (e_next)
		memcpy(e_next, key, DMD_KEY_MAX);
}

#endif
