// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SKINNY-128 round function and tweakey schedule (skinny128.h): rows in
 * 32-bit words, S-box as a circuit, no secret-dependent branch or index.
 */
#include "skinny128.h"
#include "skinny_mix.h"

#include <diamond/util.h>

#define CELL_LSB	0x01010101u

/*
 * The S-box S8 on the four cells of a row. SKINNY defines S8 as four
 * passes of x4 ^= NOR(x7, x6), x0 ^= NOR(x3, x2), with the bit permutation
 * (x7..x0) -> (x2, x1, x7, x6, x4, x0, x3, x5) after the first three and a
 * swap of x1 and x2 after the last. Each bit of the four cells is kept in
 * its own word (bit 0 of every byte) and the permutations are followed by
 * renaming: b[i] is always the word that started as bit i, and the
 * comments give the bit positions the passes see.
 */
static uint32_t sbox_row(uint32_t x)
{
	uint32_t b0 = x & CELL_LSB, b1 = (x >> 1) & CELL_LSB;
	uint32_t b2 = (x >> 2) & CELL_LSB, b3 = (x >> 3) & CELL_LSB;
	uint32_t b4 = (x >> 4) & CELL_LSB, b5 = (x >> 5) & CELL_LSB;
	uint32_t b6 = (x >> 6) & CELL_LSB, b7 = (x >> 7) & CELL_LSB;

	/* pass 1: x7..x0 = b7 b6 b5 b4 b3 b2 b1 b0 */
	b4 ^= ~(b7 | b6) & CELL_LSB;
	b0 ^= ~(b3 | b2) & CELL_LSB;
	/* pass 2: x7..x0 = b2 b1 b7 b6 b4 b0 b3 b5 */
	b6 ^= ~(b2 | b1) & CELL_LSB;
	b5 ^= ~(b4 | b0) & CELL_LSB;
	/* pass 3: x7..x0 = b0 b3 b2 b1 b6 b5 b4 b7 */
	b1 ^= ~(b0 | b3) & CELL_LSB;
	b7 ^= ~(b6 | b5) & CELL_LSB;
	/* pass 4: x7..x0 = b5 b4 b0 b3 b1 b7 b6 b2 */
	b3 ^= ~(b5 | b4) & CELL_LSB;
	b2 ^= ~(b1 | b7) & CELL_LSB;
	/* out: the last pass's order with x1 and x2 swapped */
	return b5 << 7 | b4 << 6 | b0 << 5 | b3 << 4 | b1 << 3 | b6 << 2 |
	       b7 << 1 | b2;
}

static uint32_t rotl32(uint32_t x, unsigned int n)
{
	return x << n | x >> (32 - n);
}

/* TK2's LFSR on every cell of a row: x7..x0 -> x6..x0, x7 ^ x5. */
static uint32_t lfsr2(uint32_t x)
{
	return ((x << 1) & 0xfefefefeu) ^ (((x >> 7) ^ (x >> 5)) & CELL_LSB);
}

/* TK3's LFSR: x7..x0 -> x0 ^ x6, x7..x1. */
static uint32_t lfsr3(uint32_t x)
{
	return ((x >> 1) & 0x7f7f7f7fu) ^ (((x << 7) ^ (x << 1)) & 0x80808080u);
}

/*
 * The tweakey permutation P_T = (9, 15, 8, 13, 10, 14, 12, 11, 0, ..., 7):
 * the old top rows become the bottom ones, the new top rows gather cells
 * of the old bottom rows; then the LFSR of this TK on the new top rows.
 */
static void tk_next(uint32_t t[4], unsigned int z)
{
	uint32_t r2 = t[2], r3 = t[3], n0, n1;

	n0 = ((r2 >> 8) & 0xffu) | ((r3 >> 16) & 0xff00u) |
	     ((r2 << 16) & 0xff0000u) | ((r3 << 16) & 0xff000000u);
	n1 = ((r2 >> 16) & 0xffu) | ((r3 >> 8) & 0xff00u) |
	     ((r3 << 16) & 0xff0000u) | (r2 & 0xff000000u);
	t[2] = t[0];
	t[3] = t[1];
	if (z == 1) {
		n0 = lfsr2(n0);
		n1 = lfsr2(n1);
	} else if (z == 2) {
		n0 = lfsr3(n0);
		n1 = lfsr3(n1);
	}
	t[0] = n0;
	t[1] = n1;
}

void skinny128_tk_skip(struct skinny128 *c)
{
	unsigned int z;

	for (z = 0; z < c->ntk; z++)
		tk_next(c->tk[z], z);
}

void skinny128_load(struct skinny128 *c, const uint8_t *tweakey,
		    unsigned int ntk, const uint8_t in[16])
{
	unsigned int r, z;

	dmd_wipe(c, sizeof(*c));
	c->ntk = ntk;
	for (r = 0; r < 4; r++) {
		c->s[r] = dmd_load32_le(in + 4 * r);
		for (z = 0; z < ntk; z++)
			c->tk[z][r] = dmd_load32_le(tweakey + 16 * z + 4 * r);
	}
}

void skinny128_store(const struct skinny128 *c, uint8_t out[16])
{
	unsigned int r;

	for (r = 0; r < 4; r++)
		dmd_store32_le(out + 4 * r, c->s[r]);
}

void skinny128_round(struct skinny128 *c, uint32_t k0, uint32_t k1)
{
	uint32_t *s = c->s, t;
	unsigned int r, z;

	for (r = 0; r < 4; r++)
		s[r] = sbox_row(s[r]);
	s[0] ^= k0;
	s[1] ^= k1;
	s[2] ^= 0x02u;
	for (z = 0; z < c->ntk; z++) {
		s[0] ^= c->tk[z][0];
		s[1] ^= c->tk[z][1];
		tk_next(c->tk[z], z);
	}
	s[1] = rotl32(s[1], 8);		/* ShiftRows: row r right by r cells */
	s[2] = rotl32(s[2], 16);
	s[3] = rotl32(s[3], 24);
	SKINNY_MIX_COLUMNS(s, t);
}

void skinny128_encrypt(const uint8_t *tweakey, unsigned int ntk,
		       const uint8_t in[16], uint8_t out[16])
{
	struct skinny128 c;
	unsigned int i, n = ntk == 3 ? SKINNY128_384_ROUNDS : SKINNY128_256_ROUNDS;
	uint8_t rc = 0;

	skinny128_load(&c, tweakey, ntk, in);
	for (i = 0; i < n; i++) {
		/* 6-bit LFSR: rc5..rc0 -> rc4..rc0, rc5 ^ rc4 ^ 1 */
		rc = (uint8_t)(((rc << 1) & 0x3e) | (((rc >> 5) ^ (rc >> 4) ^ 1) & 1));
		skinny128_round(&c, rc & 0xfu, (uint32_t)rc >> 4);
	}
	skinny128_store(&c, out);
	dmd_wipe(&c, sizeof(c));
}
