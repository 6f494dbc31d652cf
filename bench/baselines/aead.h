/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Portable single-key AEADs on the core's constant-time AES-128, for the
 * plain per-record baselines (plain.c) and the study's CCM / GCM / OCB
 * ordering on the boards. Nonce 12 bytes, tag 16 bytes, no associated data
 * unless said; each call keys nothing, the key context is set up once.
 */
#ifndef DIAMOND_BENCH_AEAD_H
#define DIAMOND_BENCH_AEAD_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/aes128.h>

#include "internal.h"

/*
 * OCB3 (RFC 7253), AES-128, TAGLEN 128. L[i] = L_i for i < OCB3_NL covers
 * inputs of up to 2^OCB3_NL - 1 full blocks (BENCH_MAX_REC bytes); longer
 * ones (RFC 7253's iterated test) double on from the last entry.
 */
#define OCB3_NL		(BENCH_MAX_REC > 128 ? 9 : 4)

struct ocb3_key {
	struct dmd_aes128 aes;
	uint8_t lstar[16], ldollar[16], l[OCB3_NL][16];
};

void ocb3_init(struct ocb3_key *k, const uint8_t key[16]);
/*
 * Encrypt @len bytes with @adlen bytes of associated data under a nonce of
 * 1..15 bytes. The core's AES encrypts
 * only, and OCB decryption needs the inverse cipher: this is the sender's
 * half (the host's receiver is OpenSSL's OCB, checked byte for byte).
 */
void ocb3_encrypt(const struct ocb3_key *k, const uint8_t *nonce,
		  size_t nlen, const uint8_t *ad, size_t adlen,
		  const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16]);
void ocb3_wipe(struct ocb3_key *k);

/* CCM (SP 800-38C, RFC 3610), AES-128: nonce 7..13 bytes, even tag 4..16. */
void ccm_encrypt(const struct dmd_aes128 *aes, const uint8_t *nonce,
		 size_t nlen, const uint8_t *ad, size_t adlen,
		 const uint8_t *m, size_t len, uint8_t *c, uint8_t *tag,
		 size_t tlen);
/* Decrypts and computes the sender's tag; the caller compares. */
void ccm_decrypt_tag(const struct dmd_aes128 *aes, const uint8_t *nonce,
		     size_t nlen, const uint8_t *ad, size_t adlen,
		     const uint8_t *c, size_t len, uint8_t *m, uint8_t *tag,
		     size_t tlen);

#endif
