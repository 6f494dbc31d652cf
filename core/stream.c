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

/* The first counter block of @domain (spec section 1). */
static void domain_iv(uint8_t iv[16], unsigned int suite, int domain)
{
	size_t i;

	for (i = 0; i < 16; i++)
		iv[i] = 0;
	if (suite == DMD_SUITE_AES_GHASH) {
		if (domain == DMD_DOMAIN_EPOCH)
			iv[0] = 0x80;	/* counter block 2^127 */
		else if (domain == DMD_DOMAIN_GROUP)
			iv[0] = 0x40;	/* counter block 2^126 */
		else if (domain == DMD_DOMAIN_GRID)
			iv[0] = 0xc0;	/* counter block 3 * 2^126 */
	} else {
		if (domain == DMD_DOMAIN_EPOCH)
			iv[4] = 1;	/* nonce 01 00 .. 00 */
		else if (domain == DMD_DOMAIN_GROUP)
			iv[4] = 2;	/* nonce 02 00 .. 00 */
		else if (domain == DMD_DOMAIN_GRID)
			iv[4] = 3;	/* nonce 03 00 .. 00 */
	}
}

void dmd_stream_init(struct dmd_stream *s, unsigned int suite,
		     const uint8_t *key, int domain)
{
	size_t i;

	s->suite = (uint8_t)suite;
	s->pos = 0;
	s->end = 0;
	domain_iv(s->iv, suite, domain);
	if (suite == DMD_SUITE_AES_GHASH) {
		dmd_aes128_init(&s->aes, key);
	} else {
		for (i = 0; i < DMD_KEY2_SIZE; i++)
			s->key[i] = key[i];
	}
}

/*
 * The AES schedule in this frame, below the caller's, where the caller's
 * stack wipe reaches; wiped here as well.
 */
static __attribute__((noinline)) void aes_prefix(const uint8_t *key,
						 uint8_t iv[16], uint8_t *out,
						 size_t len)
{
	struct dmd_aes128 aes;

	dmd_aes128_init(&aes, key);
	dmd_aes128_ctr(&aes, iv, out, len);
	dmd_aes128_wipe(&aes);
}

/*
 * Whole blocks go straight to @out, and no stream context is filled,
 * copied or wiped: the sender's precompute writes a slot this way (about
 * 3,700 AVR cycles a Diamond2 slot less than dmd_stream_read() into it;
 * Documentation/performance.md).
 */
void dmd_stream_prefix(unsigned int suite, const uint8_t *key, int domain,
		       uint8_t *out, size_t len)
{
	uint8_t iv[16];

	domain_iv(iv, suite, domain);
	if (suite == DMD_SUITE_AES_GHASH)
		aes_prefix(key, iv, out, len);
	else
		dmd_chacha20_stream(out, len, key, iv);
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
