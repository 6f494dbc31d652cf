// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Plain AEADs in our own C (aead.h, gcm.h): AES-128-GCM, -CCM and -OCB3
 * under one fixed key (the first 16 bytes of the scheme key), a 16-byte tag
 * per record (rec_overhead 16), nonce le64(epoch) || le32(j). No forward
 * security, no aggregation, nothing to precompute: the references of the
 * CCM / GCM / OCB software study, run on the boards. Byte-identical to the
 * OpenSSL plain AEADs of ossl.c (checked in bench-kat).
 */
#include "aead.h"
#include "gcm.h"

#include <diamond/util.h>

struct plain_ctx;

struct plain_ops {
	void (*setkey)(struct plain_ctx *p, const uint8_t key[16]);
	void (*enc)(const struct plain_ctx *p, const uint8_t iv[12],
		    const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16]);
	/* NULL when the mode needs the inverse cipher (OCB3: sender only). */
	void (*dec_tag)(const struct plain_ctx *p, const uint8_t iv[12],
			const uint8_t *c, size_t len, uint8_t *m,
			uint8_t tag[16]);
};

struct plain_ctx {
	struct perrec pr;	/* first: perrec_* */
	const struct plain_ops *ops;
	union {
		struct gcm_key gcm;
		struct dmd_aes128 aes;
		struct ocb3_key ocb;
	} k;
};


static int plain_init(struct plain_ctx *p, const struct plain_ops *ops,
		      const uint8_t key[32], size_t rec)
{
	if (rec > BENCH_MAX_REC)
		return -1;
	dmd_wipe(p, sizeof(*p));
	p->ops = ops;
	p->pr.rec = rec;
	ops->setkey(p, key);
	return 0;
}



static void plain_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct plain_ctx *p = ctx;
	uint8_t iv[12];

	gcm_iv(iv, p->pr.epoch, p->pr.index++);
	p->ops->enc(p, iv, m, p->pr.rec, c, c + p->pr.rec);
}



/* Every record's tag checked before any plaintext is released. */
static int plain_rx_open(void *ctx, const uint8_t *c, uint32_t n,
			 const uint8_t tag[16], uint8_t *m)
{
	struct plain_ctx *p = ctx;
	size_t stride = p->pr.rec + 16;
	uint8_t iv[12], t[16];
	uint32_t j;
	int ok = 1;

	(void)tag;
	for (j = 0; j < n; j++) {
		const uint8_t *cj = c + stride * j;

		gcm_iv(iv, p->pr.repoch, j);
		p->ops->dec_tag(p, iv, cj, p->pr.rec, m + p->pr.rec * j, t);
		ok &= dmd_ct_equal(t, cj + p->pr.rec, 16);
	}
	dmd_wipe(t, sizeof(t));
	return perrec_rx_done(&p->pr, ok, m, n);
}

static void plain_wipe(void *ctx)
{
	dmd_wipe(ctx, sizeof(struct plain_ctx));
}

/* ---- GCM: schedule and H kept (gcm.h) ----------------------------------- */

static void gcm_setkey_p(struct plain_ctx *p, const uint8_t key[16])
{
	gcm_setkey(&p->k.gcm, key);
}

static void gcm_enc(const struct plain_ctx *p, const uint8_t iv[12],
		    const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	gcm_encrypt_k(&p->k.gcm, iv, m, len, c, tag);
}

static void gcm_dec(const struct plain_ctx *p, const uint8_t iv[12],
		    const uint8_t *c, size_t len, uint8_t *m, uint8_t tag[16])
{
	gcm_decrypt_tag_k(&p->k.gcm, iv, c, len, m, tag);
}

/* ---- CCM: one key schedule, kept ------------------------------------------ */

static void ccm_setkey(struct plain_ctx *p, const uint8_t key[16])
{
	dmd_aes128_init(&p->k.aes, key);
}

static void ccm_enc(const struct plain_ctx *p, const uint8_t iv[12],
		    const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	ccm_encrypt(&p->k.aes, iv, 12, NULL, 0, m, len, c, tag, 16);
}

static void ccm_dec(const struct plain_ctx *p, const uint8_t iv[12],
		    const uint8_t *c, size_t len, uint8_t *m, uint8_t tag[16])
{
	ccm_decrypt_tag(&p->k.aes, iv, 12, NULL, 0, c, len, m, tag, 16);
}

/* ---- OCB3: key schedule and L table kept --------------------------------- */

static void ocb_setkey(struct plain_ctx *p, const uint8_t key[16])
{
	ocb3_init(&p->k.ocb, key);
}

static void ocb_enc(const struct plain_ctx *p, const uint8_t iv[12],
		    const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	ocb3_encrypt(&p->k.ocb, iv, 12, NULL, 0, m, len, c, tag);
}

#define PLAIN(VAR, NAME, SETKEY, ENC, DEC, RXOPEN)				\
static const struct plain_ops VAR##_ops = { SETKEY, ENC, DEC };			\
static int VAR##_init(void *ctx, const uint8_t key[32], size_t rec,		\
		      uint32_t b, uint8_t *w, size_t ws, uint8_t *rw,		\
		      size_t rws)						\
{										\
	(void)b; (void)w; (void)ws; (void)rw; (void)rws;			\
	return plain_init(ctx, &VAR##_ops, key, rec);				\
}										\
const struct scheme VAR = {							\
	NAME, sizeof(struct plain_ctx), 16, perrec_slot, VAR##_init,		\
	perrec_begin, perrec_offline, plain_seal, perrec_close,		\
	perrec_rx_offline, RXOPEN, plain_wipe,					\
};

PLAIN(scheme_gcm, "GCM", gcm_setkey_p, gcm_enc, gcm_dec, plain_rx_open)
PLAIN(scheme_ccm, "CCM", ccm_setkey, ccm_enc, ccm_dec, plain_rx_open)
PLAIN(scheme_ocb3, "OCB3", ocb_setkey, ocb_enc, NULL, NULL)
