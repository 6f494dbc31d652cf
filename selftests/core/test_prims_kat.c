/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Known-answer tests for the portable core primitives, with vectors typed in
 * from the standards that define them, plus property checks (incremental
 * equals one-shot at every split point, prefixes of streams, counter carry).
 * TAP output; the plan is printed last, so a crash leaves no plan and the
 * summary counts it as a failure.
 */
#include <stdint.h>
#include <string.h>

#include <diamond/util.h>
#include <diamond/aes128.h>
#include <diamond/chacha20.h>
#include <diamond/ghash.h>
#include <diamond/poly1305.h>
#include <diamond/sha256.h>
#include "tap.h"

#define MAX_VEC 512

/* Parse hex, skipping spaces and colons; returns the byte count. */
static size_t unhex(uint8_t *out, const char *s)
{
	size_t n = 0;
	int hi = -1, v;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			v = *s - 'A' + 10;
		else
			continue;
		if (hi < 0) {
			hi = v;
		} else {
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	return n;
}

static void dump(const char *what, const uint8_t *p, size_t n)
{
	char line[2 * 64 + 1];
	size_t i, k;

	for (i = 0; i < n; i += 64) {
		for (k = 0; k < 64 && i + k < n; k++)
			sprintf(line + 2 * k, "%02x", p[i + k]);
		tap_diag("%s[%zu]: %s", what, i, line);
	}
}

/* Compare got with hex want; print both on mismatch. */
static int check_hex(const uint8_t *got, const char *want_hex, size_t n,
		     const char *name)
{
	uint8_t want[MAX_VEC];
	size_t wn = unhex(want, want_hex);
	int ok = wn == n && memcmp(got, want, n) == 0;

	if (!tap_result(ok, "%s", name)) {
		dump("got ", got, n);
		dump("want", want, wn);
	}
	return ok;
}

/* Deterministic filler for property checks. */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

/* ---- util ---- */

static void test_util(void)
{
	uint8_t a[37], b[37], w[8];
	int ok = 1;
	size_t i;

	fill(a, sizeof(a), 1);
	memcpy(b, a, sizeof(a));
	ok &= dmd_ct_equal(a, b, sizeof(a)) == 1;
	ok &= dmd_ct_equal(a, b, 0) == 1;
	for (i = 0; i < sizeof(a); i++) {
		b[i] ^= 0x80;
		ok &= dmd_ct_equal(a, b, sizeof(a)) == 0;
		b[i] ^= 0x81;
		ok &= dmd_ct_equal(a, b, sizeof(a)) == 0;
		b[i] ^= 0x01;
	}
	tap_result(ok, "util: dmd_ct_equal finds every single-byte difference");

	ok = 1;
	dmd_store32_le(w, 0x01020304);
	ok &= w[0] == 4 && w[3] == 1 && dmd_load32_le(w) == 0x01020304;
	dmd_store32_be(w, 0x01020304);
	ok &= w[0] == 1 && w[3] == 4 && dmd_load32_be(w) == 0x01020304;
	dmd_store64_le(w, 0x0102030405060708ull);
	ok &= w[0] == 8 && w[7] == 1 &&
	      dmd_load64_le(w) == 0x0102030405060708ull;
	dmd_wipe(w, sizeof(w));
	for (i = 0; i < sizeof(w); i++)
		ok &= w[i] == 0;
	tap_result(ok, "util: load/store byte order and wipe");

	/*
	 * dmd_wipe stores bytes up to a word boundary, then words, then
	 * bytes: every start offset and length must clear exactly [off,
	 * off + n) and leave the guard bytes on both sides alone.
	 */
	{
		union {
			uint64_t align;
			uint8_t b[128];
		} buf;
		size_t off, n;

		ok = 1;
		for (off = 0; off < 16; off++) {
			for (n = 0; n <= 80; n++) {
				memset(buf.b, 0xa5, sizeof(buf.b));
				dmd_wipe(buf.b + off, n);
				for (i = 0; i < sizeof(buf.b); i++)
					ok &= buf.b[i] == ((i >= off &&
							    i < off + n) ? 0 : 0xa5);
			}
		}
		tap_result(ok, "util: dmd_wipe clears exactly its range at every alignment and length 0..80");
	}
}

/* ---- AES-128 ---- */

static void aes_ecb_kat(const char *key, const char *pt, const char *ct,
			const char *name)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], p[16], c[16], q[16], r[16];

	unhex(k, key);
	unhex(p, pt);
	dmd_aes128_init(&ctx, k);
	dmd_aes128_encrypt(&ctx, c, p);
	check_hex(c, ct, 16, name);
	/* In place must give the same answer. */
	dmd_aes128_encrypt(&ctx, p, p);
	tap_result(memcmp(p, c, 16) == 0, "%s (in place)", name);
	/* Both lanes of encrypt2, in place, beside an unrelated block. */
	unhex(p, pt);
	memcpy(q, c, 16);
	dmd_aes128_encrypt(&ctx, r, q);
	dmd_aes128_encrypt2(&ctx, q, p, q, p);
	tap_result(!memcmp(p, c, 16) && !memcmp(q, r, 16), "%s (encrypt2, lane 1)", name);
	unhex(p, pt);
	memcpy(q, c, 16);
	dmd_aes128_encrypt2(&ctx, p, q, p, q);
	tap_result(!memcmp(p, c, 16) && !memcmp(q, r, 16), "%s (encrypt2, lane 0)", name);
	dmd_aes128_wipe(&ctx);
}

static void test_aes_sp800_38a_ctr(void)
{
	static const char *const out_blocks =
		"ec8cdf7398607cb0f2d21675ea9ea1e4"
		"362b7c3c6773516318a077d7fc5073ae"
		"6a2cc3787889374fbeb4c81b17ba6c44"
		"e89c399ff0f198c6d40a31db156cabfe";
	static const char *const pt_hex =
		"6bc1bee22e409f96e93d7e117393172a"
		"ae2d8a571e03ac9c9eb76fac45af8e51"
		"30c81c46a35ce411e5fbc1191a0a52ef"
		"f69f2445df4f9b17ad2b417be66c3710";
	static const char *const ct_hex =
		"874d6191b620e3261bef6864990db6ce"
		"9806f66b7970fdff8617187bb9fffdff"
		"5ae4df3edbd5d35e5b4f09020db03eab"
		"1e031dda2fbe03d1792170a0f3009cee";
	struct dmd_aes128 ctx;
	uint8_t k[16], ctr[16], ks[64], pt[64], ct[64];
	size_t i;

	unhex(k, "2b7e151628aed2a6abf7158809cf4f3c");
	unhex(ctr, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
	unhex(pt, pt_hex);
	dmd_aes128_init(&ctx, k);
	dmd_aes128_ctr(&ctx, ctr, ks, 64);
	check_hex(ks, out_blocks, 64, "aes: SP 800-38A F.5.1 CTR keystream (4 blocks)");
	for (i = 0; i < 64; i++)
		ct[i] = pt[i] ^ ks[i];
	check_hex(ct, ct_hex, 64, "aes: SP 800-38A F.5.1 keystream ^ plaintext = ciphertext");
	check_hex(ctr, "f0f1f2f3f4f5f6f7f8f9fafbfcfdff03", 16,
		  "aes: SP 800-38A F.5.1 counter advanced by 4 (carry into byte 14)");
	dmd_aes128_wipe(&ctx);
}

/*
 * Start the counter at `start`, take three blocks, and check each block
 * against single-block encryptions of the expected counter values and the
 * final counter.
 */
static void aes_ctr_carry(const struct dmd_aes128 *ctx, const char *start,
			  const char *b1, const char *b2, const char *next,
			  const char *name)
{
	uint8_t ctr[16], c[16], ks[48], want[48];

	unhex(ctr, start);
	memcpy(c, ctr, 16);
	dmd_aes128_encrypt(ctx, want, c);
	unhex(c, b1);
	dmd_aes128_encrypt(ctx, want + 16, c);
	unhex(c, b2);
	dmd_aes128_encrypt(ctx, want + 32, c);
	dmd_aes128_ctr(ctx, ctr, ks, 48);
	tap_result(memcmp(ks, want, 48) == 0, "aes: ctr carry %s: keystream", name);
	check_hex(ctr, next, 16, "aes: ctr carry: next counter");
}

static void test_aes_ctr_props(void)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], ctr0[16], ctr[16], c2[16], full[160], part[160];
	uint8_t blk[16];
	size_t len, i, nb;
	int ok = 1, ok_ctr = 1, ok_split = 1;

	unhex(k, "000102030405060708090a0b0c0d0e0f");
	dmd_aes128_init(&ctx, k);

	aes_ctr_carry(&ctx, "000102030405060708090a0bfffffffe",
		      "000102030405060708090a0bffffffff",
		      "000102030405060708090a0c00000000",
		      "000102030405060708090a0c00000001",
		      "across 32-bit word");
	aes_ctr_carry(&ctx, "0001020304050607fffffffffffffffe",
		      "0001020304050607ffffffffffffffff",
		      "00010203040506080000000000000000",
		      "00010203040506080000000000000001",
		      "across 64-bit word");
	aes_ctr_carry(&ctx, "fffffffffffffffffffffffffffffffe",
		      "ffffffffffffffffffffffffffffffff",
		      "00000000000000000000000000000000",
		      "00000000000000000000000000000001",
		      "wrapping 2^128");

	/* Every length 0..160 is a prefix of the 160-byte stream. */
	fill(ctr0, 16, 7);
	memcpy(ctr, ctr0, 16);
	dmd_aes128_ctr(&ctx, ctr, full, sizeof(full));
	/* Block i of the stream is E(ctr0 + i). */
	memcpy(c2, ctr0, 16);
	for (i = 0; i < 10; i++) {
		dmd_aes128_encrypt(&ctx, blk, c2);
		ok &= memcmp(blk, full + 16 * i, 16) == 0;
		dmd_aes128_ctr(&ctx, c2, blk, 1); /* advance c2 by one */
	}
	tap_result(ok, "aes: ctr block i = E_K(ctr + i)");
	ok = 1;
	for (len = 0; len <= sizeof(full); len++) {
		memcpy(ctr, ctr0, 16);
		memset(part, 0xa5, sizeof(part));
		dmd_aes128_ctr(&ctx, ctr, part, len);
		ok &= memcmp(part, full, len) == 0;
		ok &= len == sizeof(part) || part[len] == 0xa5;
		/* The counter must have moved by ceil(len / 16). */
		memcpy(c2, ctr0, 16);
		nb = (len + 15) / 16;
		for (i = 0; i < nb; i++)
			dmd_aes128_ctr(&ctx, c2, blk, 16);
		ok_ctr &= memcmp(c2, ctr, 16) == 0;
		/* A block-aligned split continues the stream. */
		if (len % 16 == 0) {
			memcpy(ctr, ctr0, 16);
			dmd_aes128_ctr(&ctx, ctr, part, len);
			dmd_aes128_ctr(&ctx, ctr, part + len, sizeof(part) - len);
			ok_split &= memcmp(part, full, sizeof(full)) == 0;
		}
	}
	tap_result(ok, "aes: ctr of every length 0..160 is a prefix, writes nothing past len");
	tap_result(ok_ctr, "aes: ctr advances by ceil(len / 16) blocks");
	tap_result(ok_split, "aes: ctr split on block boundaries = one call");
	dmd_aes128_wipe(&ctx);
}

static void test_aes(void)
{
	/* FIPS-197 Appendix B (cipher example) and C.1 (AES-128). */
	aes_ecb_kat("2b7e151628aed2a6abf7158809cf4f3c",
		    "3243f6a8885a308d313198a2e0370734",
		    "3925841d02dc09fbdc118597196a0b32", "aes: FIPS-197 Appendix B");
	aes_ecb_kat("000102030405060708090a0b0c0d0e0f",
		    "00112233445566778899aabbccddeeff",
		    "69c4e0d86a7b0430d8cdb78070b4c55a", "aes: FIPS-197 Appendix C.1");
	test_aes_sp800_38a_ctr();
	test_aes_ctr_props();
}

/* ---- GHASH, through the GCM spec test cases ---- */

struct gcm_case {
	const char *name, *k, *p, *a, *iv, *h, *c, *ghash, *t;
};

/*
 * McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", test cases
 * 1-4 (96-bit IV, so Y0 = IV || 0^31 || 1).
 */
static const struct gcm_case gcm_cases[] = {
	{
		"GCM test case 1",
		"00000000000000000000000000000000", "", "",
		"000000000000000000000000",
		"66e94bd4ef8a2c3b884cfa59ca342b2e", "",
		"00000000000000000000000000000000",
		"58e2fccefa7e3061367f1d57a4e7455a",
	},
	{
		"GCM test case 2",
		"00000000000000000000000000000000",
		"00000000000000000000000000000000", "",
		"000000000000000000000000",
		"66e94bd4ef8a2c3b884cfa59ca342b2e",
		"0388dace60b6a392f328c2b971b2fe78",
		"f38cbb1ad69223dcc3457ae5b6b0f885",
		"ab6e47d42cec13bdf53a67b21257bddf",
	},
	{
		"GCM test case 3",
		"feffe9928665731c6d6a8f9467308308",
		"d9313225f88406e5a55909c5aff5269a"
		"86a7a9531534f7da2e4c303d8a318a72"
		"1c3c0c95956809532fcf0e2449a6b525"
		"b16aedf5aa0de657ba637b391aafd255",
		"",
		"cafebabefacedbaddecaf888",
		"b83b533708bf535d0aa6e52980d53b78",
		"42831ec2217774244b7221b784d0d49c"
		"e3aa212f2c02a4e035c17e2329aca12e"
		"21d514b25466931c7d8f6a5aac84aa05"
		"1ba30b396a0aac973d58e091473f5985",
		"7f1b32b81b820d02614f8895ac1d4eac",
		"4d5c2af327cd64a62cf35abd2ba6fab4",
	},
	{
		"GCM test case 4",
		"feffe9928665731c6d6a8f9467308308",
		"d9313225f88406e5a55909c5aff5269a"
		"86a7a9531534f7da2e4c303d8a318a72"
		"1c3c0c95956809532fcf0e2449a6b525"
		"b16aedf5aa0de657ba637b39",
		"feedfacedeadbeeffeedfacedeadbeefabaddad2",
		"cafebabefacedbaddecaf888",
		"b83b533708bf535d0aa6e52980d53b78",
		"42831ec2217774244b7221b784d0d49c"
		"e3aa212f2c02a4e035c17e2329aca12e"
		"21d514b25466931c7d8f6a5aac84aa05"
		"1ba30b396a0aac973d58e091",
		"698e57f70e6ecc7fd9463b7260a9ae5f",
		"5bc94fbc3221a5db94fae95ae7121a47",
	},
};

static void test_gcm_case(const struct gcm_case *tc)
{
	struct dmd_aes128 aes;
	struct dmd_ghash gh;
	uint8_t k[16], p[64], a[64], c[64], iv[16], h[16], zero[16] = { 0 };
	uint8_t ks[64], lens[16], g[16], ek[16], t[16];
	char name[96];
	size_t pn, an, cn, i;

	unhex(k, tc->k);
	pn = unhex(p, tc->p);
	an = unhex(a, tc->a);
	cn = unhex(c, tc->c);
	dmd_aes128_init(&aes, k);

	dmd_aes128_encrypt(&aes, h, zero);
	snprintf(name, sizeof(name), "ghash: %s: H = E_K(0^128)", tc->name);
	check_hex(h, tc->h, 16, name);

	/* C = P ^ CTR keystream from Y1 = IV || 0^31 || 2. */
	unhex(iv, tc->iv);
	iv[12] = iv[13] = iv[14] = 0;
	iv[15] = 2;
	dmd_aes128_ctr(&aes, iv, ks, pn);
	for (i = 0; i < pn; i++)
		ks[i] ^= p[i];
	tap_result(pn == cn && memcmp(ks, c, cn) == 0, "ghash: %s: ciphertext from CTR at Y1",
		   tc->name);

	/* GHASH_H(pad(A) || pad(C) || [len(A)]_64 || [len(C)]_64). */
	memset(lens, 0, sizeof(lens));
	dmd_store32_be(lens + 4, (uint32_t)(an * 8));
	dmd_store32_be(lens + 12, (uint32_t)(cn * 8));
	dmd_ghash_init(&gh, h);
	dmd_ghash_update_padded(&gh, a, an);
	dmd_ghash_update_padded(&gh, c, cn);
	dmd_ghash_update_padded(&gh, lens, 16);
	dmd_ghash_final(&gh, g);
	snprintf(name, sizeof(name), "ghash: %s: GHASH_H(A, C)", tc->name);
	check_hex(g, tc->ghash, 16, name);

	/* T = E_K(Y0) ^ GHASH. */
	iv[15] = 1;
	dmd_aes128_encrypt(&aes, ek, iv);
	for (i = 0; i < 16; i++)
		t[i] = ek[i] ^ g[i];
	snprintf(name, sizeof(name), "ghash: %s: tag = E_K(Y0) ^ GHASH", tc->name);
	check_hex(t, tc->t, 16, name);
	dmd_aes128_wipe(&aes);
}

static void ghash_oneshot(uint8_t out[16], const uint8_t h[16],
			  const uint8_t *d, size_t n)
{
	struct dmd_ghash gh;

	dmd_ghash_init(&gh, h);
	dmd_ghash_update_padded(&gh, d, n);
	dmd_ghash_final(&gh, out);
}

static void test_ghash_props(void)
{
	uint8_t h[16], d[200], padded[240], ref[16], got[16];
	struct dmd_ghash gh;
	size_t s, pn;
	int ok = 1;

	fill(h, 16, 3);
	fill(d, sizeof(d), 4);
	ghash_oneshot(ref, h, d, sizeof(d));
	for (s = 0; s <= sizeof(d); s++) {
		dmd_ghash_init(&gh, h);
		dmd_ghash_update_padded(&gh, d, s);
		dmd_ghash_update_padded(&gh, d + s, sizeof(d) - s);
		dmd_ghash_final(&gh, got);
		/*
		 * Each call pads its own tail, so the reference is GHASH of
		 * pad(d[0..s)) || pad(d[s..200)); for s % 16 == 0 it is the
		 * plain one-shot.
		 */
		memset(padded, 0, sizeof(padded));
		memcpy(padded, d, s);
		pn = (s + 15) / 16 * 16;
		memcpy(padded + pn, d + s, sizeof(d) - s);
		pn += (sizeof(d) - s + 15) / 16 * 16;
		ghash_oneshot(ref, h, padded, pn);
		ok &= memcmp(got, ref, 16) == 0;
		if (s % 16 == 0) {
			ghash_oneshot(ref, h, d, sizeof(d));
			ok &= memcmp(got, ref, 16) == 0;
		}
	}
	tap_result(ok, "ghash: split at every point 0..200 = one-shot of the padded parts");

	/* GHASH is linear: H = 0 gives 0 and X = 0 keeps Y = 0. */
	memset(padded, 0, 32);
	ghash_oneshot(got, h, padded, 32);
	ok = memcmp(got, padded, 16) == 0;
	ghash_oneshot(got, padded, d, 64);
	ok &= memcmp(got, padded, 16) == 0;
	tap_result(ok, "ghash: zero H or zero data gives zero");
}

static void test_ghash(void)
{
	size_t i;

	for (i = 0; i < sizeof(gcm_cases) / sizeof(gcm_cases[0]); i++)
		test_gcm_case(&gcm_cases[i]);
	test_ghash_props();
}

/* ---- ChaCha20 ---- */

static const char rfc_key[] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

struct chacha_block_case {
	const char *name, *key, *iv, *out;
};

/* iv = le32 counter || nonce, so the counter is the first four bytes. */
static const struct chacha_block_case chacha_blocks[] = {
	{
		"chacha20: RFC 8439 2.3.2 block function", rfc_key,
		"01000000" "000000090000004a00000000",
		"10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
		"d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
	},
	{
		"chacha20: RFC 8439 A.1 test vector #1",
		"0000000000000000000000000000000000000000000000000000000000000000",
		"00000000" "000000000000000000000000",
		"76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
		"da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
	},
	{
		"chacha20: RFC 8439 A.1 test vector #2",
		"0000000000000000000000000000000000000000000000000000000000000000",
		"01000000" "000000000000000000000000",
		"9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
		"29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f",
	},
	{
		"chacha20: RFC 8439 A.1 test vector #3",
		"0000000000000000000000000000000000000000000000000000000000000001",
		"01000000" "000000000000000000000000",
		"3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
		"8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0",
	},
	{
		"chacha20: RFC 8439 A.1 test vector #4",
		"00ff000000000000000000000000000000000000000000000000000000000000",
		"02000000" "000000000000000000000000",
		"72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
		"13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096",
	},
	{
		"chacha20: RFC 8439 A.1 test vector #5",
		"0000000000000000000000000000000000000000000000000000000000000000",
		"00000000" "000000000000000000000002",
		"c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
		"8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d",
	},
};

static void test_chacha20(void)
{
	static const char sunscreen[] =
		"Ladies and Gentlemen of the class of '99: If I could offer you "
		"only one tip for the future, sunscreen would be it.";
	uint8_t key[32], iv[16], out[512], ref[512], blk[64];
	size_t i, n, len;
	int ok;

	for (i = 0; i < sizeof(chacha_blocks) / sizeof(chacha_blocks[0]); i++) {
		const struct chacha_block_case *tc = &chacha_blocks[i];

		unhex(key, tc->key);
		unhex(iv, tc->iv);
		dmd_chacha20_block(out, key, iv);
		check_hex(out, tc->out, 64, tc->name);
		/* The stream function must agree with the block function. */
		dmd_chacha20_stream(ref, 64, key, iv);
		tap_result(memcmp(ref, out, 64) == 0, "%s (stream)", tc->name);
	}

	/* RFC 8439 2.4.2: encryption with counter 1. */
	unhex(key, rfc_key);
	unhex(iv, "01000000" "000000000000004a00000000");
	n = sizeof(sunscreen) - 1;
	dmd_chacha20_stream(out, n, key, iv);
	for (i = 0; i < n; i++)
		out[i] ^= (uint8_t)sunscreen[i];
	check_hex(out,
		  "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
		  "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
		  "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
		  "5af90bbf74a35be6b40b8eedf2785e42874d", n,
		  "chacha20: RFC 8439 2.4.2 encryption");

	/* Property: every length 0..300 is a prefix of a 512-byte stream. */
	fill(key, 32, 11);
	fill(iv, 16, 12);
	dmd_chacha20_stream(ref, sizeof(ref), key, iv);
	ok = 1;
	for (len = 0; len <= 300; len++) {
		memset(out, 0x5a, sizeof(out));
		dmd_chacha20_stream(out, len, key, iv);
		ok &= memcmp(out, ref, len) == 0 && out[len] == 0x5a;
	}
	tap_result(ok, "chacha20: stream of every length 0..300 is a prefix, nothing written past len");

	/* Block k of the stream is the block function at counter + k. */
	ok = 1;
	for (i = 0; i < 8; i++) {
		uint8_t iv2[16];

		memcpy(iv2, iv, 16);
		dmd_store32_le(iv2, dmd_load32_le(iv) + (uint32_t)i);
		dmd_chacha20_block(blk, key, iv2);
		ok &= memcmp(blk, ref + 64 * i, 64) == 0;
	}
	tap_result(ok, "chacha20: stream block k = block(counter + k)");

	/* The 32-bit counter wraps to 0 and leaves the nonce alone. */
	dmd_store32_le(iv, 0xffffffff);
	dmd_chacha20_stream(out, 128, key, iv);
	dmd_store32_le(iv, 0);
	dmd_chacha20_block(blk, key, iv);
	tap_result(memcmp(out + 64, blk, 64) == 0,
		   "chacha20: counter wraps 0xffffffff -> 0 without touching the nonce");
}

/* ---- Poly1305 ---- */

static const char ietf_text[] =
	"Any submission to the IETF intended by the Contributor for "
	"publication as all or part of an IETF Internet-Draft or RFC and any "
	"statement made within the context of an IETF activity is considered "
	"an \"IETF Contribution\". Such statements include oral statements in "
	"IETF sessions, as well as written and electronic communications made "
	"at any time or place, which are addressed to";

static const char jabberwock[] =
	"'Twas brillig, and the slithy toves\nDid gyre and gimble in the "
	"wabe:\nAll mimsy were the borogoves,\nAnd the mome raths outgrabe.";

struct poly_case {
	const char *name, *key;
	const char *msg_hex;	/* used when msg_text is NULL */
	const char *msg_text;
	const char *tag;
};

static const struct poly_case poly_cases[] = {
	{
		"poly1305: RFC 8439 2.5.2",
		"85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
		NULL, "Cryptographic Forum Research Group",
		"a8061dc1305136c6c22b8baf0c0127a9",
	},
	{
		"poly1305: RFC 8439 A.3 #1",
		"0000000000000000000000000000000000000000000000000000000000000000",
		"0000000000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000000000000000000000000000000000000000000000000",
		NULL, "00000000000000000000000000000000",
	},
	{
		"poly1305: RFC 8439 A.3 #2",
		"0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e",
		NULL, ietf_text, "36e5f6b5c5e06070f0efca96227a863e",
	},
	{
		"poly1305: RFC 8439 A.3 #3",
		"36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000",
		NULL, ietf_text, "f3477e7cd95417af89a6b8794c310cf0",
	},
	{
		"poly1305: RFC 8439 A.3 #4",
		"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
		NULL, jabberwock, "4541669a7eaaee61e708dc7cbcc5eb62",
	},
	{
		"poly1305: RFC 8439 A.3 #5 (h reaches p)",
		"0200000000000000000000000000000000000000000000000000000000000000",
		"ffffffffffffffffffffffffffffffff",
		NULL, "03000000000000000000000000000000",
	},
	{
		"poly1305: RFC 8439 A.3 #6 (h + s wraps 2^128)",
		"02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
		"02000000000000000000000000000000",
		NULL, "03000000000000000000000000000000",
	},
	{
		"poly1305: RFC 8439 A.3 #7",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"ffffffffffffffffffffffffffffffff"
		"f0ffffffffffffffffffffffffffffff"
		"11000000000000000000000000000000",
		NULL, "05000000000000000000000000000000",
	},
	{
		"poly1305: RFC 8439 A.3 #8",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"ffffffffffffffffffffffffffffffff"
		"fbfefefefefefefefefefefefefefefe"
		"01010101010101010101010101010101",
		NULL, "00000000000000000000000000000000",
	},
	{
		"poly1305: RFC 8439 A.3 #9 (h = 2^130 - 6)",
		"0200000000000000000000000000000000000000000000000000000000000000",
		"fdffffffffffffffffffffffffffffff",
		NULL, "faffffffffffffffffffffffffffffff",
	},
	{
		"poly1305: RFC 8439 A.3 #10",
		"0100000000000000040000000000000000000000000000000000000000000000",
		"e33594d7505e43b90000000000000000"
		"3394d7505e4379cd0100000000000000"
		"00000000000000000000000000000000"
		"01000000000000000000000000000000",
		NULL, "14000000000000005500000000000000",
	},
	{
		"poly1305: RFC 8439 A.3 #11",
		"0100000000000000040000000000000000000000000000000000000000000000",
		"e33594d7505e43b90000000000000000"
		"3394d7505e4379cd0100000000000000"
		"00000000000000000000000000000000",
		NULL, "13000000000000000000000000000000",
	},
};

static void poly_oneshot(uint8_t tag[16], const uint8_t key[32],
			 const uint8_t *m, size_t n)
{
	struct dmd_poly1305 ctx;

	dmd_poly1305_init(&ctx, key);
	dmd_poly1305_update(&ctx, m, n);
	dmd_poly1305_final(&ctx, tag);
}

static void test_poly1305(void)
{
	uint8_t key[32], msg[MAX_VEC], tag[16], ref[16];
	struct dmd_poly1305 ctx;
	size_t i, n, s, s2;
	int ok;

	for (i = 0; i < sizeof(poly_cases) / sizeof(poly_cases[0]); i++) {
		const struct poly_case *tc = &poly_cases[i];

		unhex(key, tc->key);
		if (tc->msg_text) {
			n = strlen(tc->msg_text);
			memcpy(msg, tc->msg_text, n);
		} else {
			n = unhex(msg, tc->msg_hex);
		}
		poly_oneshot(tag, key, msg, n);
		check_hex(tag, tc->tag, 16, tc->name);
	}

	/* Incremental = one-shot for every 2-way split of 200 bytes. */
	fill(key, 32, 21);
	fill(msg, 200, 22);
	poly_oneshot(ref, key, msg, 200);
	ok = 1;
	for (s = 0; s <= 200; s++) {
		dmd_poly1305_init(&ctx, key);
		dmd_poly1305_update(&ctx, msg, s);
		dmd_poly1305_update(&ctx, msg + s, 200 - s);
		dmd_poly1305_final(&ctx, tag);
		ok &= memcmp(tag, ref, 16) == 0;
	}
	tap_result(ok, "poly1305: split at every point 0..200 = one-shot");

	/* And 3-way splits, with empty updates in between. */
	ok = 1;
	for (s = 0; s <= 200; s += 7) {
		for (s2 = s; s2 <= 200; s2 += 5) {
			dmd_poly1305_init(&ctx, key);
			dmd_poly1305_update(&ctx, msg, s);
			dmd_poly1305_update(&ctx, msg, 0);
			dmd_poly1305_update(&ctx, msg + s, s2 - s);
			dmd_poly1305_update(&ctx, msg + s2, 200 - s2);
			dmd_poly1305_final(&ctx, tag);
			ok &= memcmp(tag, ref, 16) == 0;
		}
	}
	tap_result(ok, "poly1305: 3-way splits with empty updates = one-shot");

	/* The one-call MAC, and its XOR form into an accumulator. */
	ok = 1;
	for (s = 0; s <= 200; s++) {
		poly_oneshot(ref, key, msg, s);
		dmd_poly1305(key, msg, s, tag);
		ok &= memcmp(tag, ref, 16) == 0;
		for (i = 0; i < 16; i++) {
			tag[i] = (uint8_t)(s * 7 + i * 29);
			ref[i] ^= tag[i];
		}
		dmd_poly1305_xor(key, msg, s, tag);
		ok &= memcmp(tag, ref, 16) == 0;
	}
	tap_result(ok, "poly1305: one-call MAC and its XOR form at every length 0..200");
}

/* ---- SHA-256 ---- */

static void test_sha256(void)
{
	static const char m448[] =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	uint8_t d[32], ref[32], buf[1000], msg[200];
	struct dmd_sha256 ctx;
	size_t i, s;
	int ok;

	/* FIPS 180-2 Appendix B.1, B.2, B.3. */
	dmd_sha256(d, (const uint8_t *)"abc", 3);
	check_hex(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		  32, "sha256: FIPS 180-2 B.1 \"abc\"");
	dmd_sha256(d, (const uint8_t *)m448, sizeof(m448) - 1);
	check_hex(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		  32, "sha256: FIPS 180-2 B.2 448-bit message");
	memset(buf, 'a', sizeof(buf));
	dmd_sha256_init(&ctx);
	for (i = 0; i < 1000; i++)
		dmd_sha256_update(&ctx, buf, sizeof(buf));
	dmd_sha256_final(&ctx, d);
	check_hex(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		  32, "sha256: FIPS 180-2 B.3 one million 'a'");

	/* The split test below crosses the 55/56/64-byte padding edges. */
	dmd_sha256(d, (const uint8_t *)"", 0);
	check_hex(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		  32, "sha256: empty message");

	fill(msg, sizeof(msg), 31);
	dmd_sha256(ref, msg, sizeof(msg));
	ok = 1;
	for (s = 0; s <= sizeof(msg); s++) {
		dmd_sha256_init(&ctx);
		dmd_sha256_update(&ctx, msg, s);
		dmd_sha256_update(&ctx, msg + s, sizeof(msg) - s);
		dmd_sha256_final(&ctx, d);
		ok &= memcmp(d, ref, 32) == 0;
	}
	tap_result(ok, "sha256: split at every point 0..200 = one-shot");
}

int main(void)
{
	printf("TAP version 13\n");
	test_util();
	test_aes();
	test_ghash();
	test_chacha20();
	test_poly1305();
	test_sha256();
	printf("1..%u\n", tap_count);
	return tap_finish();
}
