// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Keystream of spec section 1. Suite 1 is AES-128-CTR with a 128-bit
 * big-endian counter; suite 2 is ChaCha20 with the 16-byte Linux IV layout
 * (le32 block counter || nonce). Reads are sequential; bytes generated ahead
 * wait in buf so a record slot costs exactly the blocks it consumes.
 */
#include <diamond/stream.h>

#include <diamond/chacha20.h>
#include <diamond/util.h>
#include <diamond/spec.h>

#define CHACHA_BLOCK 64
#define AES_BLOCK 16

void dmd_stream_init(struct dmd_stream *s, unsigned int suite,
		     const uint8_t *key, int domain)
{
	size_t i;

	s->suite = (uint8_t)suite;
	s->pos = 0;
	s->end = 0;
	for (i = 0; i < sizeof(s->iv); i++)
		s->iv[i] = 0;
	if (suite == DMD_SUITE_AES_GHASH) {
		dmd_aes128_init(&s->aes, key);
		if (domain == DMD_DOMAIN_EPOCH)
			s->iv[0] = 0x80;	/* counter block 2^127 */
		else if (domain == DMD_DOMAIN_GROUP)
			s->iv[0] = 0x40;	/* counter block 2^126 */
	} else {
		for (i = 0; i < DMD_KEY2_SIZE; i++)
			s->key[i] = key[i];
		if (domain == DMD_DOMAIN_EPOCH)
			s->iv[4] = 1;		/* nonce 01 00 .. 00 */
		else if (domain == DMD_DOMAIN_GROUP)
			s->iv[4] = 2;		/* nonce 02 00 .. 00 */
	}
}

static void chacha_advance(uint8_t iv[16], size_t blocks)
{
	dmd_store32_le(iv, dmd_load32_le(iv) + (uint32_t)blocks);
}

/* Generate @len (a multiple of the block size) keystream bytes into @out. */
static void generate(struct dmd_stream *s, uint8_t *out, size_t len)
{
	if (s->suite == DMD_SUITE_AES_GHASH) {
		dmd_aes128_ctr(&s->aes, s->iv, out, len);
	} else {
		dmd_chacha20_stream(out, len, s->key, s->iv);
		chacha_advance(s->iv, len / CHACHA_BLOCK);
	}
}

/* Refill buf with enough whole blocks for @want bytes (at most 64). */
static void refill(struct dmd_stream *s, size_t want)
{
	size_t n = CHACHA_BLOCK;

	if (s->suite == DMD_SUITE_AES_GHASH && want < CHACHA_BLOCK)
		n = (want + AES_BLOCK - 1) & ~(size_t)(AES_BLOCK - 1);
	generate(s, s->buf, n);
	s->pos = 0;
	s->end = (uint8_t)n;
}

void dmd_stream_read(struct dmd_stream *s, uint8_t *out, size_t len)
{
	size_t whole;

	while (len && s->pos < s->end) {
		*out++ = s->buf[s->pos++];
		len--;
	}
	whole = len & ~(size_t)(CHACHA_BLOCK - 1);
	if (whole) {
		generate(s, out, whole);
		out += whole;
		len -= whole;
	}
	if (len) {
		refill(s, len);
		while (len--)
			*out++ = s->buf[s->pos++];
	}
}

void dmd_stream_xor(struct dmd_stream *s, uint8_t *out, const uint8_t *in,
		    size_t len)
{
	while (len) {
		if (s->pos == s->end)
			refill(s, len);
		*out++ = *in++ ^ s->buf[s->pos++];
		len--;
	}
}

/* Wipe only what the suite used: the AES schedule is 352 bytes of it. */
void dmd_stream_wipe(struct dmd_stream *s)
{
	if (s->suite == DMD_SUITE_AES_GHASH)
		dmd_aes128_wipe(&s->aes);
	else
		dmd_wipe(s->key, sizeof(s->key));
	dmd_wipe(s->iv, sizeof(s->iv));
	dmd_wipe(s->buf, sizeof(s->buf));
	s->pos = 0;
	s->end = 0;
}
