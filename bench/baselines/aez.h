/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * AEZ v5 (Hoang, Krovetz, Rogaway; CAESAR round 3), the robust-AE
 * reference point: an enciphering of M || 0^tau, so any change to the
 * ciphertext scrambles the whole plaintext and nonce reuse leaks only
 * equality. Built on the core's bitsliced AES rounds (AES4, AES10), so it
 * is constant time. One nonce of 0..16 bytes and at most one associated
 * data string (the AD vector of length 0 or 1); tag tau of 0..16 bytes.
 */
#ifndef DIAMOND_BENCH_AEZ_H
#define DIAMOND_BENCH_AEZ_H

#include <stddef.h>
#include <stdint.h>

struct aez_key {
	uint8_t i[16], j[16], l[8][16];	/* I, J and 0L..7L */
	uint32_t si[8], sj[8], sl[8];	/* I, J, L as sliced round keys */
};

/* Extract: a 48-byte key is I || J || L, any other is BLAKE2b-384'd. */
void aez_init(struct aez_key *k, const uint8_t *key, size_t klen);
/*
 * @ad NULL: no AD string; else one of @adlen bytes (possibly empty).
 * @c gets len + tau bytes; @c may equal @m.
 */
void aez_encrypt(const struct aez_key *k, const uint8_t *nonce, size_t nlen,
		 const uint8_t *ad, size_t adlen, size_t tau,
		 const uint8_t *m, size_t len, uint8_t *c);
/*
 * @m needs room for clen bytes: the plaintext, then tau zero bytes. On a
 * failed check all of it is wiped and -1 returned; else 0 and the
 * plaintext is the first clen - tau bytes.
 */
int aez_decrypt(const struct aez_key *k, const uint8_t *nonce, size_t nlen,
		const uint8_t *ad, size_t adlen, size_t tau,
		const uint8_t *c, size_t clen, uint8_t *m);
void aez_wipe(struct aez_key *k);

#endif
