/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The tweakable block ciphers ZMAC, PMAC1 and PMAC2x run on (zmac.h,
 * pmac.h), with a 128-bit key, as the PMAC-variants reference code
 * (n0900/MAC__PMAC-Variants) keys them:
 *
 *  - SKINNY-128-256: n = 16-byte block, t = 16-byte tweak; TK1 = key,
 *    TK2 = tweak (skinny128.h);
 *  - SKINNY-64-192: n = 8, t = 8; TK1 || TK2 = key, TK3 = tweak, rows
 *    read little-endian as that code does (skinny64.h).
 *
 * The modes see only n, t, the doubling constant and one call.
 */
#ifndef DIAMOND_BENCH_SKINNY_TBC_H
#define DIAMOND_BENCH_SKINNY_TBC_H

#include <stdint.h>

#define TBC_MAX_N	16
#define TBC_KEY_BYTES	16

struct skinny_tbc {
	const char *name;
	unsigned int n;		/* block bytes */
	unsigned int t;		/* tweak bytes */
	uint8_t poly;		/* doubling: 0x87 (n = 16) or 0x1b (n = 8) */
	/* @out = E(@key, @tweak (t bytes), @in (n bytes)); may alias @in */
	void (*enc)(const uint8_t key[TBC_KEY_BYTES], const uint8_t *tweak,
		    const uint8_t *in, uint8_t *out);
};

extern const struct skinny_tbc skinny_tbc_128_256;
extern const struct skinny_tbc skinny_tbc_64_192;

/*
 * The doubling of the reference codes (ZMAC, PMAC2x, and SuperSonic's
 * supersonic.c): the n bytes shift left by one bit as a big-endian number,
 * and the bit that falls off the top of the last byte comes back as @poly
 * in the first byte. Not GF(2^n) doubling in any one byte order, but what
 * their known answers are made of. Constant time.
 */
void tbc_double(uint8_t *x, unsigned int n, uint8_t poly);

#endif
