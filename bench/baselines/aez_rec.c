// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * AEZ v5 per record (aez.h), the robust-AE reference point: the 32-byte
 * scheme key extracted once (BLAKE2b), nonce le64(epoch) || le64(j), no
 * associated data, tau = 16, so each record grows by 16 bytes. Like the
 * plain AEADs it has no forward security and no aggregate tag; what it adds
 * is misuse resistance (a repeated nonce reveals only equal records) and
 * that a forged record decrypts to noise that fails the zero check.
 */
#include "aez.h"
#include "internal.h"

#include <diamond/util.h>

struct aez_rec_ctx {
	struct perrec pr;	/* first: perrec_* */
	struct aez_key k;
};

static int aez_rec_init(void *ctx, const uint8_t key[32], size_t rec,
			uint32_t b, uint8_t *w, size_t ws, uint8_t *rw,
			size_t rws)
{
	struct aez_rec_ctx *a = ctx;

	(void)b; (void)w; (void)ws; (void)rw; (void)rws;
	if (rec > BENCH_MAX_REC)
		return -1;
	dmd_wipe(a, sizeof(*a));
	a->pr.rec = rec;
	aez_init(&a->k, key, 32);
	return 0;
}

static void aez_rec_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct aez_rec_ctx *a = ctx;
	uint8_t n[16];

	scheme_nonce(n, a->pr.epoch, a->pr.index++);
	aez_encrypt(&a->k, n, 16, NULL, 0, 16, m, a->pr.rec, c);
}

/*
 * Records are deciphered into a scratch buffer (plaintext plus the 16
 * zero bytes) and copied out only once every record of the epoch passed.
 */
static int aez_rec_open(void *ctx, const uint8_t *c, uint32_t n,
			const uint8_t tag[16], uint8_t *m)
{
	struct aez_rec_ctx *a = ctx;
	size_t rec = a->pr.rec;
	uint8_t nonce[16], x[BENCH_MAX_REC + 16];
	uint32_t j;
	int ok = 1;

	(void)tag;
	for (j = 0; j < n; j++) {
		scheme_nonce(nonce, a->pr.repoch, j);
		ok &= aez_decrypt(&a->k, nonce, 16, NULL, 0, 16,
				  c + (rec + 16) * j, rec + 16, x) == 0;
		bench_copy(m + rec * j, x, rec);
	}
	dmd_wipe(x, sizeof(x));
	return perrec_rx_done(&a->pr, ok, m, n);
}

static void aez_rec_wipe(void *ctx)
{
	dmd_wipe(ctx, sizeof(struct aez_rec_ctx));
}

const struct scheme scheme_aez = {
	"AEZ", sizeof(struct aez_rec_ctx), 16, perrec_slot, aez_rec_init,
	perrec_begin, perrec_offline, aez_rec_seal, perrec_close,
	perrec_rx_offline, aez_rec_open, aez_rec_wipe,
};
