/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SHA-256 per FIPS 180-4 section 6.2. The message schedule is kept as a
 * 16-word ring instead of 64 words, to spare stack on small cores.
 */
#include <diamond/sha256.h>
#include <diamond/util.h>

/* First 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotr32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_block(uint32_t h[8], const uint8_t p[64])
{
	uint32_t w[16], s[8], t1, t2, s0, s1;
	unsigned int i, k;

	for (i = 0; i < 16; i++)
		w[i] = dmd_load32_be(p + 4 * i);
	for (i = 0; i < 8; i++)
		s[i] = h[i];
	for (i = 0; i < 64; i++) {
		if (i >= 16) {
			/* W_i from W_{i-2}, W_{i-7}, W_{i-15}, W_{i-16}. */
			k = i & 15;
			s0 = w[(i + 1) & 15];
			s0 = rotr32(s0, 7) ^ rotr32(s0, 18) ^ (s0 >> 3);
			s1 = w[(i + 14) & 15];
			s1 = rotr32(s1, 17) ^ rotr32(s1, 19) ^ (s1 >> 10);
			w[k] += s0 + s1 + w[(i + 9) & 15];
		}
		t1 = s[7] + (rotr32(s[4], 6) ^ rotr32(s[4], 11) ^
			     rotr32(s[4], 25)) +
		     ((s[4] & s[5]) ^ (~s[4] & s[6])) + K[i] + w[i & 15];
		t2 = (rotr32(s[0], 2) ^ rotr32(s[0], 13) ^ rotr32(s[0], 22)) +
		     ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
		s[7] = s[6];
		s[6] = s[5];
		s[5] = s[4];
		s[4] = s[3] + t1;
		s[3] = s[2];
		s[2] = s[1];
		s[1] = s[0];
		s[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += s[i];
	dmd_wipe(w, sizeof(w));
	dmd_wipe(s, sizeof(s));
}

void dmd_sha256_init(struct dmd_sha256 *ctx)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	unsigned int i;

	for (i = 0; i < 8; i++)
		ctx->h[i] = iv[i];
	ctx->len = 0;
	ctx->buf_len = 0;
}

void dmd_sha256_update(struct dmd_sha256 *ctx, const uint8_t *data,
		       size_t len)
{
	ctx->len += len;
	while (len) {
		if (ctx->buf_len == 0 && len >= 64) {
			sha256_block(ctx->h, data);
			data += 64;
			len -= 64;
			continue;
		}
		ctx->buf[ctx->buf_len++] = *data++;
		len--;
		if (ctx->buf_len == 64) {
			sha256_block(ctx->h, ctx->buf);
			ctx->buf_len = 0;
		}
	}
}

void dmd_sha256_final(struct dmd_sha256 *ctx, uint8_t out[32])
{
	uint64_t bits = ctx->len << 3;
	unsigned int i;

	/* 0x80, zeros to 56 mod 64, then the bit length big endian. */
	ctx->buf[ctx->buf_len++] = 0x80;
	if (ctx->buf_len > 56) {
		while (ctx->buf_len < 64)
			ctx->buf[ctx->buf_len++] = 0;
		sha256_block(ctx->h, ctx->buf);
		ctx->buf_len = 0;
	}
	while (ctx->buf_len < 56)
		ctx->buf[ctx->buf_len++] = 0;
	dmd_store32_be(ctx->buf + 56, (uint32_t)(bits >> 32));
	dmd_store32_be(ctx->buf + 60, (uint32_t)bits);
	sha256_block(ctx->h, ctx->buf);
	for (i = 0; i < 8; i++)
		dmd_store32_be(out + 4 * i, ctx->h[i]);
	dmd_wipe(ctx, sizeof(*ctx));
}

void dmd_sha256(uint8_t out[32], const uint8_t *data, size_t len)
{
	struct dmd_sha256 ctx;

	dmd_sha256_init(&ctx);
	dmd_sha256_update(&ctx, data, len);
	dmd_sha256_final(&ctx, out);
}
