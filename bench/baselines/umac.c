// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * UMAC (RFC 4418), section by section: KDF (3.2), PDF (3.3), NH and
 * L1-HASH (4.2), L2-HASH with POLY over 2^64 - 59 (4.3), L3-HASH (4.4),
 * UHASH (4.1). Arithmetic is branch-free on key and message values: the
 * POLY marker case and every modular reduction select with masks.
 * Checked against RFC 4418 section 5 in bench-kat and on the M4.
 */
#include "umac.h"

#include <diamond/util.h>

#define P36	((uint64_t)0xffffffffb)		/* 2^36 - 5 */
#define P64	((uint64_t)0xffffffffffffffc5)	/* 2^64 - 59 */
#define MASK64	((uint64_t)0x01ffffff01ffffff)

static uint64_t be64(const uint8_t *b)
{
	return (uint64_t)dmd_load32_be(b) << 32 | dmd_load32_be(b + 4);
}

/* KDF(K, index, n): E(K, be64(index) || be64(i)) for i = 1, 2, ... */
static void kdf(const struct dmd_aes128 *aes, uint8_t index, uint8_t *out,
		size_t n)
{
	uint8_t ctr[16] = { 0 };

	ctr[7] = index;
	ctr[15] = 1;
	dmd_aes128_ctr(aes, ctr, out, n);
}

/* x mod 2^36 - 5 for any 64-bit x, without a data-dependent branch. */
static uint64_t mod_p36(uint64_t x)
{
	uint64_t ge;

	x = (x & ((1ull << 36) - 1)) + 5 * (x >> 36);
	x = (x & ((1ull << 36) - 1)) + 5 * (x >> 36);
	ge = (uint64_t)0 - ((x - P36) >> 63 ^ 1);	/* all ones if x >= P36 */
	return x - (P36 & ge);
}

void umac_init(struct umac_key *k, const uint8_t key[16], unsigned int taglen)
{
	struct dmd_aes128 aes;
	uint8_t buf[UMAC_MAX_ITERS * 64], ctr[16] = { 0 };
	unsigned int i, j;

	dmd_wipe(k, sizeof(*k));
	k->iters = taglen / 4;
	dmd_aes128_init(&aes, key);
	kdf(&aes, 0, buf, 16);
	dmd_aes128_init(&k->pdf, buf);
	ctr[7] = 1;
	ctr[15] = 1;
	for (i = 0; i < sizeof(k->l1) / 4; i += 16) {	/* 64 bytes at a time */
		dmd_aes128_ctr(&aes, ctr, buf, 64);
		for (j = 0; j < 16 && i + j < sizeof(k->l1) / 4; j++)
			k->l1[i + j] = dmd_load32_be(buf + 4 * j);
	}
	kdf(&aes, 2, buf, 24 * k->iters);
	for (i = 0; i < k->iters; i++)
		k->l2[i] = be64(buf + 24 * i) & MASK64;
	kdf(&aes, 3, buf, 64 * k->iters);
	for (i = 0; i < k->iters; i++)
		for (j = 0; j < 8; j++)
			k->l3[i][j] = mod_p36(be64(buf + 64 * i + 8 * j));
	kdf(&aes, 4, buf, 4 * k->iters);
	for (i = 0; i < k->iters; i++)
		k->l3b[i] = dmd_load32_be(buf + 4 * i);
	dmd_aes128_wipe(&aes);
	dmd_wipe(buf, sizeof(buf));
}

/* NH over whole 32-byte blocks, message words little-endian (4.2.2). */
static uint64_t nh_blocks(const uint32_t *k, const uint8_t *m, size_t n)
{
	uint64_t y = 0;
	unsigned int j;

	for (; n; n--, m += 32, k += 8)
		for (j = 0; j < 4; j++)
			y += (uint64_t)(uint32_t)(dmd_load32_le(m + 4 * j) + k[j]) *
			     (uint32_t)(dmd_load32_le(m + 16 + 4 * j) + k[4 + j]);
	return y;
}

/* NH(K, zeropad(M, 32)) + bitlength(M): one L1 output word. */
static uint64_t l1_chunk(const uint32_t *k, const uint8_t *m, size_t len)
{
	uint8_t last[32];
	size_t full = len / 32, rest = len % 32;
	uint64_t y = nh_blocks(k, m, full);

	if (rest || !len) {
		dmd_wipe(last, sizeof(last));
		bench_copy(last, m + 32 * full, rest);
		y += nh_blocks(k + 8 * full, last, 1);
		dmd_wipe(last, sizeof(last));
	}
	return y + 8 * (uint64_t)len;
}

/* (a * b) mod 2^64 - 59 for a < 2^57, b < 2^64, from 32-bit products. */
static uint64_t mulmod_p64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t lo = a0 * b0, mid1 = a0 * b1, mid2 = a1 * b0, hi = a1 * b1;
	uint64_t mid = (lo >> 32) + (uint32_t)mid1 + (uint32_t)mid2, r, c;

	lo = (uint32_t)lo | mid << 32;
	hi += (mid >> 32) + (mid1 >> 32) + (mid2 >> 32);
	/* 2^64 = 59 (mod p); hi < 2^57, so hi * 59 < 2^63. */
	r = lo + 59 * hi;
	c = r < lo;
	r += 59 * c;
	c = (uint64_t)0 - (r >= P64);
	return r - (P64 & c);
}

static uint64_t addmod_p64(uint64_t a, uint64_t b)
{
	uint64_t r = a + b, c = r < a;

	r += 59 * c;
	c = (uint64_t)0 - (r >= P64);
	return r - (P64 & c);
}

/*
 * POLY(64, 2^64 - 2^32, k, M) over the L1 outputs (4.3.1), continuing
 * from y (1 at the start); a word in the marker range costs its extra
 * step always, selected by mask.
 */
static uint64_t l2_poly(uint64_t k, uint64_t y, const uint64_t *w, size_t n)
{
	uint64_t plain, marked, big;
	size_t i;

	for (i = 0; i < n; i++) {
		big = (uint64_t)0 - (w[i] >= 0xffffffff00000000ull);
		plain = addmod_p64(mulmod_p64(k, y), w[i]);
		marked = addmod_p64(mulmod_p64(k, y), P64 - 1);
		marked = addmod_p64(mulmod_p64(k, marked), w[i] - 59);
		y = (plain & ~big) | (marked & big);
	}
	return y;
}

/* L3-HASH of the 16-byte L2 output hi || lo (4.4). */
static uint32_t l3(const uint64_t k[8], uint32_t kb, uint64_t hi, uint64_t lo)
{
	uint64_t y = 0;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		y += (hi >> (48 - 16 * i) & 0xffff) * k[i];
		y += (lo >> (48 - 16 * i) & 0xffff) * k[4 + i];
	}
	return (uint32_t)mod_p36(y) ^ kb;
}

/* One 32-bit UHASH lane (4.1). */
static uint32_t uhash_lane(const struct umac_key *k, unsigned int i,
			   const uint8_t *m, size_t len)
{
	const uint32_t *l1 = k->l1 + 4 * i;
	uint64_t w[UMAC_MAX_LEN > 1024 ? 64 : 1], y = 1;
	size_t off = 0, n = 0;

	if (len <= 1024)
		return l3(k->l3[i], k->l3b[i], 0, l1_chunk(l1, m, len));
	/* L2 over the chunks' outputs, 64 of them at a time. */
	while (off < len) {
		size_t c = len - off < 1024 ? len - off : 1024;

		w[n++] = l1_chunk(l1, m + off, c);
		off += c;
		if (n == sizeof(w) / sizeof(w[0]) || off == len) {
			y = l2_poly(k->l2[i], y, w, n);
			n = 0;
		}
	}
	return l3(k->l3[i], k->l3b[i], 0, y);
}

/* PDF (3.3): E(K', nonce, zero-padded); UMAC-64 takes half by its low bit. */
static void pdf(const struct umac_key *k, const uint8_t *nonce, size_t nlen,
		uint8_t pad[16])
{
	uint8_t n[16] = { 0 };
	unsigned int half = 0;

	bench_copy(n, nonce, nlen);
	if (k->iters == 2) {
		half = n[nlen - 1] & 1;
		n[nlen - 1] &= 0xfe;
	}
	dmd_aes128_encrypt(&k->pdf, n, n);
	bench_copy(pad, n + 8 * half, 4 * k->iters);
	dmd_wipe(n, sizeof(n));
}

void umac_tag(const struct umac_key *k, const uint8_t *nonce, size_t nlen,
	      const uint8_t *m, size_t len, uint8_t *tag)
{
	uint8_t pad[16];
	unsigned int i;

	pdf(k, nonce, nlen, pad);
	for (i = 0; i < k->iters; i++)
		dmd_store32_be(tag + 4 * i, uhash_lane(k, i, m, len) ^
			       dmd_load32_be(pad + 4 * i));
	dmd_wipe(pad, sizeof(pad));
}

void umac_wipe(struct umac_key *k)
{
	dmd_aes128_wipe(&k->pdf);
	dmd_wipe(k, sizeof(*k));
}
