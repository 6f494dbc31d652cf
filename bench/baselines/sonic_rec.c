// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SuperSonic (supersonic.h) on ForkSkinny-128-384 as a per-record MAC: the
 * record goes in the clear, followed by a 16-byte tag, the left half C0 of
 * SuperSonic over the record (the finalisation computes that branch only).
 * The key is the first 16 bytes of the scheme key; K' and L are derived
 * once at init. No confidentiality, no forward security, no aggregation,
 * no nonce: SuperSonic is deterministic, so equal records carry equal tags
 * and a replayed record verifies (a sender would MAC a counter with it).
 * The receiver checks every tag, in constant time, before it releases any
 * record. The related-system point of the Sonikku family on our boards.
 */
#include "internal.h"
#include "supersonic.h"

#include <diamond/util.h>

struct sonic_ctx {
	struct perrec pr;	/* first: perrec_* */
	struct supersonic_key k;
};

static int sonic_init(void *ctx, const uint8_t key[32], size_t rec,
		      uint32_t b, uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	struct sonic_ctx *x = ctx;

	(void)b; (void)w; (void)ws; (void)rw; (void)rws;
	if (rec == 0 || rec > BENCH_MAX_REC || rec > SUPERSONIC_MAX_LEN)
		return -1;
	dmd_wipe(x, sizeof(*x));
	supersonic_init(&x->k, key, 3);
	x->pr.rec = rec;
	return 0;
}

static void sonic_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct sonic_ctx *x = ctx;

	x->pr.index++;
	bench_copy(c, m, x->pr.rec);
	supersonic_mac(&x->k, m, x->pr.rec, c + x->pr.rec, NULL);
}

static int sonic_rx_open(void *ctx, const uint8_t *c, uint32_t n,
			 const uint8_t tag[16], uint8_t *m)
{
	struct sonic_ctx *x = ctx;
	size_t stride = x->pr.rec + 16;
	uint8_t t[16];
	uint32_t j;
	int ok = 1;

	(void)tag;
	for (j = 0; j < n; j++) {
		supersonic_mac(&x->k, c + stride * j, x->pr.rec, t, NULL);
		ok &= dmd_ct_equal(t, c + stride * j + x->pr.rec, 16);
	}
	dmd_wipe(t, sizeof(t));
	for (j = 0; ok && j < n; j++)
		bench_copy(m + x->pr.rec * j, c + stride * j, x->pr.rec);
	return perrec_rx_done(&x->pr, ok, m, n);
}

static void sonic_wipe(void *ctx)
{
	struct sonic_ctx *x = ctx;

	supersonic_wipe(&x->k);
	dmd_wipe(x, sizeof(*x));
}

const struct scheme scheme_supersonic = {
	"SuperSonic", sizeof(struct sonic_ctx), 16, perrec_slot, sonic_init,
	perrec_begin, perrec_offline, sonic_seal, perrec_close,
	perrec_rx_offline, sonic_rx_open, sonic_wipe,
};
