/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Portable AES-128-GCM (96-bit IV, no AAD, 16-byte tag): FAAE1, plain GCM. */
#ifndef DIAMOND_BENCH_GCM_H
#define DIAMOND_BENCH_GCM_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/aes128.h>

/* A key set up once: the schedule and H = E(K, 0^128). */
struct gcm_key {
	struct dmd_aes128 aes;
	uint8_t h[16];
};

void gcm_setkey(struct gcm_key *k, const uint8_t key[16]);
void gcm_wipe(struct gcm_key *k);
void gcm_encrypt_k(const struct gcm_key *k, const uint8_t iv[12],
		   const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16]);
void gcm_decrypt_tag_k(const struct gcm_key *k, const uint8_t iv[12],
		       const uint8_t *c, size_t len, uint8_t *m,
		       uint8_t tag[16]);
/* The same with a raw key, set up and wiped inside the call (FAAE1). */
void gcm_encrypt(const uint8_t key[16], const uint8_t iv[12],
		 const uint8_t *m, size_t len, uint8_t *c, uint8_t tag[16]);
/* Decrypts and computes the sender's tag; the caller compares. */
void gcm_decrypt_tag(const uint8_t key[16], const uint8_t iv[12],
		     const uint8_t *c, size_t len, uint8_t *m, uint8_t tag[16]);
/* The FAAE1 record IV: le64(e) || le32(j). */
void gcm_iv(uint8_t iv[12], uint64_t e, uint32_t j);

#endif
