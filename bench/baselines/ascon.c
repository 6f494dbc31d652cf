// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Ascon permutation, AEAD and Hash256 (see ascon.h). Written from the
 * specification (SP 800-232 sections 3-5; the v1.2 submission for
 * Ascon-128a); checked against the official KATs in selftests/bench/.
 *
 * Message bytes map to state words by position: in SP 800-232 byte k of a
 * block is bits 8k..8k+7 of the word (little-endian); in v1.2 it is bits
 * 56-8k..63-8k (big-endian). Both layouts below expose the same helpers in
 * those terms, so the modes are written once.
 */
#include "ascon.h"

#include <diamond/util.h>

struct ascon_state {
#if ASCON_BYTES
	uint8_t x[5][8];	/* x[w][i]: bits 8i..8i+7 of word w */
#else
	uint64_t x[5];
#endif
};

#if ASCON_BYTES
/* ---- byte layout -------------------------------------------------------- */

static uint8_t pos_of(unsigned int k, int be)
{
	return (uint8_t)(be ? 7 - k : k);
}

static void st_xor(struct ascon_state *s, unsigned int w, const uint8_t *in,
		   size_t n, int be)
{
	size_t k;

	for (k = 0; k < n; k++)
		s->x[w][pos_of((unsigned int)k, be)] ^= in[k];
}

static void st_get(const struct ascon_state *s, unsigned int w, uint8_t *out,
		   size_t n, int be)
{
	size_t k;

	for (k = 0; k < n; k++)
		out[k] = s->x[w][pos_of((unsigned int)k, be)];
}

static void st_set(struct ascon_state *s, unsigned int w, const uint8_t *in,
		   size_t n, int be)
{
	size_t k;

	for (k = 0; k < n; k++)
		s->x[w][pos_of((unsigned int)k, be)] = in[k];
}

static void st_xor_byte(struct ascon_state *s, unsigned int w, unsigned int k,
			uint8_t v, int be)
{
	s->x[w][pos_of(k, be)] ^= v;
}

/*
 * x ^= ror(x, 8*q1 + s1) ^ ror(x, 8*q2 + s2) on one word, fully unrolled
 * with constant byte indices so avr-gcc keeps the eight bytes in registers.
 * Byte i of ror(x, 8q + s) is (x[i+q] >> s) | (x[i+q+1] << (8 - s)).
 */
#define ROR_BYTE(t, i, q, s)							\
	((s) ? (uint8_t)((t[((i) + (q)) & 7] >> (s)) |				\
			 (t[((i) + (q) + 1) & 7] << (8 - (s))))		\
	     : t[((i) + (q)) & 7])
#define LIN_BYTE(x, t, i, q1, s1, q2, s2)					\
	x[i] = (uint8_t)(t[i] ^ ROR_BYTE(t, i, q1, s1) ^ ROR_BYTE(t, i, q2, s2))
#define LIN(x, q1, s1, q2, s2)							\
	do {									\
		const uint8_t t[8] = { x[0], x[1], x[2], x[3],			\
				       x[4], x[5], x[6], x[7] };		\
		LIN_BYTE(x, t, 0, q1, s1, q2, s2);				\
		LIN_BYTE(x, t, 1, q1, s1, q2, s2);				\
		LIN_BYTE(x, t, 2, q1, s1, q2, s2);				\
		LIN_BYTE(x, t, 3, q1, s1, q2, s2);				\
		LIN_BYTE(x, t, 4, q1, s1, q2, s2);				\
		LIN_BYTE(x, t, 5, q1, s1, q2, s2);				\
		LIN_BYTE(x, t, 6, q1, s1, q2, s2);				\
		LIN_BYTE(x, t, 7, q1, s1, q2, s2);				\
	} while (0)

static void ascon_round(struct ascon_state *s, uint8_t c)
{
	uint8_t i;

	s->x[2][0] ^= c;
	for (i = 0; i < 8; i++) {
		uint8_t x0 = s->x[0][i], x1 = s->x[1][i], x2 = s->x[2][i];
		uint8_t x3 = s->x[3][i], x4 = s->x[4][i], t0, t1, t2, t3, t4;

		x0 ^= x4; x4 ^= x3; x2 ^= x1;
		t0 = (uint8_t)(~x0 & x1); t1 = (uint8_t)(~x1 & x2);
		t2 = (uint8_t)(~x2 & x3); t3 = (uint8_t)(~x3 & x4);
		t4 = (uint8_t)(~x4 & x0);
		x0 ^= t1; x1 ^= t2; x2 ^= t3; x3 ^= t4; x4 ^= t0;
		x1 ^= x0; x0 ^= x4; x3 ^= x2; x2 = (uint8_t)~x2;
		s->x[0][i] = x0; s->x[1][i] = x1; s->x[2][i] = x2;
		s->x[3][i] = x3; s->x[4][i] = x4;
	}
	LIN(s->x[0], 2, 3, 3, 4);	/* 19, 28 */
	LIN(s->x[1], 7, 5, 4, 7);	/* 61, 39 */
	LIN(s->x[2], 0, 1, 0, 6);	/* 1, 6 */
	LIN(s->x[3], 1, 2, 2, 1);	/* 10, 17 */
	LIN(s->x[4], 0, 7, 5, 1);	/* 7, 41 */
}

#else
/* ---- word layout -------------------------------------------------------- */

static inline uint64_t ror64(uint64_t x, unsigned int r)
{
	return (x >> r) | (x << (64 - r));
}

static inline unsigned int shift_of(unsigned int k, int be)
{
	return be ? 56 - 8 * k : 8 * k;
}

static inline uint64_t load64(const uint8_t *p, int be)
{
	uint64_t v = 0;
	unsigned int k;

	if (!be)
		return dmd_load64_le(p);
	for (k = 0; k < 8; k++)
		v = (v << 8) | p[k];
	return v;
}

static inline void store64(uint8_t *p, uint64_t v, int be)
{
	unsigned int k;

	if (!be) {
		dmd_store64_le(p, v);
		return;
	}
	for (k = 0; k < 8; k++)
		p[k] = (uint8_t)(v >> (56 - 8 * k));
}

static void st_xor(struct ascon_state *s, unsigned int w, const uint8_t *in,
		   size_t n, int be)
{
	size_t k;

	if (n == 8) {
		s->x[w] ^= load64(in, be);
		return;
	}
	for (k = 0; k < n; k++)
		s->x[w] ^= (uint64_t)in[k] << shift_of((unsigned int)k, be);
}

static void st_get(const struct ascon_state *s, unsigned int w, uint8_t *out,
		   size_t n, int be)
{
	size_t k;

	if (n == 8) {
		store64(out, s->x[w], be);
		return;
	}
	for (k = 0; k < n; k++)
		out[k] = (uint8_t)(s->x[w] >> shift_of((unsigned int)k, be));
}

static void st_set(struct ascon_state *s, unsigned int w, const uint8_t *in,
		   size_t n, int be)
{
	size_t k;

	if (n == 8) {
		s->x[w] = load64(in, be);
		return;
	}
	for (k = 0; k < n; k++) {
		unsigned int sh = shift_of((unsigned int)k, be);

		s->x[w] = (s->x[w] & ~((uint64_t)0xff << sh)) |
			  ((uint64_t)in[k] << sh);
	}
}

static void st_xor_byte(struct ascon_state *s, unsigned int w, unsigned int k,
			uint8_t v, int be)
{
	s->x[w] ^= (uint64_t)v << shift_of(k, be);
}

static inline void ascon_round(struct ascon_state *s, uint8_t c)
{
	uint64_t x0 = s->x[0], x1 = s->x[1], x2 = s->x[2] ^ c;
	uint64_t x3 = s->x[3], x4 = s->x[4], t0, t1, t2, t3, t4;

	x0 ^= x4; x4 ^= x3; x2 ^= x1;
	t0 = ~x0 & x1; t1 = ~x1 & x2; t2 = ~x2 & x3; t3 = ~x3 & x4;
	t4 = ~x4 & x0;
	x0 ^= t1; x1 ^= t2; x2 ^= t3; x3 ^= t4; x4 ^= t0;
	x1 ^= x0; x0 ^= x4; x3 ^= x2; x2 = ~x2;
	s->x[0] = x0 ^ ror64(x0, 19) ^ ror64(x0, 28);
	s->x[1] = x1 ^ ror64(x1, 61) ^ ror64(x1, 39);
	s->x[2] = x2 ^ ror64(x2, 1) ^ ror64(x2, 6);
	s->x[3] = x3 ^ ror64(x3, 10) ^ ror64(x3, 17);
	s->x[4] = x4 ^ ror64(x4, 7) ^ ror64(x4, 41);
}
#endif

/* p^a: the last a of the twelve round constants 0xf0, 0xe1, ..., 0x4b. */
static void ascon_p(struct ascon_state *s, unsigned int rounds)
{
	unsigned int i;

	for (i = 12 - rounds; i < 12; i++)
		ascon_round(s, (uint8_t)(((0xf - i) << 4) | i));
}

/* ---- AEAD --------------------------------------------------------------- */

/* 8-byte IVs as message bytes in each variant's own byte order. */
static const uint8_t iv_aead128[8] = { 0x01, 0x00, 0x8c, 0x80, 0x00, 0x10, 0x00, 0x00 };
static const uint8_t iv_128a[8]    = { 0x80, 0x80, 0x0c, 0x08, 0x00, 0x00, 0x00, 0x00 };

static void aead_init(struct ascon_state *s, enum ascon_variant v,
		      const uint8_t key[16], const uint8_t nonce[16],
		      const uint8_t *ad, size_t adlen)
{
	int be = v == ASCON_128A_V12;
	uint8_t pad = be ? 0x80 : 0x01;
	size_t n;

	dmd_wipe(s, sizeof(*s));
	st_xor(s, 0, be ? iv_128a : iv_aead128, 8, be);
	st_xor(s, 1, key, 8, be);
	st_xor(s, 2, key + 8, 8, be);
	st_xor(s, 3, nonce, 8, be);
	st_xor(s, 4, nonce + 8, 8, be);
	ascon_p(s, 12);
	st_xor(s, 3, key, 8, be);
	st_xor(s, 4, key + 8, 8, be);

	if (adlen) {
		for (; adlen >= 16; adlen -= 16, ad += 16) {
			st_xor(s, 0, ad, 8, be);
			st_xor(s, 1, ad + 8, 8, be);
			ascon_p(s, 8);
		}
		n = adlen < 8 ? adlen : 8;
		st_xor(s, 0, ad, n, be);
		if (adlen >= 8)
			st_xor(s, 1, ad + 8, adlen - 8, be);
		st_xor_byte(s, adlen >= 8 ? 1 : 0, (unsigned int)(adlen & 7),
			    pad, be);
		ascon_p(s, 8);
	}
	/* Domain separation: x4 ^= 1 (v1.2), x4 ^= 1 << 63 (SP 800-232). */
	st_xor_byte(s, 4, be ? 7 : 7, be ? 0x01 : 0x80, be);
}

static void aead_final(struct ascon_state *s, enum ascon_variant v,
		       const uint8_t key[16], uint8_t tag[16])
{
	int be = v == ASCON_128A_V12;

	st_xor(s, 2, key, 8, be);
	st_xor(s, 3, key + 8, 8, be);
	ascon_p(s, 12);
	st_xor(s, 3, key, 8, be);
	st_xor(s, 4, key + 8, 8, be);
	st_get(s, 3, tag, 8, be);
	st_get(s, 4, tag + 8, 8, be);
	dmd_wipe(s, sizeof(*s));
}

void ascon_aead_encrypt(enum ascon_variant v, const uint8_t key[16],
			const uint8_t nonce[16], const uint8_t *ad,
			size_t adlen, const uint8_t *m, size_t len,
			uint8_t *c, uint8_t tag[16])
{
	int be = v == ASCON_128A_V12;
	uint8_t pad = be ? 0x80 : 0x01;
	struct ascon_state s;
	size_t n;

	aead_init(&s, v, key, nonce, ad, adlen);
	for (; len >= 16; len -= 16, m += 16, c += 16) {
		st_xor(&s, 0, m, 8, be);
		st_xor(&s, 1, m + 8, 8, be);
		st_get(&s, 0, c, 8, be);
		st_get(&s, 1, c + 8, 8, be);
		ascon_p(&s, 8);
	}
	n = len < 8 ? len : 8;
	st_xor(&s, 0, m, n, be);
	st_get(&s, 0, c, n, be);
	if (len >= 8) {
		st_xor(&s, 1, m + 8, len - 8, be);
		st_get(&s, 1, c + 8, len - 8, be);
	}
	st_xor_byte(&s, len >= 8 ? 1 : 0, (unsigned int)(len & 7), pad, be);
	aead_final(&s, v, key, tag);
}

void ascon_aead_decrypt_tag(enum ascon_variant v, const uint8_t key[16],
			    const uint8_t nonce[16], const uint8_t *ad,
			    size_t adlen, const uint8_t *c, size_t len,
			    uint8_t *m, uint8_t tag[16])
{
	int be = v == ASCON_128A_V12;
	uint8_t pad = be ? 0x80 : 0x01;
	struct ascon_state s;
	uint8_t t[16];
	size_t n, i;

	aead_init(&s, v, key, nonce, ad, adlen);
	for (; len >= 16; len -= 16, m += 16, c += 16) {
		st_get(&s, 0, t, 8, be);
		st_get(&s, 1, t + 8, 8, be);
		st_set(&s, 0, c, 8, be);
		st_set(&s, 1, c + 8, 8, be);
		for (i = 0; i < 16; i++)
			m[i] = (uint8_t)(t[i] ^ c[i]);
		ascon_p(&s, 8);
	}
	n = len < 8 ? len : 8;
	st_get(&s, 0, t, n, be);
	st_set(&s, 0, c, n, be);
	if (len >= 8) {
		st_get(&s, 1, t + 8, len - 8, be);
		st_set(&s, 1, c + 8, len - 8, be);
	}
	for (i = 0; i < len; i++)
		m[i] = (uint8_t)(t[i] ^ c[i]);
	st_xor_byte(&s, len >= 8 ? 1 : 0, (unsigned int)(len & 7), pad, be);
	aead_final(&s, v, key, tag);
	dmd_wipe(t, sizeof(t));
}

int ascon_aead_decrypt(enum ascon_variant v, const uint8_t key[16],
		       const uint8_t nonce[16], const uint8_t *ad,
		       size_t adlen, const uint8_t *c, size_t len,
		       const uint8_t tag[16], uint8_t *m)
{
	uint8_t t[16];
	int ok;

	ascon_aead_decrypt_tag(v, key, nonce, ad, adlen, c, len, m, t);
	ok = dmd_ct_equal(t, tag, 16);
	dmd_wipe(t, sizeof(t));
	if (!ok) {
		dmd_wipe(m, len);
		return -1;
	}
	return 0;
}

/* ---- Hash256 ------------------------------------------------------------ */

void ascon_hash256(uint8_t out[32], const uint8_t *m, size_t len)
{
	/* IV 0x0000080100cc0002, little-endian message bytes. */
	static const uint8_t iv[8] = { 0x02, 0x00, 0xcc, 0x00, 0x01, 0x08, 0x00, 0x00 };
	struct ascon_state s;
	unsigned int i;

	dmd_wipe(&s, sizeof(s));
	st_xor(&s, 0, iv, 8, 0);
	ascon_p(&s, 12);
	for (; len >= 8; len -= 8, m += 8) {
		st_xor(&s, 0, m, 8, 0);
		ascon_p(&s, 12);
	}
	st_xor(&s, 0, m, len, 0);
	st_xor_byte(&s, 0, (unsigned int)len, 0x01, 0);
	ascon_p(&s, 12);
	for (i = 0; i < 4; i++) {
		st_get(&s, 0, out + 8 * i, 8, 0);
		if (i < 3)
			ascon_p(&s, 12);
	}
	dmd_wipe(&s, sizeof(s));
}
