// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The reference side of the known-answer vectors: the suites' primitives
 * through OpenSSL (AES-128-CTR, ChaCha20, Poly1305, SHA-256), a bit-serial
 * GF(2^128) multiply, and the construction's pieces written straight from
 * Documentation/spec.rst. Shares no code with the portable core, which the
 * vectors check. Used by gen-vectors.c and packet-vectors.c.
 */
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ref-prims.h"

size_t ksize(int suite)
{
	return suite == 1 ? 16 : 32;
}

void die(const char *what)
{
	fprintf(stderr, "gen-vectors: %s failed\n", what);
	exit(2);
}

/* ---- primitives through OpenSSL ---- */

/*
 * @domain: 0 record slot, 1 epoch update, 2 group trailer (section 1),
 * 3 grid trailer (section 14).
 */
void stream(int suite, const uint8_t *key, int domain,
		   uint8_t *out, size_t len)
{
	uint8_t iv[16] = { 0 };
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	uint8_t *zero = calloc(1, len + 1);
	int outl;

	if (domain == 1)
		iv[suite == 1 ? 0 : 4] = suite == 1 ? 0x80 : 1;
	else if (domain == 2)
		iv[suite == 1 ? 0 : 4] = suite == 1 ? 0x40 : 2;
	else if (domain == 3)
		iv[suite == 1 ? 0 : 4] = suite == 1 ? 0xc0 : 3;
	if (!c || !zero ||
	    !EVP_EncryptInit_ex(c, suite == 1 ? EVP_aes_128_ctr() :
				EVP_chacha20(), NULL, key, iv) ||
	    !EVP_EncryptUpdate(c, out, &outl, zero, (int)len))
		die("stream");
	EVP_CIPHER_CTX_free(c);
	free(zero);
}

void sha256(uint8_t out[32], const uint8_t *in, size_t len)
{
	unsigned int n;

	if (!EVP_Digest(in, len, out, &n, EVP_sha256(), NULL))
		die("sha256");
}

/* GF(2^128) multiply, SP 800-38D Algorithm 1, bit by bit. */
void gf_mul(uint8_t x[16], const uint8_t y[16])
{
	uint8_t z[16] = { 0 }, v[16];
	int i, j, lsb;

	memcpy(v, y, 16);
	for (i = 0; i < 128; i++) {
		if (x[i / 8] >> (7 - i % 8) & 1)
			for (j = 0; j < 16; j++)
				z[j] ^= v[j];
		lsb = v[15] & 1;
		for (j = 15; j > 0; j--)
			v[j] = (uint8_t)(v[j] >> 1 | v[j - 1] << 7);
		v[0] >>= 1;
		if (lsb)
			v[0] ^= 0xe1;
	}
	memcpy(x, z, 16);
}

void poly1305(uint8_t tag[16], const uint8_t key[32],
		     const uint8_t *m, size_t len)
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
	EVP_MAC_CTX *c = mac ? EVP_MAC_CTX_new(mac) : NULL;
	size_t outl;

	if (!c || !EVP_MAC_init(c, key, 32, NULL) ||
	    !EVP_MAC_update(c, m, len) || !EVP_MAC_final(c, tag, &outl, 16))
		die("poly1305");
	EVP_MAC_CTX_free(c);
	EVP_MAC_free(mac);
}

/* ---- the construction, straight from the spec ---- */

void put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * The slot tag: suite 1 GHASH_H(HB || pad16(data)) xor P; suite 2
 * Poly1305_{H||P}(data), or (HB || data) for a trailer (epoch, group or
 * grid),
 * where HB = le64(e) || le32(idx) || le32(len).
 */
void uh_tag(int suite, const uint8_t *hp, const uint8_t *data,
		   size_t len, uint64_t e, uint32_t idx, uint8_t tag[16])
{
	size_t padded = (len + 15) / 16 * 16, i, hdr, mlen;
	uint8_t *msg = calloc(1, padded + 16), y[16] = { 0 }, key[32];
	int j;

	if (!msg)
		die("malloc");
	put_le(msg, e, 8);
	put_le(msg + 8, idx, 4);
	put_le(msg + 12, len, 4);
	if (len)
		memcpy(msg + 16, data, len);
	if (suite == 1) {
		for (i = 0; i < padded + 16; i += 16) {
			for (j = 0; j < 16; j++)
				y[j] ^= msg[i + j];
			gf_mul(y, hp);
		}
		for (i = 0; i < 16; i++)
			tag[i] = y[i] ^ hp[16 + i];
	} else {
		hdr = idx & (TRAILER | GROUPF | GRIDF) ? 0 : 16; /* records: none */
		mlen = 16 + len - hdr;
		memcpy(key, hp, 32);
		poly1305(tag, key, msg + hdr, mlen);
	}
	free(msg);
}

void agg_add(int mode, uint8_t acc[16], const uint8_t t[16])
{
	uint8_t in[32], out[32];
	unsigned int carry = 0;
	int i;

	if (mode == 0) {
		for (i = 0; i < 16; i++)
			acc[i] ^= t[i];
	} else if (mode == 1) {
		for (i = 0; i < 16; i++) {
			carry += acc[i] + t[i];
			acc[i] = (uint8_t)carry;
			carry >>= 8;
		}
	} else {
		memcpy(in, acc, 16);
		memcpy(in + 16, t, 16);
		sha256(out, in, 32);
		memcpy(acc, out, 16);
	}
}

/* Slot j of the record chain: R_next, H || P, keystream of len bytes. */
void slot(int suite, uint8_t *r, uint8_t hp[32], uint8_t *ks,
		 size_t len)
{
	size_t k = ksize(suite);
	uint8_t *y = malloc(k + 32 + len + 1);

	if (!y)
		die("malloc");
	stream(suite, r, 0, y, k + 32 + len);
	memcpy(r, y, k);
	memcpy(hp, y + k, 32);
	if (len)
		memcpy(ks, y + k + 32, len);
	free(y);
}

void epoch_update(int suite, uint8_t *e, uint8_t *r0)
{
	size_t k = ksize(suite);
	uint8_t x[64];

	stream(suite, e, 1, x, 2 * k);
	memcpy(e, x, k);
	memcpy(r0, x + k, k);
}

/* Version 2: v1's 24 bytes, le16 gen, le16 group, key, le32 CRC-32. */
size_t blob2(uint8_t *b, const struct state *st, int gen, int group)
{
	size_t k = ksize(st->suite);

	memset(b, 0, 64);
	memcpy(b, "DMND", 4);
	b[4] = 2;
	b[5] = (uint8_t)st->suite;
	b[6] = (uint8_t)st->agg;
	put_le(b + 8, st->b, 4);
	put_le(b + 12, st->dev, 4);
	put_le(b + 16, st->epoch, 8);
	put_le(b + 24, (uint64_t)gen, 2);
	put_le(b + 26, (uint64_t)group, 2);
	memcpy(b + 28, st->key, k);
	put_le(b + 28 + k, crc32(0, b, (uInt)(28 + k)), 4);
	return 32 + k;
}

