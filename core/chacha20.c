/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#include <diamond/chacha20.h>
#include <diamond/util.h>

static inline uint32_t rotl32(uint32_t x, unsigned int n)
{
	return (x << n) | (x >> (32 - n));
}

static inline void quarter_round(uint32_t x[16], unsigned int a,
				 unsigned int b, unsigned int c,
				 unsigned int d)
{
	x[a] += x[b];
	x[d] = rotl32(x[d] ^ x[a], 16);
	x[c] += x[d];
	x[b] = rotl32(x[b] ^ x[c], 12);
	x[a] += x[b];
	x[d] = rotl32(x[d] ^ x[a], 8);
	x[c] += x[d];
	x[b] = rotl32(x[b] ^ x[c], 7);
}

/* "expand 32-byte k", key, then counter || nonce straight from iv. */
static void chacha20_setup(uint32_t s[16], const uint8_t key[32],
			   const uint8_t iv[16])
{
	unsigned int i;

	s[0] = 0x61707865;
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		s[4 + i] = dmd_load32_le(key + 4 * i);
	for (i = 0; i < 4; i++)
		s[12 + i] = dmd_load32_le(iv + 4 * i);
}

/* 20 rounds plus the feed-forward; x is scratch the caller wipes. */
static void chacha20_core(uint8_t out[64], const uint32_t s[16],
			  uint32_t x[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		x[i] = s[i];
	for (i = 0; i < 10; i++) {
		quarter_round(x, 0, 4, 8, 12);
		quarter_round(x, 1, 5, 9, 13);
		quarter_round(x, 2, 6, 10, 14);
		quarter_round(x, 3, 7, 11, 15);
		quarter_round(x, 0, 5, 10, 15);
		quarter_round(x, 1, 6, 11, 12);
		quarter_round(x, 2, 7, 8, 13);
		quarter_round(x, 3, 4, 9, 14);
	}
	for (i = 0; i < 16; i++)
		dmd_store32_le(out + 4 * i, x[i] + s[i]);
}

void dmd_chacha20_block(uint8_t out[64], const uint8_t key[32],
			const uint8_t iv[16])
{
	uint32_t s[16], x[16];

	chacha20_setup(s, key, iv);
	chacha20_core(out, s, x);
	dmd_wipe(s, sizeof(s));
	dmd_wipe(x, sizeof(x));
}

void dmd_chacha20_stream(uint8_t *out, size_t len, const uint8_t key[32],
			 const uint8_t iv[16])
{
	uint32_t s[16], x[16];
	uint8_t tail[64];
	size_t i;

	chacha20_setup(s, key, iv);
	for (; len >= 64; len -= 64, out += 64) {
		chacha20_core(out, s, x);
		s[12]++;
	}
	if (len) {
		chacha20_core(tail, s, x);
		for (i = 0; i < len; i++)
			out[i] = tail[i];
		dmd_wipe(tail, sizeof(tail));
	}
	dmd_wipe(s, sizeof(s));
	dmd_wipe(x, sizeof(x));
}
