/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * VMAC-64 and VMAC-128 (Krovetz and Dai, draft-krovetz-vmac-01, 2007) on
 * the core's AES-128, the Wegman-Carter MAC of the kernel's vmac64(aes):
 *
 *  - keys from the AES KDF: NH key (128 bytes + 16 per extra 64-bit tag
 *    half) with index 0x80, the L2 polynomial key (masked with
 *    0x1fffffff1fffffff per 64-bit word) with 0xc0, the L3 keys (below
 *    2^64 - 257, drawn again if not) with 0xe0;
 *  - VHASH per 64-bit half: NH over 128-byte blocks (64-bit words,
 *    little-endian, the last block zero-padded to 16 bytes) mod 2^126,
 *    the blocks' results as coefficients of a polynomial mod 2^127 - 1,
 *    the last block's bit length added, then L3: the 127-bit result split
 *    by 2^64 - 2^32 into two words, ((q + k1) * (r + k2)) mod 2^64 - 257;
 *  - the pad: AES of the 16-byte nonce (shorter nonces are left-padded
 *    with zeros); VMAC-64 takes the half the nonce's last bit selects,
 *    with that bit cleared before the call, VMAC-128 both;
 *  - tag = VHASH + pad, each 64-bit half mod 2^64, big-endian.
 *
 * Constant time: 64 x 64-bit products from 32 x 32-bit ones, carries by
 * comparison, branches only on the public length.
 */
#ifndef DIAMOND_BENCH_VMAC_H
#define DIAMOND_BENCH_VMAC_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/aes128.h>

#define VMAC_NHBYTES	128

struct vmac_key {
	struct dmd_aes128 aes;
	unsigned int halves;			/* 1 (VMAC-64) or 2 (VMAC-128) */
	uint64_t nh[VMAC_NHBYTES / 8 + 2];	/* shifted 2 words per half */
	uint64_t poly[2][2];			/* per half: high, low word */
	uint64_t l3[2][2];			/* per half: k1, k2 */
};

/* @taglen 8 (VMAC-64) or 16 (VMAC-128). */
void vmac_init(struct vmac_key *k, const uint8_t key[16], unsigned int taglen);
/* Tag (taglen bytes) of @len bytes under a nonce of 1..16 bytes. */
void vmac_tag(const struct vmac_key *k, const uint8_t *nonce, size_t nlen,
	      const uint8_t *m, size_t len, uint8_t *tag);
void vmac_wipe(struct vmac_key *k);

#endif
