// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * FAAE1, portable: AES-128-GCM (SP 800-38D, 96-bit IV, 16-byte tag) built
 * on the core's constant-time AES-128 and GHASH, SHA-256 key update.
 * Bit-identical to the OpenSSL variant in ossl.c (checked in bench-kat).
 */
#include "internal.h"
#include "gcm.h"

#include <diamond/aes128.h>
#include <diamond/ghash.h>
#include <diamond/sha256.h>
#include <diamond/util.h>

void gcm_setkey(struct gcm_key *g, const uint8_t key[16])
{
	static const uint8_t zero[16];

	dmd_aes128_init(&g->aes, key);
	dmd_aes128_encrypt(&g->aes, g->h, zero);
}

void gcm_wipe(struct gcm_key *g)
{
	dmd_aes128_wipe(&g->aes);
	dmd_wipe(g->h, sizeof(g->h));
}

/*
 * One pass: keystream from counter J0 (whose block is the tag mask) in
 * chunks of two blocks, as the bitsliced AES encrypts two at once. GCM
 * increments only the low 32 bits of the counter; the core's CTR carries
 * across all 128, which is the same for any message under 2^32 blocks.
 */
static void gcm_crypt(const struct gcm_key *k, const uint8_t iv[12],
		      const uint8_t *in, size_t len, uint8_t *out,
		      uint8_t tag[16], int decrypt)
{
	struct dmd_ghash g;
	uint8_t ctr[16], ks[32], mask[16], lens[16];
	size_t off = 0, n, i;

	dmd_ghash_init(&g, k->h);
	bench_copy(ctr, iv, 12);
	dmd_store32_be(ctr + 12, 1);
	if (decrypt)
		dmd_ghash_update_padded(&g, in, len);
	/* First chunk: the mask and up to one keystream block. */
	n = len < 16 ? len : 16;
	dmd_aes128_ctr(&k->aes, ctr, ks, 16 + (len ? 16 : 0));
	bench_copy(mask, ks, 16);
	for (i = 0; i < n; i++)
		out[i] = in[i] ^ ks[16 + i];
	off = n;
	while (off < len) {
		n = len - off < 32 ? len - off : 32;
		dmd_aes128_ctr(&k->aes, ctr, ks, (n + 15) & ~(size_t)15);
		for (i = 0; i < n; i++)
			out[off + i] = in[off + i] ^ ks[i];
		off += n;
	}
	if (!decrypt)
		dmd_ghash_update_padded(&g, out, len);
	dmd_wipe(lens, 8);
	dmd_store32_be(lens + 8, (uint32_t)((uint64_t)len * 8 >> 32));
	dmd_store32_be(lens + 12, (uint32_t)(len * 8));
	dmd_ghash_update_padded(&g, lens, 16);
	dmd_ghash_final(&g, tag);
	for (i = 0; i < 16; i++)
		tag[i] ^= mask[i];
	dmd_wipe(ks, sizeof(ks));
	dmd_wipe(mask, sizeof(mask));
}

void gcm_encrypt_k(const struct gcm_key *k, const uint8_t iv[12],
		   const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	gcm_crypt(k, iv, m, len, c, tag, 0);
}

void gcm_decrypt_tag_k(const struct gcm_key *k, const uint8_t iv[12],
		       const uint8_t *c, size_t len, uint8_t *m,
		       uint8_t tag[16])
{
	gcm_crypt(k, iv, c, len, m, tag, 1);
}

/* FAAE1 keys every record afresh: schedule and H inside the call. */
void gcm_encrypt(const uint8_t key[16], const uint8_t iv[12],
		 const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	struct gcm_key k;

	gcm_setkey(&k, key);
	gcm_crypt(&k, iv, m, len, c, tag, 0);
	gcm_wipe(&k);
}

void gcm_decrypt_tag(const uint8_t key[16], const uint8_t iv[12],
		     const uint8_t *c, size_t len, uint8_t *m, uint8_t tag[16])
{
	struct gcm_key k;

	gcm_setkey(&k, key);
	gcm_crypt(&k, iv, c, len, m, tag, 1);
	gcm_wipe(&k);
}

void gcm_iv(uint8_t iv[12], uint64_t e, uint32_t j)
{
	dmd_store64_le(iv, e);
	dmd_store32_le(iv + 8, j);
}

static void keyupd(void *ctx, uint8_t k[16])
{
	uint8_t d[32];

	(void)ctx;
	dmd_sha256(d, k, 16);
	bench_copy(k, d, 16);
	dmd_wipe(d, sizeof(d));
}

static void enc(void *ctx, const uint8_t k[16], uint64_t e, uint32_t j,
		const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16])
{
	uint8_t iv[12];

	(void)ctx;
	gcm_iv(iv, e, j);
	gcm_encrypt(k, iv, m, len, c, tag);
}

static void dec_tag(void *ctx, const uint8_t k[16], uint64_t e, uint32_t j,
		    const uint8_t *c, size_t len, uint8_t *m, uint8_t tag[16])
{
	uint8_t iv[12];

	(void)ctx;
	gcm_iv(iv, e, j);
	gcm_decrypt_tag(k, iv, c, len, m, tag);
}

static const struct faae_ops ops = { keyupd, enc, dec_tag };

static int init(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	((struct faae_ctx *)ctx)->ops = &ops;
	return faae_init(ctx, key, rec, b, w, ws, rw, rws);
}

const struct scheme scheme_faae1 = {
	"FAAE1", sizeof(struct faae_ctx), 0, faae_slot_size, init, faae_begin,
	faae_offline, faae_seal, faae_close, faae_rx_offline, faae_rx_open,
	faae_wipe,
};
