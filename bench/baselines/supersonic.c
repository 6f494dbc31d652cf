// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SuperSonic on ForkSkinny-128 (supersonic.h).
 */
#include "forkskinny.h"
#include "skinny_tbc.h"
#include "supersonic.h"

#include <diamond/util.h>

struct sonic_chains {
	uint8_t kt[48];		/* key chain || tweak chain || domain byte */
	uint8_t m[16];		/* block chain */
	uint8_t buf[48];	/* C1 || the tweak parts' running XOR (ntk = 3) */
};

void supersonic_init(struct supersonic_key *k, const uint8_t key[16],
		     unsigned int ntk)
{
	uint8_t tk[48] = { 0 }, zero[16] = { 0 };
	unsigned int i;

	for (i = 0; i < 16; i++)
		tk[i] = key[i];
	k->ntk = ntk;
	forkskinny128_encrypt(tk, ntk, zero, k->kprime, k->mask);
	dmd_wipe(tk, sizeof(tk));
}

void supersonic_wipe(struct supersonic_key *k)
{
	dmd_wipe(k, sizeof(*k));
}

/* One chaining call on the chunk in @p (64 bytes, the counter's bytes last). */
static void sonic_call(const struct supersonic_key *k, struct sonic_chains *c,
		       uint8_t p[64], unsigned int ctr)
{
	size_t end = 16 + 16 * k->ntk, tlen = end - 33, i;

	for (i = 0; i < 16; i++) {
		c->kt[i] ^= p[16 + i];
		p[i] ^= k->mask[i];
		p[16 + i] ^= k->kprime[i];
	}
	p[end - 2] = (uint8_t)ctr;
	p[end - 1] = (uint8_t)((ctr >> 8 & 0xf) << 4);
	forkskinny128_encrypt(p + 16, k->ntk, p, NULL, c->buf);
	for (i = 0; i < 16; i++)
		c->m[i] ^= c->buf[i];
	tbc_double(c->m, 16, 0x87);	/* the reference's doubling */
	for (i = 0; i < tlen; i++) {
		c->buf[i] ^= p[32 + i];
		c->kt[16 + i] ^= c->buf[i];
	}
}

void supersonic_mac(const struct supersonic_key *k, const uint8_t *m,
		    size_t len, uint8_t *left, uint8_t *right)
{
	size_t chunk = 16 * k->ntk + 14, calls, last, i, j;
	struct sonic_chains c;
	uint8_t p[64];

	dmd_wipe(&c, sizeof(c));
	/*
	 * Calls before the last chunk, and the last chunk's length, 0 ..
	 * chunk. The reference's len / chunk - 1 for a multiple of the chunk
	 * underflows at len = 0 and reads far past the message; here an empty
	 * message is one padded chunk (p[0] = 0x80, domain 3), and nothing is
	 * read.
	 */
	calls = len ? (len - 1) / chunk : 0;
	last = len - chunk * calls;
	for (i = 0; i < calls; i++) {
		dmd_wipe(p, sizeof(p));
		for (j = 0; j < chunk; j++)
			p[j] = m[chunk * i + j];
		sonic_call(k, &c, p, (unsigned int)i + 1);
	}
	dmd_wipe(p, sizeof(p));
	for (j = 0; j < last; j++)
		p[j] = m[chunk * calls + j];
	if (last < chunk)
		p[last] = 0x80;
	sonic_call(k, &c, p, (unsigned int)calls + 1);
	c.kt[16 * k->ntk - 1] = last < chunk ? 3 : 1;
	for (i = 0; i < 16; i++) {
		c.kt[i] ^= k->kprime[i];
		c.m[i] ^= k->mask[i];
	}
	forkskinny128_encrypt(c.kt, k->ntk, c.m, left, right);
	dmd_wipe(&c, sizeof(c));
	dmd_wipe(p, sizeof(p));
}
