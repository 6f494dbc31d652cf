// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BLAKE2b after RFC 7693 section 3: twelve rounds of the G mixing function
 * over a 16-word state per 128-byte block, the last block zero padded and
 * flagged; no key, no salt, no personalisation.
 */
#include "blake2b.h"

#include <diamond/util.h>

static const uint64_t b2b_iv[8] = {
	0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL,
	0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
	0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
	0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint8_t b2b_sigma[12][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
};

static inline uint64_t rotr64(uint64_t x, unsigned int n)
{
	return (x >> n) | (x << (64 - n));
}

static void b2b_g(uint64_t v[16], int a, int b, int c, int d, uint64_t x,
		  uint64_t y)
{
	v[a] = v[a] + v[b] + x;
	v[d] = rotr64(v[d] ^ v[a], 32);
	v[c] = v[c] + v[d];
	v[b] = rotr64(v[b] ^ v[c], 24);
	v[a] = v[a] + v[b] + y;
	v[d] = rotr64(v[d] ^ v[a], 16);
	v[c] = v[c] + v[d];
	v[b] = rotr64(v[b] ^ v[c], 63);
}

/* Compress one block; @t is the byte count so far (fits 64 bits here). */
static void b2b_compress(uint64_t h[8], const uint8_t blk[128], uint64_t t,
			 int last)
{
	uint64_t v[16], m[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		m[i] = dmd_load64_le(blk + 8 * i);
	for (i = 0; i < 8; i++) {
		v[i] = h[i];
		v[i + 8] = b2b_iv[i];
	}
	v[12] ^= t;
	if (last)
		v[14] = ~v[14];
	for (i = 0; i < 12; i++) {
		const uint8_t *s = b2b_sigma[i];

		b2b_g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
		b2b_g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
		b2b_g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
		b2b_g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
		b2b_g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
		b2b_g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
		b2b_g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
		b2b_g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
	}
	for (i = 0; i < 8; i++)
		h[i] ^= v[i] ^ v[i + 8];
	dmd_wipe(v, sizeof(v));
	dmd_wipe(m, sizeof(m));
}

void blake2b(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
	uint8_t blk[128], hb[64];
	uint64_t h[8];
	uint64_t t = 0;
	size_t i, n;

	for (i = 0; i < 8; i++)
		h[i] = b2b_iv[i];
	h[0] ^= 0x01010000ULL ^ outlen;
	/* Every full block but the last is compressed unflagged. */
	while (inlen > 128) {
		t += 128;
		b2b_compress(h, in, t, 0);
		in += 128;
		inlen -= 128;
	}
	n = inlen;
	for (i = 0; i < 128; i++)
		blk[i] = i < n ? in[i] : 0;
	t += n;
	b2b_compress(h, blk, t, 1);
	for (i = 0; i < 8; i++)
		dmd_store64_le(hb + 8 * i, h[i]);
	for (i = 0; i < outlen; i++)
		out[i] = hb[i];
	dmd_wipe(blk, sizeof(blk));
	dmd_wipe(hb, sizeof(hb));
	dmd_wipe(h, sizeof(h));
}
