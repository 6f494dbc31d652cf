// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_badinput: malformed requests through raw AF_ALG, both suites.
 * Key blobs of a wrong length, magic, version, suite, aggregation, unknown
 * flag bits, b or epoch are refused at setkey (EINVAL) and the edge values that
 * are valid are accepted; authsize other than 16 (12 only on a packet key:
 * diamond_grid), an IV other than 8 bytes,
 * assoclen beyond the data, AD over 1024, an empty request, a body that
 * does not parse, n > b and records over 4096 are refused with the errno
 * the interface documents; an encrypt at an epoch already used is
 * EKEYEXPIRED (no keystream reuse), and a refused encrypt leaves the state
 * where it was. Instance names that combine the wrong primitives do not
 * bind. TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/util.h>
#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

static struct dmd_rng rng;

#define CHECK(cond, fmt_want, got, ...)                                      \
	do {                                                                 \
		if (!tap_result((cond), __VA_ARGS__))                        \
			tap_diag("expected %s, got %s", fmt_want,            \
				 dmd_errname(got));                          \
	} while (0)

static void blob_tests(unsigned int suite)
{
	const char *name = dmd_alg_name(suite);
	size_t k = dmd_key_size(suite), len = DMD_BLOB_SIZE(k), other;
	uint8_t good[DMD_BLOB_MAX], blob[DMD_BLOB_MAX + 64];
	static const size_t lens[] = { 0, 1, 23, 24, 39, 41, 55, 57, 64, 96 };
	int tfm = afalg_bind(name), err;
	size_t i;

	if (!tap_result(tfm >= 0, "suite%u: bind %s", suite, name)) {
		tap_diag("got %s", dmd_errname(tfm));
		return;
	}
	dmd_make_blob(&rng, good, suite, DMD_AGG_XOR, 16, 0);
	err = afalg_setkey(tfm, good, len);
	CHECK(!err, "ok", err, "suite%u: setkey well-formed %zu-byte blob", suite,
	      len);

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		if (lens[i] == len)
			continue;
		memset(blob, 0, sizeof(blob));
		memcpy(blob, good, lens[i] < len ? lens[i] : len);
		err = afalg_setkey(tfm, blob, lens[i]);
		CHECK(err == -EINVAL, "EINVAL", err,
		      "suite%u: setkey blob of %zu bytes -> EINVAL", suite,
		      lens[i]);
	}
	/* the other suite's well-formed blob */
	other = dmd_make_blob(&rng, blob, 3 - suite, DMD_AGG_XOR, 16, 0);
	err = afalg_setkey(tfm, blob, other);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: setkey suite %u blob -> EINVAL", suite, 3 - suite);
	/* this suite's length with the other suite's id */
	memcpy(blob, good, len);
	blob[DMD_BLOB_OFF_SUITE] = (uint8_t)(3 - suite);
	err = afalg_setkey(tfm, blob, len);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: setkey %zu-byte blob naming suite %u -> EINVAL", suite,
	      len, 3 - suite);

	struct {
		const char *what;
		size_t off;
		uint8_t val;
	} bytes[] = {
		{ "magic[0]", 0, 'd' },	 { "magic[1]", 1, 0 },
		{ "magic[2]", 2, 'N' ^ 1 }, { "magic[3]", 3, 0xff },
		{ "version 0", 4, 0 },	 { "version 2", 4, 2 },
		{ "suite 0", 5, 0 },	 { "suite 3", 5, 3 },
		{ "agg 3", 6, 3 },	 { "agg 255", 6, 255 },
		{ "flag bit 1", 7, 2 },	 { "flag bit 7", 7, 0x80 },
	};
	for (i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		memcpy(blob, good, len);
		blob[bytes[i].off] = bytes[i].val;
		err = afalg_setkey(tfm, blob, len);
		CHECK(err == -EINVAL, "EINVAL", err,
		      "suite%u: setkey blob with %s -> EINVAL", suite,
		      bytes[i].what);
	}
	struct {
		const char *what;
		uint32_t b;
		uint64_t e;
		int want;
	} params[] = {
		{ "b = 0", 0, 0, -EINVAL },
		{ "b = 65536", 65536, 0, -EINVAL },
		{ "b = 2^32-1", UINT32_MAX, 0, -EINVAL },
		{ "e = 2^64-1", 16, UINT64_MAX, -EINVAL },
		{ "b = 1", 1, 0, 0 },
		{ "b = 65535", 65535, 0, 0 },
		{ "e = 2^64-2", 16, UINT64_MAX - 1, 0 },
	};
	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		memcpy(blob, good, len);
		dmd_store32_le(blob + DMD_BLOB_OFF_B, params[i].b);
		dmd_store64_le(blob + DMD_BLOB_OFF_EPOCH, params[i].e);
		err = afalg_setkey(tfm, blob, len);
		CHECK(err == params[i].want, dmd_errname(params[i].want), err,
		      "suite%u: setkey blob with %s -> %s", suite,
		      params[i].what, dmd_errname(params[i].want));
	}
	for (i = 0; i < 3; i++) {
		dmd_make_blob(&rng, blob, suite, (unsigned int)i, 1, 7);
		err = afalg_setkey(tfm, blob, len);
		CHECK(!err, "ok", err, "suite%u: setkey agg %zu accepted", suite, i);
	}

	static const unsigned int sizes[] = { 0, 1, 4, 8, 15, 17, 32, 64 };
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		err = afalg_setauthsize(tfm, sizes[i]);
		CHECK(err == -EINVAL, "EINVAL", err,
		      "suite%u: authsize %u -> EINVAL", suite, sizes[i]);
	}
	/* 12 is the packet grid's, for a packet key: this one has agg 2. */
	err = afalg_setauthsize(tfm, 12);
	CHECK(err == -EKEYREJECTED, "EKEYREJECTED", err,
	      "suite%u: authsize 12 on a key not for packets -> EKEYREJECTED",
	      suite);
	err = afalg_setauthsize(tfm, 16);
	CHECK(!err, "ok", err, "suite%u: authsize 16 accepted", suite);
	afalg_close(tfm);

	/* a request before any key */
	tfm = afalg_bind(name);
	if (tfm >= 0) {
		uint8_t in[32] = { 1, 0, 0x55 }, out[64], iv[8] = { 0 };
		ssize_t n = afalg_aead_once(tfm, 1, iv, 8, 0, in, 3, out,
					    sizeof(out));

		CHECK(n == -ENOKEY, "ENOKEY", (int)n,
		      "suite%u: encrypt before setkey -> ENOKEY", suite);
		afalg_close(tfm);
	}
}

/* Raw request helper: body @in with @assoclen, epoch IV. */
static int raw(int tfm, int enc, uint64_t epoch, size_t ivlen, uint32_t assoclen,
	       const uint8_t *in, size_t inlen)
{
	uint8_t iv[32] = { 0 }, *out = malloc(inlen + 256);
	ssize_t n;

	dmd_store64_le(iv, epoch);
	n = afalg_aead_once(tfm, enc, iv, ivlen, assoclen, in, inlen, out,
			    inlen + 256);
	free(out);
	return n < 0 ? (int)n : 0;
}

static void request_tests(unsigned int suite)
{
	uint8_t blob[DMD_BLOB_MAX], *in = calloc(1, DMD_T_BUF),
		*ct = calloc(1, DMD_T_BUF), *pt = calloc(1, DMD_T_BUF);
	size_t len, i, bl;
	struct dmd_state st;
	int tfm, err;
	static const size_t ivlens[] = { 0, 4, 7, 9, 12, 16, 32 };

	bl = dmd_make_blob(&rng, blob, suite, DMD_AGG_XOR, 4, 0);
	tfm = dmd_tfm(suite, blob, bl);
	if (!tap_result(tfm >= 0, "suite%u: request tests tfm", suite)) {
		tap_diag("got %s", dmd_errname(tfm));
		goto out;
	}
	/* a valid 2-record body: le16(3) abc le16(1) d */
	len = 0;
	in[len++] = 3; in[len++] = 0; memcpy(in + len, "abc", 3); len += 3;
	in[len++] = 1; in[len++] = 0; in[len++] = 'd';

	for (i = 0; i < sizeof(ivlens) / sizeof(ivlens[0]); i++) {
		err = raw(tfm, 1, 0, ivlens[i], 0, in, len);
		CHECK(err == -EINVAL, "EINVAL", err,
		      "suite%u: encrypt with a %zu-byte IV -> EINVAL", suite,
		      ivlens[i]);
		err = raw(tfm, 0, 0, ivlens[i], 0, in, len + 16);
		CHECK(err == -EINVAL, "EINVAL", err,
		      "suite%u: decrypt with a %zu-byte IV -> EINVAL", suite,
		      ivlens[i]);
	}
	err = raw(tfm, 1, 0, 8, (uint32_t)len + 1, in, len);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: encrypt with assoclen beyond the data -> EINVAL", suite);
	err = raw(tfm, 0, 0, 8, (uint32_t)len + 1, in, len + 16);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: decrypt with assoclen beyond data minus tag -> EINVAL",
	      suite);
	err = raw(tfm, 1, 0, 8, 0, in, 0);
	CHECK(err == -EINVAL, "EINVAL", err, "suite%u: empty encrypt -> EINVAL",
	      suite);
	err = raw(tfm, 0, 0, 8, 0, in, 0);
	CHECK(err == -EINVAL, "EINVAL", err, "suite%u: empty decrypt -> EINVAL",
	      suite);
	err = raw(tfm, 1, 0, 8, 5, in, 5);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: encrypt of AD only (n = 0) -> EINVAL", suite);
	err = raw(tfm, 0, 0, 8, 0, in, 16);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: decrypt of a tag only (n = 0) -> EINVAL", suite);
	err = raw(tfm, 0, 0, 8, 0, in, 15);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: decrypt shorter than a tag -> EINVAL", suite);

	/* bodies that do not parse */
	{
		uint8_t b1[] = { 10, 0, 1, 2, 3, 4, 5 };	/* overruns */
		uint8_t b2[] = { 1, 0, 9, 7 };		/* stray byte */
		uint8_t b3[] = { 1 };			/* half a prefix */
		uint8_t b4[] = { 2, 0, 1, 2, 0 };	/* trailing half prefix */
		const struct {
			const char *what;
			const uint8_t *p;
			size_t n;
		} bad[] = {
			{ "prefix overruns the body", b1, sizeof(b1) },
			{ "stray byte after the last record", b2, sizeof(b2) },
			{ "one byte, half a prefix", b3, sizeof(b3) },
			{ "trailing half prefix", b4, sizeof(b4) },
		};
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			memcpy(in, bad[i].p, bad[i].n);
			err = raw(tfm, 1, 0, 8, 0, in, bad[i].n);
			CHECK(err == -EINVAL, "EINVAL", err,
			      "suite%u: encrypt, %s -> EINVAL", suite,
			      bad[i].what);
			memset(in + bad[i].n, 0x3c, 16);
			err = raw(tfm, 0, 0, 8, 0, in, bad[i].n + 16);
			CHECK(err == -EINVAL, "EINVAL", err,
			      "suite%u: decrypt, %s -> EINVAL", suite,
			      bad[i].what);
		}
	}
	/* n > b: five records under b = 4 */
	for (len = 0, i = 0; i < 5; i++) {
		in[len++] = 1; in[len++] = 0; in[len++] = (uint8_t)i;
	}
	err = raw(tfm, 1, 0, 8, 0, in, len);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: encrypt 5 records with b = 4 -> EINVAL", suite);
	memset(in + len, 0x11, 16);
	err = raw(tfm, 0, 0, 8, 0, in, len + 16);
	CHECK(err == -EINVAL, "EINVAL", err,
	      "suite%u: decrypt 5 records with b = 4 -> EINVAL", suite);

	/*
	 * Longer than any body b = 4 allows (4 * (2 + 4096) bytes): EMSGSIZE
	 * before parsing and before any buffer is allocated for it (the
	 * key's limit, kernel-api.rst Memory). Five records of 4000 bytes: the parser
	 * would have said EINVAL (n > b).
	 */
	for (len = 0, i = 0; i < 5; i++) {
		in[len++] = 0xa0; in[len++] = 0x0f;	/* 4000 */
		memset(in + len, 0x33, 4000);
		len += 4000;
	}
	err = raw(tfm, 1, 0, 8, 0, in, len);
	CHECK(err == -EMSGSIZE, "EMSGSIZE", err,
	      "suite%u: encrypt a body over b * 4098 bytes -> EMSGSIZE", suite);
	memset(in + len, 0x11, 16);
	err = raw(tfm, 0, 0, 8, 0, in, len + 16);
	CHECK(err == -EMSGSIZE, "EMSGSIZE", err,
	      "suite%u: decrypt a body over b * 4098 bytes -> EMSGSIZE", suite);

	/* record sizes: 4096 is fine, 4097 is EMSGSIZE */
	in[0] = 0x01; in[1] = 0x10;		/* 4097 */
	memset(in + 2, 0x77, 4097 + 16);
	err = raw(tfm, 1, 0, 8, 0, in, 2 + 4097);
	CHECK(err == -EMSGSIZE, "EMSGSIZE", err,
	      "suite%u: encrypt a 4097-byte record -> EMSGSIZE", suite);
	err = raw(tfm, 0, 0, 8, 0, in, 2 + 4097 + 16);
	CHECK(err == -EMSGSIZE, "EMSGSIZE", err,
	      "suite%u: decrypt a 4097-byte record -> EMSGSIZE", suite);
	/* AD sizes: 1025 is EMSGSIZE */
	memset(in, 0x42, 1025);
	len = 1025;
	in[len++] = 1; in[len++] = 0; in[len++] = 9;
	err = raw(tfm, 1, 0, 8, 1025, in, len);
	CHECK(err == -EMSGSIZE, "EMSGSIZE", err,
	      "suite%u: encrypt with 1025 bytes of AD -> EMSGSIZE", suite);
	memset(in + len, 0, 16);
	err = raw(tfm, 0, 0, 8, 1025, in, len + 16);
	CHECK(err == -EMSGSIZE, "EMSGSIZE", err,
	      "suite%u: decrypt with 1025 bytes of AD -> EMSGSIZE", suite);

	/* none of the refusals moved the state: seal epoch 0 = the core's */
	dmd_blob_parse(&st, blob, bl);
	len = 0;
	pt[len++] = 0x00; pt[len++] = 0x10;	/* 4096 */
	dmd_rand_bytes(&rng, pt + len, 4096);
	len += 4096;
	dmd_rand_bytes(&rng, in, 1024);
	err = dmd_kseal(tfm, 1, 0, in, 1024, pt, len, ct);
	dmd_core_seal_at(&st, 0, in, 1024, pt, len, ct + len + 16);
	CHECK(!err && !memcmp(ct, ct + len + 16, len + 16), "ok, = core", err,
	      "suite%u: after the refusals epoch 0 seals (4096-byte record, 1024 bytes AD) as the core does",
	      suite);

	/* epochs already used are never sealed again (7-byte body) */
	pt[0] = 5; pt[1] = 0;
	err = dmd_kseal(tfm, 1, 3, NULL, 0, pt, 7, ct);
	CHECK(!err, "ok", err, "suite%u: encrypt epoch 3 (skipping 1, 2)", suite);
	err = dmd_kseal(tfm, 1, 3, NULL, 0, pt, 7, ct);
	CHECK(err == -EKEYEXPIRED, "EKEYEXPIRED", err,
	      "suite%u: encrypt epoch 3 again -> EKEYEXPIRED", suite);
	err = dmd_kseal(tfm, 1, 2, NULL, 0, pt, 7, ct);
	CHECK(err == -EKEYEXPIRED, "EKEYEXPIRED", err,
	      "suite%u: encrypt epoch 2 (skipped) -> EKEYEXPIRED", suite);
	err = dmd_kseal(tfm, 1, 0, NULL, 0, pt, 7, ct);
	CHECK(err == -EKEYEXPIRED, "EKEYEXPIRED", err,
	      "suite%u: encrypt epoch 0 again -> EKEYEXPIRED", suite);
	err = dmd_kseal(tfm, 1, 4 + 4097, NULL, 0, pt, 7, ct);
	CHECK(err == -ERANGE, "ERANGE", err,
	      "suite%u: encrypt epoch current + 4097 -> ERANGE", suite);
	err = dmd_kseal(tfm, 1, 4, NULL, 0, pt, 7, ct);
	dmd_core_seal_at(&st, 4, NULL, 0, pt, 7, ct + 64);
	CHECK(!err && !memcmp(ct, ct + 64, 7 + 16), "ok, = core", err,
	      "suite%u: encrypt epoch 4 after the refusals matches the core",
	      suite);
	afalg_close(tfm);
out:
	free(in);
	free(ct);
	free(pt);
}

static void name_tests(void)
{
	static const char *const names[] = {
		"diamond(ctr(aes),poly1305)", "diamond(chacha20,ghash)",
		"diamond(foo)", "diamond()", "diamond(ctr(aes))",
		"diamond(gcm(aes),ghash)", "diamond(ctr(aes),sha256)",
		"diamond(cbc(aes),ghash)", "diamond(chacha20,poly1305,x)",
		"diamond(xchacha20,poly1305)",
	};
	size_t i;
	int fd;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fd = afalg_bind(names[i]);
		if (!tap_result(fd == -ENOENT || fd == -EINVAL,
				"bind %s fails", names[i]))
			tap_diag("expected ENOENT or EINVAL, got %s",
				 fd >= 0 ? "a bound socket" : dmd_errname(fd));
		afalg_close(fd);
	}
	fd = afalg_bind_type("skcipher", DMD_ALG_SUITE1);
	if (!tap_result(fd < 0, "bind %s as skcipher fails", DMD_ALG_SUITE1))
		tap_diag("expected an error, got a bound socket");
	afalg_close(fd);
}

int main(void)
{
	unsigned int suite, any = 0;

	rng.s = dmd_seed();
	tap_header();
	tap_diag("seed %llu (set DMD_SEED to repeat)", (unsigned long long)rng.s);
	for (suite = 1; suite <= 2; suite++) {
		if (!dmd_suite_available(suite))
			continue;
		any = 1;
		blob_tests(suite);
		request_tests(suite);
	}
	if (any)
		name_tests();
	tap_trailing_plan();
	return any ? tap_finish() : TAP_EXIT_SKIP;
}
