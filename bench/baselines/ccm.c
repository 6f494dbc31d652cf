// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CCM (NIST SP 800-38C, RFC 3610), AES-128 on the core's constant-time AES:
 * CBC-MAC over B_0, the encoded associated data and the message (inherently
 * serial, one block per AES call), then CTR from Ctr_0, whose first block
 * masks the tag (CTR runs two blocks per AES call). Associated data up to
 * 2^16 - 2^8 bytes (the two-byte length encoding). Checked against SP
 * 800-38C Appendix C and RFC 3610 packet vectors in bench-kat and on the
 * boards.
 */
#include "aead.h"

#include <diamond/util.h>

struct cbcmac {
	const struct dmd_aes128 *aes;
	uint8_t y[16];
	unsigned int fill;
};

static void mac_bytes(struct cbcmac *s, const uint8_t *p, size_t n)
{
	while (n--) {
		s->y[s->fill++] ^= *p++;
		if (s->fill == 16) {
			dmd_aes128_encrypt(s->aes, s->y, s->y);
			s->fill = 0;
		}
	}
}

/* Close a zero-padded segment (SP 800-38C A.2.2, A.2.3). */
static void mac_pad(struct cbcmac *s)
{
	if (s->fill) {
		dmd_aes128_encrypt(s->aes, s->y, s->y);
		s->fill = 0;
	}
}

/* B_0 || encoded A || P, padded: the untruncated MAC in s->y. */
static void cbc_mac(struct cbcmac *s, const uint8_t *nonce, size_t nlen,
		    const uint8_t *ad, size_t adlen, const uint8_t *m,
		    size_t len, size_t tlen)
{
	size_t q = 15 - nlen, i;
	uint8_t b[16];

	b[0] = (uint8_t)((adlen ? 0x40 : 0) | ((tlen - 2) / 2) << 3 | (q - 1));
	bench_copy(b + 1, nonce, nlen);
	for (i = 0; i < q; i++)
		b[15 - i] = (uint8_t)(i < sizeof(size_t) ? len >> (8 * i) : 0);
	dmd_wipe(s->y, 16);
	s->fill = 0;
	mac_bytes(s, b, 16);
	if (adlen) {
		b[0] = (uint8_t)(adlen >> 8);
		b[1] = (uint8_t)adlen;
		mac_bytes(s, b, 2);
		mac_bytes(s, ad, adlen);
		mac_pad(s);
	}
	mac_bytes(s, m, len);
	mac_pad(s);
}

/* Ctr_0 = flags(q - 1) || N || 0: S_0 first, then the keystream. */
static void ccm_ctr(const struct dmd_aes128 *aes, const uint8_t *nonce,
		    size_t nlen, const uint8_t *in, size_t len, uint8_t *out,
		    uint8_t s0[16])
{
	uint8_t ctr[16], ks[32];
	size_t off, n, i;

	dmd_wipe(ctr, 16);
	ctr[0] = (uint8_t)(14 - nlen);
	bench_copy(ctr + 1, nonce, nlen);
	n = len < 16 ? len : 16;
	dmd_aes128_ctr(aes, ctr, ks, 16 + (len ? 16 : 0));
	bench_copy(s0, ks, 16);
	for (i = 0; i < n; i++)
		out[i] = in[i] ^ ks[16 + i];
	for (off = n; off < len; off += n) {
		n = len - off < 32 ? len - off : 32;
		dmd_aes128_ctr(aes, ctr, ks, (n + 15) & ~(size_t)15);
		for (i = 0; i < n; i++)
			out[off + i] = in[off + i] ^ ks[i];
	}
	dmd_wipe(ks, sizeof(ks));
}

static void tag_out(struct cbcmac *s, const uint8_t s0[16], uint8_t *tag,
		    size_t tlen)
{
	size_t i;

	for (i = 0; i < tlen; i++)
		tag[i] = s->y[i] ^ s0[i];
	dmd_wipe(s->y, 16);
}

void ccm_encrypt(const struct dmd_aes128 *aes, const uint8_t *nonce,
		 size_t nlen, const uint8_t *ad, size_t adlen,
		 const uint8_t *m, size_t len, uint8_t *c, uint8_t *tag,
		 size_t tlen)
{
	struct cbcmac s = { aes, { 0 }, 0 };
	uint8_t s0[16];

	cbc_mac(&s, nonce, nlen, ad, adlen, m, len, tlen);
	ccm_ctr(aes, nonce, nlen, m, len, c, s0);
	tag_out(&s, s0, tag, tlen);
	dmd_wipe(s0, sizeof(s0));
}

void ccm_decrypt_tag(const struct dmd_aes128 *aes, const uint8_t *nonce,
		     size_t nlen, const uint8_t *ad, size_t adlen,
		     const uint8_t *c, size_t len, uint8_t *m, uint8_t *tag,
		     size_t tlen)
{
	struct cbcmac s = { aes, { 0 }, 0 };
	uint8_t s0[16];

	ccm_ctr(aes, nonce, nlen, c, len, m, s0);
	cbc_mac(&s, nonce, nlen, ad, adlen, m, len, tlen);
	tag_out(&s, s0, tag, tlen);
	dmd_wipe(s0, sizeof(s0));
}
