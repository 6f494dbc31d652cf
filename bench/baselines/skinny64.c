// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SKINNY-64-192 (skinny64.h): rows in 16-bit words, cell 4r in the top
 * nibble of row r, S-box as a circuit.
 */
#include "skinny64.h"
#include "skinny_mix.h"

#include <diamond/util.h>

#define NIB_LSB	0x1111u

/*
 * S4 on the four cells of a row: four passes of x0 ^= NOR(x3, x2), each
 * but the last followed by rotating the cell's bits left by one
 * (x3 x2 x1 x0 -> x2 x1 x0 x3). Every bit of all four cells moves at once.
 */
static uint16_t sbox_row(uint16_t x)
{
	unsigned int i;
	uint32_t y = x;

	for (i = 0; i < 4; i++) {
		y ^= ~((y >> 3) | (y >> 2)) & NIB_LSB;
		if (i < 3)	/* public loop index, not data */
			y = ((y << 1) & 0xeeeeu) | ((y >> 3) & NIB_LSB);
	}
	return (uint16_t)y;
}

/* TK2's LFSR on every cell: x3 x2 x1 x0 -> x2 x1 x0 (x3 ^ x2). */
static uint16_t lfsr2(uint16_t x)
{
	uint32_t y = x;

	return (uint16_t)(((y << 1) & 0xeeeeu) ^ (((y >> 3) ^ (y >> 2)) & NIB_LSB));
}

/* TK3's LFSR on every cell: x3 x2 x1 x0 -> (x0 ^ x3) x3 x2 x1. */
static uint16_t lfsr3(uint16_t x)
{
	uint32_t y = x;

	return (uint16_t)(((y >> 1) & 0x7777u) ^ (((y << 3) ^ y) & 0x8888u));
}

/* TK@z's LFSR (TK1 has none); @z is public. */
static uint16_t lfsr(uint16_t x, unsigned int z)
{
	return z == 1 ? lfsr2(x) : z == 2 ? lfsr3(x) : x;
}

static uint16_t nib(uint16_t row, unsigned int cell)
{
	return (uint16_t)((row >> (12 - 4 * cell)) & 0xfu);
}

/*
 * P_T = (9, 15, 8, 13, 10, 14, 12, 11, 0, 1, ..., 7): the top rows move
 * down, the new top rows gather cells of the old bottom ones; then TK2 and
 * TK3 run their LFSR on the new top rows (@z: 0, 1, 2 for TK1..TK3).
 */
static void tk_next(uint16_t t[4], unsigned int z)
{
	uint16_t r2 = t[2], r3 = t[3], n0, n1;

	n0 = (uint16_t)(nib(r2, 1) << 12 | nib(r3, 3) << 8 | nib(r2, 0) << 4 |
			nib(r3, 1));
	n1 = (uint16_t)(nib(r2, 2) << 12 | nib(r3, 2) << 8 | nib(r3, 0) << 4 |
			nib(r2, 3));
	t[2] = t[0];
	t[3] = t[1];
	t[0] = lfsr(n0, z);
	t[1] = lfsr(n1, z);
}

static uint16_t rotr16(uint16_t x, unsigned int n)
{
	return (uint16_t)(x >> n | x << (16 - n));
}

/* Row r of @b: big-endian (the paper) or, with @swap, little-endian. */
static uint16_t load_row(const uint8_t *b, unsigned int swap)
{
	return (uint16_t)(b[swap] << 8 | b[1 - swap]);
}

/* One round; @rc is this round's 6-bit constant. */
static void round64(uint16_t s[4], uint16_t tk[3][4], unsigned int rc)
{
	uint16_t t;
	unsigned int r, z;

	for (r = 0; r < 4; r++)
		s[r] = sbox_row(s[r]);
	s[0] ^= (uint16_t)((rc & 0xfu) << 12);	/* c0 in cell 0 */
	s[1] ^= (uint16_t)((rc >> 4) << 12);	/* c1 in cell 4 */
	s[2] ^= 0x2000u;			/* c2 = 0x2 in cell 8 */
	for (z = 0; z < 3; z++) {
		s[0] ^= tk[z][0];
		s[1] ^= tk[z][1];
		tk_next(tk[z], z);
	}
	s[1] = rotr16(s[1], 4);		/* ShiftRows: row r right by r cells */
	s[2] = rotr16(s[2], 8);
	s[3] = rotr16(s[3], 12);
	SKINNY_MIX_COLUMNS(s, t);
}

static void encrypt(const uint8_t tweakey[24], const uint8_t in[8],
		    uint8_t out[8], unsigned int swap)
{
	uint16_t s[4], tk[3][4];
	unsigned int i, r, z, rc = 0;

	for (r = 0; r < 4; r++) {
		s[r] = load_row(in + 2 * r, swap);
		for (z = 0; z < 3; z++)
			tk[z][r] = load_row(tweakey + 8 * z + 2 * r, swap);
	}
	for (i = 0; i < SKINNY64_192_ROUNDS; i++) {
		/* 6-bit LFSR: rc5..rc0 -> rc4..rc0, rc5 ^ rc4 ^ 1 */
		rc = ((rc << 1) & 0x3eu) | (((rc >> 5) ^ (rc >> 4) ^ 1) & 1u);
		round64(s, tk, rc);
	}
	for (r = 0; r < 4; r++) {
		out[2 * r + swap] = (uint8_t)(s[r] >> 8);
		out[2 * r + 1 - swap] = (uint8_t)s[r];
	}
	dmd_wipe(s, sizeof(s));
	dmd_wipe(tk, sizeof(tk));
}

void skinny64_192_encrypt(const uint8_t tweakey[24], const uint8_t in[8],
			  uint8_t out[8])
{
	encrypt(tweakey, in, out, 0);
}

void skinny64_192_encrypt_swapped(const uint8_t tweakey[24],
				  const uint8_t in[8], uint8_t out[8])
{
	encrypt(tweakey, in, out, 1);
}
