// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * PMAC1 on SKINNY-128-256 (pmac.h).
 */
#include "pmac.h"
#include "pmac_last.h"

#include <diamond/util.h>

#define DOM_BLOCK	0x02
#define DOM_FULL	0x03
#define DOM_PADDED	0x04

/* Tweak 0^13 || i (little-endian 16 bits) || domain. */
static void tweak(uint8_t tw[16], size_t i, uint8_t dom)
{
	tw[13] = (uint8_t)i;
	tw[14] = (uint8_t)(i >> 8);
	tw[15] = dom;
}

void pmac1(const uint8_t key[TBC_KEY_BYTES], const uint8_t *m, size_t len,
	   uint8_t tag[16])
{
	const struct skinny_tbc *e = &skinny_tbc_128_256;
	uint8_t tw[16] = { 0 }, sum[16] = { 0 }, c[16], x[16];
	size_t before, i, j;
	int padded;

	before = pmac_last_block(m, len, 16, x, &padded);
	for (i = 0; i < before; i++) {
		tweak(tw, i + 1, DOM_BLOCK);
		e->enc(key, tw, m + 16 * i, c);
		for (j = 0; j < 16; j++)
			sum[j] ^= c[j];
	}
	for (j = 0; j < 16; j++)
		x[j] ^= sum[j];
	tweak(tw, before + 1, padded ? DOM_PADDED : DOM_FULL);
	e->enc(key, tw, x, tag);
	dmd_wipe(sum, sizeof(sum));
	dmd_wipe(c, sizeof(c));
	dmd_wipe(x, sizeof(x));
}
