/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * UMAC-64 and UMAC-128 (RFC 4418) on the core's AES-128: NH over 1024-byte
 * chunks (L1), the 64-bit polynomial hash for longer messages (L2), the
 * inner product mod 2^36 - 5 (L3), and the AES pad of the nonce. All
 * subkeys come from the RFC's AES KDF at set-up; a tag then costs one AES
 * block (the pad) plus the hashing. Messages up to UMAC_MAX_LEN bytes: the
 * host takes 2 MiB (the RFC's 128-bit L2 stage for longer ones is not
 * here); the boards keep only the L1 key their longest record needs.
 */
#ifndef DIAMOND_BENCH_UMAC_H
#define DIAMOND_BENCH_UMAC_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/aes128.h>

#include "internal.h"

#if BENCH_MAX_REC >= 1024
#define UMAC_L1_BYTES	1024
#define UMAC_MAX_LEN	((size_t)1 << 21)
#else
#define UMAC_L1_BYTES	((BENCH_MAX_REC + 31) / 32 * 32)
#define UMAC_MAX_LEN	((size_t)BENCH_MAX_REC)
#endif
#define UMAC_MAX_ITERS	4	/* UMAC-128: four 32-bit hash lanes */

struct umac_key {
	struct dmd_aes128 pdf;		/* K' = KDF(K, 0, 16) */
	unsigned int iters;		/* taglen / 4 */
	/* L1 (NH) key words, big-endian, Toeplitz-shifted 4 words per lane */
	uint32_t l1[(UMAC_L1_BYTES + 16 * (UMAC_MAX_ITERS - 1)) / 4];
	uint64_t l2[UMAC_MAX_ITERS];		/* k64, masked */
	uint64_t l3[UMAC_MAX_ITERS][8];		/* mod 2^36 - 5 */
	uint32_t l3b[UMAC_MAX_ITERS];
};

/* @taglen 8 (UMAC-64) or 16 (UMAC-128). */
void umac_init(struct umac_key *k, const uint8_t key[16], unsigned int taglen);
/* Tag of @len <= UMAC_MAX_LEN bytes under a nonce of 1..16 bytes. */
void umac_tag(const struct umac_key *k, const uint8_t *nonce, size_t nlen,
	      const uint8_t *m, size_t len, uint8_t *tag);
void umac_wipe(struct umac_key *k);

#endif
