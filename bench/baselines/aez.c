// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * AEZ v5 written from the specification ("AEZ v5: Authenticated Encryption
 * by Enciphering", 2017), figure by figure: the tweakable block cipher E,
 * AEZ-hash, AEZ-prf, AEZ-core (two passes over 32-byte pairs) and AEZ-tiny
 * (a Feistel network on bit halves, for inputs under 32 bytes). E calls
 * that do not depend on each other share the two lanes of the core's
 * bitsliced rounds; the offsets are recomputed per call, a few doublings
 * next to an AES4. Reading AEZ's AES-NI reference code settled the byte
 * order of tau's block and the round-key order.
 */
#include "aez.h"
#include "blake2b.h"

#include <diamond/aes128.h>
#include <diamond/util.h>

/* Multiply by x in GF(2^128), big-endian, reduction 0x87, no branch. */
static void dbl(uint8_t x[16])
{
	uint8_t carry = (uint8_t)(0 - (x[0] >> 7));
	unsigned int i;

	for (i = 0; i < 15; i++)
		x[i] = (uint8_t)((x[i] << 1) | (x[i + 1] >> 7));
	x[15] = (uint8_t)((x[15] << 1) ^ (carry & 0x87));
}

static void xor16(uint8_t d[16], const uint8_t s[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		d[i] ^= s[i];
}

/* d ^= n * x for a public multiplier n (double and add). */
static void xor_mul(uint8_t d[16], const uint8_t x[16], unsigned int n)
{
	uint8_t t[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		t[i] = x[i];
	for (; n; n >>= 1) {
		if (n & 1)
			xor16(d, t);
		dbl(t);
	}
	dmd_wipe(t, sizeof(t));
}

void aez_init(struct aez_key *k, const uint8_t *key, size_t klen)
{
	uint8_t ijl[48];
	unsigned int i;

	if (klen == 48)
		for (i = 0; i < 48; i++)
			ijl[i] = key[i];
	else
		blake2b(ijl, 48, key, klen);
	dmd_wipe(k, sizeof(*k));
	for (i = 0; i < 16; i++) {
		k->i[i] = ijl[i];
		k->j[i] = ijl[16 + i];
	}
	for (i = 1; i < 8; i++)
		xor_mul(k->l[i], ijl + 32, i);
	dmd_aes_slice_key(k->si, k->i);
	dmd_aes_slice_key(k->sj, k->j);
	dmd_aes_slice_key(k->sl, ijl + 32);
	dmd_wipe(ijl, sizeof(ijl));
}

void aez_wipe(struct aez_key *k)
{
	dmd_wipe(k, sizeof(*k));
}

/* The offset of E^{j,i}: jJ ^ 2^ceil(i/8) I ^ (i mod 8) L for j >= 0. */
static void aez_offset(const struct aez_key *k, int j, unsigned int i,
		       uint8_t d[16])
{
	unsigned int r;

	for (r = 0; r < 16; r++)
		d[r] = 0;
	if (j >= 0) {
		for (r = 0; r < 16; r++)
			d[r] = k->i[r];
		for (r = 0; r < (i + 7) / 8; r++)
			dbl(d);
		xor_mul(d, k->j, (unsigned int)j);
	}
	xor16(d, k->l[i % 8]);
}

/*
 * E^{j0,i0}(in0) and E^{j1,i1}(in1) in the two lanes of one call (j0 and
 * j1 both -1 or both >= 0). E^{-1,i}(X) = AES10(X ^ iL), round keys
 * I,J,L,I,J,L,...; E^{j,i}(X) = AES4(X ^ offset) with round keys J, I, L,
 * 0. Every round is a full one (aesenc).
 */
static void aez_e2(const struct aez_key *k, int j0, unsigned int i0,
		   int j1, unsigned int i1, uint8_t out0[16],
		   uint8_t out1[16], const uint8_t in0[16],
		   const uint8_t in1[16])
{
	const uint32_t *rk[10];
	uint8_t x0[16], x1[16];
	unsigned int r, nr = 4;

	aez_offset(k, j0, i0, x0);
	aez_offset(k, j1, i1, x1);
	xor16(x0, in0);
	xor16(x1, in1);
	if (j0 < 0) {
		for (r = 0; r < 10; r++)
			rk[r] = r % 3 == 0 ? k->si : r % 3 == 1 ? k->sj : k->sl;
		nr = 10;
	} else {
		rk[0] = k->sj;
		rk[1] = k->si;
		rk[2] = k->sl;
		rk[3] = NULL;
	}
	dmd_aes_rounds2(rk, nr, out0, out1, x0, x1);
	dmd_wipe(x0, sizeof(x0));
	dmd_wipe(x1, sizeof(x1));
}

/* One block; the idle lane carries the same input. */
static void aez_e(const struct aez_key *k, int j, unsigned int i,
		  uint8_t out[16], const uint8_t in[16])
{
	uint8_t spare[16];

	aez_e2(k, j, i, j, i, out, spare, in, in);
	dmd_wipe(spare, sizeof(spare));
}

/* sum ^= the AEZ-hash contribution of one string under tweak j. */
static void hash_string(const struct aez_key *k, int j, const uint8_t *x,
			size_t len, uint8_t sum[16])
{
	uint8_t blk[16];
	unsigned int i, n;

	for (i = 1; len >= 16; i++) {
		aez_e(k, j, i, blk, x);
		xor16(sum, blk);
		x += 16;
		len -= 16;
	}
	/* A partial last block, or the empty string: 10* padded, E^{j,0}. */
	if (len || i == 1) {
		for (n = 0; n < 16; n++)
			blk[n] = n < len ? x[n] : n == len ? 0x80 : 0;
		aez_e(k, j, 0, blk, blk);
		xor16(sum, blk);
	}
	dmd_wipe(blk, sizeof(blk));
}

/*
 * Delta = AEZ-hash(tau, N, A): tau in bits as a 128-bit integer first. A
 * one-block nonce (the bench's) shares its AES4 call with tau's block.
 */
static void aez_hash(const struct aez_key *k, size_t tau, const uint8_t *n,
		     size_t nlen, const uint8_t *ad, size_t adlen,
		     uint8_t delta[16])
{
	uint8_t t[16] = { 0 };

	dmd_store32_be(t + 12, (uint32_t)(8 * tau));
	if (nlen == 16) {
		aez_e2(k, 3, 1, 4, 1, delta, t, t, n);
		xor16(delta, t);
	} else {
		aez_e(k, 3, 1, delta, t);
		hash_string(k, 4, n, nlen, delta);
	}
	if (ad)
		hash_string(k, 5, ad, adlen, delta);
	dmd_wipe(t, sizeof(t));
}

/* AEZ-prf for the empty message: E^{-1,3}(Delta ^ [0]), tau <= 16. */
static void aez_prf(const struct aez_key *k, const uint8_t delta[16],
		    size_t tau, uint8_t *out)
{
	uint8_t blk[16];
	size_t i;

	aez_e(k, -1, 3, blk, delta);
	for (i = 0; i < tau; i++)
		out[i] = blk[i];
	dmd_wipe(blk, sizeof(blk));
}

/* out = the first @len (< 16) bytes of s, 10* padded to a block. */
static void pad10(uint8_t out[16], const uint8_t *s, size_t len)
{
	unsigned int n;

	for (n = 0; n < 16; n++)
		out[n] = n < len ? s[n] : n == len ? 0x80 : 0;
}

/*
 * X or Y's contribution of the fragment uv (0..31 bytes) of @f: u (up to
 * 16 bytes) under E^{0,4}, v under E^{0,5}, each 10* padded when short.
 */
static void core_frag_sum(const struct aez_key *k, const uint8_t *f,
			  size_t len, uint8_t acc[16])
{
	uint8_t t[16], v[16];

	if (!len)
		return;
	if (len < 16) {
		pad10(t, f, len);
		aez_e(k, 0, 4, t, t);
	} else {
		pad10(v, f + 16, len - 16);
		aez_e2(k, 0, 4, 0, 5, t, v, f, v);
		xor16(t, v);
	}
	xor16(acc, t);
	dmd_wipe(t, sizeof(t));
	dmd_wipe(v, sizeof(v));
}

/* C_uv = X_uv ^ (E^{-1,4}(S) || E^{-1,5}(S)), truncated; in place is fine. */
static void core_frag_crypt(const struct aez_key *k, const uint8_t s[16],
			    const uint8_t *in, size_t len, uint8_t *out)
{
	uint8_t pad[32];
	size_t n;

	if (!len)
		return;
	aez_e2(k, -1, 4, -1, 5, pad, pad + 16, s, s);
	for (n = 0; n < len; n++)
		out[n] = in[n] ^ pad[n];
	dmd_wipe(pad, sizeof(pad));
}

/*
 * Pass 1, two pairs per call where there are two (lane 1 idles on a copy
 * of lane 0 for an odd last pair): W_i = X_i ^ E^{1,i}(X'_i),
 * X_i := X'_i ^ E^{0,0}(W_i), out gets W_i || X_i, x ^= X_i.
 */
static void core_pass1(const struct aez_key *k, const uint8_t *in,
		       uint8_t *out, size_t pairs, uint8_t x[16])
{
	uint8_t w[2][16], t[2][16];
	size_t p, q, lanes;
	unsigned int b;

	for (p = 0; p < pairs; p += 2) {
		const uint8_t *a = in + 32 * p;
		unsigned int i = (unsigned int)p + 1;

		lanes = pairs - p > 1 ? 2 : 1;
		aez_e2(k, 1, i, 1, i + (unsigned int)lanes - 1, t[0], t[1],
		       a + 16, a + 32 * (lanes - 1) + 16);
		for (q = 0; q < 2; q++)
			for (b = 0; b < 16; b++)
				w[q][b] = a[32 * (q % lanes) + b] ^ t[q][b];
		aez_e2(k, 0, 0, 0, 0, t[0], t[1], w[0], w[1]);
		for (q = 0; q < lanes; q++) {
			uint8_t *o = out + 32 * (p + q);

			for (b = 0; b < 16; b++) {
				o[16 + b] = a[32 * q + 16 + b] ^ t[q][b];
				o[b] = w[q][b];
			}
			xor16(x, o + 16);
		}
	}
	dmd_wipe(w, sizeof(w));
	dmd_wipe(t, sizeof(t));
}

/*
 * Pass 2 on out, two pairs per call likewise: S' = E^{2,i}(S),
 * Y_i = W_i ^ S', Z_i = X_i ^ S', y ^= Y_i, C'_i = Y_i ^ E^{0,0}(Z_i),
 * C_i = Z_i ^ E^{1,i}(C'_i); out gets C_i || C'_i.
 */
static void core_pass2(const struct aez_key *k, const uint8_t s[16],
		       uint8_t *out, size_t pairs, uint8_t y[16])
{
	uint8_t t[2][16], c[2][16];
	size_t p, q, lanes;
	unsigned int b;

	for (p = 0; p < pairs; p += 2) {
		uint8_t *o = out + 32 * p;
		unsigned int i = (unsigned int)p + 1, i1;

		lanes = pairs - p > 1 ? 2 : 1;
		i1 = i + (unsigned int)lanes - 1;
		aez_e2(k, 2, i, 2, i1, t[0], t[1], s, s);
		for (q = 0; q < lanes; q++) {
			xor16(o + 32 * q, t[q]);
			xor16(o + 32 * q + 16, t[q]);
			xor16(y, o + 32 * q);
		}
		aez_e2(k, 0, 0, 0, 0, t[0], t[1], o + 16,
		       o + 32 * (lanes - 1) + 16);
		for (q = 0; q < 2; q++)
			for (b = 0; b < 16; b++)
				c[q][b] = o[32 * (q % lanes) + b] ^ t[q][b];
		aez_e2(k, 1, i, 1, i1, t[0], t[1], c[0], c[1]);
		for (q = 0; q < lanes; q++)
			for (b = 0; b < 16; b++) {
				o[32 * q + b] = o[32 * q + 16 + b] ^ t[q][b];
				o[32 * q + 16 + b] = c[q][b];
			}
	}
	dmd_wipe(t, sizeof(t));
	dmd_wipe(c, sizeof(c));
}

/*
 * AEZ-core, n >= 32 bytes, d = 0 to encipher, 1 to decipher. Pass 1 leaves
 * W_i || X_i in out and X = xor of X_i; pass 2 turns them into C_i || C'_i.
 * @out may equal @in: each input byte is read before its place is written.
 */
static void aez_core(const struct aez_key *k, const uint8_t delta[16],
		     unsigned int d, const uint8_t *in, size_t n, uint8_t *out)
{
	size_t frag = (n - 32) % 32, pairs = (n - 32) / 32;
	const uint8_t *ixy = in + n - 32;
	uint8_t *oxy = out + n - 32;
	uint8_t x[16] = { 0 }, y[16] = { 0 }, sx[16], sy[16], s[16], t[16];
	unsigned int b;

	core_pass1(k, in, out, pairs, x);
	core_frag_sum(k, in + 32 * pairs, frag, x);

	/* S_x = X_x ^ Delta ^ X ^ E^{0,1+d}(X_y); S_y = X_y ^ E^{-1,1+d}(S_x) */
	aez_e(k, 0, 1 + d, t, ixy + 16);
	for (b = 0; b < 16; b++)
		sx[b] = ixy[b] ^ delta[b] ^ x[b] ^ t[b];
	aez_e(k, -1, 1 + d, t, sx);
	for (b = 0; b < 16; b++) {
		sy[b] = ixy[16 + b] ^ t[b];
		s[b] = sx[b] ^ sy[b];
	}

	core_pass2(k, s, out, pairs, y);
	core_frag_crypt(k, s, in + 32 * pairs, frag, out + 32 * pairs);
	core_frag_sum(k, out + 32 * pairs, frag, y);

	/* C_y = S_x ^ E^{-1,2-d}(S_y); C_x = S_y ^ Delta ^ Y ^ E^{0,2-d}(C_y) */
	aez_e(k, -1, 2 - d, t, sy);
	for (b = 0; b < 16; b++)
		oxy[16 + b] = sx[b] ^ t[b];
	aez_e(k, 0, 2 - d, t, oxy + 16);
	for (b = 0; b < 16; b++)
		oxy[b] = sy[b] ^ delta[b] ^ y[b] ^ t[b];

	dmd_wipe(x, sizeof(x));
	dmd_wipe(y, sizeof(y));
	dmd_wipe(sx, sizeof(sx));
	dmd_wipe(sy, sizeof(sy));
	dmd_wipe(s, sizeof(s));
	dmd_wipe(t, sizeof(t));
}

/*
 * Bit halves of a tiny input of n bytes: 4n bits each, left aligned in a
 * block, bits past them zero. For odd n the halves meet mid-byte.
 */
static void tiny_split(const uint8_t *x, size_t n, uint8_t l[16],
		       uint8_t r[16])
{
	size_t h = n / 2, b;

	for (b = 0; b < 16; b++) {
		uint8_t hi = h + b < n ? x[h + b] : 0;
		uint8_t lo = h + b + 1 < n ? x[h + b + 1] : 0;

		l[b] = b <= h && b < n ? x[b] : 0;
		r[b] = n & 1 ? (uint8_t)((hi << 4) | (lo >> 4)) : hi;
	}
	/* Keep 4n bits: h bytes, plus the high nibble of byte h if n is odd. */
	for (b = h; b < 16; b++) {
		l[b] &= (b == h && (n & 1)) ? 0xf0 : 0;
		r[b] &= (b == h && (n & 1)) ? 0xf0 : 0;
	}
}

/* out = r || l (4n bits each). */
static void tiny_join(uint8_t *out, size_t n, const uint8_t r[16],
		      const uint8_t l[16])
{
	size_t h = n / 2, b;

	for (b = 0; b < h; b++)
		out[b] = r[b];
	if (!(n & 1)) {
		for (b = 0; b < h; b++)
			out[h + b] = l[b];
		return;
	}
	out[h] = (uint8_t)((r[h] & 0xf0) | (l[0] >> 4));
	for (b = 0; b < h; b++)
		out[h + 1 + b] = (uint8_t)((l[b] << 4) | (l[b + 1] >> 4));
}

/*
 * One Feistel half-round: a ^= E^{0,j}(Delta ^ pad10(b) ^ [round]),
 * trimmed to 4n bits.
 */
static void tiny_round(const struct aez_key *k, unsigned int j,
		       const uint8_t delta[16], size_t n, unsigned int round,
		       uint8_t a[16], const uint8_t bh[16])
{
	size_t h = n / 2, b;
	uint8_t t[16];

	for (b = 0; b < 16; b++)
		t[b] = bh[b];
	t[h] |= n & 1 ? 0x08 : 0x80;
	xor16(t, delta);
	t[15] ^= (uint8_t)round;
	aez_e(k, 0, j, t, t);
	for (b = 0; b < 16; b++)
		a[b] ^= b < h ? t[b] : b == h && (n & 1) ? (t[b] & 0xf0) : 0;
	dmd_wipe(t, sizeof(t));
}

/* Short strings: the first bit is also masked by E^{0,3} (spec, tiny). */
static void tiny_first_bit(const struct aez_key *k, const uint8_t delta[16],
			   const uint8_t *c, size_t n, uint8_t *first)
{
	uint8_t t[16];
	size_t b;

	for (b = 0; b < 16; b++)
		t[b] = b < n ? c[b] : 0;
	t[0] |= 0x80;
	xor16(t, delta);
	aez_e(k, 0, 3, t, t);
	*first ^= t[0] & 0x80;
	dmd_wipe(t, sizeof(t));
}

/* AEZ-tiny, 1 <= n < 32 bytes; @out may equal @in. */
static void aez_tiny(const struct aez_key *k, const uint8_t delta[16],
		     unsigned int d, const uint8_t *in, size_t n, uint8_t *out)
{
	unsigned int rounds = n == 1 ? 24 : n == 2 ? 16 : n < 16 ? 10 : 8;
	unsigned int j = n < 16 ? 7 : 6, r;
	uint8_t l[16], rr[16], x[32];
	size_t b;

	for (b = 0; b < n; b++)
		x[b] = in[b];
	if (d && n < 16)
		tiny_first_bit(k, delta, x, n, &x[0]);
	tiny_split(x, n, l, rr);
	for (r = 0; r < rounds; r += 2) {
		unsigned int c0 = d ? rounds - 1 - r : r;
		unsigned int c1 = d ? rounds - 2 - r : r + 1;

		tiny_round(k, j, delta, n, c0, l, rr);
		tiny_round(k, j, delta, n, c1, rr, l);
	}
	tiny_join(x, n, rr, l);
	if (!d && n < 16)
		tiny_first_bit(k, delta, x, n, &x[0]);
	for (b = 0; b < n; b++)
		out[b] = x[b];
	dmd_wipe(l, sizeof(l));
	dmd_wipe(rr, sizeof(rr));
	dmd_wipe(x, sizeof(x));
}

static void aez_cipher(const struct aez_key *k, const uint8_t delta[16],
		       unsigned int d, const uint8_t *in, size_t n,
		       uint8_t *out)
{
	if (n < 32)
		aez_tiny(k, delta, d, in, n, out);
	else
		aez_core(k, delta, d, in, n, out);
}

void aez_encrypt(const struct aez_key *k, const uint8_t *nonce, size_t nlen,
		 const uint8_t *ad, size_t adlen, size_t tau,
		 const uint8_t *m, size_t len, uint8_t *c)
{
	uint8_t delta[16];
	size_t b;

	aez_hash(k, tau, nonce, nlen, ad, adlen, delta);
	if (!len) {
		aez_prf(k, delta, tau, c);
	} else {
		if (c != m)
			for (b = 0; b < len; b++)
				c[b] = m[b];
		for (b = 0; b < tau; b++)
			c[len + b] = 0;
		aez_cipher(k, delta, 0, c, len + tau, c);
	}
	dmd_wipe(delta, sizeof(delta));
}

int aez_decrypt(const struct aez_key *k, const uint8_t *nonce, size_t nlen,
		const uint8_t *ad, size_t adlen, size_t tau,
		const uint8_t *c, size_t clen, uint8_t *m)
{
	uint8_t delta[16], zero[16] = { 0 };
	int ok;

	if (clen < tau)
		return -1;
	aez_hash(k, tau, nonce, nlen, ad, adlen, delta);
	if (clen == tau) {
		/* m ends as the tau zero bytes, as after a deciphering. */
		aez_prf(k, delta, tau, m);
		ok = dmd_ct_equal(m, c, tau);
		dmd_wipe(m, tau);
	} else {
		aez_cipher(k, delta, 1, c, clen, m);
		ok = dmd_ct_equal(m + clen - tau, zero, tau);
	}
	dmd_wipe(delta, sizeof(delta));
	if (!ok) {
		dmd_wipe(m, clen);
		return -1;
	}
	return 0;
}
