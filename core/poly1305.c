/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Poly1305 in one of three radices (see poly1305.h): bytes for AVR, 26-bit
 * limbs with 32x32->64 products for 32-bit cores, 44-bit limbs with
 * 64x64->128 products for 64-bit hosts. Each radix supplies key setup, a
 * multi-block loop and the final reduction; buffering is shared.
 *
 * Every radix reduces only partially per block (h stays below about
 * 2^131), and fully, with a mask select, once in final. All loops have
 * trip counts fixed by the public length; no branch or index depends on the
 * key or the message.
 */
#include <diamond/poly1305.h>
#include <diamond/util.h>

#if DMD_POLY1305_RADIX == 8
/*
 * Radix 2^8 with 32-bit accumulators. h holds a number below about 2^131
 * as 16 bytes plus a small top limb. Limb i + 17 of a product sits at
 * 2^(8i + 136) = 2^(8i) * 2^6 * 2^130, and 2^130 = 5 mod p, so it folds
 * into limb i times 320. Bounds per block: limbs of h + m are < 2^8 (top
 * limb < 8), r limbs < 2^8, so an output limb is
 * < 16 * 2^16 + 320 * 15 * 2^16 < 2^29: no uint32 overflows.
 */
static void poly1305_setkey(struct dmd_poly1305 *ctx, const uint8_t key[32])
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		ctx->r[i] = key[i];
		ctx->s[i] = key[16 + i];
		ctx->h[i] = 0;
	}
	ctx->h[16] = 0;
	/* Clamp: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff (little endian). */
	ctx->r[3] &= 15;
	ctx->r[7] &= 15;
	ctx->r[11] &= 15;
	ctx->r[15] &= 15;
	ctx->r[4] &= 252;
	ctx->r[8] &= 252;
	ctx->r[12] &= 252;
}

/* 8x8->16 product; the uint16_t casts keep AVR's 16-bit int unsigned. */
static inline uint32_t mul8(uint8_t a, uint8_t b)
{
	return (uint32_t)(uint16_t)((uint16_t)a * (uint16_t)b);
}

/* h = (h + m + hibit * 2^128) * r, partially reduced mod 2^130 - 5. */
static void poly1305_block(struct dmd_poly1305 *ctx, const uint8_t m[16],
			   uint8_t hibit)
{
	uint8_t a[17];
	uint32_t x[17], lo, hi, c;
	unsigned int i, j;

	c = 0;
	for (i = 0; i < 16; i++) {
		c += (uint32_t)ctx->h[i] + m[i];
		a[i] = (uint8_t)c;
		c >>= 8;
	}
	a[16] = (uint8_t)(c + ctx->h[16] + hibit);

	/* Schoolbook product; r has no limb 16, which trims both sums. */
	for (i = 0; i < 17; i++) {
		lo = 0;
		for (j = i < 16 ? 0 : i - 15; j <= i; j++)
			lo += mul8(a[j], ctx->r[i - j]);
		hi = 0;
		for (j = i + 2; j < 17; j++)
			hi += mul8(a[j], ctx->r[i + 17 - j]);
		x[i] = lo + (hi << 8) + (hi << 6);
	}

	/* Carry into bytes, then fold bits 130 and up back in times 5. */
	c = 0;
	for (i = 0; i < 16; i++) {
		c += x[i];
		x[i] = c & 0xff;
		c >>= 8;
	}
	c += x[16];
	x[16] = c & 3;
	c = (c >> 2) + (c & ~(uint32_t)3);
	for (i = 0; i < 16; i++) {
		c += x[i];
		ctx->h[i] = (uint8_t)c;
		c >>= 8;
	}
	ctx->h[16] = (uint8_t)(x[16] + c);

	dmd_wipe(a, sizeof(a));
	dmd_wipe(x, sizeof(x));
}

static void poly1305_blocks(struct dmd_poly1305 *ctx, const uint8_t *m,
			    size_t nblocks, uint8_t hibit)
{
	for (; nblocks; nblocks--, m += 16)
		poly1305_block(ctx, m, hibit);
}

/* tag = (h mod p + s) mod 2^128 */
static void poly1305_finish(struct dmd_poly1305 *ctx, uint8_t tag[16])
{
	uint8_t g[17];
	uint32_t c, mask;
	unsigned int i;

	/* Fold bits 130+ once more: h <= 2^130 + 4 < 2p afterwards. */
	c = (uint32_t)(ctx->h[16] >> 2) * 5;
	ctx->h[16] &= 3;
	for (i = 0; i < 16; i++) {
		c += ctx->h[i];
		ctx->h[i] = (uint8_t)c;
		c >>= 8;
	}
	ctx->h[16] = (uint8_t)(ctx->h[16] + c);

	/* g = h + 5 reaches 2^130 exactly when h >= p; then use g - 2^130. */
	c = 5;
	for (i = 0; i < 16; i++) {
		c += ctx->h[i];
		g[i] = (uint8_t)c;
		c >>= 8;
	}
	c += ctx->h[16];
	mask = 0 - (c >> 2);
	for (i = 0; i < 16; i++)
		ctx->h[i] = (uint8_t)((ctx->h[i] & ~mask) | (g[i] & mask));

	/* tag = (h + s) mod 2^128 */
	c = 0;
	for (i = 0; i < 16; i++) {
		c += (uint32_t)ctx->h[i] + ctx->s[i];
		tag[i] = (uint8_t)c;
		c >>= 8;
	}
	dmd_wipe(g, sizeof(g));
}

#elif DMD_POLY1305_RADIX == 26
/*
 * Radix 2^26: h = h0 + h1 2^26 + h2 2^52 + h3 2^78 + h4 2^104. A product
 * term at 2^130 or above folds back times 5, so s_i = 5 r_i stand in for
 * r_i in the wrapped terms. Bounds per block: h_i + m_i < 2^27, r_i < 2^26
 * (the clamp makes r4 < 2^20), s_i < 2^29, so each d_j is a sum of five
 * products < 2^56 each: < 2^59, no uint64 overflow. d4 has no s term and
 * r4 < 2^20, so d4 < 2^55 and the carry out of it times 5 fits 32 bits.
 */
#define M26 0x3ffffffu

/* Named apart from ghash_mul.c's mul32: the amalgamation is one unit. */
static inline uint64_t pmul32(uint32_t a, uint32_t b)
{
	return (uint64_t)a * b;
}

static void poly1305_setkey(struct dmd_poly1305 *ctx, const uint8_t key[32])
{
	uint32_t t0, t1, t2, t3;
	unsigned int i;

	/* Clamp: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff. */
	t0 = dmd_load32_le(key) & 0x0fffffffu;
	t1 = dmd_load32_le(key + 4) & 0x0ffffffcu;
	t2 = dmd_load32_le(key + 8) & 0x0ffffffcu;
	t3 = dmd_load32_le(key + 12) & 0x0ffffffcu;
	ctx->r[0] = t0 & M26;
	ctx->r[1] = ((t0 >> 26) | (t1 << 6)) & M26;
	ctx->r[2] = ((t1 >> 20) | (t2 << 12)) & M26;
	ctx->r[3] = ((t2 >> 14) | (t3 << 18)) & M26;
	ctx->r[4] = t3 >> 8;
	for (i = 0; i < 5; i++)
		ctx->h[i] = 0;
	for (i = 0; i < 4; i++)
		ctx->s[i] = dmd_load32_le(key + 16 + 4 * i);
}

static void poly1305_blocks(struct dmd_poly1305 *ctx, const uint8_t *m,
			    size_t nblocks, uint8_t hibit)
{
	const uint32_t r0 = ctx->r[0], r1 = ctx->r[1], r2 = ctx->r[2];
	const uint32_t r3 = ctx->r[3], r4 = ctx->r[4];
	const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
	const uint32_t top = (uint32_t)hibit << 24;
	uint32_t h0 = ctx->h[0], h1 = ctx->h[1], h2 = ctx->h[2];
	uint32_t h3 = ctx->h[3], h4 = ctx->h[4];
	uint32_t t0, t1, t2, t3, c;
	uint64_t d0, d1, d2, d3, d4;

	for (; nblocks; nblocks--, m += 16) {
		t0 = dmd_load32_le(m);
		t1 = dmd_load32_le(m + 4);
		t2 = dmd_load32_le(m + 8);
		t3 = dmd_load32_le(m + 12);
		h0 += t0 & M26;
		h1 += ((t0 >> 26) | (t1 << 6)) & M26;
		h2 += ((t1 >> 20) | (t2 << 12)) & M26;
		h3 += ((t2 >> 14) | (t3 << 18)) & M26;
		h4 += (t3 >> 8) | top;

		d0 = pmul32(h0, r0) + pmul32(h1, s4) + pmul32(h2, s3) +
		     pmul32(h3, s2) + pmul32(h4, s1);
		d1 = pmul32(h0, r1) + pmul32(h1, r0) + pmul32(h2, s4) +
		     pmul32(h3, s3) + pmul32(h4, s2);
		d2 = pmul32(h0, r2) + pmul32(h1, r1) + pmul32(h2, r0) +
		     pmul32(h3, s4) + pmul32(h4, s3);
		d3 = pmul32(h0, r3) + pmul32(h1, r2) + pmul32(h2, r1) +
		     pmul32(h3, r0) + pmul32(h4, s4);
		d4 = pmul32(h0, r4) + pmul32(h1, r3) + pmul32(h2, r2) +
		     pmul32(h3, r1) + pmul32(h4, r0);

		/* Carry chain; bits 130 and up come back times 5. */
		h0 = (uint32_t)d0 & M26;
		d1 += d0 >> 26;
		h1 = (uint32_t)d1 & M26;
		d2 += d1 >> 26;
		h2 = (uint32_t)d2 & M26;
		d3 += d2 >> 26;
		h3 = (uint32_t)d3 & M26;
		d4 += d3 >> 26;
		h4 = (uint32_t)d4 & M26;
		c = (uint32_t)(d4 >> 26);
		h0 += c * 5;
		h1 += h0 >> 26;
		h0 &= M26;
	}
	ctx->h[0] = h0;
	ctx->h[1] = h1;
	ctx->h[2] = h2;
	ctx->h[3] = h3;
	ctx->h[4] = h4;
}

static void poly1305_finish(struct dmd_poly1305 *ctx, uint8_t tag[16])
{
	uint32_t h0 = ctx->h[0], h1 = ctx->h[1], h2 = ctx->h[2];
	uint32_t h3 = ctx->h[3], h4 = ctx->h[4];
	uint32_t g0, g1, g2, g3, g4, mask;
	uint64_t f;

	/* Carry through once: h < 2^130 + 2^26 < 2p, h1 may equal 2^26. */
	h2 += h1 >> 26;
	h1 &= M26;
	h3 += h2 >> 26;
	h2 &= M26;
	h4 += h3 >> 26;
	h3 &= M26;
	h0 += (h4 >> 26) * 5;
	h4 &= M26;
	h1 += h0 >> 26;
	h0 &= M26;

	/* g = h + 5 - 2^130, normalised; it borrows exactly when h < p. */
	g0 = h0 + 5;
	g1 = h1 + (g0 >> 26);
	g0 &= M26;
	g2 = h2 + (g1 >> 26);
	g1 &= M26;
	g3 = h3 + (g2 >> 26);
	g2 &= M26;
	g4 = h4 + (g3 >> 26) - (1u << 26);
	g3 &= M26;
	mask = (g4 >> 31) - 1;	/* all ones when no borrow: use g */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	h3 = (h3 & ~mask) | (g3 & mask);
	h4 = (h4 & ~mask) | (g4 & mask);

	/* tag = (h + s) mod 2^128; the sums tolerate h1 = 2^26. */
	f = (uint64_t)h0 + ((uint64_t)h1 << 26) + ctx->s[0];
	dmd_store32_le(tag, (uint32_t)f);
	f = (f >> 32) + ((uint64_t)h2 << 20) + ctx->s[1];
	dmd_store32_le(tag + 4, (uint32_t)f);
	f = (f >> 32) + ((uint64_t)h3 << 14) + ctx->s[2];
	dmd_store32_le(tag + 8, (uint32_t)f);
	f = (f >> 32) + ((uint64_t)h4 << 8) + ctx->s[3];
	dmd_store32_le(tag + 12, (uint32_t)f);
}

#else /* DMD_POLY1305_RADIX == 44 */
/*
 * Radix 2^44: h = h0 + h1 2^44 + h2 2^88 with h2 of 42 bits. Terms at
 * 2^132 fold back times 4 * 5 = 20. Bounds per block: h_i + m_i < 2^45,
 * r_i < 2^44, 20 r_i < 2^49, so each d_j < 3 * 2^94 < 2^96.
 */
typedef unsigned __int128 u128;

#define M44 0xfffffffffffull
#define M42 0x3ffffffffffull

static inline u128 pmul64(uint64_t a, uint64_t b)
{
	return (u128)a * b;
}

static void poly1305_setkey(struct dmd_poly1305 *ctx, const uint8_t key[32])
{
	uint64_t t0, t1;
	unsigned int i;

	t0 = dmd_load64_le(key) & 0x0ffffffc0fffffffull;
	t1 = dmd_load64_le(key + 8) & 0x0ffffffc0ffffffcull;
	ctx->r[0] = t0 & M44;
	ctx->r[1] = ((t0 >> 44) | (t1 << 20)) & M44;
	ctx->r[2] = t1 >> 24;
	for (i = 0; i < 3; i++)
		ctx->h[i] = 0;
	for (i = 0; i < 4; i++)
		ctx->s[i] = dmd_load32_le(key + 16 + 4 * i);
}

static void poly1305_blocks(struct dmd_poly1305 *ctx, const uint8_t *m,
			    size_t nblocks, uint8_t hibit)
{
	const uint64_t r0 = ctx->r[0], r1 = ctx->r[1], r2 = ctx->r[2];
	const uint64_t s1 = r1 * 20, s2 = r2 * 20;
	const uint64_t top = (uint64_t)hibit << 40;
	uint64_t h0 = ctx->h[0], h1 = ctx->h[1], h2 = ctx->h[2];
	uint64_t t0, t1;
	u128 d0, d1, d2;

	for (; nblocks; nblocks--, m += 16) {
		t0 = dmd_load64_le(m);
		t1 = dmd_load64_le(m + 8);
		h0 += t0 & M44;
		h1 += ((t0 >> 44) | (t1 << 20)) & M44;
		h2 += (t1 >> 24) | top;

		d0 = pmul64(h0, r0) + pmul64(h1, s2) + pmul64(h2, s1);
		d1 = pmul64(h0, r1) + pmul64(h1, r0) + pmul64(h2, s2);
		d2 = pmul64(h0, r2) + pmul64(h1, r1) + pmul64(h2, r0);

		h0 = (uint64_t)d0 & M44;
		d1 += (uint64_t)(d0 >> 44);
		h1 = (uint64_t)d1 & M44;
		d2 += (uint64_t)(d1 >> 44);
		h2 = (uint64_t)d2 & M42;
		h0 += (uint64_t)(d2 >> 42) * 5;
		h1 += h0 >> 44;
		h0 &= M44;
	}
	ctx->h[0] = h0;
	ctx->h[1] = h1;
	ctx->h[2] = h2;
}

static void poly1305_finish(struct dmd_poly1305 *ctx, uint8_t tag[16])
{
	uint64_t h0 = ctx->h[0], h1 = ctx->h[1], h2 = ctx->h[2];
	uint64_t g0, g1, g2, mask;
	u128 f;

	/* Carry through once: h < 2^130 + 2^44 < 2p, h1 may equal 2^44. */
	h2 += h1 >> 44;
	h1 &= M44;
	h0 += (h2 >> 42) * 5;
	h2 &= M42;
	h1 += h0 >> 44;
	h0 &= M44;

	/* g = h + 5 - 2^130, normalised; it borrows exactly when h < p. */
	g0 = h0 + 5;
	g1 = h1 + (g0 >> 44);
	g0 &= M44;
	g2 = h2 + (g1 >> 44) - (1ull << 42);
	g1 &= M44;
	mask = (g2 >> 63) - 1;	/* all ones when no borrow: use g */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);

	/* tag = (h + s) mod 2^128 */
	f = (u128)h0 + ((u128)h1 << 44) + ((u128)h2 << 88);
	f += (u128)ctx->s[0] | ((u128)ctx->s[1] << 32) |
	     ((u128)ctx->s[2] << 64) | ((u128)ctx->s[3] << 96);
	dmd_store64_le(tag, (uint64_t)f);
	dmd_store64_le(tag + 8, (uint64_t)(f >> 64));
}
#endif

void dmd_poly1305_init(struct dmd_poly1305 *ctx, const uint8_t key[32])
{
	poly1305_setkey(ctx, key);
	ctx->buf_len = 0;
}

void dmd_poly1305_update(struct dmd_poly1305 *ctx, const uint8_t *m,
			 size_t len)
{
	size_t i, n;

	if (ctx->buf_len) {
		n = 16u - ctx->buf_len;
		if (n > len)
			n = len;
		/*
		 * buf_len + i < 16 always; the mask only tells GCC so (at -O3
		 * it warns of an overflow it cannot rule out, and a firmware
		 * built with -Werror stops there).
		 */
		for (i = 0; i < n; i++)
			ctx->buf[(ctx->buf_len + i) & 15] = m[i];
		ctx->buf_len = (uint8_t)(ctx->buf_len + n);
		m += n;
		len -= n;
		if (ctx->buf_len < 16)
			return;
		poly1305_blocks(ctx, ctx->buf, 1, 1);
		ctx->buf_len = 0;
	}
	if (len >= 16) {
		poly1305_blocks(ctx, m, len / 16, 1);
		m += len & ~(size_t)15;
		len &= 15;
	}
	for (i = 0; i < len; i++)
		ctx->buf[i] = m[i];
	ctx->buf_len = (uint8_t)len;
}

void dmd_poly1305_final(struct dmd_poly1305 *ctx, uint8_t tag[16])
{
	unsigned int i;

	/* A final partial block gets a 0x01 byte and no 2^128 bit. */
	if (ctx->buf_len) {
		ctx->buf[ctx->buf_len] = 1;
		for (i = ctx->buf_len + 1u; i < 16; i++)
			ctx->buf[i] = 0;
		poly1305_blocks(ctx, ctx->buf, 1, 0);
	}
	poly1305_finish(ctx, tag);
	dmd_wipe(ctx, sizeof(*ctx));
}

void dmd_poly1305(const uint8_t key[32], const uint8_t *m, size_t len,
		  uint8_t tag[16])
{
	struct dmd_poly1305 ctx;

	dmd_poly1305_init(&ctx, key);
	dmd_poly1305_update(&ctx, m, len);
	dmd_poly1305_final(&ctx, tag);
}

void dmd_poly1305_xor(const uint8_t key[32], const uint8_t *m, size_t len,
		      uint8_t acc[16])
{
	uint8_t tag[16];
	size_t i;

	dmd_poly1305(key, m, len, tag);
	for (i = 0; i < 16; i++)
		acc[i] ^= tag[i];
	dmd_wipe(tag, sizeof(tag));
}
