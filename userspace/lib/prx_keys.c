// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet receiver's chain walks (spec sections 3 and 14.5): from the
 * cursor (e_c, u_c), holding E_{e_c+1} and R_{e_c,16u_c}, to the first key
 * of a unit at or past it. Only future keys are made; the callers bound
 * how far (max_skip epochs, b records).
 */
#include <diamond/chain.h>

#include "prx.h"

void dlib_prx_walk(unsigned int suite, uint8_t *r, uint64_t n)
{
	struct dmd_stream s;
	uint8_t hp[32];

	for (; n; n--) {
		dmd_slot_open(&s, suite, r, r, hp);
		dmd_stream_wipe(&s);
	}
	dmd_wipe(hp, sizeof(hp));
}

void dlib_prx_keys(const struct dlib_pstate *ps, uint64_t e, uint32_t u,
		   uint8_t *r, uint8_t *enext)
{
	size_t k = dmd_key_size(ps->st.suite);
	uint8_t key[DMD_KEY_MAX];
	uint64_t x, ec = ps->st.epoch - 1;

	memcpy(key, ps->st.key, k);
	if (e == ec) {
		memcpy(r, ps->rc, k);
		dlib_prx_walk(ps->st.suite, r, (uint64_t)(u - ps->uc) *
			      DMD_GRID_UNIT);
	} else {
		/* E_x -> (E_{x+1}, R_{x,0}) for x = e_c + 1 .. e. */
		for (x = ec + 1; x <= e; x++)
			dmd_epoch_update(ps->st.suite, key, key, r);
		dlib_prx_walk(ps->st.suite, r, (uint64_t)u * DMD_GRID_UNIT);
	}
	if (enext)
		memcpy(enext, key, k);
	dmd_wipe(key, sizeof(key));
}
