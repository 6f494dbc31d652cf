/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared machinery of the baselines: the FAAE shape (hash-chained AEAD keys,
 * XOR of per-record AEAD tags) and the Graphene shape (Diamond's CTR +
 * Carter-Wegman composition with a hash chain). Each scheme file fills in
 * the primitives; the OpenSSL variants (host) reuse the same machinery.
 */
#ifndef DIAMOND_BENCH_INTERNAL_H
#define DIAMOND_BENCH_INTERNAL_H

#include "scheme.h"

/* Longest record a scheme accepts (sizes the on-the-spot slot buffers). */
#ifndef BENCH_MAX_REC
#if defined(__AVR__) || defined(__arm__)
#define BENCH_MAX_REC 128
#else
#define BENCH_MAX_REC 4096
#endif
#endif

/* ---- FAAE: K_{i+1} = H(K_i)[0:16], (C_i, sigma_i) = AEAD(K_i, N_i, M_i) -- */

struct faae_ops {
	/* K <- H(K)[0:16]; @ctx is the scheme context (for OpenSSL handles). */
	void (*keyupd)(void *ctx, uint8_t k[16]);
	void (*enc)(void *ctx, const uint8_t k[16], uint64_t e, uint32_t j,
		    const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16]);
	/* Decrypt c into m and compute the sender's tag (no comparison). */
	void (*dec_tag)(void *ctx, const uint8_t k[16], uint64_t e, uint32_t j,
			const uint8_t *c, size_t len, uint8_t *m,
			uint8_t tag[16]);
};

struct faae_ctx {
	const struct faae_ops *ops;
	void *priv;		/* OpenSSL handles, or NULL */
	size_t rec;
	uint32_t b;
	/* sender */
	uint8_t k[16];		/* next key not yet taken into the window */
	uint64_t epoch;
	uint32_t index;
	uint8_t acc[16];
	uint8_t *win;
	size_t win_slots, head, count;
	/* receiver */
	uint8_t rk[16], rk_next[16];
	uint64_t repoch;
	uint8_t *rwin;
	size_t rwin_slots;
	uint32_t rn;
};

size_t faae_slot_size(size_t rec);
int faae_init(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
	      uint8_t *w, size_t ws, uint8_t *rw, size_t rws);
void faae_begin(void *ctx);
size_t faae_offline(void *ctx, size_t k);
void faae_seal(void *ctx, const uint8_t *m, uint8_t *c);
void faae_close(void *ctx, uint8_t tag[16]);
void faae_rx_offline(void *ctx, uint32_t n);
int faae_rx_open(void *ctx, const uint8_t *c, uint32_t n,
		 const uint8_t tag[16], uint8_t *m);
void faae_wipe(void *ctx);

/* ---- Graphene: S_{i+1} = SHA-256(S_i); slot i = G(S_i, 0) = H || P || KS -- */

struct graphene_ctx {
	void (*sha256)(void *ctx, uint8_t out[32], const uint8_t in[32]);
	void *priv;
	unsigned int suite;
	size_t rec;
	uint32_t b;
	uint8_t s[32];
	uint64_t epoch;
	uint32_t index;
	uint8_t acc[16];
	uint8_t *win;
	size_t win_slots, head, count;
	uint8_t rs[32], rs_next[32];
	uint64_t repoch;
	uint8_t *rwin;
	size_t rwin_slots;
	uint32_t rn;
};

size_t graphene_slot_size(size_t rec);
int graphene_init_common(struct graphene_ctx *g, unsigned int suite,
			 const uint8_t key[32], size_t rec, uint32_t b,
			 uint8_t *w, size_t ws, uint8_t *rw, size_t rws);
void graphene_begin(void *ctx);
size_t graphene_offline(void *ctx, size_t k);
void graphene_seal(void *ctx, const uint8_t *m, uint8_t *c);
void graphene_close(void *ctx, uint8_t tag[16]);
void graphene_rx_offline(void *ctx, uint32_t n);
int graphene_rx_open(void *ctx, const uint8_t *c, uint32_t n,
		     const uint8_t tag[16], uint8_t *m);
void graphene_wipe(void *ctx);

/*
 * ---- plain per-record AEADs (ossl.c, plain.c, umac_etm.c): one key, a tag
 * per record, nothing offline. struct perrec is the first member of each
 * such context, so these scheme callbacks serve them all.
 */
struct perrec {
	size_t rec;
	uint64_t epoch, repoch;
	uint32_t index;
};

size_t perrec_slot(size_t rec);
void perrec_begin(void *ctx);
size_t perrec_offline(void *ctx, size_t k);
/* The aggregate tag is all zero: every record carries its own. */
void perrec_close(void *ctx, uint8_t tag[16]);
void perrec_rx_offline(void *ctx, uint32_t n);
/*
 * End of a receiver's epoch of n records of plaintext m: on a failed check
 * wipe m and return -1 (the epoch is not consumed), else move on, 0.
 */
int perrec_rx_done(struct perrec *p, int ok, uint8_t *m, uint32_t n);

void bench_copy(uint8_t *d, const uint8_t *s, size_t n);

#endif
