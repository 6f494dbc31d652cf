/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The keystream G(K, IV) of spec section 1, read sequentially: AES-128-CTR
 * for suite 1, ChaCha20 for suite 2. Every PRF output of the scheme (next
 * states, hash keys, pads, keystream) is read from one of these.
 */
#ifndef DIAMOND_CORE_STREAM_H
#define DIAMOND_CORE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/aes128.h>

struct dmd_stream {
	struct dmd_aes128 aes;	/* suite 1: expanded key */
	uint8_t key[32];	/* suite 2: ChaCha20 key */
	uint8_t iv[16];		/* counter block of the next block */
	uint8_t buf[64];	/* keystream generated ahead: buf[pos:end] unread */
	uint8_t pos;
	uint8_t end;
	uint8_t suite;
};

/* The IV domains of spec section 1. */
#define DMD_DOMAIN_RECORD	0
#define DMD_DOMAIN_EPOCH	1
#define DMD_DOMAIN_GROUP	2
#define DMD_DOMAIN_GRID		3	/* spec section 14.3 */

void dmd_stream_init(struct dmd_stream *s, unsigned int suite,
		     const uint8_t *key, int domain);
void dmd_stream_read(struct dmd_stream *s, uint8_t *out, size_t len);
/* out = in xor keystream; @out may equal @in. */
void dmd_stream_xor(struct dmd_stream *s, uint8_t *out, const uint8_t *in,
		    size_t len);
void dmd_stream_wipe(struct dmd_stream *s);
/*
 * The first @len bytes of the stream of @key in @domain, in one call:
 * what init, read and wipe give, without a context. @out must not
 * overlap @key.
 */
void dmd_stream_prefix(unsigned int suite, const uint8_t *key, int domain,
		       uint8_t *out, size_t len);

#endif
