// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ChaCha20 (RFC 8439) for 8-bit AVR, replacing core/chacha20.c in the AVR
 * firmware (same API, core/chacha20.h). avr-gcc 5.4 turns a 32-bit rotate
 * by 12 or 7 into long shift sequences; here every rotate is a byte
 * permutation (free: register moves) plus at most four 1-bit rotates of
 * five cycles each. Constant time: fixed instruction sequence, no tables.
 */
#include "../../../core/chacha20.h"
#include "../../../core/util.h"

/* Rotate left by 1: lsl/rol through the four bytes, carry back into bit 0. */
static inline uint32_t rotl1(uint32_t x)
{
	__asm__("lsl %A0\n\trol %B0\n\trol %C0\n\trol %D0\n\tadc %A0, __zero_reg__"
		: "+r"(x));
	return x;
}

/* Rotate right by 1: bit 0 saved in T, shifted in at the top. */
static inline uint32_t rotr1(uint32_t x)
{
	__asm__("bst %A0, 0\n\tror %D0\n\tror %C0\n\tror %B0\n\tror %A0\n\tbld %D0, 7"
		: "+r"(x));
	return x;
}

static inline uint32_t rotl8(uint32_t x)
{
	return (x << 8) | (x >> 24);
}

static inline uint32_t rotl16(uint32_t x)
{
	return (x << 16) | (x >> 16);
}

#define QR(a, b, c, d) do {					\
	a += b; d = rotl16(d ^ a);				\
	c += d; b = rotl1(rotl1(rotl1(rotl1(rotl8(b ^ c)))));	\
	a += b; d = rotl8(d ^ a);				\
	c += d; b = rotr1(rotl8(b ^ c));			\
} while (0)

static void setup(uint32_t s[16], const uint8_t key[32], const uint8_t iv[16])
{
	unsigned int i;

	s[0] = 0x61707865;
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
	for (i = 0; i < 8; i++)
		s[4 + i] = dmd_load32_le(key + 4 * i);
	for (i = 0; i < 4; i++)
		s[12 + i] = dmd_load32_le(iv + 4 * i);
}

static void core(uint8_t out[64], const uint32_t s[16], uint32_t x[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		x[i] = s[i];
	for (i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		dmd_store32_le(out + 4 * i, x[i] + s[i]);
}

void dmd_chacha20_block(uint8_t out[64], const uint8_t key[32],
			const uint8_t iv[16])
{
	uint32_t s[16], x[16];

	setup(s, key, iv);
	core(out, s, x);
	dmd_wipe(s, sizeof(s));
	dmd_wipe(x, sizeof(x));
}

void dmd_chacha20_stream(uint8_t *out, size_t len, const uint8_t key[32],
			 const uint8_t iv[16])
{
	uint32_t s[16], x[16];
	uint8_t tail[64];
	size_t i;

	setup(s, key, iv);
	for (; len >= 64; len -= 64, out += 64) {
		core(out, s, x);
		s[12]++;
	}
	if (len) {
		core(tail, s, x);
		for (i = 0; i < len; i++)
			out[i] = tail[i];
		dmd_wipe(tail, sizeof(tail));
	}
	dmd_wipe(s, sizeof(s));
	dmd_wipe(x, sizeof(x));
}
