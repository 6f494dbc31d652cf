// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * bench-kat: known answers and round trips for the benchmark baselines, so
 * no figure in Documentation/performance/ comes from a wrong implementation.
 *
 *  - Ascon-AEAD128 and Ascon-Hash256 (SP 800-232): entries of the official
 *    ascon-c LWC_AEAD_KAT_128_128.txt / LWC_HASH_KAT_256.txt (Count given),
 *    as also used by NIST's ACVP server tests;
 *  - Ascon-128a v1.2: entries of ascon-c crypto_aead/ascon128av12/
 *    LWC_AEAD_KAT_128_128.txt;
 *  - AES-128-GCM: test cases 1-3 of the GCM specification (McGrew-Viega),
 *    and the portable GCM against OpenSSL's on random lengths;
 *  - OCB3, CCM, the re-keying PRF: the table of bench/baselines/
 *    kat_vectors.h (RFC 7253 Appendix A, SP 800-38C Appendix C, RFC 3610),
 *    RFC 7253's iterated test, and OpenSSL's OCB, CCM and AES on random
 *    inputs;
 *  - UMAC-64 / UMAC-128: RFC 4418 section 5 (the same table), and nettle's
 *    umac64/umac128 on random keys, nonces and lengths;
 *  - SKINNY-128-256/384 and ForkSkinny-128-256/384: bench/baselines/
 *    forkskinny_vectors.h (the SKINNY paper; the ForkAE reference code),
 *    both branches together and each alone;
 *  - SuperSonic on ForkSkinny-128-384/256: bench/baselines/
 *    sonikku_vectors.h (the Sonikku reference code), each half alone too;
 *  - AEZ v5: bench/baselines/aez_vectors.h (Krovetz's reference code, and
 *    Yawning's aez testdata), each also decrypted, in place, and refused
 *    with every plaintext byte wiped once one ciphertext bit is flipped;
 *  - every scheme: epochs round-trip through its receiver, a flipped
 *    ciphertext or tag bit is refused with no plaintext and no state change;
 *    portable and OpenSSL variants agree byte for byte; the Diamond wrapper
 *    agrees with the core's dmd_open.
 * Built twice (ASCON_BYTES=0 and 1) so both Ascon layouts are checked.
 */
#define SCHEME_OPENSSL 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/umac.h>
#include <openssl/evp.h>

#include <diamond/core.h>
#include <diamond/util.h>
#include "tap.h"
#include "aead.h"
#include "aez.h"
#include "aez_vectors.h"
#include "ascon.h"
#include "gcm.h"
#include "forkskinny.h"
#include "forkskinny_vectors.h"
#include "kat_vectors.h"
#include "skinny128.h"
#include "sonikku_vectors.h"
#include "supersonic.h"
#include "rekey.h"
#include "umac.h"
#include "scheme.h"

static size_t unhex(uint8_t *out, const char *h)
{
	size_t n = 0;
	unsigned int v;

	while (h[0] && h[1]) {
		sscanf(h, "%2x", &v);
		out[n++] = (uint8_t)v;
		h += 2;
	}
	return n;
}

static void seq(uint8_t *p, size_t n, uint8_t start)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(start + i);
}

/* ---- Ascon AEAD --------------------------------------------------------- */

struct aead_kat {
	int count;
	size_t ptlen, adlen;
	const char *ct;		/* ciphertext || tag */
};

/* SP 800-232 Ascon-AEAD128: Key 00..0F, Nonce 10..1F, PT 20.., AD 30.. */
static const struct aead_kat kat_aead128[] = {
	{ 1, 0, 0, "4F9C278211BEC9316BF68F46EE8B2EC6" },
	{ 2, 0, 1, "CCCB674FE18A09A285D6AB11B35675C0" },
	{ 10, 0, 9, "24F13284A0F90F906B18C7E4061C0896" },
	{ 34, 1, 0, "E8DD576ABA1CD3E6FC704DE02AEDB79588" },
	{ 35, 1, 1, "962B8016836C75A7D86866588CA245D886" },
	{ 298, 9, 0, "E8C3DEEE246CC5EAE3329BC950AE101B9247F3605EBEDCBF6C" },
	{ 1016, 30, 25, "16CB13E5853541E2F36B38240366ACEE48E0B21D8A3424739FCD62AC2DDE"
			"B2D36A792BA208D4158CDF4E968FA99F" },
	{ 1057, 32, 0, "E8C3DEEE246CC5EAE3E872313897A2BB6089AA3E15E80307970F2D1F006654C2"
		       "AAA5FA172CB9F07D07463CEFC7440BC1" },
};

/*
 * Ascon-128a v1.2 (ascon-c v1.2.8 crypto_aead/ascon128av12/
 * LWC_AEAD_KAT_128_128.txt): Key 00..0F, Nonce 00..0F, PT 00.., AD 00..
 */
static const struct aead_kat kat_128a[] = {
	{ 1, 0, 0, "7A834E6F09210957067B10FD831F0078" },
	{ 2, 0, 1, "AF3031B07B129EC84153373DDCABA528" },
	{ 14, 0, 13, "CC13A2922A77F0461652BBADDBA24E11" },
	{ 17, 0, 16, "56C15EB024DE91CA0165362A49B31EBD" },
	{ 22, 0, 21, "B399034306E26E73E8B9C160FF5281B3" },
	{ 68, 2, 1, "E92DDC373C1745EB7E1F648BAEAE0F774787" },
	{ 100, 3, 0, "6E490C898CD14E8316E149A6EDFC3B16C23A4E" },
	{ 529, 16, 0, "6E490CFED5B3546767350CD83C4ACFBDB10F611B7D79278BD8067FC1BCDF39BE" },
	{ 537, 16, 8, "34D3B7EDB89B1D5067C4EC9EB8052962522E547863AC130D032A06927D4261DB" },
	{ 545, 16, 16, "52499AC9C84323A4AE24EAECCF45C137316D7AB17724BA67A85ECD3C0457C459" },
	{ 826, 25, 0, "6E490CFED5B3546767350CD83C4ACFBD4CFB4BD07ABF5BC24DB6518F49190647"
		      "CB245D6C6A30B3ACB0" },
	{ 977, 29, 19, "B7534C82A8D1D5B6B6D327FA143141478B1139E4800A19269418625516EE4117"
		       "00FF2650AB20D5E25B56A29435" },
	{ 1089, 32, 32, "A55236AC020DBDA74CE6CCD10C68C4D8514450A382BC87C68946D86A921DD88E"
			"2ADDDFBBE77D4112830E01960B9D38D5" },
};

static void test_aead(const char *name, enum ascon_variant v,
		      const struct aead_kat *k, size_t nk, uint8_t nonce0,
		      uint8_t pt0, uint8_t ad0)
{
	uint8_t key[16], nonce[16], pt[64], ad[64], exp[96], ct[64], tag[16];
	uint8_t back[64];
	size_t i, n;

	seq(key, 16, 0);
	seq(nonce, 16, nonce0);
	for (i = 0; i < nk; i++, k++) {
		seq(pt, k->ptlen, pt0);
		seq(ad, k->adlen, ad0);
		n = unhex(exp, k->ct);
		ascon_aead_encrypt(v, key, nonce, ad, k->adlen, pt, k->ptlen,
				   ct, tag);
		tap_result(n == k->ptlen + 16 && !memcmp(ct, exp, k->ptlen) &&
			   !memcmp(tag, exp + k->ptlen, 16),
			   "%s encrypt KAT Count = %d", name, k->count);
		tap_result(ascon_aead_decrypt(v, key, nonce, ad, k->adlen, exp,
					      k->ptlen, exp + k->ptlen, back) == 0 &&
			   !memcmp(back, pt, k->ptlen),
			   "%s decrypt KAT Count = %d", name, k->count);
		exp[k->ptlen + 15] ^= 1;
		tap_result(ascon_aead_decrypt(v, key, nonce, ad, k->adlen, exp,
					      k->ptlen, exp + k->ptlen, back) != 0,
			   "%s decrypt refuses a flipped tag, Count = %d", name,
			   k->count);
	}
}

/* ---- Ascon-Hash256 ------------------------------------------------------ */

static const struct {
	int count;
	const char *md;
} kat_hash[] = {
	{ 1, "0B3BE5850F2F6B98CAF29F8FDEA89B64A1FA70AA249B8F839BD53BAA304D92B2" },
	{ 2, "0728621035AF3ED2BCA03BF6FDE900F9456F5330E4B5EE23E7F6A1E70291BC80" },
	{ 3, "6115E7C9C4081C2797FC8FE1BC57A836AFA1C5381E556DD583860CA2DFB48DD2" },
	{ 8, "3E4D273BA69B3B9C53216107E88B75CDBEEDBCBF8FAF0219C3928AB62B116577" },
	{ 9, "B88E497AE8E6FB641B87EF622EB8F2FCA0ED95383F7FFEBE167ACF1099BA764F" },
	{ 16, "6421330DF99C05EB715415EE17B455F2674F862AE3CC5BADFFE43A4A3ED273E1" },
	{ 17, "3158C1940A2FBADBD68AB661777859B94A689E4EFC375911467ADDD641835C38" },
	{ 33, "BD9D3D60A66B53868EAB2A5C74539A518A1F60F01EB176C60E43DEE81680B33E" },
	{ 65, "A6F241BEA5D16405812C06019D9F72D60132BD7C089C60549B2E56BB01C64F48" },
};

static void test_hash(void)
{
	uint8_t msg[64], md[32], exp[32];
	size_t i;

	seq(msg, sizeof(msg), 0);
	for (i = 0; i < sizeof(kat_hash) / sizeof(kat_hash[0]); i++) {
		unhex(exp, kat_hash[i].md);
		ascon_hash256(md, msg, (size_t)kat_hash[i].count - 1);
		tap_result(!memcmp(md, exp, 32), "Ascon-Hash256 KAT Count = %d",
			   kat_hash[i].count);
	}
}

/* ---- GCM ---------------------------------------------------------------- */

static void test_gcm(void)
{
	static const char *k3 = "feffe9928665731c6d6a8f9467308308";
	static const char *iv3 = "cafebabefacedbaddecaf888";
	static const char *p3 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
				"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
	static const char *c3 = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
				"21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985";
	uint8_t key[16] = { 0 }, iv[12] = { 0 }, p[64] = { 0 }, c[64], t[16];
	uint8_t e[64], et[16], back[64];
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	unsigned int seed = 12345, i, len, ok = 1;
	int n;

	gcm_encrypt(key, iv, p, 0, c, t);
	unhex(et, "58e2fccefa7e3061367f1d57a4e7455a");
	tap_result(!memcmp(t, et, 16), "AES-128-GCM test case 1");
	gcm_encrypt(key, iv, p, 16, c, t);
	unhex(e, "0388dace60b6a392f328c2b971b2fe78");
	unhex(et, "ab6e47d42cec13bdf53a67b21257bddf");
	tap_result(!memcmp(c, e, 16) && !memcmp(t, et, 16),
		   "AES-128-GCM test case 2");
	unhex(key, k3);
	unhex(iv, iv3);
	unhex(p, p3);
	unhex(e, c3);
	unhex(et, "4d5c2af327cd64a62cf35abd2ba6fab4");
	gcm_encrypt(key, iv, p, 64, c, t);
	gcm_decrypt_tag(key, iv, c, 64, back, t);
	tap_result(!memcmp(c, e, 64) && !memcmp(t, et, 16) &&
		   !memcmp(back, p, 64), "AES-128-GCM test case 3");

	for (i = 0; i < 200; i++) {
		uint8_t oc[64], ot[16];
		unsigned int j;

		len = (unsigned int)rand_r(&seed) % 65;
		for (j = 0; j < 16; j++)
			key[j] = (uint8_t)rand_r(&seed);
		for (j = 0; j < 12; j++)
			iv[j] = (uint8_t)rand_r(&seed);
		for (j = 0; j < len; j++)
			p[j] = (uint8_t)rand_r(&seed);
		gcm_encrypt(key, iv, p, len, c, t);
		EVP_EncryptInit_ex(x, EVP_aes_128_gcm(), NULL, key, iv);
		EVP_EncryptUpdate(x, oc, &n, p, (int)len);
		EVP_EncryptFinal_ex(x, oc + n, &n);
		EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, ot);
		gcm_decrypt_tag(key, iv, c, len, back, et);
		ok &= !memcmp(c, oc, len) && !memcmp(t, ot, 16) &&
		      !memcmp(et, ot, 16) && !memcmp(back, p, len);
	}
	tap_result(ok, "portable AES-128-GCM equals OpenSSL on 200 random messages");
	EVP_CIPHER_CTX_free(x);
}

/* ---- OCB3, CCM, GCM table; re-keying PRF -------------------------------- */

static void test_aead_vecs(void)
{
	uint8_t key[16], n[16], a[40], p[40], e[56], c[56], t[16], back[40];
	size_t i, nl, al, pl, el;

	for (i = 0; i < sizeof(aead_vecs) / sizeof(aead_vecs[0]); i++) {
		const struct aead_vec *v = &aead_vecs[i];
		struct ocb3_key ok3;
		struct dmd_aes128 aes;
		int ok = 1;

		unhex(key, v->key);
		nl = unhex(n, v->nonce);
		al = unhex(a, v->ad);
		pl = unhex(p, v->pt);
		el = unhex(e, v->ct);
		memset(c, 0, sizeof(c));
		switch (v->mode) {
		case 'o':
			ocb3_init(&ok3, key);
			ocb3_encrypt(&ok3, n, nl, a, al, p, pl, c, c + pl);
			ocb3_wipe(&ok3);
			break;
		case 'c':
			dmd_aes128_init(&aes, key);
			ccm_encrypt(&aes, n, nl, a, al, p, pl, c, c + pl, v->tlen);
			ccm_decrypt_tag(&aes, n, nl, a, al, e, pl, back, t, v->tlen);
			ok = !memcmp(back, p, pl) && !memcmp(t, e + pl, v->tlen);
			e[el - 1] ^= 1;
			ccm_decrypt_tag(&aes, n, nl, a, al, e, pl, back, t, v->tlen);
			ok &= !!memcmp(t, e + pl, v->tlen);
			e[el - 1] ^= 1;
			dmd_aes128_wipe(&aes);
			break;
		default:
			gcm_encrypt(key, n, p, pl, c, c + pl);
		}
		tap_result(ok && el == pl + v->tlen && !memcmp(c, e, el),
			   "%s: %s", v->mode == 'o' ? "OCB3" : v->mode == 'c' ?
			   "CCM" : "GCM", v->name);
	}
}

/* ---- AEZ v5 ----------------------------------------------------------- */

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	while (n--)
		acc |= *p++;
	return !acc;
}

/*
 * Encrypt @m and compare with @e (len + tau bytes); decrypt it back; then
 * flip one bit (a different place per @flip) and expect a refusal with the
 * whole output buffer wiped. With tau = 0 there is nothing to check: the
 * flipped ciphertext must then decrypt to a different plaintext.
 */
static int aez_check(const struct aez_key *k, const uint8_t *n, size_t nl,
		     const uint8_t *a, long al, const uint8_t *m, size_t len,
		     size_t tau, uint8_t *e, size_t flip)
{
	uint8_t c[272], back[272];
	const uint8_t *ad = al < 0 ? NULL : a;
	size_t adl = al < 0 ? 0 : (size_t)al, cl = len + tau;
	int ok;

	aez_encrypt(k, n, nl, ad, adl, tau, m, len, c);
	ok = !memcmp(c, e, cl);
	memset(back, 0xee, sizeof(back));
	ok &= aez_decrypt(k, n, nl, ad, adl, tau, e, cl, back) == 0 &&
	      !memcmp(back, m, len) && all_zero(back + len, tau);
	memcpy(back, m, len);
	aez_encrypt(k, n, nl, ad, adl, tau, back, len, back);
	ok &= !memcmp(back, e, cl);
	e[flip % cl] ^= (uint8_t)(1u << (flip % 8));
	memset(back, 0xee, sizeof(back));
	if (tau)
		ok &= aez_decrypt(k, n, nl, ad, adl, tau, e, cl, back) == -1 &&
		      all_zero(back, cl);
	else
		ok &= aez_decrypt(k, n, nl, ad, adl, 0, e, cl, back) == 0 &&
		      memcmp(back, m, len);
	e[flip % cl] ^= (uint8_t)(1u << (flip % 8));
	return ok;
}

static void test_aez_vecs(void)
{
	uint8_t key[48], n[16], a[40], m[256], e[272];
	struct aez_key k;
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)i;
	seq(n, sizeof(n), 0xa0);
	seq(a, sizeof(a), 0x40);
	for (i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)(7 * i + 3);
	for (i = 0; i < sizeof(aez_vecs) / sizeof(aez_vecs[0]); i++) {
		const struct aez_vec *v = &aez_vecs[i];
		size_t el = unhex(e, v->ct);

		aez_init(&k, key, v->klen);
		tap_result(el == (size_t)v->len + v->tau &&
			   aez_check(&k, n, v->nlen, a, v->adlen, m, v->len,
				     v->tau, e, 7 * i + 5),
			   "AEZ v5: %u-byte key, %u-byte nonce, AD %d, %u-byte "
			   "message, tau %u (reference code)", v->klen, v->nlen,
			   v->adlen, v->len, v->tau);
	}
	for (i = 0; i < sizeof(aez_vecs_x) / sizeof(aez_vecs_x[0]); i++) {
		const struct aez_xvec *v = &aez_vecs_x[i];
		size_t kl = unhex(key, v->key), nl = unhex(n, v->nonce);
		size_t len = unhex(m, v->pt), el = unhex(e, v->ct);

		aez_init(&k, key, kl);
		tap_result(el == len + 16 &&
			   aez_check(&k, n, nl, NULL, -1, m, len, 16, e, i + 40),
			   "AEZ v5: %zu-byte key, %zu-byte message (Yawning/aez "
			   "testdata)", kl, len);
	}
	aez_wipe(&k);
}

/* RFC 7253 Appendix A, the iterated test for TAGLEN = 128. */
static void test_ocb3_iterated(void)
{
	static uint8_t cc[128 * (3 * 128 + 48)];
	uint8_t key[16] = { 0 }, s[128] = { 0 }, n[12] = { 0 }, e[16];
	struct ocb3_key k;
	size_t off = 0, i;

	key[15] = 128;
	ocb3_init(&k, key);
	for (i = 0; i < 128; i++) {
		dmd_store32_be(n + 8, (uint32_t)(3 * i + 1));
		ocb3_encrypt(&k, n, 12, s, i, s, i, cc + off, cc + off + i);
		off += i + 16;
		dmd_store32_be(n + 8, (uint32_t)(3 * i + 2));
		ocb3_encrypt(&k, n, 12, NULL, 0, s, i, cc + off, cc + off + i);
		off += i + 16;
		dmd_store32_be(n + 8, (uint32_t)(3 * i + 3));
		ocb3_encrypt(&k, n, 12, s, i, NULL, 0, cc + off, cc + off);
		off += 16;
	}
	dmd_store32_be(n + 8, 385);
	ocb3_encrypt(&k, n, 12, cc, off, NULL, 0, NULL, e);
	ocb3_wipe(&k);
	unhex(s, "67e944d23256c5e0b6c61fa22fdf1ea2");
	tap_result(!memcmp(e, s, 16), "OCB3: RFC 7253 A iterated test, TAGLEN 128");
}

/* Our OCB3 and CCM against OpenSSL's, random keys, nonces, lengths. */
static void test_aead_random(void)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	uint8_t key[16], n[12], a[48], p[160], c[160], t[16], oc[160], ot[16];
	struct ocb3_key k;
	struct dmd_aes128 aes;
	unsigned int seed = 777, i, j, pl, al;
	int len, okc = 1, oko = 1, mode;

	for (i = 0; i < 400; i++) {
		mode = i & 1;
		pl = (unsigned int)rand_r(&seed) % 161;
		al = (unsigned int)rand_r(&seed) % 49;
		for (j = 0; j < 16; j++)
			key[j] = (uint8_t)rand_r(&seed);
		for (j = 0; j < 12; j++)
			n[j] = (uint8_t)rand_r(&seed);
		for (j = 0; j < al; j++)
			a[j] = (uint8_t)rand_r(&seed);
		for (j = 0; j < pl; j++)
			p[j] = (uint8_t)rand_r(&seed);
		EVP_EncryptInit_ex(x, mode ? EVP_aes_128_ocb() : EVP_aes_128_ccm(),
				   NULL, NULL, NULL);
		EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL);
		EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, NULL);
		EVP_EncryptInit_ex(x, NULL, NULL, key, n);
		if (!mode)
			EVP_EncryptUpdate(x, NULL, &len, NULL, (int)pl);
		if (al)
			EVP_EncryptUpdate(x, NULL, &len, a, (int)al);
		EVP_EncryptUpdate(x, oc, &len, p, (int)pl);
		EVP_EncryptFinal_ex(x, oc + len, &len);
		EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, ot);
		if (mode) {
			ocb3_init(&k, key);
			ocb3_encrypt(&k, n, 12, a, al, p, pl, c, t);
			oko &= !memcmp(c, oc, pl) && !memcmp(t, ot, 16);
		} else {
			dmd_aes128_init(&aes, key);
			ccm_encrypt(&aes, n, 12, a, al, p, pl, c, t, 16);
			okc &= !memcmp(c, oc, pl) && !memcmp(t, ot, 16);
		}
	}
	EVP_CIPHER_CTX_free(x);
	tap_result(oko, "OCB3 equals OpenSSL's aes-128-ocb on 200 random inputs");
	tap_result(okc, "CCM equals OpenSSL's aes-128-ccm on 200 random inputs");
}

static void aes_ecb(const uint8_t key[16], const uint8_t in[16], uint8_t out[16])
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n;

	EVP_EncryptInit_ex(x, EVP_aes_128_ecb(), NULL, key, NULL);
	EVP_CIPHER_CTX_set_padding(x, 0);
	EVP_EncryptUpdate(x, out, &n, in, 16);
	EVP_CIPHER_CTX_free(x);
}

static void test_rekey(void)
{
	uint8_t k[16], x[16], f[16], e[16], kx[16];
	struct dmd_aes128 aes;
	unsigned int seed = 4242, i, j;
	int ok = 1;

	for (i = 0; i < sizeof(rekey_vecs) / sizeof(rekey_vecs[0]); i++) {
		unhex(k, rekey_vecs[i].k);
		unhex(x, rekey_vecs[i].x);
		unhex(e, rekey_vecs[i].f);
		dmd_aes128_init(&aes, k);
		rekey_prf(&aes, x, f);
		tap_result(!memcmp(f, e, 16), "re-keying PRF: rekey-vectors.sh line %u",
			   i + 1);
	}
	for (i = 0; i < 100; i++) {
		for (j = 0; j < 16; j++) {
			k[j] = (uint8_t)rand_r(&seed);
			x[j] = (uint8_t)rand_r(&seed);
		}
		aes_ecb(k, x, kx);
		aes_ecb(kx, x, e);
		dmd_aes128_init(&aes, k);
		rekey_prf(&aes, x, f);
		ok &= !memcmp(f, e, 16);
	}
	dmd_aes128_wipe(&aes);
	tap_result(ok, "re-keying PRF equals OpenSSL E(E(K, X), X) on 100 random inputs");
}

/* ---- SKINNY-128, ForkSkinny-128 ------------------------------------------- */

static void test_skinny_vecs(void)
{
	uint8_t tk[48], in[16], e0[16], e1[16], c0[16], c1[16], l[16], r[16];
	size_t i;

	for (i = 0; i < sizeof(skinny_vecs) / sizeof(skinny_vecs[0]); i++) {
		const struct skinny_vec *v = &skinny_vecs[i];
		unsigned int bits = 128 * v->ntk;

		unhex(tk, v->tweakey);
		unhex(in, v->in);
		unhex(e1, v->c1);
		if (!v->fork) {
			skinny128_encrypt(tk, v->ntk, in, c1);
			tap_result(!memcmp(c1, e1, 16), "SKINNY-128-%u: paper vector",
				   bits);
			continue;
		}
		unhex(e0, v->c0);
		forkskinny128_encrypt(tk, v->ntk, in, c0, c1);
		forkskinny128_encrypt(tk, v->ntk, in, l, NULL);
		forkskinny128_encrypt(tk, v->ntk, in, NULL, r);
		tap_result(!memcmp(c0, e0, 16) && !memcmp(c1, e1, 16) &&
			   !memcmp(l, e0, 16) && !memcmp(r, e1, 16),
			   "ForkSkinny-128-%u: ForkAE reference row %zu (C0, C1; "
			   "each alone)", bits, i);
	}
}

static void test_supersonic_vecs(void)
{
	static const uint8_t key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
					 12, 13, 14, 15 };
	uint8_t m[SUPERSONIC_KAT_MAXLEN], e[32], l[16], r[16], l1[16], r1[16];
	struct supersonic_key k;
	size_t i, j;

	for (j = 0; j < sizeof(m); j++)
		m[j] = (uint8_t)(0x20 + j);
	for (i = 0; i < sizeof(supersonic_vecs) / sizeof(supersonic_vecs[0]); i++) {
		const struct supersonic_vec *v = &supersonic_vecs[i];

		unhex(e, v->tag);
		supersonic_init(&k, key, v->ntk);
		supersonic_mac(&k, m, v->len, l, r);
		supersonic_mac(&k, m, v->len, l1, NULL);
		supersonic_mac(&k, m, v->len, NULL, r1);
		tap_result(!memcmp(l, e, 16) && !memcmp(r, e + 16, 16) &&
			   !memcmp(l1, e, 16) && !memcmp(r1, e + 16, 16),
			   "SuperSonic-%u: Sonikku reference, %u bytes",
			   128 * v->ntk, v->len);
	}
	supersonic_wipe(&k);
}

/* ---- UMAC ------------------------------------------------------------------ */

static void test_umac_vecs(void)
{
	static uint8_t msg[1 << 20];
	uint8_t tag[16], e[16];
	struct umac_key k;
	size_t i, j, pl;
	unsigned int t;

	for (i = 0; i < sizeof(umac_vecs) / sizeof(umac_vecs[0]); i++) {
		const struct umac_vec *v = &umac_vecs[i];

		pl = strlen(v->pat);
		for (j = 0; j < v->len; j++)
			msg[j] = (uint8_t)v->pat[j % pl];
		for (t = 8; t <= 16; t += 8) {
			umac_init(&k, (const uint8_t *)"abcdefghijklmnop", t);
			umac_tag(&k, (const uint8_t *)"bcdefghi", 8, msg, v->len, tag);
			unhex(e, t == 8 ? v->tag64 : v->tag128);
			tap_result(!memcmp(tag, e, t), "UMAC-%u: %s",
				   t * 8, v->name);
		}
	}
	umac_wipe(&k);
}

static void test_umac_random(void)
{
	static uint8_t msg[5000];
	uint8_t key[16], n[16], tag[16], ref[16];
	struct umac64_ctx c64;
	struct umac128_ctx c128;
	struct umac_key k;
	unsigned int seed = 31337, i, j, len, nl, ok = 1;

	for (i = 0; i < 200; i++) {
		len = (unsigned int)rand_r(&seed) % (i < 100 ? 200 : 5000);
		nl = 1 + (unsigned int)rand_r(&seed) % 16;
		for (j = 0; j < 16; j++) {
			key[j] = (uint8_t)rand_r(&seed);
			n[j] = (uint8_t)rand_r(&seed);
		}
		for (j = 0; j < len; j++)
			msg[j] = (uint8_t)rand_r(&seed);
		if (i & 1) {
			umac128_set_key(&c128, key);
			umac128_set_nonce(&c128, nl, n);
			umac128_update(&c128, len, msg);
			umac128_digest(&c128, 16, ref);
		} else {
			umac64_set_key(&c64, key);
			umac64_set_nonce(&c64, nl, n);
			umac64_update(&c64, len, msg);
			umac64_digest(&c64, 8, ref);
		}
		umac_init(&k, key, i & 1 ? 16 : 8);
		umac_tag(&k, n, nl, msg, len, tag);
		ok &= !memcmp(tag, ref, i & 1 ? 16 : 8);
	}
	umac_wipe(&k);
	tap_result(ok, "UMAC-64/128 equal nettle on 200 random keys, nonces, lengths");
}

/* ---- schemes ------------------------------------------------------------ */

struct run {
	uint8_t *c, *m, *back, tag[16];
};

/* Seal one epoch of n records with the given offline budget per record. */
static void seal_epoch(const struct scheme *s, void *ctx, size_t rec,
		       uint32_t n, size_t pre, struct run *r, unsigned int *seed)
{
	size_t stride = rec + s->rec_overhead, i;
	uint32_t j;

	s->begin(ctx);
	s->offline(ctx, pre);
	for (j = 0; j < n; j++) {
		for (i = 0; i < rec; i++)
			r->m[j * rec + i] = (uint8_t)rand_r(seed);
		s->seal(ctx, r->m + j * rec, r->c + j * stride);
		if (j % 3 == 2)
			s->offline(ctx, 2);
	}
	s->close(ctx, r->tag);
}

static int scheme_roundtrip(const struct scheme *s, size_t rec, uint32_t b,
			    size_t winslots)
{
	uint8_t key[32], *win, *rwin;
	size_t stride = rec + s->rec_overhead, ws, rws, i;
	void *tx = calloc(1, s->ctx_size);
	struct run r;
	unsigned int seed = (unsigned int)(rec * 131 + b * 7 + winslots);
	int ok = 1, e;

	seq(key, 32, 0x40);
	ws = s->slot_size(rec) * winslots;
	rws = s->slot_size(rec) ? s->slot_size(rec) * (b + 1) : 0;
	if (rws < (32 + rec) * (b + 1))
		rws = (32 + rec) * (b + 1);	/* Diamond's receiver slot */
	win = ws ? malloc(ws) : NULL;
	rwin = malloc(rws);
	r.c = malloc(stride * b + 1);
	r.m = malloc(rec * b + 1);
	r.back = malloc(rec * b + 1);
	if (!tx || s->init(tx, key, rec, b, win, ws, rwin, rws))
		return 0;
	for (e = 0; e < 3; e++) {
		uint32_t n = e == 1 && b > 1 ? b - 1 : b;	/* a short epoch */

		seal_epoch(s, tx, rec, n, winslots, &r, &seed);
		s->rx_offline(tx, n);
		/* Flip one ciphertext bit: refused, nothing released. */
		r.c[(stride * n) / 2] ^= 0x10;
		if (s->rx_open(tx, r.c, n, r.tag, r.back) == 0)
			ok = 0;
		for (i = 0; i < rec * n; i++)
			ok &= r.back[i] == 0;
		r.c[(stride * n) / 2] ^= 0x10;
		/* Flip a tag bit (aggregate schemes). */
		if (!s->rec_overhead) {
			s->rx_offline(tx, n);
			r.tag[3] ^= 1;
			if (s->rx_open(tx, r.c, n, r.tag, r.back) == 0)
				ok = 0;
			r.tag[3] ^= 1;
		}
		/* The state did not move: the genuine epoch still opens. */
		s->rx_offline(tx, n);
		ok &= s->rx_open(tx, r.c, n, r.tag, r.back) == 0 &&
		      !memcmp(r.back, r.m, rec * n);
	}
	s->wipe(tx);
	free(tx);
	free(win);
	free(rwin);
	free(r.c);
	free(r.m);
	free(r.back);
	return ok;
}

/* Two schemes must produce the same ciphertexts and tags. */
static int schemes_agree(const struct scheme *a, const struct scheme *b,
			 size_t rec, uint32_t n)
{
	uint8_t key[32], tag[2][16];
	uint8_t *c[2], *m = malloc(rec * n + 1), *w[2];
	const struct scheme *s[2] = { a, b };
	size_t stride = rec + a->rec_overhead;
	unsigned int seed;
	int ok, i;
	uint32_t j;

	seq(key, 32, 0x55);
	for (i = 0; i < 2; i++) {
		void *ctx = calloc(1, s[i]->ctx_size);
		size_t ws = s[i]->slot_size(rec) * 4;

		w[i] = malloc(ws);
		c[i] = malloc(stride * n + 1);
		s[i]->init(ctx, key, rec, n, w[i], ws, NULL, 0);
		seed = 99;
		s[i]->begin(ctx);
		s[i]->offline(ctx, 4);
		for (j = 0; j < n; j++) {
			size_t k;

			for (k = 0; k < rec; k++)
				m[j * rec + k] = (uint8_t)rand_r(&seed);
			s[i]->seal(ctx, m + j * rec, c[i] + j * stride);
		}
		s[i]->close(ctx, tag[i]);
		s[i]->wipe(ctx);
		free(ctx);
	}
	ok = a->rec_overhead == b->rec_overhead &&
	     !memcmp(c[0], c[1], stride * n) && !memcmp(tag[0], tag[1], 16);
	for (i = 0; i < 2; i++) {
		free(c[i]);
		free(w[i]);
	}
	free(m);
	return ok;
}

/* The Diamond wrapper's epoch, as a spec body, opens with dmd_open. */
static int diamond_matches_core(const struct scheme *s, unsigned int suite,
				size_t rec, uint32_t n)
{
	uint8_t key[32], tag[16];
	size_t ws = s->slot_size(rec) * (n + 1), body = n * (2 + rec) + 16;
	uint8_t *w = malloc(ws), *m = malloc(rec * n), *c = malloc(rec * n);
	uint8_t *ct = malloc(body), *pt = malloc(body);
	void *ctx = calloc(1, s->ctx_size);
	struct dmd_state st = { 0 };
	uint32_t j;
	int ok;

	seq(key, 32, 0x21);
	memset(m, 'x', rec * n);
	s->init(ctx, key, rec, n, w, ws, NULL, 0);
	s->begin(ctx);
	s->offline(ctx, n + 1);
	for (j = 0; j < n; j++)
		s->seal(ctx, m + j * rec, c + j * rec);
	s->close(ctx, tag);
	for (j = 0; j < n; j++) {
		ct[j * (2 + rec)] = (uint8_t)rec;
		ct[j * (2 + rec) + 1] = (uint8_t)(rec >> 8);
		memcpy(ct + j * (2 + rec) + 2, c + j * rec, rec);
	}
	memcpy(ct + n * (2 + rec), tag, 16);
	st.suite = (uint8_t)suite;
	st.agg = DMD_AGG_XOR;
	st.b = n;
	st.device_id = 1;
	memcpy(st.key, key, dmd_key_size(suite));
	ok = dmd_open(&st, 0, NULL, 0, ct, body, pt, DMD_DEFAULT_MAX_SKIP) ==
	     DMD_OK && st.epoch == 1;
	for (j = 0; ok && j < n; j++)
		ok = !memcmp(pt + j * (2 + rec) + 2, m + j * rec, rec);
	s->wipe(ctx);
	free(ctx);
	free(w);
	free(m);
	free(c);
	free(ct);
	free(pt);
	return ok;
}

int main(void)
{
	static const struct scheme *all[] = {
		&scheme_diamond1, &scheme_diamond2, &scheme_graphene1,
		&scheme_graphene2, &scheme_faae1, &scheme_faae2,
		&scheme_faae2_128a, &scheme_faae1_ossl, &scheme_graphene1_ossl,
		&scheme_graphene2_ossl, &scheme_gcm_ossl, &scheme_chapoly_ossl,
		&scheme_ocb_ossl, &scheme_gcm, &scheme_ccm, &scheme_umac64,
		&scheme_umac128, &scheme_aez, &scheme_supersonic, &scheme_zmac256,
		&scheme_zmac192, &scheme_pmac1, &scheme_pmac2x256, &scheme_vmac64,
		&scheme_vmac128,
	};
	static const size_t recs[] = { 16, 64, 128, 5 };
	static const uint32_t bs[] = { 1, 7 };
	size_t i, r, bi;

	tap_header();
	tap_diag("Ascon layout: %s", ASCON_BYTES ? "bytes (AVR)" : "64-bit words");
	test_aead("Ascon-AEAD128", ASCON_AEAD128, kat_aead128,
		  sizeof(kat_aead128) / sizeof(kat_aead128[0]), 0x10, 0x20, 0x30);
	test_aead("Ascon-128a", ASCON_128A_V12, kat_128a,
		  sizeof(kat_128a) / sizeof(kat_128a[0]), 0x00, 0x00, 0x00);
	test_hash();
	test_gcm();
	test_aead_vecs();
	test_ocb3_iterated();
	test_aead_random();
	test_rekey();
	test_skinny_vecs();
	test_supersonic_vecs();
	test_umac_vecs();
	test_umac_random();
	test_aez_vecs();
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		int ok = 1;

		for (r = 0; r < sizeof(recs) / sizeof(recs[0]); r++)
			for (bi = 0; bi < 2; bi++) {
				ok &= scheme_roundtrip(all[i], recs[r], bs[bi], 0);
				ok &= scheme_roundtrip(all[i], recs[r], bs[bi], 3);
				ok &= scheme_roundtrip(all[i], recs[r], bs[bi], bs[bi] + 1);
			}
		tap_result(ok, "%s: epochs round-trip; tampering refused, nothing "
			   "released, state kept", all[i]->name);
	}
	tap_result(schemes_agree(&scheme_faae1, &scheme_faae1_ossl, 64, 9) &&
		   schemes_agree(&scheme_faae1, &scheme_faae1_ossl, 5, 3),
		   "FAAE1 portable and OpenSSL agree byte for byte");
	tap_result(schemes_agree(&scheme_graphene1, &scheme_graphene1_ossl, 128, 9),
		   "Graphene1 portable and OpenSSL SHA-256 agree");
	tap_result(schemes_agree(&scheme_graphene2, &scheme_graphene2_ossl, 16, 9),
		   "Graphene2 portable and OpenSSL SHA-256 agree");
	tap_result(schemes_agree(&scheme_gcm, &scheme_gcm_ossl, 64, 9) &&
		   schemes_agree(&scheme_gcm, &scheme_gcm_ossl, 95, 3),
		   "GCM portable and OpenSSL plain AES-128-GCM agree byte for byte");
	tap_result(schemes_agree(&scheme_ocb3, &scheme_ocb_ossl, 16, 9) &&
		   schemes_agree(&scheme_ocb3, &scheme_ocb_ossl, 95, 5) &&
		   schemes_agree(&scheme_ocb3, &scheme_ocb_ossl, 128, 3),
		   "OCB3 portable and OpenSSL AES-128-OCB agree byte for byte "
		   "(so OpenSSL's receiver opens it)");
	tap_result(diamond_matches_core(&scheme_diamond1, 1, 16, 5) &&
		   diamond_matches_core(&scheme_diamond1, 1, 128, 3),
		   "Diamond1 wrapper epochs open with the core's dmd_open");
	tap_result(diamond_matches_core(&scheme_diamond2, 2, 64, 5) &&
		   diamond_matches_core(&scheme_diamond2, 2, 5, 4),
		   "Diamond2 wrapper epochs open with the core's dmd_open");
	tap_trailing_plan();
	return tap_failed ? TAP_EXIT_FAIL : TAP_EXIT_PASS;
}
