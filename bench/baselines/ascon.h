/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Ascon for the FAAE2 baseline: the permutation, Ascon-AEAD128 of NIST
 * SP 800-232 (the final standard, little-endian), Ascon-128a v1.2 (the CAESAR
 * / LWC-round version the Diamond paper used, big-endian) and Ascon-Hash256
 * of SP 800-232. Constant time: no table, no branch on key or data.
 *
 * Two state layouts, chosen at compile time like the core's Poly1305 radix:
 *   ASCON_BYTES=0  five uint64_t words (hosts, Cortex-M4);
 *   ASCON_BYTES=1  five words as 8 little-endian bytes each, so the S-box
 *                  runs on bytes and each rotation is a byte shuffle plus a
 *                  shift of at most 4 bits (AVR, whose avr-gcc turns 64-bit
 *                  shifts into bit-serial library loops).
 * The host KAT suite builds and checks both.
 */
#ifndef DIAMOND_BENCH_ASCON_H
#define DIAMOND_BENCH_ASCON_H

#include <stddef.h>
#include <stdint.h>

#ifndef ASCON_BYTES
#if defined(__AVR__)
#define ASCON_BYTES 1
#else
#define ASCON_BYTES 0
#endif
#endif

#define ASCON_KEY_SIZE		16
#define ASCON_NONCE_SIZE	16
#define ASCON_TAG_SIZE		16
#define ASCON_HASH_SIZE		32

enum ascon_variant {
	ASCON_AEAD128,		/* SP 800-232 Ascon-AEAD128 */
	ASCON_128A_V12,		/* Ascon-128a v1.2 */
};

/*
 * Encrypt: c gets len bytes, tag 16 bytes. Decrypt-side helper: computes
 * the tag a sender would have produced for ciphertext c and writes the
 * plaintext to m (callers compare the tag themselves; the FAAE2 receiver
 * compares an aggregate). m may equal c in both directions.
 */
void ascon_aead_encrypt(enum ascon_variant v, const uint8_t key[16],
			const uint8_t nonce[16], const uint8_t *ad,
			size_t adlen, const uint8_t *m, size_t len,
			uint8_t *c, uint8_t tag[16]);
void ascon_aead_decrypt_tag(enum ascon_variant v, const uint8_t key[16],
			    const uint8_t nonce[16], const uint8_t *ad,
			    size_t adlen, const uint8_t *c, size_t len,
			    uint8_t *m, uint8_t tag[16]);
/* Returns 0 and writes m if the tag matches, else -1 and wipes m. */
int ascon_aead_decrypt(enum ascon_variant v, const uint8_t key[16],
		       const uint8_t nonce[16], const uint8_t *ad,
		       size_t adlen, const uint8_t *c, size_t len,
		       const uint8_t tag[16], uint8_t *m);

void ascon_hash256(uint8_t out[32], const uint8_t *m, size_t len);

#endif
