// SPDX-License-Identifier: GPL-2.0
/*
 * Suite 2's primitives for the floor (floor.h), each way the kernel offers:
 *
 *   G = ChaCha20 from the counter block of the domain (spec section 1):
 *     chacha          chacha_crypt() over the zero page: the arch code
 *                     where there is one (diamond.ko's call)
 *     chacha-generic  chacha_block_generic() per 64-byte block, no SIMD
 *   Poly1305 with the one-time key r || s = H || P:
 *     poly1305        poly1305_init/update/final(), the arch code where
 *                     there is one (diamond.ko's call)
 *     poly1305-generic  poly1305_*_generic(), no SIMD
 *     poly1305-core   poly1305_core_setkey/blocks/emit(): no descriptor,
 *                     whole blocks (diamond.ko's call before 0976108)
 *
 * The generic entry points are exported up to 6.15 (the lib/crypto
 * rework of 6.16 made them internal): there a variant fails its init and
 * is left out.
 */
#include <crypto/chacha.h>
#include <crypto/internal/poly1305.h>
#include <crypto/poly1305.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>

#include "diamond_compat.h"
#include "floor.h"

#define S2_K		32
#define S2_GENERIC	(LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0))

/* The state for @key at counter 0, nonce @domain || 0^11. */
static void s2_state(struct chacha_state *st, const u8 *key, u8 domain)
{
	u32 *x = st->x;
	int i;

	dmd_chacha_init_consts(st);
	for (i = 0; i < 8; i++)
		x[4 + i] = get_unaligned_le32(key + 4 * i);
	x[12] = 0;
	x[13] = domain;
	x[14] = 0;
	x[15] = 0;
}

static int s2_none_init(struct floor_prf *p)
{
	strscpy(p->driver, p->name, sizeof(p->driver));
	return 0;
}

static void s2_none_exit(struct floor_prf *p)
{
}

static int chacha_gen(struct floor_prf *p, const u8 *key, u8 domain,
		      u8 *dst, unsigned int len)
{
	struct chacha_state st;

	s2_state(&st, key, domain);
	dmd_chacha_crypt(&st, dst, page_address(ZERO_PAGE(0)), len, 20);
	memzero_explicit(&st, sizeof(st));
	return 0;
}

static struct floor_prf s2_chacha = {
	.name = "chacha", .init = s2_none_init, .exit = s2_none_exit,
	.gen = chacha_gen,
};

/* Whole blocks straight into @dst: the caller's buffers are 64-aligned. */
static int chacha_generic_gen(struct floor_prf *p, const u8 *key, u8 domain,
			      u8 *dst, unsigned int len)
{
#if S2_GENERIC
	struct chacha_state st;
	unsigned int i;

	s2_state(&st, key, domain);
	for (i = 0; i < len; i += CHACHA_BLOCK_SIZE)
		chacha_block_generic(st.x, dst + i, 20);
	memzero_explicit(&st, sizeof(st));
	return 0;
#else
	return -ENOENT;
#endif
}

static int chacha_generic_init(struct floor_prf *p)
{
	return S2_GENERIC ? s2_none_init(p) : -ENOENT;
}

static struct floor_prf s2_chacha_generic = {
	.name = "chacha-generic", .init = chacha_generic_init,
	.exit = s2_none_exit, .gen = chacha_generic_gen,
};

static int poly_init(struct floor_mac *m)
{
	strscpy(m->driver, m->name, sizeof(m->driver));
	return 0;
}

static void poly_exit(struct floor_mac *m)
{
}

/* diamond.ko's calls (its poly_tag()), kept apart so the floor stays put. */
static int poly_tag(struct floor_mac *m, const u8 *hp, const u8 *hb,
		    const u8 *data, unsigned int len, u8 *tag)
{
	struct poly1305_desc_ctx desc;

	poly1305_init(&desc, hp);
	if (hb)
		poly1305_update(&desc, hb, 16);
	poly1305_update(&desc, data, len);
	poly1305_final(&desc, tag);
	return 0;
}

static struct floor_mac s2_poly = {
	.name = "poly1305", .init = poly_init, .exit = poly_exit,
	.tag = poly_tag,
};

static int poly_generic_tag(struct floor_mac *m, const u8 *hp, const u8 *hb,
			    const u8 *data, unsigned int len, u8 *tag)
{
#if S2_GENERIC
	struct poly1305_desc_ctx desc;

	poly1305_init_generic(&desc, hp);
	if (hb)
		poly1305_update_generic(&desc, hb, 16);
	poly1305_update_generic(&desc, data, len);
	poly1305_final_generic(&desc, tag);
	return 0;
#else
	return -ENOENT;
#endif
}

static int poly_generic_init(struct floor_mac *m)
{
	return S2_GENERIC ? poly_init(m) : -ENOENT;
}

static struct floor_mac s2_poly_generic = {
	.name = "poly1305-generic", .init = poly_generic_init,
	.exit = poly_exit, .tag = poly_generic_tag,
};

#if S2_GENERIC
/* @len bytes at @p into the state, a partial last block padded by hand. */
static void core_absorb(struct poly1305_state *st,
			const struct poly1305_core_key *key, const u8 *p,
			unsigned int len)
{
	unsigned int rest = len % POLY1305_BLOCK_SIZE;
	u8 last[POLY1305_BLOCK_SIZE] = { };

	if (len >= POLY1305_BLOCK_SIZE)
		poly1305_core_blocks(st, key, p, len / POLY1305_BLOCK_SIZE, 1);
	if (rest) {
		memcpy(last, p + len - rest, rest);
		last[rest] = 1;
		poly1305_core_blocks(st, key, last, 1, 0);
	}
}
#endif

static int poly_core_tag(struct floor_mac *m, const u8 *hp, const u8 *hb,
			 const u8 *data, unsigned int len, u8 *tag)
{
#if S2_GENERIC
	struct poly1305_core_key key;
	struct poly1305_state st;
	u32 s[4];
	int i;

	poly1305_core_setkey(&key, hp);
	poly1305_core_init(&st);
	if (hb)
		core_absorb(&st, &key, hb, 16);
	core_absorb(&st, &key, data, len);
	for (i = 0; i < 4; i++)
		s[i] = get_unaligned_le32(hp + 16 + 4 * i);
	poly1305_core_emit(&st, s, tag);
	memzero_explicit(&key, sizeof(key));
	return 0;
#else
	return -ENOENT;
#endif
}

static struct floor_mac s2_poly_core = {
	.name = "poly1305-core", .init = poly_generic_init,
	.exit = poly_exit, .tag = poly_core_tag,
};

static struct floor_prf *s2_prfs[] = { &s2_chacha, &s2_chacha_generic, NULL };

static struct floor_mac *s2_macs[] = {
	&s2_poly, &s2_poly_generic, &s2_poly_core, NULL,
};

struct floor_suite floor_suite2 = {
	.k = S2_K, .prf = s2_prfs, .mac = s2_macs,
};
