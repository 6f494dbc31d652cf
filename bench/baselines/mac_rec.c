// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MAC-only related systems as per-record schemes (scheme.h): the record
 * goes in the clear, followed by its tag. No confidentiality, no forward
 * security, no aggregation. The receiver checks every tag, in constant
 * time, before it releases any record. One key: the first 16 bytes of the
 * scheme key; per-key set-up (SuperSonic's K' and L, VMAC's subkeys) at
 * init.
 *
 *  - SuperSonic: SuperSonic-384 (supersonic.h), the left half C0, 16 B;
 *    deterministic, so equal records carry equal tags;
 *  - ZMAC-256, ZMAC-192: ZMAC on SKINNY-128-256 (its first half Y1, 16 B)
 *    and on SKINNY-64-192 (whole, 16 B); deterministic;
 *  - PMAC1: 16 B; PMAC2x-256: the first half, 16 B; deterministic;
 *  - VMAC-64, VMAC-128: 8 and 16 B under the nonce be64(epoch) ||
 *    be64(record index), which both ends know: nothing more on the air.
 */
#include "internal.h"
#include "pmac.h"
#include "supersonic.h"
#include "vmac.h"
#include "zmac.h"

#include <diamond/util.h>

enum mac_kind { SONIC, ZMAC256, ZMAC192, PMAC1, PMAC2X256, VMAC64, VMAC128 };

struct mac_ctx {
	struct perrec pr;	/* first: perrec_* */
	enum mac_kind kind;
	size_t taglen;
	uint8_t key[16];
	union {
		struct supersonic_key sonic;
		struct vmac_key vmac;
	} k;
};

static int mac_init(struct mac_ctx *x, const uint8_t key[32], size_t rec,
		    enum mac_kind kind, size_t taglen)
{
	if (rec == 0 || rec > BENCH_MAX_REC)
		return -1;
	dmd_wipe(x, sizeof(*x));
	x->kind = kind;
	x->taglen = taglen;
	x->pr.rec = rec;
	bench_copy(x->key, key, 16);
	if (kind == SONIC)
		supersonic_init(&x->k.sonic, key, 3);
	else if (kind == VMAC64 || kind == VMAC128)
		vmac_init(&x->k.vmac, key, (unsigned int)taglen);
	return 0;
}

/* The tag of record @j of epoch @e. */
static void mac_tag(const struct mac_ctx *x, uint64_t e, uint32_t j,
		    const uint8_t *m, uint8_t *tag)
{
	uint8_t nonce[16];
	size_t len = x->pr.rec;

	switch (x->kind) {
	case SONIC:
		supersonic_mac(&x->k.sonic, m, len, tag, NULL);
		break;
	case ZMAC256:
		zmac(&skinny_tbc_128_256, ZMAC_AS_PAPER, x->key, m, len, tag, 16);
		break;
	case ZMAC192:
		zmac(&skinny_tbc_64_192, ZMAC_AS_PAPER, x->key, m, len, tag, 16);
		break;
	case PMAC1:
		pmac1(x->key, m, len, tag);
		break;
	case PMAC2X256:
		pmac2x(&skinny_tbc_128_256, x->key, m, len, tag, 16);
		break;
	default:
		dmd_store32_be(nonce, (uint32_t)(e >> 32));
		dmd_store32_be(nonce + 4, (uint32_t)e);
		dmd_wipe(nonce + 8, 4);
		dmd_store32_be(nonce + 12, j);
		vmac_tag(&x->k.vmac, nonce, 16, m, len, tag);
		break;
	}
}

static void mac_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct mac_ctx *x = ctx;

	bench_copy(c, m, x->pr.rec);
	mac_tag(x, x->pr.epoch, x->pr.index, m, c + x->pr.rec);
	x->pr.index++;
}

static int mac_rx_open(void *ctx, const uint8_t *c, uint32_t n,
		       const uint8_t tag[16], uint8_t *m)
{
	struct mac_ctx *x = ctx;
	size_t stride = x->pr.rec + x->taglen;
	uint8_t t[16];
	uint32_t j;
	int ok = 1;

	(void)tag;
	for (j = 0; j < n; j++) {
		mac_tag(x, x->pr.repoch, j, c + stride * j, t);
		ok &= dmd_ct_equal(t, c + stride * j + x->pr.rec, x->taglen);
	}
	dmd_wipe(t, sizeof(t));
	for (j = 0; ok && j < n; j++)
		bench_copy(m + x->pr.rec * j, c + stride * j, x->pr.rec);
	return perrec_rx_done(&x->pr, ok, m, n);
}

static void mac_wipe(void *ctx)
{
	dmd_wipe(ctx, sizeof(struct mac_ctx));
}

#define MAC_SCHEME(VAR, NAME, KIND, TAGLEN)					\
static int VAR##_init(void *ctx, const uint8_t key[32], size_t rec,		\
		      uint32_t b, uint8_t *w, size_t ws, uint8_t *rw,		\
		      size_t rws)						\
{										\
	(void)b; (void)w; (void)ws; (void)rw; (void)rws;			\
	return mac_init(ctx, key, rec, KIND, TAGLEN);				\
}										\
const struct scheme VAR = {							\
	NAME, sizeof(struct mac_ctx), TAGLEN, perrec_slot, VAR##_init,		\
	perrec_begin, perrec_offline, mac_seal, perrec_close,			\
	perrec_rx_offline, mac_rx_open, mac_wipe,				\
};

MAC_SCHEME(scheme_supersonic, "SuperSonic", SONIC, 16)
MAC_SCHEME(scheme_zmac256, "ZMAC-256", ZMAC256, 16)
MAC_SCHEME(scheme_zmac192, "ZMAC-192", ZMAC192, 16)
MAC_SCHEME(scheme_pmac1, "PMAC1", PMAC1, 16)
MAC_SCHEME(scheme_pmac2x256, "PMAC2x-256", PMAC2X256, 16)
MAC_SCHEME(scheme_vmac64, "VMAC-64", VMAC64, 8)
MAC_SCHEME(scheme_vmac128, "VMAC-128", VMAC128, 16)
