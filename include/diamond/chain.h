/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The key chains of spec section 3. */
#ifndef DIAMOND_CORE_CHAIN_H
#define DIAMOND_CORE_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/stream.h>

/*
 * Open record slot R: writes R_next (k bytes) and H || P (32 bytes) and
 * leaves @s positioned at the slot's keystream. Caller wipes @s.
 */
void dmd_slot_open(struct dmd_stream *s, unsigned int suite, const uint8_t *r,
		   uint8_t *r_next, uint8_t hkey_pad[32]);

/*
 * The group trailer keys H'_i || P'_i of spec section 5.1 from the slot key
 * R of the group's first record; R itself is left as it is (the caller
 * goes on to open its slot).
 */
void dmd_group_keys(unsigned int suite, const uint8_t *r, uint8_t hp[32]);

#endif
