/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The epoch against the receiver's state (spec section 9.2, step 3): the
 * one definition, used by the portable core, the kernel module and
 * libdiamond. Freestanding and header-only so that the kernel compiles it
 * too; each caller maps the DMD_E* code to its own error space.
 */
#ifndef DIAMOND_EPOCH_H
#define DIAMOND_EPOCH_H

#include "spec.h"

/*
 * May a receiver whose state is at epoch @cur open epoch @epoch, skipping
 * at most @max_skip epochs? In this order: DMD_EEXPIRED below @cur (its keys
 * are gone: a replay, a late copy, an older generation), DMD_ESKIP more
 * than @max_skip ahead, DMD_EFULL past DMD_EPOCH_LAST (no valid next
 * state); otherwise DMD_OK. unsigned long long holds any 64-bit epoch (it
 * is the kernel's u64), so the header needs no <stdint.h>.
 */
static inline int dmd_check_epoch(unsigned long long cur,
				  unsigned long long epoch,
				  unsigned long long max_skip)
{
	if (epoch < cur)
		return DMD_EEXPIRED;
	if (epoch - cur > max_skip)
		return DMD_ESKIP;
	if (epoch > DMD_EPOCH_LAST)
		return DMD_EFULL;
	return DMD_OK;
}

#endif
