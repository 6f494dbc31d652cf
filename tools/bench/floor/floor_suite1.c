// SPDX-License-Identifier: GPL-2.0
/*
 * Suite 1's primitives for the floor (floor.h), each way the kernel offers:
 *
 *   G = AES-128-CTR from the IV of the domain (spec section 1):
 *     ctr       the ctr(aes) skcipher of highest priority (the one
 *               diamond.ko's instance spawns under AF_ALG's mask 0):
 *               one setkey and one request per call
 *     ctr-sync  the same name with CRYPTO_ALG_ASYNC masked out
 *     cipher    the single-block "aes" cipher: setkey, one call per block
 *     aes-lib   lib/crypto aes_expandkey() and aes_encrypt() per block
 *   GHASH:
 *     ghash     the ghash ahash of highest priority: setkey and digest
 *     gf128mul  lib/crypto gf128mul_lle(), one multiplication per block
 *               (diamond.ko's path when its ghash is ghash-generic)
 *
 * A variant whose algorithm this kernel lacks fails its init and is left
 * out of the walk (floor_main.c says so).
 */
#include <crypto/aes.h>
#include <crypto/algapi.h>
#include <crypto/gf128mul.h>
#include <crypto/hash.h>
#include <crypto/internal/cipher.h>
#include <crypto/skcipher.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "diamond_compat.h"
#include "floor.h"

#define S1_K	16

/* The first counter block of @domain: 0, 2^127 for the epoch update. */
static void s1_iv(u8 iv[16], u8 domain)
{
	memset(iv, 0, 16);
	if (domain == FLOOR_DOM_EPOCH)
		iv[0] = 0x80;
}

/* The next counter block (128-bit big-endian); spec outputs stay short. */
static void s1_inc(u8 ctr[16])
{
	int i;

	for (i = 15; i >= 0 && !++ctr[i]; i--)
		;
}

/* An skcipher variant's state: the tfm, its request and IV. */
struct s1_skc {
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	struct crypto_wait wait;
	u8 iv[16];
};

static int skc_init(struct floor_prf *p, u32 mask)
{
	struct s1_skc *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	s->tfm = crypto_alloc_skcipher("ctr(aes)", 0, mask);
	if (IS_ERR(s->tfm)) {
		int err = PTR_ERR(s->tfm);

		kfree(s);
		return err;
	}
	s->req = skcipher_request_alloc(s->tfm, GFP_KERNEL);
	if (!s->req) {
		crypto_free_skcipher(s->tfm);
		kfree(s);
		return -ENOMEM;
	}
	crypto_init_wait(&s->wait);
	strscpy(p->driver, crypto_skcipher_driver_name(s->tfm),
		sizeof(p->driver));
	p->priv = s;
	return 0;
}

static int skc_init_any(struct floor_prf *p)
{
	return skc_init(p, 0);
}

static int skc_init_sync(struct floor_prf *p)
{
	return skc_init(p, CRYPTO_ALG_ASYNC);
}

static void skc_exit(struct floor_prf *p)
{
	struct s1_skc *s = p->priv;

	skcipher_request_free(s->req);
	crypto_free_skcipher(s->tfm);
	kfree(s);
}

/* As diamond.ko's stream_ctr(): the zero page in, @dst (linear) out. */
static int skc_gen(struct floor_prf *p, const u8 *key, u8 domain, u8 *dst,
		   unsigned int len)
{
	struct s1_skc *s = p->priv;
	struct scatterlist src, out;
	int err;

	err = crypto_skcipher_setkey(s->tfm, key, S1_K);
	if (err)
		return err;
	s1_iv(s->iv, domain);
	sg_init_table(&src, 1);
	sg_set_page(&src, ZERO_PAGE(0), len, 0);
	sg_init_one(&out, dst, len);
	skcipher_request_set_callback(s->req, CRYPTO_TFM_REQ_MAY_SLEEP,
				      crypto_req_done, &s->wait);
	skcipher_request_set_crypt(s->req, &src, &out, len, s->iv);
	return crypto_wait_req(crypto_skcipher_encrypt(s->req), &s->wait);
}

static struct floor_prf s1_ctr = {
	.name = "ctr", .init = skc_init_any, .exit = skc_exit, .gen = skc_gen,
};

static struct floor_prf s1_ctr_sync = {
	.name = "ctr-sync", .init = skc_init_sync, .exit = skc_exit,
	.gen = skc_gen,
};

static int cipher_init(struct floor_prf *p)
{
	struct crypto_cipher *tfm = crypto_alloc_cipher("aes", 0, 0);

	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	strscpy(p->driver, crypto_tfm_alg_driver_name(crypto_cipher_tfm(tfm)),
		sizeof(p->driver));
	p->priv = tfm;
	return 0;
}

static void cipher_exit(struct floor_prf *p)
{
	crypto_free_cipher(p->priv);
}

static int cipher_gen(struct floor_prf *p, const u8 *key, u8 domain,
		      u8 *dst, unsigned int len)
{
	u8 ctr[16];
	int err;

	err = crypto_cipher_setkey(p->priv, key, S1_K);
	if (err)
		return err;
	s1_iv(ctr, domain);
	for (; len; len -= 16, dst += 16) {
		crypto_cipher_encrypt_one(p->priv, dst, ctr);
		s1_inc(ctr);
	}
	return 0;
}

static struct floor_prf s1_cipher = {
	.name = "cipher", .init = cipher_init, .exit = cipher_exit,
	.gen = cipher_gen,
};

/*
 * aes_expandkey() and struct crypto_aes_ctx went with the AES library
 * rework of 7.2 (aes_prepareenckey(), diamond_compat.h): checked to 6.12.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 2, 0)
static int aeslib_init(struct floor_prf *p)
{
	struct crypto_aes_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	p->priv = ctx;
	strscpy(p->driver, "aes_encrypt", sizeof(p->driver));
	return ctx ? 0 : -ENOMEM;
}

static int aeslib_gen(struct floor_prf *p, const u8 *key, u8 domain,
		      u8 *dst, unsigned int len)
{
	struct crypto_aes_ctx *ctx = p->priv;
	u8 ctr[16];
	int err;

	err = aes_expandkey(ctx, key, S1_K);
	if (err)
		return err;
	s1_iv(ctr, domain);
	for (; len; len -= 16, dst += 16) {
		aes_encrypt(ctx, dst, ctr);
		s1_inc(ctr);
	}
	return 0;
}
#else
static int aeslib_init(struct floor_prf *p)
{
	return -ENOENT;
}

static int aeslib_gen(struct floor_prf *p, const u8 *key, u8 domain,
		      u8 *dst, unsigned int len)
{
	return -ENOENT;
}
#endif

static void aeslib_exit(struct floor_prf *p)
{
	kfree_sensitive(p->priv);
}

static struct floor_prf s1_aeslib = {
	.name = "aes-lib", .init = aeslib_init, .exit = aeslib_exit,
	.gen = aeslib_gen,
};

/* From 7.3 the AES-CTR library diamond.ko runs G on (diamond_compat.h). */
static int ctrlib_init(struct floor_prf *p)
{
	struct dmd_aes_lib *aes;

	if (!DMD_AES_CTR_IS_LIB)
		return -ENOENT;
	aes = kzalloc(sizeof(*aes), GFP_KERNEL);
	p->priv = aes;
	strscpy(p->driver, "aes_ctr", sizeof(p->driver));
	return aes ? 0 : -ENOMEM;
}

static int ctrlib_gen(struct floor_prf *p, const u8 *key, u8 domain,
		      u8 *dst, unsigned int len)
{
	u8 ctr[16];
	int err;

	err = dmd_aes_lib_setkey(p->priv, key, S1_K);
	if (err)
		return err;
	s1_iv(ctr, domain);
	dmd_aes_lib_ctr(p->priv, dst, page_address(ZERO_PAGE(0)), len, ctr);
	return 0;
}

static struct floor_prf s1_ctrlib = {
	.name = "ctr-lib", .init = ctrlib_init, .exit = aeslib_exit,
	.gen = ctrlib_gen,
};

/* The ghash ahash: HB || pad16(data) laid out linearly, as diamond.ko does. */
struct s1_ahash {
	struct crypto_ahash *tfm;
	struct ahash_request *req;
	struct crypto_wait wait;
	u8 buf[16 + 64];
	u8 digest[16];
};

static int ahash_init(struct floor_mac *m)
{
	struct s1_ahash *h = kzalloc(sizeof(*h), GFP_KERNEL);

	if (!h)
		return -ENOMEM;
	h->tfm = crypto_alloc_ahash("ghash", 0, 0);
	if (IS_ERR(h->tfm)) {
		int err = PTR_ERR(h->tfm);

		kfree(h);
		return err;
	}
	h->req = ahash_request_alloc(h->tfm, GFP_KERNEL);
	if (!h->req) {
		crypto_free_ahash(h->tfm);
		kfree(h);
		return -ENOMEM;
	}
	crypto_init_wait(&h->wait);
	strscpy(m->driver, crypto_ahash_driver_name(h->tfm), sizeof(m->driver));
	m->priv = h;
	return 0;
}

static void ahash_exit(struct floor_mac *m)
{
	struct s1_ahash *h = m->priv;

	ahash_request_free(h->req);
	crypto_free_ahash(h->tfm);
	kfree(h);
}

static int ahash_tag(struct floor_mac *m, const u8 *hp, const u8 *hb,
		     const u8 *data, unsigned int len, u8 *tag)
{
	struct s1_ahash *h = m->priv;
	unsigned int padded = round_up(len, 16);
	struct scatterlist sg;
	int err;

	if (padded > sizeof(h->buf) - 16)
		return -EMSGSIZE;
	memcpy(h->buf, hb, 16);
	memcpy(h->buf + 16, data, len);
	memset(h->buf + 16 + len, 0, padded - len);
	err = crypto_ahash_setkey(h->tfm, hp, 16);
	if (err)
		return err;
	sg_init_one(&sg, h->buf, 16 + padded);
	ahash_request_set_callback(h->req, CRYPTO_TFM_REQ_MAY_SLEEP,
				   crypto_req_done, &h->wait);
	ahash_request_set_crypt(h->req, &sg, h->digest, 16 + padded);
	err = crypto_wait_req(crypto_ahash_digest(h->req), &h->wait);
	if (!err)
		crypto_xor_cpy(tag, h->digest, hp + 16, 16);
	return err;
}

static struct floor_mac s1_ahash = {
	.name = "ghash", .init = ahash_init, .exit = ahash_exit,
	.tag = ahash_tag,
};

static int gf_init(struct floor_mac *m)
{
	strscpy(m->driver, "gf128mul_lle", sizeof(m->driver));
	return 0;
}

static void gf_exit(struct floor_mac *m)
{
}

/* From 7.1 the GHASH library diamond.ko calls (diamond_compat.h). */
static int ghashlib_init(struct floor_mac *m)
{
	strscpy(m->driver, "ghash_update", sizeof(m->driver));
	return DMD_GHASH_IS_LIB ? 0 : -ENOENT;
}

static int ghashlib_tag(struct floor_mac *m, const u8 *hp, const u8 *hb,
			const u8 *data, unsigned int len, u8 *tag)
{
	struct dmd_lib_ghash_state st;
	u8 out[16] = { };

	dmd_lib_ghash(&st, hp, hb, data, len, out);
	memzero_explicit(&st, sizeof(st));
	crypto_xor_cpy(tag, out, hp + 16, 16);
	return 0;
}

static struct floor_mac s1_ghashlib = {
	.name = "ghash-lib", .init = ghashlib_init, .exit = gf_exit,
	.tag = ghashlib_tag,
};

/*
 * The calls diamond.ko's diamond_ghash_lib() makes, written out again on
 * purpose: the floor must not move when the module's code does.
 */
static int gf_tag(struct floor_mac *m, const u8 *hp, const u8 *hb,
		  const u8 *data, unsigned int len, u8 *tag)
{
	be128 acc = { }, h;
	u8 last[16] = { };

	memcpy(&h, hp, 16);
	crypto_xor((u8 *)&acc, hb, 16);
	gf128mul_lle(&acc, &h);
	for (; len >= 16; len -= 16, data += 16) {
		crypto_xor((u8 *)&acc, data, 16);
		gf128mul_lle(&acc, &h);
	}
	if (len) {
		memcpy(last, data, len);
		crypto_xor((u8 *)&acc, last, 16);
		gf128mul_lle(&acc, &h);
	}
	crypto_xor_cpy(tag, (u8 *)&acc, hp + 16, 16);
	return 0;
}

static struct floor_mac s1_gf = {
	.name = "gf128mul", .init = gf_init, .exit = gf_exit, .tag = gf_tag,
};

static struct floor_prf *s1_prfs[] = {
	&s1_ctr, &s1_ctr_sync, &s1_cipher, &s1_aeslib, &s1_ctrlib, NULL,
};

static struct floor_mac *s1_macs[] = {
	&s1_ahash, &s1_gf, &s1_ghashlib, NULL,
};

struct floor_suite floor_suite1 = {
	.k = S1_K, .prf = s1_prfs, .mac = s1_macs,
};

/* crypto_cipher is internal from 5.13; 6.13 made the namespace a string. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
MODULE_IMPORT_NS("CRYPTO_INTERNAL");
#else
MODULE_IMPORT_NS(CRYPTO_INTERNAL);
#endif
