// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * VMAC-64 and VMAC-128 (vmac.h), from draft-krovetz-vmac-01.
 */
#include "vmac.h"

#include <diamond/util.h>

#define M62	0x3fffffffffffffffull
#define M63	0x7fffffffffffffffull
#define MPOLY	0x1fffffff1fffffffull
#define P64	0xfffffffffffffeffull	/* 2^64 - 257 */

struct u128 {
	uint64_t hi, lo;
};

static struct u128 mul64(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	struct u128 r;

	r.lo = mid << 32 | (uint32_t)p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

/* r += x; returns the carry out of bit 127 (no branch: compares only). */
static uint64_t add128(struct u128 *r, struct u128 x)
{
	uint64_t c0, c1, hi;

	r->lo += x.lo;
	c0 = r->lo < x.lo;
	hi = r->hi + x.hi;
	c1 = hi < x.hi;
	r->hi = hi + c0;
	return c1 | (r->hi < c0);
}

static uint64_t be64(const uint8_t *b)
{
	return (uint64_t)dmd_load32_be(b) << 32 | dmd_load32_be(b + 4);
}

static void put_be64(uint8_t *b, uint64_t v)
{
	dmd_store32_be(b, (uint32_t)(v >> 32));
	dmd_store32_be(b + 4, (uint32_t)v);
}

/* KDF(K, index): AES(K, index || 0^14 || i) for i = 0, 1, ... */
static void kdf_block(const struct vmac_key *k, uint8_t index, uint8_t i,
		      uint64_t w[2])
{
	uint8_t in[16] = { 0 }, out[16];

	in[0] = index;
	in[15] = i;
	dmd_aes128_encrypt(&k->aes, out, in);
	w[0] = be64(out);
	w[1] = be64(out + 8);
	dmd_wipe(out, sizeof(out));
}

void vmac_init(struct vmac_key *k, const uint8_t key[16], unsigned int taglen)
{
	unsigned int i, h, ctr = 0;

	dmd_wipe(k, sizeof(*k));
	dmd_aes128_init(&k->aes, key);
	k->halves = taglen / 8;
	for (i = 0; i < (VMAC_NHBYTES / 8 + 2 * (k->halves - 1)) / 2; i++)
		kdf_block(k, 0x80, (uint8_t)i, k->nh + 2 * i);
	for (h = 0; h < k->halves; h++) {
		kdf_block(k, 0xc0, (uint8_t)h, k->poly[h]);
		k->poly[h][0] &= MPOLY;
		k->poly[h][1] &= MPOLY;
		/* L3 keys below p64; a draw above it (p < 2^-55) is redrawn */
		do
			kdf_block(k, 0xe0, (uint8_t)ctr++, k->l3[h]);
		while (k->l3[h][0] >= P64 || k->l3[h][1] >= P64);
	}
}

void vmac_wipe(struct vmac_key *k)
{
	dmd_aes128_wipe(&k->aes);
	dmd_wipe(k, sizeof(*k));
}

/* NH of @n bytes (a multiple of 16) at @m under @key, mod 2^126. */
static struct u128 nh(const uint64_t *key, const uint8_t *m, size_t n)
{
	struct u128 s = { 0, 0 };
	size_t i;

	for (i = 0; i < n / 8; i += 2)
		add128(&s, mul64(dmd_load64_le(m + 8 * i) + key[i],
				 dmd_load64_le(m + 8 * i + 8) + key[i + 1]));
	s.hi &= M62;
	return s;
}

/* x mod 2^127 + x div 2^127 for x = t2 * 2^128 + (t1, t0): one fold. */
static struct u128 fold127(uint64_t t2, uint64_t t1, uint64_t t0)
{
	struct u128 r = { t1 & M63, t0 }, q = { 0, t2 << 1 | t1 >> 63 };

	add128(&r, q);
	return r;
}

/* y * k + a mod 2^127 - 1, y < 2^127, k < 2^125 (masked), a < 2^126. */
static struct u128 poly_step(struct u128 y, const uint64_t k[2], struct u128 a)
{
	struct u128 ll = mul64(y.lo, k[1]), hh = mul64(y.hi, k[0]);
	struct u128 mid = mul64(y.hi, k[1]), t;
	uint64_t t2, c;

	add128(&mid, mul64(y.lo, k[0]));	/* < 2^128: y.hi < 2^63 */
	/* y * k = hh 2^128 + mid 2^64 + ll; 2^128 = 2 mod p127 */
	t = ll;
	t.hi += mid.lo;
	c = t.hi < mid.lo;
	t2 = mid.hi + c;
	t2 += add128(&t, a);
	/* add 2 * hh (< 2^126) as 2^128 * hh: fold it in with t2 */
	t = fold127(t2, t.hi, t.lo);
	add128(&t, (struct u128){ hh.hi << 1 | hh.lo >> 63, hh.lo << 1 });
	t = fold127(0, t.hi, t.lo);
	return fold127(0, t.hi, t.lo);		/* now < 2^127 */
}

/* x mod p64 for any 128-bit x: 2^64 = 257 mod p64. */
static uint64_t mod_p64(struct u128 x)
{
	unsigned int i;
	uint64_t r, ge;

	for (i = 0; i < 3; i++) {
		struct u128 t = mul64(x.hi, 257);

		t.lo += x.lo;
		t.hi += t.lo < x.lo;
		x = t;
	}
	r = x.lo;
	ge = (uint64_t)0 - (r >= P64);
	return r - (P64 & ge);
}

/*
 * L3: y (< 2^127) = q (2^64 - 2^32) + r, then (q + k1)(r + k2) mod p64.
 * With D = 2^64 - 2^32 and 2^64 = D + 2^32: peel q off in steps of the
 * high word, each leaving a smaller remainder, then one correction.
 */
static uint64_t l3(struct u128 y, const uint64_t k[2])
{
	const uint64_t d = 0xffffffff00000000ull;
	uint64_t q = 0, ge;
	struct u128 r = y, t;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		uint64_t h = r.hi;

		q += h;
		t = mul64(h, 1ull << 32);	/* r - h D = h 2^32 + r.lo */
		t.lo += r.lo;
		t.hi += t.lo < r.lo;
		r = t;
	}
	ge = (uint64_t)0 - (r.lo >= d);		/* r.hi is 0 here */
	q += ge & 1;
	r.lo -= d & ge;
	t.hi = 0;
	t.lo = q + k[0];
	t.hi = t.lo < q;
	q = mod_p64(t);
	t.lo = r.lo + k[1];
	t.hi = t.lo < r.lo;
	return mod_p64(mul64(q, mod_p64(t)));
}

/* VHASH's 64-bit result for half @h. */
static uint64_t vhash(const struct vmac_key *k, unsigned int h,
		      const uint8_t *m, size_t len)
{
	const uint64_t *key = k->nh + 2 * h;
	size_t full = len / VMAC_NHBYTES, part = len % VMAC_NHBYTES, i;
	struct u128 y = { 0, 1 }, a;
	uint8_t last[16] = { 0 };
	uint64_t bits;

	for (i = 0; i < full; i++) {
		a = nh(key, m + VMAC_NHBYTES * i, VMAC_NHBYTES);
		y = poly_step(y, k->poly[h], a);
	}
	if (part || full == 0) {	/* the empty message is one empty block */
		const uint8_t *p = m + VMAC_NHBYTES * full;
		size_t whole = part / 16 * 16;

		/* whole 16-byte pieces in place, the rest zero-padded to 16 */
		a = nh(key, p, whole);
		for (i = 0; i < part - whole; i++)
			last[i] = p[whole + i];
		if (part > whole)
			add128(&a, nh(key + whole / 8, last, 16));
		a.hi &= M62;
		y = poly_step(y, k->poly[h], a);
		dmd_wipe(last, sizeof(last));
	}
	/* + (bit length mod 1024) 2^64, then fully reduced mod p127 */
	bits = (uint64_t)part * 8;
	y.hi += bits;
	y = fold127(0, y.hi, y.lo);
	a = y;
	add128(&a, (struct u128){ 0, 1 });	/* y = p127 becomes 0 */
	bits = (uint64_t)0 - (a.hi >> 63);
	y.hi = (y.hi & ~bits) | (a.hi & M63 & bits);
	y.lo = (y.lo & ~bits) | (a.lo & bits);
	return l3(y, k->l3[h]);
}

void vmac_tag(const struct vmac_key *k, const uint8_t *nonce, size_t nlen,
	      const uint8_t *m, size_t len, uint8_t *tag)
{
	uint8_t n[16] = { 0 }, pad[16];
	unsigned int h, sel = 0;
	size_t i;

	for (i = 0; i < nlen; i++)
		n[16 - nlen + i] = nonce[i];
	if (k->halves == 1) {
		sel = n[15] & 1;	/* public: the nonce */
		n[15] &= 0xfe;
	}
	dmd_aes128_encrypt(&k->aes, pad, n);
	for (h = 0; h < k->halves; h++)
		put_be64(tag + 8 * h, vhash(k, h, m, len) + be64(pad + 8 * (h + sel)));
	dmd_wipe(pad, sizeof(pad));
}
