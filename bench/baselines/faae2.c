// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * FAAE2: Ascon AEAD with Ascon-Hash256 key update, in two variants: the
 * final SP 800-232 Ascon-AEAD128 ("FAAE2") and Ascon-128a v1.2, the one the
 * Diamond paper measured ("FAAE2-128a"). Nonce = le64(e) || le64(j).
 */
#include "internal.h"
#include "ascon.h"

#include <diamond/util.h>

static void keyupd(void *ctx, uint8_t k[16])
{
	uint8_t d[32];

	(void)ctx;
	ascon_hash256(d, k, 16);
	bench_copy(k, d, 16);
	dmd_wipe(d, sizeof(d));
}

#define FAAE2_OPS(NAME, VARIANT)						\
static void NAME##_enc(void *ctx, const uint8_t k[16], uint64_t e,		\
		       uint32_t j, const uint8_t *m, size_t len, uint8_t *c,	\
		       uint8_t tag[16])					\
{										\
	uint8_t n[16];								\
										\
	(void)ctx;								\
	scheme_nonce(n, e, j);							\
	ascon_aead_encrypt(VARIANT, k, n, NULL, 0, m, len, c, tag);		\
}										\
static void NAME##_dec(void *ctx, const uint8_t k[16], uint64_t e,		\
		       uint32_t j, const uint8_t *c, size_t len, uint8_t *m,	\
		       uint8_t tag[16])					\
{										\
	uint8_t n[16];								\
										\
	(void)ctx;								\
	scheme_nonce(n, e, j);							\
	ascon_aead_decrypt_tag(VARIANT, k, n, NULL, 0, c, len, m, tag);	\
}										\
static const struct faae_ops NAME##_ops = { keyupd, NAME##_enc, NAME##_dec };	\
static int NAME##_init(void *ctx, const uint8_t key[32], size_t rec,		\
		       uint32_t b, uint8_t *w, size_t ws, uint8_t *rw,		\
		       size_t rws)						\
{										\
	((struct faae_ctx *)ctx)->ops = &NAME##_ops;				\
	return faae_init(ctx, key, rec, b, w, ws, rw, rws);			\
}

FAAE2_OPS(a128, ASCON_AEAD128)
FAAE2_OPS(v12a, ASCON_128A_V12)

const struct scheme scheme_faae2 = {
	"FAAE2", sizeof(struct faae_ctx), 0, faae_slot_size, a128_init,
	faae_begin, faae_offline, faae_seal, faae_close, faae_rx_offline,
	faae_rx_open, faae_wipe,
};

const struct scheme scheme_faae2_128a = {
	"FAAE2-128a", sizeof(struct faae_ctx), 0, faae_slot_size, v12a_init,
	faae_begin, faae_offline, faae_seal, faae_close, faae_rx_offline,
	faae_rx_open, faae_wipe,
};
