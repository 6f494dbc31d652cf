// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The wrapped-state vectors (vectors/wrap.txt, Documentation/spec.rst
 * section 2.1), for gen-vectors --wrap: wrapped states that a setkey
 * accepts, and wrapped states it refuses, each with the errno of the
 * first step of section 2.1 that refuses it.
 *
 * XChaCha20-Poly1305 from OpenSSL: HChaCha20 is read off one ChaCha20
 * block (the block is the permuted state plus the input state, so words
 * 0..3 and 12..15 minus the input are HChaCha20's output), then RFC 8439
 * ChaCha20-Poly1305 with nonce 0^4 || nonce[16..23]. Shares no code with
 * the kernel's lib/crypto, which it checks.
 */
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "wrap-vectors.h"

#define HDR	32	/* the header, the AEAD's associated data */
#define NONCE	24
#define TAG	16
#define INNER_MAX (32 + 32 + 12 + 32)

static void fail(const char *what)
{
	fprintf(stderr, "gen-vectors --wrap: %s failed\n", what);
	exit(2);
}

static void le(uint8_t *p, uint64_t v, int n)
{
	while (n--) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
}

static uint32_t ld32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* HChaCha20(key, n16): from the first ChaCha20 block with IV = n16. */
static void hchacha20(uint8_t out[32], const uint8_t key[32],
		      const uint8_t n16[16])
{
	static const uint8_t sigma[16] = "expand 32-byte k";
	uint8_t zero[64] = { 0 }, blk[64];
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int outl, i;

	if (!c || !EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, n16) ||
	    !EVP_EncryptUpdate(c, blk, &outl, zero, 64))
		fail("chacha20");
	EVP_CIPHER_CTX_free(c);
	for (i = 0; i < 4; i++) {
		le(out + 4 * i, ld32(blk + 4 * i) - ld32(sigma + 4 * i), 4);
		le(out + 16 + 4 * i, ld32(blk + 48 + 4 * i) - ld32(n16 + 4 * i),
		   4);
	}
}

/* @w's header is its AD; seal @inner (@len bytes) after it. */
static void xseal(uint8_t *w, const uint8_t key[32], const uint8_t *inner,
		  size_t len)
{
	uint8_t sub[32], n12[12] = { 0 };
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int outl;

	hchacha20(sub, key, w + HDR);
	memcpy(n12 + 4, w + HDR + 16, 8);
	if (!c ||
	    !EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), NULL, NULL, NULL) ||
	    !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) ||
	    !EVP_EncryptInit_ex(c, NULL, NULL, sub, n12) ||
	    !EVP_EncryptUpdate(c, NULL, &outl, w, HDR) ||
	    !EVP_EncryptUpdate(c, w + HDR + NONCE, &outl, inner, (int)len) ||
	    !EVP_EncryptFinal_ex(c, w + HDR + NONCE + len, &outl) ||
	    !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, TAG,
				 w + HDR + NONCE + len))
		fail("chacha20-poly1305");
	EVP_CIPHER_CTX_free(c);
}

/* A wrapped state: its inner bytes, its header fields, its key and nonce. */
struct wcase {
	uint8_t inner[INNER_MAX];
	size_t ilen;
	int suite, cursor;
	uint32_t dev, c;
	uint16_t gen;
	uint64_t e;
	uint8_t nonce[NONCE];
};

/* The inner blob: version 2, open-only, CRC; the cursor if @cur. */
static void inner(struct wcase *w, int suite, int agg, uint32_t b,
		  uint32_t dev, uint64_t e, uint16_t gen, uint16_t g,
		  uint8_t kbyte, int cur, uint64_t ce, uint32_t c)
{
	size_t k = suite == 1 ? 16 : 32, i;
	uint8_t *p = w->inner;

	memset(w, 0, sizeof(*w));
	memcpy(p, "DMND", 4);
	p[4] = 2;
	p[5] = (uint8_t)suite;
	p[6] = (uint8_t)agg;
	p[7] = 1;
	le(p + 8, b, 4);
	le(p + 12, dev, 4);
	le(p + 16, e, 8);
	le(p + 24, gen, 2);
	le(p + 26, g, 2);
	for (i = 0; i < k; i++)
		p[28 + i] = (uint8_t)(kbyte + i);
	le(p + 28 + k, crc32(0, p, (uInt)(28 + k)), 4);
	w->ilen = 32 + k;
	if (cur) {
		le(p + w->ilen, ce, 8);
		le(p + w->ilen + 8, c, 4);
		for (i = 0; i < k; i++)
			p[w->ilen + 12 + i] = (uint8_t)(kbyte + k + i);
		w->ilen += 12 + k;
	}
	w->suite = suite;
	w->cursor = cur;
	w->dev = dev;
	w->gen = gen;
	w->e = e;
	w->c = cur ? c : 0;
}

/* The DMDW bytes of @w under @key into @out: their length. */
static size_t wrap(const struct wcase *w, const uint8_t key[32], uint8_t *out)
{
	memset(out, 0, HDR);
	memcpy(out, "DMDW", 4);
	out[4] = 1;
	out[5] = (uint8_t)w->suite;
	out[6] = w->cursor ? 1 : 0;
	le(out + 8, w->dev, 4);
	le(out + 12, w->gen, 2);
	le(out + 16, w->e, 8);
	le(out + 24, w->c, 4);
	le(out + 28, w->ilen, 4);
	memcpy(out + HDR, w->nonce, NONCE);
	xseal(out, key, w->inner, w->ilen);
	return HDR + NONCE + w->ilen + TAG;
}

static FILE *wout;

static void hexline(const char *name, const uint8_t *p, size_t n)
{
	fprintf(wout, "%-8s =%s", name, n ? " " : "");
	while (n--)
		fprintf(wout, "%02x", *p++);
	fputc('\n', wout);
}

static const uint8_t *wkey(void)
{
	static uint8_t k[32];
	int i;

	for (i = 0; i < 32; i++)
		k[i] = (uint8_t)(0x80 + i);
	return k;
}

/* One record: @w sealed (bytes as given in @dmdw, @n), with @expect. */
static void record(const char *name, const char *what, const uint8_t *key,
		   const struct wcase *w, const uint8_t *dmdw, size_t n,
		   const char *expect)
{
	fprintf(wout, "\n# %s\nname     = %s\n", what, name);
	hexline("wrap_key", key, key ? 32 : 0);
	hexline("inner", w->inner, w->ilen);
	hexline("dmdw", dmdw, n);
	fprintf(wout, "expect   = %s\n", expect);
}

/* @w sealed under the vectors' wrap key, unaltered. */
static void sealed(const char *name, const char *what, const struct wcase *w,
		   const char *expect)
{
	uint8_t d[HDR + NONCE + INNER_MAX + TAG];

	record(name, what, wkey(), w, d, wrap(w, wkey(), d), expect);
}

/* The fixed nonce @first, @first + 1, ... */
static void nonce(struct wcase *w, uint8_t first)
{
	int i;

	for (i = 0; i < NONCE; i++)
		w->nonce[i] = (uint8_t)(first + i);
}

/* The two formats' states: suite 2 without a cursor, suite 1 with one. */
static void base_d2(struct wcase *w)
{
	inner(w, 2, 0, 16, 7, (3ull << 32) + 5, 3, 0, 0x20, 0, 0, 0);
	nonce(w, 0x40);
}

static void base_d1_cursor(struct wcase *w, uint32_t c)
{
	inner(w, 1, 1, 16, 9, 5, 0, 4, 0x60, 1, 4, c);
	nonce(w, 0xa0);
}

static void accepted(void)
{
	struct wcase w;

	base_d2(&w);
	sealed("wrap-d2", "suite 2, agg 0, b 16, device 7, generation 3, "
	       "epoch 3*2^32+5, g 0, no cursor", &w, "ok");
	base_d1_cursor(&w, 2);
	sealed("wrap-d1-cursor", "suite 1, agg 1, b 16, g 4, device 9, "
	       "generation 0, epoch 5, cursor (4, 2)", &w, "ok");
	base_d1_cursor(&w, 0);
	sealed("wrap-d1-cursor-c0", "a cursor at group 0: epoch 4 open, no "
	       "group decided (section 2.1, The cursor)", &w, "ok");
	base_d1_cursor(&w, 3);
	sealed("wrap-d1-cursor-last", "a cursor at q(b) = (16 - 1)/4 = 3, the "
	       "final group", &w, "ok");
	inner(&w, 2, 2, 16, 7, 6, 0, 16, 0x20, 0, 0, 0);
	nonce(&w, 0x40);
	sealed("wrap-d2-g-is-b", "group-size field b = 16 (no groups): "
	       "accepted, and an export writes it back as b (section 2)", &w,
	       "ok");
}

/* @w's DMDW with byte @off xor @x (after sealing): @expect. */
static void altered(const char *name, const char *what, const struct wcase *w,
		    size_t off, uint8_t x, int delta, const char *expect)
{
	uint8_t d[HDR + NONCE + INNER_MAX + TAG + 1];
	size_t n = wrap(w, wkey(), d);

	d[n] = 0;
	d[off] ^= x;
	record(name, what, wkey(), w, d, (size_t)((int)n + delta), expect);
}

/* Step 1: the header's own rules, before any key. */
static void header_refusals(void)
{
	struct wcase w;
	uint8_t d[HDR + NONCE + INNER_MAX + TAG];
	size_t n;

	base_d2(&w);
	altered("wrap-short", "one byte short", &w, 0, 0, -1, "EINVAL");
	altered("wrap-long", "one byte too many", &w, 0, 0, 1, "EINVAL");
	altered("wrap-magic", "a wrong magic (DMDV)", &w, 3, 0x01, 0,
		"EINVAL");
	altered("wrap-version", "version 2", &w, 4, 0x03, 0, "EINVAL");
	altered("wrap-flags", "flag bit 1 set", &w, 6, 0x02, 0, "EINVAL");
	altered("wrap-byte7", "byte 7 not zero", &w, 7, 0x01, 0, "EINVAL");
	altered("wrap-byte14", "bytes 14..15 not zero", &w, 15, 0x01, 0,
		"EINVAL");
	altered("wrap-len", "an L other than the suite's (64 + 1)", &w, 28,
		0x01, 0, "EINVAL");
	altered("wrap-c-without-flag", "c = 1 without the cursor flag", &w,
		24, 0x01, 0, "EINVAL");
	base_d1_cursor(&w, 2);
	altered("wrap-flag-without-cursor", "the cursor flag cleared: L and "
		"the length name no cursor", &w, 6, 0x01, 0, "EINVAL");
	/* Step 2: no wrap key. */
	base_d2(&w);
	n = wrap(&w, wkey(), d);
	record("wrap-no-key", "no wrap key (wrap_key empty): ENOKEY, before "
	       "the tag", NULL, &w, d, n, "ENOKEY");
}

/* Step 3: the tag. */
static void tag_refusals(void)
{
	uint8_t other[32], d[HDR + NONCE + INNER_MAX + TAG];
	struct wcase w;
	size_t n;
	int i;

	base_d2(&w);
	for (i = 0; i < 32; i++)
		other[i] = (uint8_t)(0x81 + i);
	n = wrap(&w, other, d);
	record("wrap-other-key", "sealed under another wrap key", wkey(), &w,
	       d, n, "EKEYREJECTED");
	altered("wrap-device", "the header's device altered (AD)", &w, 8,
		0x01, 0, "EKEYREJECTED");
	altered("wrap-epoch", "the header's epoch altered (AD)", &w, 16, 0x01,
		0, "EKEYREJECTED");
	altered("wrap-nonce", "a nonce byte altered", &w, HDR + 5, 0x80, 0,
		"EKEYREJECTED");
	altered("wrap-ciphertext", "a ciphertext byte altered", &w,
		HDR + NONCE + 30, 0x01, 0, "EKEYREJECTED");
	altered("wrap-tag", "the tag's last byte altered", &w,
		HDR + NONCE + w.ilen + TAG - 1, 0x80, 0, "EKEYREJECTED");
}

/* Steps 4 and 5: the tag verifies, the inner bytes do not fit. */
static void inner_refusals(void)
{
	struct wcase w;
	size_t k;

	base_d2(&w);
	w.inner[7] = 0;
	le(w.inner + 60, crc32(0, w.inner, 60), 4);
	sealed("wrap-not-open-only", "an inner blob that is not open-only",
		 &w, "EINVAL");
	base_d2(&w);
	w.dev = 8;
	sealed("wrap-inner-device", "header device 8, inner blob device 7",
		 &w, "EINVAL");
	base_d2(&w);
	w.e++;
	sealed("wrap-inner-epoch", "header epoch one above the inner "
		 "blob's", &w, "EINVAL");
	base_d2(&w);
	w.gen = 2;
	sealed("wrap-inner-gen", "header generation 2, inner 3", &w,
		 "EINVAL");
	base_d2(&w);
	w.inner[40] ^= 1;
	sealed("wrap-inner-crc", "the inner blob's key altered, its CRC "
		 "not (step 5)", &w, "EINVAL");
	base_d1_cursor(&w, 2);
	k = 16;
	le(w.inner + 32 + k, 3, 8);
	sealed("wrap-cursor-epoch", "a cursor in epoch 3, not e - 1 = 4",
		 &w, "EINVAL");
	base_d1_cursor(&w, 2);
	w.c = 1;
	sealed("wrap-cursor-group", "header c = 1, inner cursor c = 2", &w,
		 "EINVAL");
	base_d1_cursor(&w, 4);
	sealed("wrap-cursor-past", "c = 4 > q(b) = 3 (step 5)", &w,
		 "EINVAL");
	inner(&w, 1, 1, 16, 9, 5, 0, 0, 0x60, 1, 4, 1);
	nonce(&w, 0xa0);
	sealed("wrap-cursor-g0", "a cursor with group-size field 0 (g = b: "
		 "no groups, step 5)", &w, "EINVAL");
	inner(&w, 1, 1, 16, 9, 5, 0, 16, 0x60, 1, 4, 1);
	nonce(&w, 0xa0);
	sealed("wrap-cursor-g-is-b", "a cursor with group-size field b = 16 "
		 "(no groups, step 5)", &w, "EINVAL");
	inner(&w, 1, 1, 16, 9, 0, 0, 4, 0x60, 1, UINT64_MAX, 1);
	nonce(&w, 0xa0);
	sealed("wrap-cursor-e0", "a cursor with e = 0: its epoch 2^64 - 1 "
		 "is e - 1 modulo 2^64 (step 4 passes), no epoch before 0 "
		 "(step 5)", &w, "EINVAL");
}

void generate_wrap(FILE *f)
{
	wout = f;
	fprintf(wout, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Wrapped-state (DMDW) vectors, Documentation/spec.rst "
		"section 2.1: the inner\n"
		"# bytes sealed under wrap_key with a fixed nonce (an export "
		"draws it at\n"
		"# random), and what a setkey of dmdw answers: ok, or the "
		"errno of the first\n"
		"# step of section 2.1 that refuses it. Generated by "
		"tools/vectors/gen-vectors\n"
		"# --wrap; do not edit. kernel/diamond_wrap_kat.h holds them "
		"for diamond.ko's\n"
		"# selftest (tools/vectors/wrap2c).\n");
	accepted();
	header_refusals();
	tag_refusals();
	inner_refusals();
}
