/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* What the whole-epoch receiver and the group receiver share (spec 9). */
#ifndef DIAMOND_CORE_OPEN_H
#define DIAMOND_CORE_OPEN_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>

/*
 * Steps 1 and 2 of spec section 9 for @epoch against the state @st:
 * DMD_EEXPIRED, DMD_ESKIP, DMD_EFULL (no valid next blob) or DMD_OK.
 */
int dmd_check_epoch(const struct dmd_state *st, uint64_t epoch,
		    uint32_t max_skip);

/*
 * Pass 2 of a verification, branch-free on the verdict: @pt holds the
 * keystream of the body @ct (length prefixes as they are); with @mask all
 * ones (tag matched) XOR the ciphertext over it, with @mask zero wipe it.
 */
void dmd_release(const uint8_t *ct, size_t body_len, uint8_t *pt,
		 uint8_t mask);

#endif
