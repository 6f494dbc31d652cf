// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The GHASH multiplier (include/diamond/ghash_mul.h) for 8-bit AVR, replacing
 * core/ghash_mul.c in the AVR firmware; core/ghash.c frames it as on every
 * other target (same context layout: H and Y as big-endian words).
 *
 * The 128x128 carry-less product is three levels of Karatsuba: two in
 * byte XORs (nine 32x32 products), the third inside the assembly kernel
 * (three 16x16 leaves per 32x32 product, operands and accumulators in
 * registers). A leaf uses the hardware 8x8 multiplier as a masked shift:
 * for bit j of an operand byte, t = byte & (1 << j) is 0 or 2^j and
 * MUL b_k, t gives b_k << j or 0 in r1:r0, XORed into the accumulator.
 * MUL takes two cycles whatever its operands, so the instruction stream
 * and its timing are the same for every H and Y: no branch and no memory
 * index depends on them (no tables). Its cost against the portable form is
 * in Documentation/performance.md, "Measured choices".
 *
 * Bit order as in core/ghash_mul.c: a block is a big-endian integer with the
 * coefficient of x^i at bit 127 - i; the integer carry-less product has
 * x^k at bit 254 - k, one left shift aligns it, and the low half folds
 * back with x^128 = 1 + x + x^2 + x^7 (a right shift by j multiplies by
 * x^j in this order).
 */
#include <diamond/ghash_mul.h>
#include <diamond/util.h>

/*
 * Leaf: (a1:a0) * (b1:b0) carry-less, 16x16 -> 32 bits, XORed into
 * c0..c3 (low byte first). For bit j of operand byte a_l, t = a_l & (1<<j)
 * is 0 or 2^j and MUL b_k, t leaves b_k << j or 0 in r1:r0 (two cycles
 * whatever the values), XORed in at byte l + k. 16 x 10 cycles.
 */
#define CL_BIT(a, j, b0, b1, c0, c1, c2)			\
	"mov r22, " a "\n\t"					\
	"andi r22, " #j "\n\t"					\
	"mul " b0 ", r22\n\t"					\
	"eor " c0 ", r0\n\t"					\
	"eor " c1 ", r1\n\t"					\
	"mul " b1 ", r22\n\t"					\
	"eor " c1 ", r0\n\t"					\
	"eor " c2 ", r1\n\t"

#define CL_BYTE(a, b0, b1, c0, c1, c2)				\
	CL_BIT(a, 1, b0, b1, c0, c1, c2)			\
	CL_BIT(a, 2, b0, b1, c0, c1, c2)			\
	CL_BIT(a, 4, b0, b1, c0, c1, c2)			\
	CL_BIT(a, 8, b0, b1, c0, c1, c2)			\
	CL_BIT(a, 16, b0, b1, c0, c1, c2)			\
	CL_BIT(a, 32, b0, b1, c0, c1, c2)			\
	CL_BIT(a, 64, b0, b1, c0, c1, c2)			\
	CL_BIT(a, 128, b0, b1, c0, c1, c2)

#define CL_LEAF(a0, a1, b0, b1, c0, c1, c2, c3)			\
	CL_BYTE(a0, b0, b1, c0, c1, c2)				\
	CL_BYTE(a1, b0, b1, c1, c2, c3)

/*
 * prod[i] = ops[i].a * ops[i].b (32x32 -> 64, carry-less) for the nine
 * Karatsuba operand pairs, each by one more Karatsuba level over three
 * 16x16 leaves held in registers: a in r2..r5, b in r6..r9, low leaf in
 * r10..r13, high in r14..r17, middle in r18..r21. The loop count is fixed
 * and every instruction runs for every operand value.
 */
struct cl_ops {
	uint32_t a, b;
};

static void clmul32x9(uint32_t prod[9][2], const struct cl_ops ops[9])
{
	const struct cl_ops *px = ops;
	uint32_t *pz = prod[0];

	__asm__ volatile(
		"ldi r23, 9\n\t"
		"1:\n\t"
		"ld r2, X+\n\tld r3, X+\n\tld r4, X+\n\tld r5, X+\n\t"
		"ld r6, X+\n\tld r7, X+\n\tld r8, X+\n\tld r9, X+\n\t"
		"clr r10\n\tclr r11\n\tclr r12\n\tclr r13\n\t"
		"clr r14\n\tclr r15\n\tclr r16\n\tclr r17\n\t"
		"clr r18\n\tclr r19\n\tclr r20\n\tclr r21\n\t"
		CL_LEAF("r2", "r3", "r6", "r7", "r10", "r11", "r12", "r13")
		CL_LEAF("r4", "r5", "r8", "r9", "r14", "r15", "r16", "r17")
		"eor r2, r4\n\teor r3, r5\n\teor r6, r8\n\teor r7, r9\n\t"
		CL_LEAF("r2", "r3", "r6", "r7", "r18", "r19", "r20", "r21")
		/* mid ^= lo ^ hi; lo ^= mid << 16, hi ^= mid >> 16. */
		"eor r18, r10\n\teor r19, r11\n\teor r20, r12\n\teor r21, r13\n\t"
		"eor r18, r14\n\teor r19, r15\n\teor r20, r16\n\teor r21, r17\n\t"
		"eor r12, r18\n\teor r13, r19\n\teor r14, r20\n\teor r15, r21\n\t"
		"st Z+, r10\n\tst Z+, r11\n\tst Z+, r12\n\tst Z+, r13\n\t"
		"st Z+, r14\n\tst Z+, r15\n\tst Z+, r16\n\tst Z+, r17\n\t"
		"dec r23\n\t"
		"breq 2f\n\t"
		"rjmp 1b\n\t"
		"2:\n\t"
		"clr __zero_reg__\n\t"
		: "+x"(px), "+z"(pz)
		:
		: "r0", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
		  "r11", "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19",
		  "r20", "r21", "r22", "r23", "memory");
}

/*
 * Reduce the 256-bit product z (z[0] low word; x^k at bit 254 - k) into
 * z[4..7]. First align (shift left by one: x^k to bit 255 - k). The low
 * half L (x^128 at its top bit) then folds in as L * (1 + x + x^2 + x^7),
 * multiplying by x^j being a right shift by j: H ^= L ^ L>>1 ^ L>>2 ^ L>>7
 * as 128-bit shifts. The bits that those shifts push below the high half
 * (x^128..x^134, from the lowest byte l0 of L) are e = l0<<1 ^ l0<<6 ^
 * l0<<7 at the top byte of L, and folding them the same way lands wholly
 * in H; adding e to L's top byte first does both folds in one pass (e
 * depends on L's lowest byte only). Straight-line code on bytes: the
 * pointers walk fixed offsets, nothing depends on the data.
 */
static void reduce(uint32_t z[8])
{
	uint8_t *px = (uint8_t *)z, *pz = (uint8_t *)z;
	uint8_t a, b, t, cl, ch, h;

	__asm__ volatile(
		/* z <<= 1 over 32 bytes, low byte first. */
		"clc\n\t"
		".rept 32\n\t"
		"ld %[t], X\n\t"
		"rol %[t]\n\t"
		"st X+, %[t]\n\t"
		".endr\n\t"
		/* X = z + 32, the end of H; Z = z, the start of L. */
		"ld %[b], Z\n\t"		/* l0 */
		"mov %[t], %[b]\n\t"
		"lsl %[t]\n\t"		/* l0 << 1 */
		"swap %[b]\n\t"
		"andi %[b], 0xf0\n\t"
		"lsl %[b]\n\t"
		"lsl %[b]\n\t"		/* l0 << 6 */
		"eor %[t], %[b]\n\t"
		"lsl %[b]\n\t"		/* l0 << 7 */
		"eor %[t], %[b]\n\t"
		"adiw r30, 15\n\t"
		"ld %[b], Z\n\t"
		"eor %[b], %[t]\n\t"
		"st Z+, %[b]\n\t"		/* L[15] ^= e; Z = z + 16 */
		"clr %[a]\n\t"		/* L[16] = 0 */
		".rept 16\n\t"
		"ld %[b], -Z\n\t"		/* L[i] */
		"mov %[t], %[b]\n\t"
		"mov %[cl], %[b]\n\t"
		"mov %[ch], %[a]\n\t"
		"lsr %[ch]\n\t"
		"ror %[cl]\n\t"
		"eor %[t], %[cl]\n\t"	/* ^ (L >> 1)[i] */
		"lsr %[ch]\n\t"
		"ror %[cl]\n\t"
		"eor %[t], %[cl]\n\t"	/* ^ (L >> 2)[i] */
		"mov %[cl], %[b]\n\t"
		"lsl %[cl]\n\t"
		"mov %[ch], %[a]\n\t"
		"rol %[ch]\n\t"
		"eor %[t], %[ch]\n\t"	/* ^ (L >> 7)[i] */
		"ld %[h], -X\n\t"
		"eor %[h], %[t]\n\t"
		"st X, %[h]\n\t"
		"mov %[a], %[b]\n\t"
		".endr\n\t"
		: [a] "=&r"(a), [b] "=&d"(b), [t] "=&r"(t), [cl] "=&r"(cl),
		  [ch] "=&r"(ch), [h] "=&r"(h), "+x"(px), "+z"(pz)
		:
		: "memory");
}

/*
 * Scratch for one block, static so that every access is a fixed address
 * (lds/sts): on the stack the 224 bytes lie beyond the reach of ldd/std
 * displacements and cost pointer arithmetic. The firmware is single
 * threaded; dmd_ghash_final wipes it.
 */
static struct {
	struct cl_ops ops[9];
	uint8_t prod[9][8], r[3][16], z[32];
} scratch;

/* Zero the scratch: straight-line stores, two cycles a byte. */
void dmd_ghash_mul_wipe(void)
{
	void *p = &scratch;

	__asm__ volatile(".rept %[n]\n\tst X+, __zero_reg__\n\t.endr"
			 : "+x"(p) : [n] "i"(sizeof(scratch)) : "memory");
}

/*
 * y ^= block, then y = y * h in GF(2^128). Byte k of the little-endian
 * words y[i] / h[i] (i = 0 most significant) is handled for all four words
 * at once. The two Karatsuba levels above clmul32x9 are fixed XORs of
 * bytes: no index or branch depends on the data.
 */
__attribute__((optimize("unroll-loops")))
static void gf128_mul_block(uint32_t y[4], const uint32_t h[4],
			    const uint8_t *blk)
{
	uint8_t *yb = (uint8_t *)y, *o = (uint8_t *)scratch.ops;
	const uint8_t *hb = (const uint8_t *)h;
	uint8_t y0, y1, y2, y3, h0, h1, h2, h3, a, b, c, d;
	unsigned int k, g;

	for (k = 0; k < 4; k++) {
		y0 = yb[k] ^ blk[3 - k];
		y1 = yb[4 + k] ^ blk[7 - k];
		y2 = yb[8 + k] ^ blk[11 - k];
		y3 = yb[12 + k] ^ blk[15 - k];
		h0 = hb[k];
		h1 = hb[4 + k];
		h2 = hb[8 + k];
		h3 = hb[12 + k];
		/* Low 64-bit halves (words 3, 2), high (1, 0), their sum. */
		o[k] = y3;
		o[4 + k] = h3;
		o[8 + k] = y2;
		o[12 + k] = h2;
		o[16 + k] = y3 ^ y2;
		o[20 + k] = h3 ^ h2;
		o[24 + k] = y1;
		o[28 + k] = h1;
		o[32 + k] = y0;
		o[36 + k] = h0;
		o[40 + k] = y1 ^ y0;
		o[44 + k] = h1 ^ h0;
		y3 ^= y1;
		y2 ^= y0;
		h3 ^= h1;
		h2 ^= h0;
		o[48 + k] = y3;
		o[52 + k] = h3;
		o[56 + k] = y2;
		o[60 + k] = h2;
		o[64 + k] = y3 ^ y2;
		o[68 + k] = h3 ^ h2;
	}
	clmul32x9((uint32_t (*)[2])scratch.prod, scratch.ops);
	/* Each group (lo, hi, mid): r = p0 ^ (p0 ^ p1 ^ p2) << 32 ^ p1 << 64. */
	for (g = 0; g < 3; g++) {
		for (k = 0; k < 4; k++) {
			a = scratch.prod[3 * g][k];
			b = scratch.prod[3 * g][4 + k];
			c = scratch.prod[3 * g + 1][k];
			d = scratch.prod[3 * g + 1][4 + k];
			scratch.r[g][k] = a;
			scratch.r[g][4 + k] = b ^ a ^ c ^ scratch.prod[3 * g + 2][k];
			scratch.r[g][8 + k] = c ^ b ^ d ^ scratch.prod[3 * g + 2][4 + k];
			scratch.r[g][12 + k] = d;
		}
	}
	/* z = r0 ^ (r0 ^ r1 ^ r2) << 64 ^ r1 << 128. */
	for (k = 0; k < 8; k++) {
		a = scratch.r[0][k];
		b = scratch.r[0][8 + k];
		c = scratch.r[1][k];
		d = scratch.r[1][8 + k];
		scratch.z[k] = a;
		scratch.z[8 + k] = b ^ a ^ c ^ scratch.r[2][k];
		scratch.z[16 + k] = c ^ b ^ d ^ scratch.r[2][8 + k];
		scratch.z[24 + k] = d;
	}
	reduce((uint32_t *)scratch.z);
	for (k = 0; k < 16; k++)
		yb[k] = scratch.z[28 - 4 * (k / 4) + k % 4];
}

void dmd_ghash_blocks(struct dmd_ghash *ctx, const uint8_t *b, size_t n)
{
	for (; n; n--, b += 16)
		gf128_mul_block(ctx->y, ctx->h, b);
}

