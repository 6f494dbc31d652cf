// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * UMAC-64 and UMAC-128 (umac.h) as a per-record AE, encrypt-then-MAC:
 * C_j = M_j ^ AES-128-CTR(K_e, be64(e) || be32(j) || be32(0)), then the
 * record's tag UMAC(K_m, nonce = be64(e) || be64(j), C_j), with K_e and
 * K_m the two halves of the scheme key. One fixed key, a tag per record
 * (rec_overhead = taglen), no forward security, no aggregation; the
 * receiver checks every tag before it decrypts anything. The related-
 * system point of comparison for NH-style universal hashing on devices.
 */
#include "internal.h"
#include "umac.h"

#include <diamond/util.h>

struct etm_ctx {
	struct perrec pr;	/* first: perrec_* */
	struct dmd_aes128 enc;
	struct umac_key mac;
	size_t taglen;
};


static int etm_init(struct etm_ctx *x, const uint8_t key[32], size_t rec,
		    unsigned int taglen)
{
	if (rec > UMAC_MAX_LEN || rec > BENCH_MAX_REC)
		return -1;
	dmd_wipe(x, sizeof(*x));
	dmd_aes128_init(&x->enc, key);
	umac_init(&x->mac, key + 16, taglen);
	x->pr.rec = rec;
	x->taglen = taglen;
	return 0;
}

static void nonce_of(uint8_t n[16], uint64_t e, uint32_t j)
{
	dmd_store32_be(n, (uint32_t)(e >> 32));
	dmd_store32_be(n + 4, (uint32_t)e);
	dmd_store32_be(n + 8, 0);
	dmd_store32_be(n + 12, j);
}

/* out = in ^ CTR keystream from be64(e) || be32(j) || be32(0). */
static void etm_ctr(const struct etm_ctx *x, uint64_t e, uint32_t j,
		    const uint8_t *in, uint8_t *out)
{
	uint8_t ctr[16], ks[32];
	size_t off, n, i;

	nonce_of(ctr, e, 0);
	dmd_store32_be(ctr + 8, j);
	for (off = 0; off < x->pr.rec; off += n) {
		n = x->pr.rec - off < 32 ? x->pr.rec - off : 32;
		dmd_aes128_ctr(&x->enc, ctr, ks, (n + 15) & ~(size_t)15);
		for (i = 0; i < n; i++)
			out[off + i] = in[off + i] ^ ks[i];
	}
	dmd_wipe(ks, sizeof(ks));
}



static void etm_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct etm_ctx *x = ctx;
	uint8_t n[16];
	uint32_t j = x->pr.index++;

	etm_ctr(x, x->pr.epoch, j, m, c);
	nonce_of(n, x->pr.epoch, j);
	umac_tag(&x->mac, n, 16, c, x->pr.rec, c + x->pr.rec);
}



static int etm_rx_open(void *ctx, const uint8_t *c, uint32_t n,
		       const uint8_t tag[16], uint8_t *m)
{
	struct etm_ctx *x = ctx;
	size_t stride = x->pr.rec + x->taglen;
	uint8_t nn[16], t[16];
	uint32_t j;
	int ok = 1;

	(void)tag;
	for (j = 0; j < n; j++) {
		nonce_of(nn, x->pr.repoch, j);
		umac_tag(&x->mac, nn, 16, c + stride * j, x->pr.rec, t);
		ok &= dmd_ct_equal(t, c + stride * j + x->pr.rec, x->taglen);
	}
	dmd_wipe(t, sizeof(t));
	/* Decrypt only once every tag has passed. */
	for (j = 0; ok && j < n; j++)
		etm_ctr(x, x->pr.repoch, j, c + stride * j, m + x->pr.rec * j);
	return perrec_rx_done(&x->pr, ok, m, n);
}

static void etm_wipe(void *ctx)
{
	struct etm_ctx *x = ctx;

	dmd_aes128_wipe(&x->enc);
	umac_wipe(&x->mac);
	dmd_wipe(x, sizeof(*x));
}

#define ETM(VAR, NAME, TAGLEN)							\
static int VAR##_init(void *ctx, const uint8_t key[32], size_t rec,		\
		      uint32_t b, uint8_t *w, size_t ws, uint8_t *rw,		\
		      size_t rws)						\
{										\
	(void)b; (void)w; (void)ws; (void)rw; (void)rws;			\
	return etm_init(ctx, key, rec, TAGLEN);					\
}										\
const struct scheme VAR = {							\
	NAME, sizeof(struct etm_ctx), TAGLEN, perrec_slot, VAR##_init,		\
	perrec_begin, perrec_offline, etm_seal, perrec_close,			\
	perrec_rx_offline, etm_rx_open, etm_wipe,				\
};

ETM(scheme_umac64, "UMAC-64", 8)
ETM(scheme_umac128, "UMAC-128", 16)
