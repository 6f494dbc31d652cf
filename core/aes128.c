/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Bitsliced AES-128 encryption.
 *
 * State layout: eight 32-bit words q[0..7]; q[j] holds bit j of each of the
 * 32 state bytes of two blocks. The byte in row r, column c of block k sits
 * at bit 8*r + 4*k + c. Keeping a row in one byte makes the MixColumns row
 * rotations whole-byte rotations (cheap on 8-bit cores) and turns ShiftRows
 * into nibble rotations inside each byte.
 *
 * SubBytes is the 113-gate Boyar-Peralta circuit ("A depth-16 circuit for
 * the AES S-box", 2011), evaluated on all 32 bytes at once. Nothing here
 * indexes memory or branches on secret data.
 *
 * DMD_AES_BYTE_LANES (default on AVR) runs that circuit once per byte lane
 * of the words: its ~40 live intermediates then fit the 8-bit register
 * file instead of spilling as 32-bit values, and ShiftRows works on bytes
 * because 8-bit cores have no barrel shifter. The result is bit-identical.
 */
#include <diamond/aes128.h>
#include <diamond/util.h>

#ifndef DMD_AES_BYTE_LANES
#ifdef __AVR__
#define DMD_AES_BYTE_LANES 1
#else
#define DMD_AES_BYTE_LANES 0
#endif
#endif

#if DMD_AES_BYTE_LANES
typedef uint8_t sbox_word;
#else
typedef uint32_t sbox_word;
#endif

/* Swap the bits of a selected by (mask << n) with the bits of b in mask. */
static inline void swapmove(uint32_t *a, uint32_t *b, uint32_t mask,
			    unsigned int n)
{
	uint32_t t = ((*a >> n) ^ *b) & mask;

	*b ^= t;
	*a ^= t << n;
}

/*
 * Transpose the 8x8 bit matrix formed by byte lane m of q[0..7], for each of
 * the four lanes. It is an involution, so it both packs and unpacks.
 */
static void transpose(uint32_t q[8])
{
	swapmove(&q[0], &q[1], 0x55555555, 1);
	swapmove(&q[2], &q[3], 0x55555555, 1);
	swapmove(&q[4], &q[5], 0x55555555, 1);
	swapmove(&q[6], &q[7], 0x55555555, 1);
	swapmove(&q[0], &q[2], 0x33333333, 2);
	swapmove(&q[1], &q[3], 0x33333333, 2);
	swapmove(&q[4], &q[6], 0x33333333, 2);
	swapmove(&q[5], &q[7], 0x33333333, 2);
	swapmove(&q[0], &q[4], 0x0f0f0f0f, 4);
	swapmove(&q[1], &q[5], 0x0f0f0f0f, 4);
	swapmove(&q[2], &q[6], 0x0f0f0f0f, 4);
	swapmove(&q[3], &q[7], 0x0f0f0f0f, 4);
}

/*
 * Word 4*k + c gets column c of block k with row r in byte r; after the
 * transpose, bit j of that byte lands in q[j] at bit 8*r + 4*k + c.
 */
static void pack(uint32_t q[8], const uint8_t b0[16], const uint8_t b1[16])
{
	unsigned int c;

	for (c = 0; c < 4; c++) {
		q[c] = dmd_load32_le(b0 + 4 * c);
		q[4 + c] = dmd_load32_le(b1 + 4 * c);
	}
	transpose(q);
}

static void unpack(uint8_t b0[16], uint8_t b1[16], uint32_t q[8])
{
	unsigned int c;

	transpose(q);
	for (c = 0; c < 4; c++) {
		dmd_store32_le(b0 + 4 * c, q[c]);
		dmd_store32_le(b1 + 4 * c, q[4 + c]);
	}
}

/*
 * Boyar-Peralta S-box circuit. Its inputs U0..U7 and outputs S0..S7 are
 * numbered from the most significant bit, so U0 is q[7].
 */
static void sbox_circuit(sbox_word q[8])
{
	sbox_word u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	sbox_word u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];
	sbox_word t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14;
	sbox_word t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26;
	sbox_word t27;
	sbox_word m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14;
	sbox_word m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26;
	sbox_word m27, m28, m29, m30, m31, m32, m33, m34, m35, m36, m37, m38;
	sbox_word m39, m40, m41, m42, m43, m44, m45, m46, m47, m48, m49, m50;
	sbox_word m51, m52, m53, m54, m55, m56, m57, m58, m59, m60, m61, m62;
	sbox_word m63;
	sbox_word l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13;
	sbox_word l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25;
	sbox_word l26, l27, l28, l29;

	/* Top linear layer: into the GF(2^4)^2 tower representation. */
	t1 = u0 ^ u3;
	t2 = u0 ^ u5;
	t3 = u0 ^ u6;
	t4 = u3 ^ u5;
	t5 = u4 ^ u6;
	t6 = t1 ^ t5;
	t7 = u1 ^ u2;
	t8 = u7 ^ t6;
	t9 = u7 ^ t7;
	t10 = t6 ^ t7;
	t11 = u1 ^ u5;
	t12 = u2 ^ u5;
	t13 = t3 ^ t4;
	t14 = t6 ^ t11;
	t15 = t5 ^ t11;
	t16 = t5 ^ t12;
	t17 = t9 ^ t16;
	t18 = u3 ^ u7;
	t19 = t7 ^ t18;
	t20 = t1 ^ t19;
	t21 = u6 ^ u7;
	t22 = t7 ^ t21;
	t23 = t2 ^ t22;
	t24 = t2 ^ t10;
	t25 = t20 ^ t17;
	t26 = t3 ^ t16;
	t27 = t1 ^ t12;

	/* Shared non-linear core: the GF(2^8) inversion. */
	m1 = t13 & t6;
	m2 = t23 & t8;
	m3 = t14 ^ m1;
	m4 = t19 & u7;
	m5 = m4 ^ m1;
	m6 = t3 & t16;
	m7 = t22 & t9;
	m8 = t26 ^ m6;
	m9 = t20 & t17;
	m10 = m9 ^ m6;
	m11 = t1 & t15;
	m12 = t4 & t27;
	m13 = m12 ^ m11;
	m14 = t2 & t10;
	m15 = m14 ^ m11;
	m16 = m3 ^ m2;
	m17 = m5 ^ t24;
	m18 = m8 ^ m7;
	m19 = m10 ^ m15;
	m20 = m16 ^ m13;
	m21 = m17 ^ m15;
	m22 = m18 ^ m13;
	m23 = m19 ^ t25;
	m24 = m22 ^ m23;
	m25 = m22 & m20;
	m26 = m21 ^ m25;
	m27 = m20 ^ m21;
	m28 = m23 ^ m25;
	m29 = m28 & m27;
	m30 = m26 & m24;
	m31 = m20 & m23;
	m32 = m27 & m31;
	m33 = m27 ^ m25;
	m34 = m21 & m22;
	m35 = m24 & m34;
	m36 = m24 ^ m25;
	m37 = m21 ^ m29;
	m38 = m32 ^ m33;
	m39 = m23 ^ m30;
	m40 = m35 ^ m36;
	m41 = m38 ^ m40;
	m42 = m37 ^ m39;
	m43 = m37 ^ m38;
	m44 = m39 ^ m40;
	m45 = m42 ^ m41;
	m46 = m44 & t6;
	m47 = m40 & t8;
	m48 = m39 & u7;
	m49 = m43 & t16;
	m50 = m38 & t9;
	m51 = m37 & t17;
	m52 = m42 & t15;
	m53 = m45 & t27;
	m54 = m41 & t10;
	m55 = m44 & t13;
	m56 = m40 & t23;
	m57 = m39 & t19;
	m58 = m43 & t3;
	m59 = m38 & t22;
	m60 = m37 & t20;
	m61 = m42 & t1;
	m62 = m45 & t4;
	m63 = m41 & t2;

	/* Bottom linear layer: back to bytes, with the affine map folded in. */
	l0 = m61 ^ m62;
	l1 = m50 ^ m56;
	l2 = m46 ^ m48;
	l3 = m47 ^ m55;
	l4 = m54 ^ m58;
	l5 = m49 ^ m61;
	l6 = m62 ^ l5;
	l7 = m46 ^ l3;
	l8 = m51 ^ m59;
	l9 = m52 ^ m53;
	l10 = m53 ^ l4;
	l11 = m60 ^ l2;
	l12 = m48 ^ m51;
	l13 = m50 ^ l0;
	l14 = m52 ^ m61;
	l15 = m55 ^ l1;
	l16 = m56 ^ l0;
	l17 = m57 ^ l1;
	l18 = m58 ^ l8;
	l19 = m63 ^ l4;
	l20 = l0 ^ l1;
	l21 = l1 ^ l7;
	l22 = l3 ^ l12;
	l23 = l18 ^ l2;
	l24 = l15 ^ l9;
	l25 = l6 ^ l10;
	l26 = l7 ^ l9;
	l27 = l8 ^ l10;
	l28 = l11 ^ l14;
	l29 = l11 ^ l17;

	q[7] = l6 ^ l24;
	q[6] = (sbox_word)~(l16 ^ l26);
	q[5] = (sbox_word)~(l19 ^ l28);
	q[4] = l6 ^ l21;
	q[3] = l20 ^ l22;
	q[2] = l25 ^ l29;
	q[1] = (sbox_word)~(l13 ^ l27);
	q[0] = (sbox_word)~(l6 ^ l23);
}

#if DMD_AES_BYTE_LANES
/*
 * The circuit is bitwise, so any byte of the words can go through it on its
 * own; character access keeps this independent of byte order.
 */
static void sub_bytes(uint32_t q[8])
{
	uint8_t *p = (uint8_t *)q;
	sbox_word s[8];
	unsigned int lane, j;

	for (lane = 0; lane < 4; lane++) {
		for (j = 0; j < 8; j++)
			s[j] = p[4 * j + lane];
		sbox_circuit(s);
		for (j = 0; j < 8; j++)
			p[4 * j + lane] = s[j];
	}
}
#else
static void sub_bytes(uint32_t q[8])
{
	sbox_circuit(q);
}
#endif

/*
 * Row r (byte r of every word) rotates left by r columns: the new column c
 * takes old column c + r mod 4, inside each 4-bit block-lane nibble.
 */
#if DMD_AES_BYTE_LANES
static void shift_rows(uint32_t q[8])
{
	uint8_t r1, r2, r3;
	unsigned int j;

	for (j = 0; j < 8; j++) {
		r1 = (uint8_t)(q[j] >> 8);
		r2 = (uint8_t)(q[j] >> 16);
		r3 = (uint8_t)(q[j] >> 24);
		r1 = (uint8_t)(((r1 >> 1) & 0x77) | ((r1 << 3) & 0x88));
		r2 = (uint8_t)(((r2 >> 2) & 0x33) | ((r2 << 2) & 0xcc));
		r3 = (uint8_t)(((r3 >> 3) & 0x11) | ((r3 << 1) & 0xee));
		q[j] = (q[j] & 0xff) | ((uint32_t)r1 << 8) |
		       ((uint32_t)r2 << 16) | ((uint32_t)r3 << 24);
	}
}
#else
static void shift_rows(uint32_t q[8])
{
	unsigned int j;

	for (j = 0; j < 8; j++) {
		uint32_t x = q[j];

		q[j] = (x & 0x000000ff) |
		       ((x >> 1) & 0x00007700) | ((x << 3) & 0x00008800) |
		       ((x >> 2) & 0x00330000) | ((x << 2) & 0x00cc0000) |
		       ((x >> 3) & 0x11000000) | ((x << 1) & 0xee000000);
	}
}
#endif

/* Move row r + 1 into row r: rows are bytes, so this is a byte rotation. */
static inline uint32_t rot_row1(uint32_t x)
{
	return (x >> 8) | (x << 24);
}

static inline uint32_t rot_row2(uint32_t x)
{
	return (x >> 16) | (x << 16);
}

/*
 * out = 2*a0 + 3*a1 + a2 + a3 (rows of one column, indices mod 4), written
 * as 2*t + a1 + rot2(t) with t = a0 + a1, so xtime runs once. xtime on bit
 * planes is a plane shift plus the 0x1b reduction of the top plane.
 */
static void mix_columns(uint32_t q[8])
{
	uint32_t a[8], t[8];
	unsigned int j;

	for (j = 0; j < 8; j++) {
		a[j] = rot_row1(q[j]);
		t[j] = q[j] ^ a[j];
	}
	q[0] = t[7] ^ a[0] ^ rot_row2(t[0]);
	q[1] = t[0] ^ t[7] ^ a[1] ^ rot_row2(t[1]);
	q[2] = t[1] ^ a[2] ^ rot_row2(t[2]);
	q[3] = t[2] ^ t[7] ^ a[3] ^ rot_row2(t[3]);
	q[4] = t[3] ^ t[7] ^ a[4] ^ rot_row2(t[4]);
	q[5] = t[4] ^ a[5] ^ rot_row2(t[5]);
	q[6] = t[5] ^ a[6] ^ rot_row2(t[6]);
	q[7] = t[6] ^ a[7] ^ rot_row2(t[7]);
}

static inline void add_round_key(uint32_t q[8], const uint32_t rk[8])
{
	unsigned int j;

	for (j = 0; j < 8; j++)
		q[j] ^= rk[j];
}

/* Encrypt the two blocks held in q, in place. */
static void encrypt_sliced(const struct dmd_aes128 *ctx, uint32_t q[8])
{
	unsigned int r;

	add_round_key(q, ctx->rk[0]);
	for (r = 1; r < DMD_AES128_ROUNDS; r++) {
		sub_bytes(q);
		shift_rows(q);
		mix_columns(q);
		add_round_key(q, ctx->rk[r]);
	}
	sub_bytes(q);
	shift_rows(q);
	add_round_key(q, ctx->rk[DMD_AES128_ROUNDS]);
}

/*
 * FIPS-197 key expansion, one 16-byte round key at a time. SubWord reuses
 * the bitsliced S-box on the whole previous round key (only bytes 12..15 are
 * needed), so the schedule has no table lookups either.
 */
void dmd_aes128_init(struct dmd_aes128 *ctx, const uint8_t key[16])
{
	uint8_t rk[16], sb[32];
	uint32_t q[8];
	uint8_t rcon = 1;
	unsigned int r, i;

	for (i = 0; i < 16; i++)
		rk[i] = key[i];
	for (r = 0;; r++) {
		pack(ctx->rk[r], rk, rk);
		if (r == DMD_AES128_ROUNDS)
			break;
		pack(q, rk, rk);
		sub_bytes(q);
		unpack(sb, sb + 16, q);
		/* RotWord then SubWord of the last word, then rcon. */
		rk[0] ^= sb[13] ^ rcon;
		rk[1] ^= sb[14];
		rk[2] ^= sb[15];
		rk[3] ^= sb[12];
		for (i = 4; i < 16; i++)
			rk[i] ^= rk[i - 4];
		rcon = (uint8_t)((rcon << 1) ^ (0x1b & (0 - (rcon >> 7))));
	}
	dmd_wipe(rk, sizeof(rk));
	dmd_wipe(sb, sizeof(sb));
	dmd_wipe(q, sizeof(q));
}

void dmd_aes128_encrypt(const struct dmd_aes128 *ctx, uint8_t out[16],
			const uint8_t in[16])
{
	uint8_t spare[16];
	uint32_t q[8];

	/* The second lane is idle; feeding it the same block costs nothing. */
	pack(q, in, in);
	encrypt_sliced(ctx, q);
	unpack(out, spare, q);
	dmd_wipe(spare, sizeof(spare));
	dmd_wipe(q, sizeof(q));
}

void dmd_aes128_encrypt2(const struct dmd_aes128 *ctx, uint8_t out0[16],
			 uint8_t out1[16], const uint8_t in0[16],
			 const uint8_t in1[16])
{
	uint32_t q[8];

	pack(q, in0, in1);
	encrypt_sliced(ctx, q);
	unpack(out0, out1, q);
	dmd_wipe(q, sizeof(q));
}

/* Big-endian 128-bit increment; the carry runs through all 16 bytes. */
static void ctr_inc(uint8_t ctr[16])
{
	uint16_t carry = 1;
	int i;

	for (i = 15; i >= 0; i--) {
		carry = (uint16_t)(carry + ctr[i]);
		ctr[i] = (uint8_t)carry;
		carry >>= 8;
	}
}

void dmd_aes128_ctr(const struct dmd_aes128 *ctx, uint8_t ctr[16],
		    uint8_t *out, size_t len)
{
	uint8_t ks[32], next[16];
	uint32_t q[8];
	size_t n, i;

	while (len) {
		for (i = 0; i < 16; i++)
			next[i] = ctr[i];
		ctr_inc(next);
		pack(q, ctr, next);
		encrypt_sliced(ctx, q);
		unpack(ks, ks + 16, q);
		n = len < 32 ? len : 32;
		for (i = 0; i < n; i++)
			out[i] = ks[i];
		/* Advance by the blocks actually used, partial ones included. */
		ctr_inc(ctr);
		if (n > 16)
			ctr_inc(ctr);
		out += n;
		len -= n;
	}
	dmd_wipe(ks, sizeof(ks));
	dmd_wipe(q, sizeof(q));
}

void dmd_aes128_wipe(struct dmd_aes128 *ctx)
{
	dmd_wipe(ctx, sizeof(*ctx));
}

void dmd_aes_slice_key(uint32_t rk[8], const uint8_t key[16])
{
	pack(rk, key, key);
}

void dmd_aes_rounds2(const uint32_t *const rk[], unsigned int nr,
		     uint8_t out0[16], uint8_t out1[16],
		     const uint8_t in0[16], const uint8_t in1[16])
{
	uint32_t q[8];
	unsigned int r;

	pack(q, in0, in1);
	for (r = 0; r < nr; r++) {
		sub_bytes(q);
		shift_rows(q);
		mix_columns(q);
		if (rk[r])
			add_round_key(q, rk[r]);
	}
	unpack(out0, out1, q);
	dmd_wipe(q, sizeof(q));
}
