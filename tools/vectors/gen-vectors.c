// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * gen-vectors: the Diamond known-answer vectors (Documentation/spec.rst
 * section 13), computed from the spec with OpenSSL's AES, ChaCha20,
 * Poly1305 and SHA-256 and a bit-serial GF(2^128) multiply, sharing no code
 * with the portable core so that the two check each other.
 *
 *   gen-vectors [FILE]          write the vectors (default: stdout)
 *   gen-vectors --check FILE    regenerate; exit 1 if FILE differs
 *   gen-vectors --blobs ...     the same for the key blob vectors
 *                               (vectors/blob.txt), CRC-32 from zlib
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAXREC 4096
#define TRAILER 0x80000000u

struct state {
	int suite, agg;
	uint32_t b, dev;
	uint64_t epoch;
	uint8_t key[32];
};

static size_t ksize(int suite)
{
	return suite == 1 ? 16 : 32;
}

static void die(const char *what)
{
	fprintf(stderr, "gen-vectors: %s failed\n", what);
	exit(2);
}

/* ---- primitives through OpenSSL ---- */

static void stream(int suite, const uint8_t *key, int epoch_domain,
		   uint8_t *out, size_t len)
{
	uint8_t iv[16] = { 0 };
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	uint8_t *zero = calloc(1, len + 1);
	int outl;

	if (epoch_domain)
		iv[suite == 1 ? 0 : 4] = suite == 1 ? 0x80 : 1;
	if (!c || !zero ||
	    !EVP_EncryptInit_ex(c, suite == 1 ? EVP_aes_128_ctr() :
				EVP_chacha20(), NULL, key, iv) ||
	    !EVP_EncryptUpdate(c, out, &outl, zero, (int)len))
		die("stream");
	EVP_CIPHER_CTX_free(c);
	free(zero);
}

static void sha256(uint8_t out[32], const uint8_t *in, size_t len)
{
	unsigned int n;

	if (!EVP_Digest(in, len, out, &n, EVP_sha256(), NULL))
		die("sha256");
}

/* GF(2^128) multiply, SP 800-38D Algorithm 1, bit by bit. */
static void gf_mul(uint8_t x[16], const uint8_t y[16])
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

static void poly1305(uint8_t tag[16], const uint8_t key[32],
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

static void put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * The slot tag: suite 1 GHASH_H(HB || pad16(data)) xor P; suite 2
 * Poly1305_{H||P}(data), or (HB || data) for the trailer, where
 * HB = le64(e) || le32(idx) || le32(len).
 */
static void uh_tag(int suite, const uint8_t *hp, const uint8_t *data,
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
		hdr = idx & TRAILER ? 0 : 16;	/* records: no header */
		mlen = 16 + len - hdr;
		memcpy(key, hp, 32);
		poly1305(tag, key, msg + hdr, mlen);
	}
	free(msg);
}

static void agg_add(int mode, uint8_t acc[16], const uint8_t t[16])
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
static void slot(int suite, uint8_t *r, uint8_t hp[32], uint8_t *ks,
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

static void epoch_update(int suite, uint8_t *e, uint8_t *r0)
{
	size_t k = ksize(suite);
	uint8_t x[64];

	stream(suite, e, 1, x, 2 * k);
	memcpy(e, x, k);
	memcpy(r0, x + k, k);
}

/*
 * Seal epoch @epoch (>= st->epoch) of the plaintext body into @ct (body ||
 * tag) and advance @st to epoch + 1.
 */
static void seal(struct state *st, uint64_t epoch, const uint8_t *ad,
		 size_t adlen, const uint8_t *pt, size_t ptlen, uint8_t *ct)
{
	uint8_t r[32], hp[32], sig[16], acc[16] = { 0 };
	size_t pos = 0, len, i;
	uint32_t n = 0;

	while (st->epoch < epoch) {
		epoch_update(st->suite, st->key, r);
		st->epoch++;
	}
	epoch_update(st->suite, st->key, r);
	st->epoch++;
	while (pos < ptlen) {
		len = pt[pos] | pt[pos + 1] << 8;
		ct[pos] = pt[pos];
		ct[pos + 1] = pt[pos + 1];
		pos += 2;
		slot(st->suite, r, hp, ct + pos, len);
		for (i = 0; i < len; i++)
			ct[pos + i] ^= pt[pos + i];
		uh_tag(st->suite, hp, ct + pos, len, epoch, n, sig);
		agg_add(st->agg, acc, sig);
		pos += len;
		n++;
	}
	slot(st->suite, r, hp, NULL, 0);
	uh_tag(st->suite, hp, ad, adlen, epoch, TRAILER | n, sig);
	agg_add(st->agg, acc, sig);
	memcpy(ct + ptlen, acc, 16);
}

static void initial(struct state *st, const uint8_t root[32])
{
	uint8_t in[12 + 10 + 32], d[32];

	memcpy(in, "DIAMOND/1 E0", 12);
	in[12] = (uint8_t)st->suite;
	in[13] = (uint8_t)st->agg;
	put_le(in + 14, st->b, 4);
	put_le(in + 18, st->dev, 4);
	memcpy(in + 22, root, 32);
	sha256(d, in, sizeof(in));
	memset(st->key, 0, 32);
	memcpy(st->key, d, ksize(st->suite));
	st->epoch = 0;
}

/* ---- deterministic content and output ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint8_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)(rng >> 24);
}

static void fill(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

static FILE *out;

static void hex(const char *name, const uint8_t *p, size_t n)
{
	fprintf(out, "%-6s =%s", name, n ? " " : "");
	while (n--)
		fprintf(out, "%02x", *p++);
	fputc('\n', out);
}

static void blob(const char *name, const struct state *st)
{
	uint8_t b[56] = { 'D', 'M', 'N', 'D', 1 };

	b[5] = (uint8_t)st->suite;
	b[6] = (uint8_t)st->agg;
	put_le(b + 8, st->b, 4);
	put_le(b + 12, st->dev, 4);
	put_le(b + 16, st->epoch, 8);
	memcpy(b + 24, st->key, ksize(st->suite));
	hex(name, b, 24 + ksize(st->suite));
}

/* An epoch under construction: plaintext body, AD, ciphertext. */
struct epoch {
	uint8_t pt[1100000], ct[1100000], ad[1024];
	size_t ptlen, adlen;
	uint32_t n;
	size_t off[1100];	/* offset of record j's length prefix */
};

static struct epoch ep;

static void body_reset(size_t adlen)
{
	ep.ptlen = 0;
	ep.n = 0;
	ep.adlen = adlen;
	fill(ep.ad, adlen);
}

static void body_add(size_t len)
{
	if (ep.n < sizeof(ep.off) / sizeof(ep.off[0]))
		ep.off[ep.n] = ep.ptlen;
	put_le(ep.pt + ep.ptlen, len, 2);
	fill(ep.pt + ep.ptlen + 2, len);
	ep.ptlen += 2 + len;
	ep.n++;
}

static const char *const agg_name[] = { "xor", "add", "hash" };

static void head(const char *name, const struct state *st, const char *what)
{
	fprintf(out, "\n# %s\nname   = d%d-%s-%s\n", what, st->suite,
		agg_name[st->agg], name);
	blob("key", st);
}

/* A positive step: seal at @epoch and print it, advancing @st. */
static void step_ok(struct state *st, uint64_t epoch)
{
	fprintf(out, "epoch  = %llu\n", (unsigned long long)epoch);
	hex("ad", ep.ad, ep.adlen);
	hex("pt", ep.pt, ep.ptlen);
	seal(st, epoch, ep.ad, ep.adlen, ep.pt, ep.ptlen, ep.ct);
	hex("ct", ep.ct, ep.ptlen + 16);
	fprintf(out, "expect = ok\n");
	blob("next", st);
}

static void step_bad(uint64_t epoch, const uint8_t *ct, size_t len,
		     const char *expect)
{
	fprintf(out, "epoch  = %llu\n", (unsigned long long)epoch);
	hex("ad", ep.ad, ep.adlen);
	hex("ct", ct, len);
	fprintf(out, "expect = %s\n", expect);
}

static struct state make(int suite, int agg, uint32_t b, uint32_t dev)
{
	struct state st = { suite, agg, b, dev, 0, { 0 } };
	uint8_t root[32];

	fill(root, sizeof(root));
	initial(&st, root);
	return st;
}

static const size_t sizes[] = { 0, 1, 15, 16, 17, 64, 128, 1500 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void positives(int suite, int agg)
{
	struct state st;
	char name[64];
	size_t i, j;

	for (i = 0; i < NSIZES; i++) {
		if (agg && i % 3 != (size_t)agg)
			continue;	/* every size under XOR, a third under each other */
		st = make(suite, agg, 1, 0x100 + (uint32_t)i);
		snprintf(name, sizeof(name), "b1-len%zu%s", sizes[i],
			 i & 1 ? "-ad" : "");
		head(name, &st, "one record per epoch, two epochs");
		body_reset(i & 1 ? 13 : 0);
		body_add(sizes[i]);
		step_ok(&st, 0);
		step_ok(&st, 1);
	}
	st = make(suite, agg, 2, 0x200);
	head("b2", &st, "two records");
	body_reset(16);
	body_add(15);
	body_add(17);
	step_ok(&st, 0);

	st = make(suite, agg, 16, 0x300);
	head("b16-all-sizes", &st, "sixteen records of every size, then a short epoch");
	body_reset(agg == 2 ? 0 : 40);
	for (j = 0; j < 16; j++)
		body_add(sizes[j % NSIZES]);
	step_ok(&st, 0);
	body_reset(3);
	for (j = 0; j < 5; j++)
		body_add(sizes[(j + 3) % NSIZES]);
	step_ok(&st, 1);
	body_reset(0);
	body_add(16);
	fprintf(out, "# lost epochs 2..4: the gateway skips forward\n");
	step_ok(&st, 5);
}

static void big(int suite)
{
	struct state st = make(suite, 0, 1024, 0x400);
	size_t j;

	head("b1024-len16", &st, "a full epoch of 1024 16-byte records");
	body_reset(8);
	for (j = 0; j < 1024; j++)
		body_add(16);
	step_ok(&st, 0);
}

static uint8_t bad[1100000];

/* Start a negative vector: a 4-record epoch sealed at epoch 0. */
static struct state neg(int suite, const char *name, const char *what,
			struct state *sealed)
{
	struct state st = make(suite, 0, 4, 0x500);

	head(name, &st, what);
	body_reset(12);
	body_add(16);
	body_add(5);
	body_add(16);
	body_add(30);
	*sealed = st;
	seal(sealed, 0, ep.ad, ep.adlen, ep.pt, ep.ptlen, ep.ct);
	memcpy(bad, ep.ct, ep.ptlen + 16);
	return st;
}

/* After a rejection the untouched epoch must still open. */
static void then_genuine(struct state *st)
{
	fprintf(out, "# the state did not move: the genuine epoch opens\n");
	step_ok(st, 0);
}

static void negatives(int suite)
{
	size_t len, a, b, la;
	struct state st, s2;

	st = neg(suite, "tamper-record", "a bit flipped in a record", &s2);
	len = ep.ptlen + 16;
	bad[ep.off[1] + 3] ^= 0x04;
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "tamper-tag", "a bit flipped in the tag", &s2);
	bad[len - 1] ^= 0x80;
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "tamper-length", "a length prefix changed", &s2);
	bad[ep.off[3]] = 31;	/* the last record now runs into the tag */
	step_bad(0, bad, len, "EFORMAT");
	then_genuine(&st);

	st = neg(suite, "truncated", "the last record dropped, tag kept", &s2);
	la = ep.off[3];
	memcpy(bad + la, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, la + 16, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "reordered", "records 0 and 2 (both 16 bytes) swapped",
		 &s2);
	a = ep.off[0];
	b = ep.off[2];
	memcpy(bad + a, ep.ct + b, 18);
	memcpy(bad + b, ep.ct + a, 18);
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "replayed", "an accepted epoch sent again", &s2);
	step_ok(&st, 0);
	step_bad(0, ep.ct, len, "EKEYEXPIRED");

	st = neg(suite, "wrong-epoch", "epoch 0 presented as epoch 1", &s2);
	step_bad(1, ep.ct, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "wrong-key", "sealed by another device", &s2);
	s2 = make(suite, 0, 4, 0x501);
	seal(&s2, 0, ep.ad, ep.adlen, ep.pt, ep.ptlen, bad);
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "zero-extension", "a zero byte appended to a record "
		 "(the paper's padding collision)", &s2);
	a = ep.off[1];
	memcpy(bad, ep.ct, a);
	put_le(bad + a, 6, 2);
	memcpy(bad + a + 2, ep.ct + a + 2, 5);
	bad[a + 7] = 0;
	memcpy(bad + a + 8, ep.ct + a + 7, len - a - 7);
	step_bad(0, bad, len + 1, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "ad-changed", "the associated data changed", &s2);
	ep.ad[0] ^= 1;
	step_bad(0, ep.ct, len, "EBADMSG");
	ep.ad[0] ^= 1;
	then_genuine(&st);

	st = neg(suite, "far-future", "an epoch beyond max_skip (4096)", &s2);
	step_bad(4097, ep.ct, len, "ESKIP");
	then_genuine(&st);

	st = neg(suite, "oversize-record", "a record longer than 4096 bytes",
		 &s2);
	put_le(bad, 4097, 2);
	memset(bad + 2, 0, 4097);
	memcpy(bad + 4099, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, 4099 + 16, "ESIZE");
	then_genuine(&st);

	st = neg(suite, "too-many-records", "five records where b is 4", &s2);
	memcpy(bad, ep.ct, ep.ptlen);
	put_le(bad + ep.ptlen, 0, 2);
	memcpy(bad + ep.ptlen + 2, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, len + 2, "EFORMAT");
	then_genuine(&st);
}

static void generate(void)
{
	int suite, agg;

	fprintf(out, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Diamond known-answer vectors, Documentation/spec.rst section 13.\n"
		"# Generated by tools/vectors/gen-vectors; do not edit.\n");
	for (suite = 1; suite <= 2; suite++) {
		for (agg = 0; agg <= 2; agg++)
			positives(suite, agg);
		big(suite);
		negatives(suite);
	}
}

/* ---- key blobs, version 2 (spec section 2) ---- */

static void initial_gen(struct state *st, const uint8_t root[32], int gen)
{
	uint8_t in[12 + 12 + 32], d[32];

	if (!gen) {
		initial(st, root);
		return;
	}
	memcpy(in, "DIAMOND/2 E0", 12);
	in[12] = (uint8_t)st->suite;
	in[13] = (uint8_t)st->agg;
	put_le(in + 14, st->b, 4);
	put_le(in + 18, st->dev, 4);
	put_le(in + 22, (uint64_t)gen, 2);
	memcpy(in + 24, root, 32);
	sha256(d, in, sizeof(in));
	memset(st->key, 0, 32);
	memcpy(st->key, d, ksize(st->suite));
	st->epoch = (uint64_t)gen << 32;
}

/* Version 2: v1's 24 bytes, le16 gen, le16 group, key, le32 CRC-32. */
static size_t blob2(uint8_t *b, const struct state *st, int gen, int group)
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

static void blob_vec(const char *name, const char *what, const uint8_t *b,
		     size_t n, const char *expect)
{
	fprintf(out, "\n# %s\nname   = %s\n", what, name);
	hex("blob", b, n);
	fprintf(out, "expect = %s\n", expect);
}

/* Accepted: provisioning in generations 0..2, and a v1 blob read as v2. */
static void blob_positives(const uint8_t root[32])
{
	static const struct { int suite, agg, gen; uint32_t b, dev; } p[] = {
		{ 1, 0, 0, 16, 7 }, { 1, 1, 1, 1024, 7 }, { 2, 2, 1, 4, 7 },
		{ 2, 0, 2, 65535, 0xfffffffeu }, { 2, 0, 65535, 1, 1 },
	};
	struct state st;
	uint8_t b[64];
	size_t i, n;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		st = make(p[i].suite, p[i].agg, p[i].b, p[i].dev);
		initial_gen(&st, root, p[i].gen);
		n = blob2(b, &st, p[i].gen, 0);
		fprintf(out, "\n# provisioned: suite %d, agg %d, b %u, device "
			"%u, generation %d\nname   = prov-d%d-gen%d\n",
			p[i].suite, p[i].agg, p[i].b, p[i].dev, p[i].gen,
			p[i].suite, p[i].gen);
		hex("root", root, 32);
		fprintf(out, "params = %d %d %u %u %d\n", p[i].suite, p[i].agg,
			p[i].b, p[i].dev, p[i].gen);
		hex("blob", b, n);
		fprintf(out, "expect = ok\n");
	}
	st = make(2, 1, 64, 42);
	initial(&st, root);
	st.epoch = 123456789;
	fprintf(out, "\n# a version 1 blob is read as generation 0; its v2 "
		"form is next\nname   = v1-read\n");
	blob("blob", &st);
	fprintf(out, "expect = ok\n");
	n = blob2(b, &st, 0, 0);
	hex("next", b, n);
}

/* Refused (EKEY): damage, and fields a v2 blob may not hold. */
static void blob_negatives(const uint8_t root[32])
{
	struct state st = make(1, 0, 16, 9);
	uint8_t good[64], b[64];
	size_t n;

	initial_gen(&st, root, 1);
	n = blob2(good, &st, 1, 0);
	memcpy(b, good, n);
	b[28 + 3] ^= 0x10;
	blob_vec("damaged-key-bit", "one key bit flipped", b, n, "EKEY");
	memcpy(b, good, n);
	b[n - 1] ^= 0x80;
	blob_vec("damaged-crc", "one CRC bit flipped", b, n, "EKEY");
	memcpy(b, good, n);
	b[16] ^= 1;
	blob_vec("damaged-epoch", "one epoch bit flipped", b, n, "EKEY");
	blob_vec("truncated", "last byte missing", good, n - 1, "EKEY");
	blob2(b, &st, 1, 16);
	blob_vec("group-size", "group size 16 (not yet defined), CRC valid",
		 b, n, "EKEY");
	blob2(b, &st, 2, 0);
	blob_vec("epoch-below-gen", "generation 2 at epoch 2^32 (CRC valid)",
		 b, n, "EKEY");
	blob2(b, &st, 1, 0);
	b[7] = 1;
	put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
	blob_vec("reserved-byte", "reserved byte 7 set (CRC valid)", b, n,
		 "EKEY");
	blob2(b, &st, 1, 0);
	b[4] = 3;
	put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
	blob_vec("version-3", "version 3 (CRC valid)", b, n, "EKEY");
}

static void generate_blobs(void)
{
	uint8_t root[32];

	fprintf(out, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Diamond key blob vectors, Documentation/spec.rst sections 2 "
		"and 13.\n"
		"# Generated by tools/vectors/gen-vectors --blobs; do not edit.\n");
	fill(root, sizeof(root));
	blob_positives(root);
	blob_negatives(root);
}

static void (*generator)(void) = generate;

static int check(const char *path)
{
	char *mine = NULL, *theirs;
	size_t mlen = 0, tlen;
	FILE *f = fopen(path, "rb");
	long sz;

	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	theirs = malloc((size_t)sz + 1);
	tlen = theirs ? fread(theirs, 1, (size_t)sz, f) : 0;
	fclose(f);
	out = open_memstream(&mine, &mlen);
	if (!out || !theirs)
		die("memory");
	generator();
	fclose(out);
	if (mlen != tlen || memcmp(mine, theirs, mlen)) {
		fprintf(stderr, "gen-vectors: %s differs from the generator\n",
			path);
		return 1;
	}
	printf("gen-vectors: %s matches (%zu bytes)\n", path, mlen);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--blobs")) {
		generator = generate_blobs;
		argc--;
		argv++;
	}
	if (argc == 3 && !strcmp(argv[1], "--check"))
		return check(argv[2]);
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: gen-vectors [--blobs] [FILE] | "
			"[--blobs] --check FILE\n");
		return 2;
	}
	out = argc == 2 ? fopen(argv[1], "w") : stdout;
	if (!out) {
		perror(argv[1]);
		return 2;
	}
	generator();
	return fclose(out) ? 2 : 0;
}
