/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Differential tests: every core primitive against OpenSSL libcrypto on
 * random keys and random lengths 0..300. The inputs come from a fixed-seed
 * PRNG (splitmix64) so a failure is reproducible: the seed is printed and
 * can be given as argv[1], the iteration count as argv[2].
 *
 * GHASH has no OpenSSL entry point of its own, so it is checked through
 * AES-128-GCM: tag = E_K(J0) ^ GHASH_H(pad(A) || pad(C) || lens) with
 * H = E_K(0^128) and J0 = IV || 0^31 || 1 for a 96-bit IV.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include <diamond/util.h>
#include <diamond/aes128.h>
#include <diamond/chacha20.h>
#include <diamond/ghash.h>
#include <diamond/poly1305.h>
#include <diamond/sha256.h>
#include "tap.h"

#define DEFAULT_SEED	0x6469616d6f6e6421ull
#define DEFAULT_ITERS	50000
#define MAX_LEN		300

static uint64_t rng_state;

static uint64_t rng64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void rng_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rng64();
}

static size_t rng_len(void)
{
	return (size_t)(rng64() % (MAX_LEN + 1));
}

static unsigned long iters;

/* Print the first mismatch of a test in full; later ones only count. */
static void report(const char *what, unsigned long i, size_t len,
		   const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t k;

	tap_diag("%s: mismatch at iteration %lu (len %zu)", what, i, len);
	for (k = 0; k < n; k++) {
		if (got[k] != want[k]) {
			tap_diag("  first differing byte %zu: got %02x want %02x",
				 k, got[k], want[k]);
			break;
		}
	}
}

static int finish(const char *what, unsigned long bad)
{
	return tap_result(bad == 0, "%s: %lu random inputs vs OpenSSL (%lu mismatches)",
			  what, iters, bad);
}

static void test_aes_ecb(EVP_CIPHER_CTX *c)
{
	struct dmd_aes128 ctx;
	uint8_t key[16], in[16], got[16], want[16];
	unsigned long i, bad = 0;
	int outl;

	for (i = 0; i < iters; i++) {
		rng_bytes(key, 16);
		rng_bytes(in, 16);
		dmd_aes128_init(&ctx, key);
		dmd_aes128_encrypt(&ctx, got, in);
		EVP_EncryptInit_ex(c, EVP_aes_128_ecb(), NULL, key, NULL);
		EVP_CIPHER_CTX_set_padding(c, 0);
		EVP_EncryptUpdate(c, want, &outl, in, 16);
		if (outl != 16 || memcmp(got, want, 16)) {
			if (!bad)
				report("aes-128-ecb", i, 16, got, want, 16);
			bad++;
		}
	}
	dmd_aes128_wipe(&ctx);
	finish("aes-128 block", bad);
}

/* ctr += n, 128-bit big endian: an independent model of the counter. */
static void ctr_add(uint8_t ctr[16], unsigned int n)
{
	unsigned int carry = n;
	int i;

	for (i = 15; i >= 0 && carry; i--) {
		carry += ctr[i];
		ctr[i] = (uint8_t)carry;
		carry >>= 8;
	}
}

static void test_aes_ctr(EVP_CIPHER_CTX *c)
{
	static const uint8_t zero[MAX_LEN];
	struct dmd_aes128 ctx;
	uint8_t key[16], ctr[16], ctr0[16], got[MAX_LEN], want[MAX_LEN];
	unsigned long i, bad = 0, bad_ctr = 0;
	size_t len;
	int outl;

	for (i = 0; i < iters; i++) {
		rng_bytes(key, 16);
		rng_bytes(ctr0, 16);
		/* A quarter of the time, make the low bytes all-ones to force carries. */
		if ((rng64() & 3) == 0) {
			size_t ones = 1 + rng64() % 16;

			memset(ctr0 + 16 - ones, 0xff, ones);
		}
		len = rng_len();
		memcpy(ctr, ctr0, 16);
		dmd_aes128_init(&ctx, key);
		dmd_aes128_ctr(&ctx, ctr, got, len);
		EVP_EncryptInit_ex(c, EVP_aes_128_ctr(), NULL, key, ctr0);
		EVP_EncryptUpdate(c, want, &outl, zero, (int)len);
		if ((size_t)outl != len || memcmp(got, want, len)) {
			if (!bad)
				report("aes-128-ctr", i, len, got, want, len);
			bad++;
		}
		ctr_add(ctr0, (unsigned int)((len + 15) / 16));
		if (memcmp(ctr, ctr0, 16))
			bad_ctr++;
	}
	dmd_aes128_wipe(&ctx);
	finish("aes-128-ctr keystream", bad);
	tap_result(bad_ctr == 0, "aes-128-ctr: next counter = start + ceil(len / 16) (%lu wrong)",
		   bad_ctr);
}

static void test_chacha20(EVP_CIPHER_CTX *c)
{
	static const uint8_t zero[MAX_LEN];
	uint8_t key[32], iv[16], got[MAX_LEN], want[MAX_LEN];
	unsigned long i, bad = 0;
	size_t len;
	int outl;

	for (i = 0; i < iters; i++) {
		rng_bytes(key, 32);
		rng_bytes(iv, 16);
		/*
		 * OpenSSL carries a counter overflow into the nonce, the RFC
		 * and Linux do not: keep the counter away from the wrap.
		 */
		iv[3] &= 0x7f;
		len = rng_len();
		dmd_chacha20_stream(got, len, key, iv);
		EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv);
		EVP_EncryptUpdate(c, want, &outl, zero, (int)len);
		if ((size_t)outl != len || memcmp(got, want, len)) {
			if (!bad)
				report("chacha20", i, len, got, want, len);
			bad++;
		}
	}
	finish("chacha20 keystream", bad);
}

static void test_poly1305(void)
{
	struct dmd_poly1305 ctx;
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
	EVP_MAC_CTX *mctx;
	uint8_t key[32], m[MAX_LEN], got[16], want[16];
	unsigned long i, bad = 0;
	size_t len, split, outl;

	if (!mac) {
		tap_skip("OpenSSL has no POLY1305 MAC", "poly1305");
		return;
	}
	for (i = 0; i < iters; i++) {
		rng_bytes(key, 32);
		len = rng_len();
		rng_bytes(m, len);
		/*
		 * Push h towards p now and then: all-ones r (before clamping),
		 * s and message bytes exercise the carries and the final
		 * reduction that random data rarely reaches.
		 */
		if ((rng64() & 3) == 0)
			memset(key, 0xff, 16);
		if ((rng64() & 3) == 0)
			memset(key + 16, 0xff, 16);
		if ((rng64() & 3) == 0)
			memset(m, 0xff, len);
		/* Random split: the differential test covers incrementality too. */
		split = (size_t)(rng64() % (len + 1));
		dmd_poly1305_init(&ctx, key);
		dmd_poly1305_update(&ctx, m, split);
		dmd_poly1305_update(&ctx, m + split, len - split);
		dmd_poly1305_final(&ctx, got);
		mctx = EVP_MAC_CTX_new(mac);
		outl = 0;
		if (!mctx || !EVP_MAC_init(mctx, key, 32, NULL) ||
		    !EVP_MAC_update(mctx, m, len) ||
		    !EVP_MAC_final(mctx, want, &outl, sizeof(want)))
			outl = 0;
		EVP_MAC_CTX_free(mctx);
		if (outl != 16 || memcmp(got, want, 16)) {
			if (!bad)
				report("poly1305", i, len, got, want, 16);
			bad++;
		}
	}
	EVP_MAC_free(mac);
	finish("poly1305 tag (random split)", bad);
}

static void test_sha256(void)
{
	struct dmd_sha256 ctx;
	uint8_t m[MAX_LEN], got[32], got1[32], want[32];
	unsigned long i, bad = 0;
	unsigned int outl;
	size_t len, split;

	for (i = 0; i < iters; i++) {
		len = rng_len();
		rng_bytes(m, len);
		split = (size_t)(rng64() % (len + 1));
		dmd_sha256_init(&ctx);
		dmd_sha256_update(&ctx, m, split);
		dmd_sha256_update(&ctx, m + split, len - split);
		dmd_sha256_final(&ctx, got);
		dmd_sha256(got1, m, len);
		EVP_Digest(m, len, want, &outl, EVP_sha256(), NULL);
		if (outl != 32 || memcmp(got, want, 32) ||
		    memcmp(got1, want, 32)) {
			if (!bad)
				report("sha256", i, len, got, want, 32);
			bad++;
		}
	}
	finish("sha256 digest (one-shot and random split)", bad);
}

static void test_gcm_ghash(EVP_CIPHER_CTX *c)
{
	struct dmd_aes128 aes;
	struct dmd_ghash gh;
	uint8_t key[16], iv[12], a[MAX_LEN], p[MAX_LEN], ct[MAX_LEN + 16];
	uint8_t h[16], zero[16] = { 0 }, j0[16], lens[16], g[16], ek[16];
	uint8_t tag[16], want[16], ks[MAX_LEN];
	unsigned long i, bad = 0, bad_ct = 0;
	size_t alen, plen, k;
	int outl, fin;

	for (i = 0; i < iters; i++) {
		rng_bytes(key, 16);
		rng_bytes(iv, 12);
		alen = rng_len();
		plen = rng_len();
		rng_bytes(a, alen);
		rng_bytes(p, plen);

		EVP_EncryptInit_ex(c, EVP_aes_128_gcm(), NULL, NULL, NULL);
		EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, 12, NULL);
		EVP_EncryptInit_ex(c, NULL, NULL, key, iv);
		EVP_EncryptUpdate(c, NULL, &outl, a, (int)alen);
		EVP_EncryptUpdate(c, ct, &outl, p, (int)plen);
		EVP_EncryptFinal_ex(c, ct + outl, &fin);
		EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, 16, want);

		dmd_aes128_init(&aes, key);
		dmd_aes128_encrypt(&aes, h, zero);
		memcpy(j0, iv, 12);
		j0[12] = j0[13] = j0[14] = 0;
		j0[15] = 1;
		dmd_aes128_encrypt(&aes, ek, j0);
		/* C from our CTR at J0 + 1 (no 32-bit wrap for <= 300 bytes). */
		j0[15] = 2;
		dmd_aes128_ctr(&aes, j0, ks, plen);
		for (k = 0; k < plen; k++)
			ks[k] ^= p[k];
		if (memcmp(ks, ct, plen))
			bad_ct++;

		memset(lens, 0, sizeof(lens));
		dmd_store32_be(lens + 4, (uint32_t)(alen * 8));
		dmd_store32_be(lens + 12, (uint32_t)(plen * 8));
		dmd_ghash_init(&gh, h);
		dmd_ghash_update_padded(&gh, a, alen);
		dmd_ghash_update_padded(&gh, ct, plen);
		dmd_ghash_update_padded(&gh, lens, 16);
		dmd_ghash_final(&gh, g);
		for (k = 0; k < 16; k++)
			tag[k] = ek[k] ^ g[k];
		if (memcmp(tag, want, 16)) {
			if (!bad)
				report("gcm tag via ghash", i, alen + plen, tag,
				       want, 16);
			bad++;
		}
	}
	dmd_aes128_wipe(&aes);
	finish("ghash: AES-128-GCM tag = E_K(J0) ^ GHASH", bad);
	tap_result(bad_ct == 0, "ghash: AES-128-GCM ciphertext = our CTR from J0 + 1 (%lu wrong)",
		   bad_ct);
}

int main(int argc, char **argv)
{
	uint64_t seed = DEFAULT_SEED;
	EVP_CIPHER_CTX *c;

	if (argc > 1)
		seed = strtoull(argv[1], NULL, 0);
	iters = argc > 2 ? strtoul(argv[2], NULL, 0) : DEFAULT_ITERS;
	rng_state = seed;

	printf("TAP version 13\n");
	tap_diag("seed 0x%016llx, %lu iterations per test (rerun: %s 0x%llx %lu)",
		 (unsigned long long)seed, iters, argv[0],
		 (unsigned long long)seed, iters);
	c = EVP_CIPHER_CTX_new();
	if (!c) {
		printf("1..0 # SKIP no EVP_CIPHER_CTX\n");
		return TAP_EXIT_SKIP;
	}
	test_aes_ecb(c);
	test_aes_ctr(c);
	test_chacha20(c);
	test_poly1305();
	test_sha256();
	test_gcm_ghash(c);
	EVP_CIPHER_CTX_free(c);
	printf("1..%u\n", tap_count);
	return tap_finish();
}
