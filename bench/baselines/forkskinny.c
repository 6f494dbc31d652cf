// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ForkSkinny-128 (forkskinny.h) on the SKINNY-128 round of skinny128.c.
 */
#include "forkskinny.h"
#include "skinny128.h"

#include <diamond/util.h>

/* 7-bit LFSR: rc6..rc0 -> rc5..rc0, rc6 ^ rc5 ^ 1. */
static uint8_t rc_next(uint8_t rc)
{
	return (uint8_t)(((rc << 1) & 0x7e) | (((rc >> 6) ^ (rc >> 5) ^ 1) & 1));
}

/* @n rounds; *@rc is the last constant used and moves on. */
static void rounds(struct skinny128 *c, uint8_t *rc, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		*rc = rc_next(*rc);
		/* c0, c1 of the constant, and the tweak indicator in cell 2 */
		skinny128_round(c, (*rc & 0xfu) | 0x00020000u, (uint32_t)*rc >> 4);
	}
}

/* The branch constant of the 128-bit block, cells 0..15 as rows. */
static const uint32_t branch_const[4] = {
	0x08040201u, 0x82412010u, 0x28140a05u, 0x8844a251u,
};

void forkskinny128_encrypt(const uint8_t *tweakey, unsigned int ntk,
			   const uint8_t in[16], uint8_t *c0, uint8_t *c1)
{
	unsigned int before = ntk == 3 ? FORKSKINNY128_384_BEFORE : FORKSKINNY128_256_BEFORE;
	unsigned int after = ntk == 3 ? FORKSKINNY128_384_AFTER : FORKSKINNY128_256_AFTER;
	struct skinny128 c;
	uint32_t fork[4];
	unsigned int r;
	uint8_t rc = 0;

	skinny128_load(&c, tweakey, ntk, in);
	rounds(&c, &rc, before);
	for (r = 0; r < 4; r++)
		fork[r] = c.s[r];
	if (c1) {
		rounds(&c, &rc, after);
		skinny128_store(&c, c1);
	} else {
		/* C0's round tweakeys and constants follow C1's */
		for (r = 0; r < after; r++) {
			skinny128_tk_skip(&c);
			rc = rc_next(rc);
		}
	}
	if (c0) {
		for (r = 0; r < 4; r++)
			c.s[r] = fork[r] ^ branch_const[r];
		rounds(&c, &rc, after);
		skinny128_store(&c, c0);
	}
	dmd_wipe(&c, sizeof(c));
	dmd_wipe(fork, sizeof(fork));
}
