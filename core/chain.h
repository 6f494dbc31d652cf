/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The key chains of spec section 3. */
#ifndef DIAMOND_CORE_CHAIN_H
#define DIAMOND_CORE_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "stream.h"

/*
 * Open record slot R: writes R_next (k bytes) and H || P (32 bytes) and
 * leaves @s positioned at the slot's keystream. Caller wipes @s.
 */
void dmd_slot_open(struct dmd_stream *s, unsigned int suite, const uint8_t *r,
		   uint8_t *r_next, uint8_t hkey_pad[32]);

#endif
