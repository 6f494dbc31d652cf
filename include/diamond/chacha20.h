/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ChaCha20 keystream (RFC 8439). The 16-byte iv is the Linux/OpenSSL
 * layout: le32 block counter || 12-byte nonce, i.e. state words 12..15.
 */
#ifndef DIAMOND_CORE_CHACHA20_H
#define DIAMOND_CORE_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#define DMD_CHACHA20_KEY_SIZE	32
#define DMD_CHACHA20_IV_SIZE	16
#define DMD_CHACHA20_BLOCK_SIZE	64

/* One 64-byte keystream block for the counter and nonce in iv. */
void dmd_chacha20_block(uint8_t out[64], const uint8_t key[32],
			const uint8_t iv[16]);

/*
 * len bytes of keystream starting at the block counter in iv. The counter is
 * 32 bits and wraps without carrying into the nonce, as in RFC 8439 and the
 * Linux chacha20 skcipher; callers must keep streams below 256 GiB.
 */
void dmd_chacha20_stream(uint8_t *out, size_t len, const uint8_t key[32],
			 const uint8_t iv[16]);

#endif
