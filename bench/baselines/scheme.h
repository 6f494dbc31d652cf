/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One sender/receiver interface for Diamond and every baseline, so the
 * benchmark drivers (host, AVR, Cortex-M4) run the same work on each.
 *
 * An epoch is n records of equal length rec (n <= b) and one 16-byte
 * aggregate tag. Sender and receiver each own a context; both start from
 * the same 32-byte key and evolve it as their scheme says.
 *
 * Sender, per epoch:
 *   begin()            offline: anything per epoch (Diamond's epoch update)
 *   offline(k)         offline: precompute the next k records (keys, pads,
 *                      keystream) into the window given at init; returns how
 *                      many it added (the window may be full)
 *   seal() x n         online: one record; uses a precomputed slot when there
 *                      is one, else computes it on the spot (counted online)
 *   close()            online: the aggregate tag
 * Receiver, per epoch:
 *   rx_offline(n)      offline: every message-independent value of the epoch
 *   rx_open()          online: verify the aggregate tag over the n
 *                      ciphertexts, and only then release the plaintexts
 *                      (on a mismatch m is wiped and the state is unchanged)
 *
 * The portable schemes are freestanding (core primitives plus ascon.c) and
 * build for the AVR and the Cortex-M4; the OpenSSL ones are host only.
 */
#ifndef DIAMOND_BENCH_SCHEME_H
#define DIAMOND_BENCH_SCHEME_H

#include <stddef.h>
#include <stdint.h>

#define SCHEME_KEY_SIZE	32
#define SCHEME_TAG_SIZE	16

struct scheme {
	const char *name;
	size_t ctx_size;
	/* Bytes a record grows by on the wire (16 for per-record-tag AEADs). */
	size_t rec_overhead;
	/* Window bytes one precomputed record of @rec bytes takes. */
	size_t (*slot_size)(size_t rec);
	/*
	 * @window (sender) and @rx_window (receiver, b + 1 slots for an epoch
	 * of b records) are caller memory; @rx_window may be NULL for a
	 * sender-only build. Returns 0, or -1 on bad sizes.
	 */
	int (*init)(void *ctx, const uint8_t key[SCHEME_KEY_SIZE], size_t rec,
		    uint32_t b, uint8_t *window, size_t window_size,
		    uint8_t *rx_window, size_t rx_window_size);
	void (*begin)(void *ctx);
	size_t (*offline)(void *ctx, size_t k);
	/* c gets rec + rec_overhead bytes. */
	void (*seal)(void *ctx, const uint8_t *m, uint8_t *c);
	void (*close)(void *ctx, uint8_t tag[SCHEME_TAG_SIZE]);
	void (*rx_offline)(void *ctx, uint32_t n);
	int (*rx_open)(void *ctx, const uint8_t *c, uint32_t n,
		       const uint8_t tag[SCHEME_TAG_SIZE], uint8_t *m);
	void (*wipe)(void *ctx);
};

/* Portable (freestanding) schemes. */
extern const struct scheme scheme_diamond1, scheme_diamond2;
extern const struct scheme scheme_graphene1, scheme_graphene2;
extern const struct scheme scheme_faae1;		/* AES-128-GCM + SHA-256 */
extern const struct scheme scheme_faae2;		/* Ascon-AEAD128 + Ascon-Hash256 */
extern const struct scheme scheme_faae2_128a;	/* Ascon-128a v1.2 + Ascon-Hash256 */
/*
 * Plain AES-128 AEADs (plain.c), one key, a tag per record. OCB3 is the
 * sender's half only: its rx_open is NULL (see aead.h).
 */
extern const struct scheme scheme_gcm, scheme_ccm, scheme_ocb3;
/* AES-128-CTR then UMAC (RFC 4418) per record, umac_etm.c; not for AVR. */
extern const struct scheme scheme_umac64, scheme_umac128;
/* AEZ v5 per record, tau 16 (aez_rec.c); host only for now. */
extern const struct scheme scheme_aez;
/*
 * MACs per record, record in the clear (mac_rec.c): SuperSonic-384, ZMAC,
 * PMAC1, PMAC2x on SKINNY, VMAC.
 */
extern const struct scheme scheme_supersonic;
extern const struct scheme scheme_zmac256, scheme_zmac192, scheme_pmac1;
extern const struct scheme scheme_pmac2x256, scheme_vmac64, scheme_vmac128;

#ifdef SCHEME_OPENSSL
/* Host: the same constructions on OpenSSL primitives, and plain AEADs. */
extern const struct scheme scheme_faae1_ossl;		/* EVP aes-128-gcm + SHA-256 */
extern const struct scheme scheme_graphene1_ossl;	/* Graphene1, OpenSSL SHA-256 */
extern const struct scheme scheme_graphene2_ossl;	/* Graphene2, OpenSSL SHA-256 */
extern const struct scheme scheme_gcm_ossl;		/* plain AES-128-GCM */
extern const struct scheme scheme_chapoly_ossl;		/* plain ChaCha20-Poly1305 */
extern const struct scheme scheme_ocb_ossl;		/* plain AES-128-OCB */
#endif

/* The 16-byte per-record nonce every AEAD baseline uses: le64(e) || le64(j). */
void scheme_nonce(uint8_t nonce[16], uint64_t epoch, uint32_t j);
void scheme_xor16(uint8_t acc[16], const uint8_t t[16]);

#endif
