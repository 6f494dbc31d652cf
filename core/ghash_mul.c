/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * GF(2^128) multiply for GHASH in one of three forms (see ghash.h), all
 * constant time: no branch or table index depends on H or the data.
 *
 * DMD_GHASH_MUL == 1: shift-and-add (SP 800-38D Algorithm 1) with every
 * conditional turned into a mask. Tables indexed by H or Y would be faster
 * but leak through the cache, and 64-bit or carry-less integer products are
 * slow library calls on AVR; this form needs only 32-bit AND/XOR/shift.
 *
 * DMD_GHASH_MUL == 32 or 64: carry-less products from ordinary integer
 * multiplies. Keep only every k-th bit of each operand ("holes" between
 * them): the integer product of two such words has at each position that is
 * a multiple of k the count of bit pairs meeting there, and as long as
 * those counts stay below 2^k their carries land in the holes, so the bit
 * at that position is the carry-less (XOR) sum. Splitting both operands in
 * k classes by bit position mod k, the k^2 class products give the full
 * carry-less product, each output class collecting k of them. 32-bit words
 * with k = 4 hold 8 bits per class (counts <= 8 < 16); 64-bit words need
 * k = 5 (13 bits per class, counts <= 13 < 32), since with k = 4 a count
 * of 16 would carry into the next kept bit.
 *
 * Bit order: blocks are loaded as big-endian integers, so the GCM bit
 * string is the integer's bits from the top down and the coefficient of
 * x^i sits at bit 127 - i. The integer carry-less product of two such
 * values then holds x^k at bit 254 - k; one left shift puts it at 255 - k,
 * the top 128 bits are the coefficients of x^0..x^127 and the low 128 bits
 * (x^128..x^255) fold back with x^128 = x^7 + x^2 + x + 1, where
 * multiplying by x^j is a right shift by j in this order.
 */
#include <diamond/ghash_mul.h>
#include <diamond/util.h>

#if DMD_GHASH_MUL == 1

/* R = 11100001 || 0^120: the reduction term for a bit shifted out of x^127. */
#define GHASH_R 0xe1000000u

/* y = y * h. Bit 0 of the GCM bit string is the MSB of y[0]. */
static void gf128_mul(uint32_t y[4], const uint32_t h[4])
{
	uint32_t z0 = 0, z1 = 0, z2 = 0, z3 = 0;
	uint32_t v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3];
	uint32_t w, m, red;
	unsigned int i, b;

	for (i = 0; i < 4; i++) {
		w = y[i];
		for (b = 0; b < 32; b++) {
			/* Z ^= V when the next bit of Y is set. */
			m = 0 - (w >> 31);
			w <<= 1;
			z0 ^= v0 & m;
			z1 ^= v1 & m;
			z2 ^= v2 & m;
			z3 ^= v3 & m;
			/* V = V * x: shift towards the LSB, fold x^128 back. */
			red = GHASH_R & (0 - (v3 & 1));
			v3 = (v3 >> 1) | (v2 << 31);
			v2 = (v2 >> 1) | (v1 << 31);
			v1 = (v1 >> 1) | (v0 << 31);
			v0 = (v0 >> 1) ^ red;
		}
	}
	y[0] = z0;
	y[1] = z1;
	y[2] = z2;
	y[3] = z3;
}

#elif DMD_GHASH_MUL == 32

static inline uint64_t mul32(uint32_t a, uint32_t b)
{
	return (uint64_t)a * b;
}

/*
 * 32x32 -> 64 carry-less product: 16 integer multiplies, k = 4. Out of
 * line: inlined nine times into gf128_mul, GCC -O2 for Cortex-M4 spills
 * heavily (Documentation/performance.md, "Measured choices"); as a leaf it
 * has the 14 registers it needs.
 */
__attribute__((noinline)) static uint64_t clmul32(uint32_t x, uint32_t y)
{
	uint32_t x0 = x & 0x11111111u, x1 = x & 0x22222222u;
	uint32_t x2 = x & 0x44444444u, x3 = x & 0x88888888u;
	uint32_t y0 = y & 0x11111111u, y1 = y & 0x22222222u;
	uint32_t y2 = y & 0x44444444u, y3 = y & 0x88888888u;
	uint64_t z0, z1, z2, z3;

	z0 = mul32(x0, y0) ^ mul32(x1, y3) ^ mul32(x2, y2) ^ mul32(x3, y1);
	z1 = mul32(x0, y1) ^ mul32(x1, y0) ^ mul32(x2, y3) ^ mul32(x3, y2);
	z2 = mul32(x0, y2) ^ mul32(x1, y1) ^ mul32(x2, y0) ^ mul32(x3, y3);
	z3 = mul32(x0, y3) ^ mul32(x1, y2) ^ mul32(x2, y1) ^ mul32(x3, y0);
	return (z0 & 0x1111111111111111ull) | (z1 & 0x2222222222222222ull) |
	       (z2 & 0x4444444444444444ull) | (z3 & 0x8888888888888888ull);
}

/* (x1:x0) * (y1:y0) -> r[3..0], r[0] least significant: Karatsuba. */
static inline void clmul64(uint32_t r[4], uint32_t x1, uint32_t x0,
			   uint32_t y1, uint32_t y0)
{
	uint64_t lo = clmul32(x0, y0), hi = clmul32(x1, y1);
	uint64_t mid = clmul32(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;

	r[0] = (uint32_t)lo;
	r[1] = (uint32_t)(lo >> 32) ^ (uint32_t)mid;
	r[2] = (uint32_t)hi ^ (uint32_t)(mid >> 32);
	r[3] = (uint32_t)(hi >> 32);
}

/* y = y * h; word 0 is the most significant (GCM bits 0..31). */
static void gf128_mul(uint32_t y[4], const uint32_t h[4])
{
	uint32_t lo[4], hi[4], mid[4], z[8], w;
	unsigned int i;

	/* Karatsuba over the 64-bit halves: 3 x 3 = 9 clmul32. */
	clmul64(lo, y[2], y[3], h[2], h[3]);
	clmul64(hi, y[0], y[1], h[0], h[1]);
	clmul64(mid, y[0] ^ y[2], y[1] ^ y[3], h[0] ^ h[2], h[1] ^ h[3]);
	for (i = 0; i < 4; i++)
		mid[i] ^= lo[i] ^ hi[i];
	z[0] = lo[0];
	z[1] = lo[1];
	z[2] = lo[2] ^ mid[0];
	z[3] = lo[3] ^ mid[1];
	z[4] = hi[0] ^ mid[2];
	z[5] = hi[1] ^ mid[3];
	z[6] = hi[2];
	z[7] = hi[3];

	/* x^k from bit 254 - k to 255 - k. */
	for (i = 7; i > 0; i--)
		z[i] = (z[i] << 1) | (z[i - 1] >> 31);
	z[0] <<= 1;

	/*
	 * Fold z[0..3] (x^255..x^128) times x^-128 (1 + x + x^2 + x^7) into
	 * z[4..7]; what shifts out of z[i + 4] lands in z[i + 3], which for
	 * i = 0 is still to be folded.
	 */
	for (i = 0; i < 4; i++) {
		w = z[i];
		z[i + 4] ^= w ^ (w >> 1) ^ (w >> 2) ^ (w >> 7);
		z[i + 3] ^= (w << 31) ^ (w << 30) ^ (w << 25);
	}
	y[0] = z[7];
	y[1] = z[6];
	y[2] = z[5];
	y[3] = z[4];
}

#elif DMD_GHASH_MUL == 64

typedef unsigned __int128 u128;

/* Bits at positions = c mod 5, c = 0..4: k = 5 classes of 64-bit words. */
#define K0 0x1084210842108421ull
#define K1 0x2108421084210842ull
#define K2 0x4210842108421084ull
#define K3 0x8421084210842108ull
#define K4 0x0842108421084210ull

static inline u128 mul64(uint64_t a, uint64_t b)
{
	return (u128)a * b;
}

static inline void split5(uint64_t c[5], uint64_t v)
{
	c[0] = v & K0;
	c[1] = v & K1;
	c[2] = v & K2;
	c[3] = v & K3;
	c[4] = v & K4;
}

/*
 * x * y -> hi:lo carry-less, y given split. Output class r gathers the
 * products x_i y_j with i + j = r mod 5; in the high word, bit 64 + q is
 * in class (q + 4) mod 5, so its mask for class r is K((r + 1) mod 5).
 */
static inline void clmul64(uint64_t *lo, uint64_t *hi, uint64_t x,
			   const uint64_t y[5])
{
	uint64_t x0 = x & K0, x1 = x & K1, x2 = x & K2, x3 = x & K3;
	uint64_t x4 = x & K4;
	u128 z0, z1, z2, z3, z4;

	z0 = mul64(x0, y[0]) ^ mul64(x1, y[4]) ^ mul64(x2, y[3]) ^
	     mul64(x3, y[2]) ^ mul64(x4, y[1]);
	z1 = mul64(x0, y[1]) ^ mul64(x1, y[0]) ^ mul64(x2, y[4]) ^
	     mul64(x3, y[3]) ^ mul64(x4, y[2]);
	z2 = mul64(x0, y[2]) ^ mul64(x1, y[1]) ^ mul64(x2, y[0]) ^
	     mul64(x3, y[4]) ^ mul64(x4, y[3]);
	z3 = mul64(x0, y[3]) ^ mul64(x1, y[2]) ^ mul64(x2, y[1]) ^
	     mul64(x3, y[0]) ^ mul64(x4, y[4]);
	z4 = mul64(x0, y[4]) ^ mul64(x1, y[3]) ^ mul64(x2, y[2]) ^
	     mul64(x3, y[1]) ^ mul64(x4, y[0]);
	*lo = ((uint64_t)z0 & K0) | ((uint64_t)z1 & K1) |
	      ((uint64_t)z2 & K2) | ((uint64_t)z3 & K3) |
	      ((uint64_t)z4 & K4);
	*hi = ((uint64_t)(z0 >> 64) & K1) | ((uint64_t)(z1 >> 64) & K2) |
	      ((uint64_t)(z2 >> 64) & K3) | ((uint64_t)(z3 >> 64) & K4) |
	      ((uint64_t)(z4 >> 64) & K0);
}

static inline uint64_t load64_be(const uint8_t *b)
{
	return ((uint64_t)dmd_load32_be(b) << 32) | dmd_load32_be(b + 4);
}

void dmd_ghash_blocks(struct dmd_ghash *ctx, const uint8_t *b, size_t n)
{
	uint64_t hh = ((uint64_t)ctx->h[0] << 32) | ctx->h[1];
	uint64_t hl = ((uint64_t)ctx->h[2] << 32) | ctx->h[3];
	uint64_t yh = ((uint64_t)ctx->y[0] << 32) | ctx->y[1];
	uint64_t yl = ((uint64_t)ctx->y[2] << 32) | ctx->y[3];
	uint64_t sh[5], sl[5], sm[5];
	uint64_t l0, l1, h0, h1, m0, m1, z0, z1, z2, z3;

	/* H's classes serve every block of this call. */
	split5(sh, hh);
	split5(sl, hl);
	split5(sm, hh ^ hl);
	for (; n; n--, b += 16) {
		yh ^= load64_be(b);
		yl ^= load64_be(b + 8);
		/* Karatsuba over the 64-bit halves. */
		clmul64(&l0, &l1, yl, sl);
		clmul64(&h0, &h1, yh, sh);
		clmul64(&m0, &m1, yh ^ yl, sm);
		m0 ^= l0 ^ h0;
		m1 ^= l1 ^ h1;
		z0 = l0;
		z1 = l1 ^ m0;
		z2 = h0 ^ m1;
		z3 = h1;
		/* x^k from bit 254 - k to 255 - k. */
		z3 = (z3 << 1) | (z2 >> 63);
		z2 = (z2 << 1) | (z1 >> 63);
		z1 = (z1 << 1) | (z0 >> 63);
		z0 <<= 1;
		/* Fold x^192..x^255, then x^128..x^191 (as in the 32-bit form). */
		z2 ^= z0 ^ (z0 >> 1) ^ (z0 >> 2) ^ (z0 >> 7);
		z1 ^= (z0 << 63) ^ (z0 << 62) ^ (z0 << 57);
		z3 ^= z1 ^ (z1 >> 1) ^ (z1 >> 2) ^ (z1 >> 7);
		z2 ^= (z1 << 63) ^ (z1 << 62) ^ (z1 << 57);
		yh = z3;
		yl = z2;
	}
	ctx->y[0] = (uint32_t)(yh >> 32);
	ctx->y[1] = (uint32_t)yh;
	ctx->y[2] = (uint32_t)(yl >> 32);
	ctx->y[3] = (uint32_t)yl;
}

#else
#error "DMD_GHASH_MUL must be 1, 32 or 64"
#endif

#if DMD_GHASH_MUL == 1 || DMD_GHASH_MUL == 32
/* Both 32-bit forms multiply in place on the context's big-endian words. */
void dmd_ghash_blocks(struct dmd_ghash *ctx, const uint8_t *b, size_t n)
{
	unsigned int i;

	for (; n; n--, b += 16) {
		for (i = 0; i < 4; i++)
			ctx->y[i] ^= dmd_load32_be(b + 4 * i);
		gf128_mul(ctx->y, ctx->h);
	}
}
#endif

/* The portable multipliers keep nothing outside the context. */
void dmd_ghash_mul_setup(const uint32_t h[4])
{
	(void)h;
}

void dmd_ghash_mul_wipe(void)
{
}
