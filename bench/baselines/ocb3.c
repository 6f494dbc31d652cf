// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * OCB3 (RFC 7253), AES-128 with a 128-bit tag, on the core's constant-time
 * AES; message blocks go two per call (dmd_aes128_encrypt2), so OCB's
 * parallelism fills both lanes of the bitsliced AES as CTR does. Offsets
 * depend only on block indices and the public nonce; nothing branches on
 * key or data. Checked against RFC 7253 Appendix A in bench-kat (host) and
 * bench-fw-kat (the boards).
 */
#include "aead.h"

#include <diamond/util.h>

static void xor16(uint8_t d[16], const uint8_t a[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		d[i] ^= a[i];
}

/* double(S) in GF(2^128), RFC 7253 section 2, without a secret branch. */
static void dbl(uint8_t d[16], const uint8_t s[16])
{
	uint8_t carry = (uint8_t)-(s[0] >> 7);
	unsigned int i;

	for (i = 0; i < 15; i++)
		d[i] = (uint8_t)(s[i] << 1 | s[i + 1] >> 7);
	d[15] = (uint8_t)(s[15] << 1 ^ (carry & 0x87));
}

static unsigned int ntz(size_t i)
{
	unsigned int n = 0;

	while (!(i & 1)) {
		i >>= 1;
		n++;
	}
	return n;
}

/* L_n: from the table, or doubled on from its last entry (long inputs). */
static const uint8_t *l_at(const struct ocb3_key *k, unsigned int n,
			   uint8_t tmp[16])
{
	unsigned int i;

	if (n < OCB3_NL)
		return k->l[n];
	dbl(tmp, k->l[OCB3_NL - 1]);
	for (i = OCB3_NL; i < n; i++)
		dbl(tmp, tmp);
	return tmp;
}

void ocb3_init(struct ocb3_key *k, const uint8_t key[16])
{
	static const uint8_t zero[16];
	unsigned int i;

	dmd_aes128_init(&k->aes, key);
	dmd_aes128_encrypt(&k->aes, k->lstar, zero);
	dbl(k->ldollar, k->lstar);
	dbl(k->l[0], k->ldollar);
	for (i = 1; i < OCB3_NL; i++)
		dbl(k->l[i], k->l[i - 1]);
}

/* Offset_0 from the nonce (RFC 7253 section 4.2, TAGLEN = 128). */
static void offset0(const struct ocb3_key *k, const uint8_t *nonce,
		    size_t nlen, uint8_t off[16])
{
	uint8_t blk[16], stretch[24];
	unsigned int i, bottom, s, b;

	dmd_wipe(blk, sizeof(blk));
	blk[15 - nlen] = 1;
	bench_copy(blk + 16 - nlen, nonce, nlen);
	bottom = blk[15] & 0x3f;
	blk[15] &= 0xc0;
	dmd_aes128_encrypt(&k->aes, stretch, blk);
	for (i = 0; i < 8; i++)
		stretch[16 + i] = stretch[i] ^ stretch[i + 1];
	s = bottom / 8;
	b = bottom % 8;
	for (i = 0; i < 16; i++)
		off[i] = (uint8_t)(stretch[i + s] << b |
				   (b ? stretch[i + s + 1] >> (8 - b) : 0));
	dmd_wipe(stretch, sizeof(stretch));
}

/* HASH(K, A), RFC 7253 section 4.1. */
static void hash_ad(const struct ocb3_key *k, const uint8_t *a, size_t len,
		    uint8_t sum[16])
{
	uint8_t off[16], t[16], lt[16];
	size_t i, full = len / 16;

	dmd_wipe(sum, 16);
	dmd_wipe(off, 16);
	for (i = 1; i <= full; i++, a += 16) {
		xor16(off, l_at(k, ntz(i), lt));
		bench_copy(t, a, 16);
		xor16(t, off);
		dmd_aes128_encrypt(&k->aes, t, t);
		xor16(sum, t);
	}
	if (len % 16) {
		xor16(off, k->lstar);
		dmd_wipe(t, 16);
		bench_copy(t, a, len % 16);
		t[len % 16] = 0x80;
		xor16(t, off);
		dmd_aes128_encrypt(&k->aes, t, t);
		xor16(sum, t);
	}
	dmd_wipe(t, sizeof(t));
}

/* X = M ^ Offset, SUM ^= M: one full block's cipher input. */
static void block_in(uint8_t x[16], const uint8_t *m, const uint8_t off[16],
		     uint8_t sum[16])
{
	bench_copy(x, m, 16);
	xor16(sum, x);
	xor16(x, off);
}

static void block_out(uint8_t *c, uint8_t y[16], const uint8_t off[16])
{
	xor16(y, off);
	bench_copy(c, y, 16);
}

/*
 * Full blocks go through the cipher two at a time (both lanes of the
 * bitsliced AES); an odd last one shares its call with the pad of a
 * final partial block when there is one.
 */
void ocb3_encrypt(const struct ocb3_key *k, const uint8_t *nonce,
		  size_t nlen, const uint8_t *ad, size_t adlen,
		  const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	uint8_t off[16], o0[16], sum[16], x0[16], x1[16], lt[16];
	size_t i, j, full = len / 16, rest = len % 16;

	offset0(k, nonce, nlen, off);
	dmd_wipe(sum, 16);
	for (i = 1; i + 1 <= full; i += 2, m += 32, c += 32) {
		xor16(off, l_at(k, ntz(i), lt));
		bench_copy(o0, off, 16);
		xor16(off, l_at(k, ntz(i + 1), lt));
		block_in(x0, m, o0, sum);
		block_in(x1, m + 16, off, sum);
		dmd_aes128_encrypt2(&k->aes, x0, x1, x0, x1);
		block_out(c, x0, o0);
		block_out(c + 16, x1, off);
	}
	if (full % 2) {
		xor16(off, l_at(k, ntz(full), lt));
		bench_copy(o0, off, 16);
		block_in(x0, m, o0, sum);
		if (rest) {
			xor16(off, k->lstar);
			dmd_aes128_encrypt2(&k->aes, x0, x1, x0, off);
		} else {
			dmd_aes128_encrypt(&k->aes, x0, x0);
		}
		block_out(c, x0, o0);
		m += 16;
		c += 16;
	} else if (rest) {
		xor16(off, k->lstar);
		dmd_aes128_encrypt(&k->aes, x1, off);
	}
	if (rest) {	/* x1 is the pad E(Offset_*) */
		for (j = 0; j < rest; j++) {
			c[j] = m[j] ^ x1[j];
			sum[j] ^= m[j];
		}
		sum[rest] ^= 0x80;
	}
	xor16(sum, off);
	xor16(sum, k->ldollar);
	dmd_aes128_encrypt(&k->aes, tag, sum);
	if (adlen) {
		hash_ad(k, ad, adlen, x0);
		xor16(tag, x0);
	}
	dmd_wipe(x0, sizeof(x0));
	dmd_wipe(x1, sizeof(x1));
	dmd_wipe(o0, sizeof(o0));
	dmd_wipe(sum, sizeof(sum));
	dmd_wipe(off, sizeof(off));
}

void ocb3_wipe(struct ocb3_key *k)
{
	dmd_aes128_wipe(&k->aes);
	dmd_wipe(k, sizeof(*k));
}
