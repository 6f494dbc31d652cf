// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SKINNY-128-256 and SKINNY-64-192 as keyed tweakable block ciphers
 * (skinny_tbc.h).
 */
#include "skinny128.h"
#include "skinny64.h"
#include "skinny_tbc.h"

#include <diamond/util.h>

static void enc128(const uint8_t key[TBC_KEY_BYTES], const uint8_t *tweak,
		   const uint8_t *in, uint8_t *out)
{
	uint8_t tk[32];
	unsigned int i;

	for (i = 0; i < 16; i++) {
		tk[i] = key[i];
		tk[16 + i] = tweak[i];
	}
	skinny128_encrypt(tk, 2, in, out);
	dmd_wipe(tk, sizeof(tk));
}

static void enc64(const uint8_t key[TBC_KEY_BYTES], const uint8_t *tweak,
		  const uint8_t *in, uint8_t *out)
{
	uint8_t tk[24];
	unsigned int i;

	for (i = 0; i < 16; i++)
		tk[i] = key[i];
	for (i = 0; i < 8; i++)
		tk[16 + i] = tweak[i];
	skinny64_192_encrypt_swapped(tk, in, out);
	dmd_wipe(tk, sizeof(tk));
}

const struct skinny_tbc skinny_tbc_128_256 = { "SKINNY-128-256", 16, 16, 0x87, enc128 };
const struct skinny_tbc skinny_tbc_64_192 = { "SKINNY-64-192", 8, 8, 0x1b, enc64 };

void tbc_double(uint8_t *x, unsigned int n, uint8_t poly)
{
	uint8_t top = (uint8_t)(x[n - 1] >> 7);
	unsigned int i;

	for (i = 0; i + 1 < n; i++)
		x[i] = (uint8_t)(x[i] << 1 | x[i + 1] >> 7);
	x[n - 1] = (uint8_t)(x[n - 1] << 1);
	x[0] ^= (uint8_t)(poly & -top);
}
