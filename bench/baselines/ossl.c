// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host variants on OpenSSL 3 (EVP, algorithms fetched once per context):
 *   FAAE1-ossl      the FAAE1 construction with EVP aes-128-gcm and SHA-256;
 *   Graphene1/2-ossl Graphene with OpenSSL's SHA-256 (the rest portable);
 *   AES-GCM, ChaCha20-Poly1305, AES-OCB: plain AEADs as references, one
 *                   fixed key, a 16-byte tag per record (rec_overhead 16),
 *                   no forward security and no aggregation.
 *
 * OpenSSL has no GCM decryption that hands back the computed tag (3.0
 * refuses AEAD_TAG reads in decrypt mode), and aggregate verification needs
 * exactly that. The FAAE1-ossl receiver therefore recovers M with one GCM
 * pass over C and recomputes the tag by re-encrypting M under the same key
 * schedule: one extra CTR pass per record, noted beside its figures.
 */
#define SCHEME_OPENSSL 1
#include "internal.h"
#include "gcm.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/util.h>

struct ossl {
	EVP_CIPHER_CTX *c;
	EVP_MD_CTX *md;
	EVP_MD *sha;
	EVP_CIPHER *alg;
};

static int ossl_open(struct ossl *o, const char *cipher)
{
	o->c = EVP_CIPHER_CTX_new();
	o->md = EVP_MD_CTX_new();
	o->sha = EVP_MD_fetch(NULL, "SHA256", NULL);
	o->alg = cipher ? EVP_CIPHER_fetch(NULL, cipher, NULL) : NULL;
	if (!o->c || !o->md || !o->sha || (cipher && !o->alg))
		return -1;
	if (o->alg && !EVP_CipherInit_ex(o->c, o->alg, NULL, NULL, NULL, 1))
		return -1;
	return 0;
}

static void ossl_close(struct ossl *o)
{
	EVP_CIPHER_CTX_free(o->c);
	EVP_MD_CTX_free(o->md);
	EVP_MD_free(o->sha);
	EVP_CIPHER_free(o->alg);
	memset(o, 0, sizeof(*o));
}

static void sha256(struct ossl *o, uint8_t out[32], const uint8_t *in,
		   size_t len)
{
	unsigned int n = 32;

	EVP_DigestInit_ex(o->md, o->sha, NULL);
	EVP_DigestUpdate(o->md, in, len);
	EVP_DigestFinal_ex(o->md, out, &n);
}

/* ---- FAAE1 on EVP ----------------------------------------------------- */

static void f1_keyupd(void *ctx, uint8_t k[16])
{
	struct faae_ctx *f = ctx;
	uint8_t d[32];

	sha256(f->priv, d, k, 16);
	memcpy(k, d, 16);
	dmd_wipe(d, sizeof(d));
}

static void f1_enc(void *ctx, const uint8_t k[16], uint64_t e, uint32_t j,
		   const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	struct ossl *o = ((struct faae_ctx *)ctx)->priv;
	uint8_t iv[12];
	int n;

	gcm_iv(iv, e, j);
	EVP_EncryptInit_ex(o->c, NULL, NULL, k, iv);
	EVP_EncryptUpdate(o->c, c, &n, m, (int)len);
	EVP_EncryptFinal_ex(o->c, c + n, &n);
	EVP_CIPHER_CTX_ctrl(o->c, EVP_CTRL_AEAD_GET_TAG, 16, tag);
}

static void f1_dec_tag(void *ctx, const uint8_t k[16], uint64_t e, uint32_t j,
		       const uint8_t *c, size_t len, uint8_t *m, uint8_t tag[16])
{
	struct ossl *o = ((struct faae_ctx *)ctx)->priv;
	uint8_t iv[12], tmp[BENCH_MAX_REC];
	int n;

	gcm_iv(iv, e, j);
	/* CTR is an involution: "encrypting" C yields M (tag discarded). */
	EVP_EncryptInit_ex(o->c, NULL, NULL, k, iv);
	EVP_EncryptUpdate(o->c, m, &n, c, (int)len);
	/* Same key schedule, fresh IV: re-encrypt M for the sender's tag. */
	EVP_EncryptInit_ex(o->c, NULL, NULL, NULL, iv);
	EVP_EncryptUpdate(o->c, tmp, &n, m, (int)len);
	EVP_EncryptFinal_ex(o->c, tmp + n, &n);
	EVP_CIPHER_CTX_ctrl(o->c, EVP_CTRL_AEAD_GET_TAG, 16, tag);
	dmd_wipe(tmp, len);
}

static const struct faae_ops f1_ops = { f1_keyupd, f1_enc, f1_dec_tag };

struct faae_ossl_ctx {
	struct faae_ctx f;
	struct ossl o;
};

static int f1_init(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		   uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	struct faae_ossl_ctx *x = ctx;

	if (rec > BENCH_MAX_REC || ossl_open(&x->o, "AES-128-GCM"))
		return -1;
	x->f.ops = &f1_ops;
	x->f.priv = &x->o;
	return faae_init(ctx, key, rec, b, w, ws, rw, rws);
}

static void f1_wipe(void *ctx)
{
	struct faae_ossl_ctx *x = ctx;

	faae_wipe(ctx);
	ossl_close(&x->o);
}

const struct scheme scheme_faae1_ossl = {
	"FAAE1-ossl", sizeof(struct faae_ossl_ctx), 0, faae_slot_size, f1_init,
	faae_begin, faae_offline, faae_seal, faae_close, faae_rx_offline,
	faae_rx_open, f1_wipe,
};

/* ---- Graphene with OpenSSL SHA-256 ---------------------------------------- */

struct graphene_ossl_ctx {
	struct graphene_ctx g;
	struct ossl o;
};

static void g_sha(void *ctx, uint8_t out[32], const uint8_t in[32])
{
	uint8_t d[32];

	sha256(((struct graphene_ctx *)ctx)->priv, d, in, 32);
	memcpy(out, d, 32);
	dmd_wipe(d, sizeof(d));
}

static int g_init(void *ctx, unsigned int suite, const uint8_t key[32],
		  size_t rec, uint32_t b, uint8_t *w, size_t ws, uint8_t *rw,
		  size_t rws)
{
	struct graphene_ossl_ctx *x = ctx;

	if (ossl_open(&x->o, NULL))
		return -1;
	x->g.sha256 = g_sha;
	x->g.priv = &x->o;
	return graphene_init_common(&x->g, suite, key, rec, b, w, ws, rw, rws);
}

static int g1_init(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		   uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	return g_init(ctx, 1, key, rec, b, w, ws, rw, rws);
}

static int g2_init(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		   uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	return g_init(ctx, 2, key, rec, b, w, ws, rw, rws);
}

static void g_wipe(void *ctx)
{
	struct graphene_ossl_ctx *x = ctx;

	graphene_wipe(ctx);
	ossl_close(&x->o);
}

const struct scheme scheme_graphene1_ossl = {
	"Graphene1-ossl", sizeof(struct graphene_ossl_ctx), 0,
	graphene_slot_size, g1_init, graphene_begin, graphene_offline,
	graphene_seal, graphene_close, graphene_rx_offline, graphene_rx_open,
	g_wipe,
};

const struct scheme scheme_graphene2_ossl = {
	"Graphene2-ossl", sizeof(struct graphene_ossl_ctx), 0,
	graphene_slot_size, g2_init, graphene_begin, graphene_offline,
	graphene_seal, graphene_close, graphene_rx_offline, graphene_rx_open,
	g_wipe,
};

/* ---- plain AEADs ------------------------------------------------------ */

struct plain_ctx {
	struct perrec pr;	/* first: perrec_* */
	struct ossl o, r;	/* sender and receiver cipher contexts */
};


static int plain_init(void *ctx, const char *alg, const uint8_t key[32],
		      size_t rec)
{
	struct plain_ctx *p = ctx;

	memset(p, 0, sizeof(*p));
	if (ossl_open(&p->o, alg) || ossl_open(&p->r, alg))
		return -1;
	/* 12-byte nonces for all three (the OCB default is 12 as well). */
	if (!EVP_CIPHER_CTX_ctrl(p->o.c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) ||
	    !EVP_CIPHER_CTX_ctrl(p->r.c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL))
		return -1;
	if (!EVP_EncryptInit_ex(p->o.c, NULL, NULL, key, NULL) ||
	    !EVP_DecryptInit_ex(p->r.c, p->r.alg, NULL, key, NULL))
		return -1;
	p->pr.rec = rec;
	return 0;
}

#define PLAIN_INIT(NAME, ALG)							\
static int NAME##_init(void *ctx, const uint8_t key[32], size_t rec,		\
		       uint32_t b, uint8_t *w, size_t ws, uint8_t *rw,		\
		       size_t rws)						\
{										\
	(void)b; (void)w; (void)ws; (void)rw; (void)rws;			\
	return plain_init(ctx, ALG, key, rec);					\
}
PLAIN_INIT(gcm, "AES-128-GCM")
PLAIN_INIT(cp, "ChaCha20-Poly1305")
PLAIN_INIT(ocb, "AES-128-OCB")



static void plain_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct plain_ctx *p = ctx;
	uint8_t iv[12];
	int n;

	gcm_iv(iv, p->pr.epoch, p->pr.index++);
	EVP_EncryptInit_ex(p->o.c, NULL, NULL, NULL, iv);
	EVP_EncryptUpdate(p->o.c, c, &n, m, (int)p->pr.rec);
	EVP_EncryptFinal_ex(p->o.c, c + n, &n);
	EVP_CIPHER_CTX_ctrl(p->o.c, EVP_CTRL_AEAD_GET_TAG, 16, c + p->pr.rec);
}



static int plain_rx_open(void *ctx, const uint8_t *c, uint32_t n,
			 const uint8_t tag[16], uint8_t *m)
{
	struct plain_ctx *p = ctx;
	size_t stride = p->pr.rec + 16;
	uint8_t iv[12];
	uint32_t j;
	int ok = 1, len;

	(void)tag;
	for (j = 0; j < n; j++) {
		const uint8_t *cj = c + stride * j;

		gcm_iv(iv, p->pr.repoch, j);
		EVP_DecryptInit_ex(p->r.c, NULL, NULL, NULL, iv);
		EVP_CIPHER_CTX_ctrl(p->r.c, EVP_CTRL_AEAD_SET_TAG, 16,
				    (void *)(cj + p->pr.rec));
		EVP_DecryptUpdate(p->r.c, m + p->pr.rec * j, &len, cj, (int)p->pr.rec);
		ok &= EVP_DecryptFinal_ex(p->r.c, m + p->pr.rec * j + len, &len) > 0;
	}
	return perrec_rx_done(&p->pr, ok, m, n);
}

static void plain_wipe(void *ctx)
{
	struct plain_ctx *p = ctx;

	ossl_close(&p->o);
	ossl_close(&p->r);
}

#define PLAIN_SCHEME(VAR, NAME, INIT)						\
const struct scheme VAR = {							\
	NAME, sizeof(struct plain_ctx), 16, perrec_slot, INIT, perrec_begin,	\
	perrec_offline, plain_seal, perrec_close, perrec_rx_offline,		\
	plain_rx_open, plain_wipe,						\
};
PLAIN_SCHEME(scheme_gcm_ossl, "AES-128-GCM", gcm_init)
PLAIN_SCHEME(scheme_chapoly_ossl, "ChaCha20-Poly1305", cp_init)
PLAIN_SCHEME(scheme_ocb_ossl, "AES-128-OCB", ocb_init)
