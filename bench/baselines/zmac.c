// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ZMAC on a SKINNY tweakable block cipher (zmac.h).
 */
#include "zmac.h"

#include <diamond/util.h>

#define DOM_HASH	0x08
#define DOM_MASK	0x09
#define DOM_PADDED	4

struct zmac_state {
	const struct skinny_tbc *e;
	const uint8_t *key;
	uint8_t ml[TBC_MAX_N], mr[TBC_MAX_N];	/* masks L, R */
	uint8_t u[TBC_MAX_N], v[TBC_MAX_N];	/* chains */
	uint8_t c[TBC_MAX_N], tw[TBC_MAX_N];	/* scratch */
};

static void masks(struct zmac_state *z)
{
	unsigned int t = z->e->t;

	dmd_wipe(z->tw, sizeof(z->tw));
	dmd_wipe(z->c, sizeof(z->c));
	z->tw[t - 1] = DOM_MASK;
	z->e->enc(z->key, z->tw, z->c, z->ml);
	z->tw[t - 2] = 0x01;
	z->e->enc(z->key, z->tw, z->c, z->mr);
}

/* One chunk @x: n block bytes, then t - 1 tweak bytes. */
static void absorb(struct zmac_state *z, const uint8_t *x)
{
	unsigned int n = z->e->n, t = z->e->t, i;

	for (i = 0; i < n; i++)
		z->c[i] = x[i] ^ z->ml[i];
	for (i = 0; i + 1 < t; i++)
		z->tw[i] = x[n + i] ^ z->mr[i];
	z->tw[t - 1] = DOM_HASH;
	z->e->enc(z->key, z->tw, z->c, z->c);
	for (i = 0; i < n; i++)
		z->u[i] ^= z->c[i];
	for (i = 0; i + 1 < t; i++)
		z->v[i] ^= z->c[i] ^ x[n + i];
	tbc_double(z->u, n, z->e->poly);
	tbc_double(z->ml, n, z->e->poly);
	tbc_double(z->mr, n, z->e->poly);
}

/* tag half = E(V || d, U) ^ E(V || d + 1, U) */
static void fin_half(struct zmac_state *z, uint8_t d, uint8_t *out)
{
	unsigned int n = z->e->n, t = z->e->t, i;

	for (i = 0; i + 1 < t; i++)
		z->tw[i] = z->v[i];
	z->tw[t - 1] = d;
	z->e->enc(z->key, z->tw, z->u, out);
	z->tw[t - 1] = (uint8_t)(d + 1);
	z->e->enc(z->key, z->tw, z->u, z->c);
	for (i = 0; i < n; i++)
		out[i] ^= z->c[i];
}

void zmac(const struct skinny_tbc *e, enum zmac_mode mode,
	  const uint8_t key[TBC_KEY_BYTES], const uint8_t *m, size_t len,
	  uint8_t *tag, size_t taglen)
{
	size_t chunk = e->n + e->t - 1, calls, last, i;
	uint8_t x[2 * TBC_MAX_N], d;
	struct zmac_state z;

	dmd_wipe(&z, sizeof(z));
	z.e = e;
	z.key = key;
	masks(&z);
	calls = len ? (len - 1) / chunk : 0;	/* all but the last chunk */
	for (i = 0; i < calls; i++)
		absorb(&z, m + chunk * i);
	last = len - chunk * calls;		/* 0 .. chunk */
	dmd_wipe(x, sizeof(x));
	if (last < chunk) {
		x[last] = 0x80;
		d = DOM_PADDED;
	} else {
		d = 0;
		if (mode == ZMAC_AS_REFERENCE)
			last = e->n;
	}
	for (i = 0; i < last; i++)
		x[i] = m[chunk * calls + i];
	absorb(&z, x);
	fin_half(&z, d, tag);
	if (taglen > e->n)
		fin_half(&z, (uint8_t)(d + 2), tag + e->n);
	dmd_wipe(&z, sizeof(z));
	dmd_wipe(x, sizeof(x));
}
