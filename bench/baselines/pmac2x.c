// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * PMAC2x on a SKINNY tweakable block cipher (pmac.h).
 */
#include "pmac.h"
#include "pmac_last.h"

#include <diamond/util.h>

#define DOM_FIN_U	0x02
#define DOM_FIN_V	0x03

struct pmac2x_state {
	const struct skinny_tbc *e;
	const uint8_t *key;
	uint8_t u[TBC_MAX_N], v[TBC_MAX_N], c[TBC_MAX_N], tw[TBC_MAX_N];
};

/* Block number @i (from 1) into both chains. */
static void absorb(struct pmac2x_state *p, size_t i, const uint8_t *x)
{
	unsigned int n = p->e->n, j;

	p->tw[1] = (uint8_t)i;
	p->tw[2] = (uint8_t)(i >> 8);
	p->e->enc(p->key, p->tw, x, p->c);
	for (j = 0; j < n; j++) {
		p->u[j] ^= p->c[j];
		p->v[j] ^= p->c[j];
	}
	tbc_double(p->v, n, p->e->poly);
}

/* @out = E(dom || a[0 .. t - 2], b) */
static void fin(struct pmac2x_state *p, uint8_t dom, const uint8_t *a,
		const uint8_t *b, uint8_t *out)
{
	unsigned int j;

	p->tw[0] = dom;
	for (j = 0; j + 1 < p->e->t; j++)
		p->tw[1 + j] = a[j];
	p->e->enc(p->key, p->tw, b, out);
}

void pmac2x(const struct skinny_tbc *e, const uint8_t key[TBC_KEY_BYTES],
	    const uint8_t *m, size_t len, uint8_t *tag, size_t taglen)
{
	struct pmac2x_state p;
	uint8_t x[TBC_MAX_N];
	size_t before, i;
	int padded;

	dmd_wipe(&p, sizeof(p));
	p.e = e;
	p.key = key;
	before = pmac_last_block(m, len, e->n, x, &padded);
	for (i = 0; i < before; i++)
		absorb(&p, i + 1, m + e->n * i);
	absorb(&p, before + 1, x);
	fin(&p, DOM_FIN_U, p.v, p.u, tag);
	if (taglen > e->n)
		fin(&p, DOM_FIN_V, p.u, p.v, tag + e->n);
	dmd_wipe(&p, sizeof(p));
	dmd_wipe(x, sizeof(x));
}
