// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Graphene1 / Graphene2, Diamond's predecessor: exactly Diamond's record
 * composition (CTR keystream, Carter-Wegman tag with the spec's length
 * block, XOR aggregation, a trailer slot binding the count) but with the
 * keys evolved by SHA-256 instead of the PRF chain:
 *
 *   S_{i+1} = SHA-256(S_i)          (32-byte state, one compression)
 *   slot i  = G(S_i, 0) = H_i || P_i || KS_i   (G = AES-128-CTR under
 *             S_i[0:16] for Graphene1, ChaCha20 under S_i for Graphene2)
 *
 * So against Diamond, Graphene pays one SHA-256 per record and saves the
 * k bytes of PRF output that Diamond spends on the next state. One chain
 * for all keys is the cheapest Graphene (the paper keys three).
 */
#include "internal.h"

#include <diamond/aes128.h>
#include <diamond/chacha20.h>
#include <diamond/sha256.h>
#include <diamond/tag.h>
#include <diamond/util.h>

size_t graphene_slot_size(size_t rec)
{
	return 32 + rec;
}

/* Expand state s into slot (H || P || KS[0:rec]) and step s forward. */
static void step(struct graphene_ctx *g, uint8_t s[32], uint8_t *slot,
		 size_t rec)
{
	static const uint8_t iv0[16];

	if (g->suite == 1) {
		struct dmd_aes128 aes;
		uint8_t ctr[16] = { 0 };

		dmd_aes128_init(&aes, s);
		dmd_aes128_ctr(&aes, ctr, slot, 32 + rec);
		dmd_aes128_wipe(&aes);
	} else {
		dmd_chacha20_stream(slot, 32 + rec, s, iv0);
	}
	g->sha256(g, s, s);
}

int graphene_init_common(struct graphene_ctx *g, unsigned int suite,
			 const uint8_t key[32], size_t rec, uint32_t b,
			 uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	if (rec > BENCH_MAX_REC)
		return -1;
	g->suite = suite;
	g->rec = rec;
	g->b = b;
	bench_copy(g->s, key, 32);
	bench_copy(g->rs, key, 32);
	g->epoch = g->repoch = 0;
	g->index = 0;
	g->win = w;
	g->win_slots = w ? ws / graphene_slot_size(rec) : 0;
	g->head = g->count = 0;
	g->rwin = rw;
	g->rwin_slots = rw ? rws / graphene_slot_size(rec) : 0;
	g->rn = 0;
	return 0;
}

void graphene_begin(void *ctx)
{
	struct graphene_ctx *g = ctx;

	g->index = 0;
	dmd_wipe(g->acc, 16);
}

size_t graphene_offline(void *ctx, size_t k)
{
	struct graphene_ctx *g = ctx;
	size_t added = 0, sz = graphene_slot_size(g->rec);

	while (added < k && g->count < g->win_slots) {
		step(g, g->s, g->win + sz * ((g->head + g->count) % g->win_slots),
		     g->rec);
		g->count++;
		added++;
	}
	return added;
}

/* Take the next slot: from the window, or computed now into @tmp. */
static uint8_t *next_slot(struct graphene_ctx *g, uint8_t *tmp)
{
	uint8_t *slot;

	if (!g->count) {
		step(g, g->s, tmp, g->rec);
		return tmp;
	}
	slot = g->win + graphene_slot_size(g->rec) * g->head;
	g->head = (g->head + 1) % g->win_slots;
	g->count--;
	return slot;
}

void graphene_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct graphene_ctx *g = ctx;
	uint8_t tmp[32 + BENCH_MAX_REC], sigma[16], *slot;
	size_t i;

	slot = next_slot(g, tmp);
	for (i = 0; i < g->rec; i++)
		c[i] = m[i] ^ slot[32 + i];
	dmd_uh_tag(g->suite, slot, c, g->rec, g->epoch, g->index,
		   sigma);
	scheme_xor16(g->acc, sigma);
	dmd_wipe(slot, graphene_slot_size(g->rec));
	dmd_wipe(sigma, sizeof(sigma));
	g->index++;
}

void graphene_close(void *ctx, uint8_t tag[16])
{
	struct graphene_ctx *g = ctx;
	uint8_t tmp[32 + BENCH_MAX_REC], tau[16], *slot;

	slot = next_slot(g, tmp);
	dmd_uh_tag(g->suite, slot, NULL, 0, g->epoch,
		   0x80000000u | g->index, tau);
	dmd_wipe(slot, graphene_slot_size(g->rec));
	scheme_xor16(g->acc, tau);
	bench_copy(tag, g->acc, 16);
	dmd_wipe(g->acc, 16);
	dmd_wipe(tau, 16);
	g->epoch++;
}

void graphene_rx_offline(void *ctx, uint32_t n)
{
	struct graphene_ctx *g = ctx;
	size_t sz = graphene_slot_size(g->rec);
	uint32_t j;

	bench_copy(g->rs_next, g->rs, 32);
	for (j = 0; j <= n && j < g->rwin_slots; j++)
		step(g, g->rs_next, g->rwin + sz * j, g->rec);
	g->rn = j ? j - 1 : 0;
}

int graphene_rx_open(void *ctx, const uint8_t *c, uint32_t n,
		     const uint8_t tag[16], uint8_t *m)
{
	struct graphene_ctx *g = ctx;
	size_t sz = graphene_slot_size(g->rec), i;
	uint8_t acc[16] = { 0 }, t[16], mask;
	uint32_t j;

	if (n != g->rn)
		return -1;
	for (j = 0; j < n; j++) {
		const uint8_t *slot = g->rwin + sz * j;

		dmd_uh_tag(g->suite, slot, c + (size_t)j * g->rec,
			   g->rec, g->repoch, j, t);
		scheme_xor16(acc, t);
	}
	dmd_uh_tag(g->suite, g->rwin + sz * n, NULL, 0,
		   g->repoch, 0x80000000u | n, t);
	scheme_xor16(acc, t);
	mask = (uint8_t)(0 - dmd_ct_equal(acc, tag, 16));
	for (j = 0; j < n; j++)
		for (i = 0; i < g->rec; i++)
			m[(size_t)j * g->rec + i] = (uint8_t)
				((c[(size_t)j * g->rec + i] ^
				  g->rwin[sz * j + 32 + i]) & mask);
	dmd_wipe(g->rwin, sz * (n + 1));
	dmd_wipe(t, sizeof(t));
	if (!mask)
		return -1;
	bench_copy(g->rs, g->rs_next, 32);
	dmd_wipe(g->rs_next, 32);
	g->repoch++;
	g->rn = 0;
	return 0;
}

void graphene_wipe(void *ctx)
{
	struct graphene_ctx *g = ctx;
	size_t sz = graphene_slot_size(g->rec);

	if (g->win)
		dmd_wipe(g->win, sz * g->win_slots);
	if (g->rwin)
		dmd_wipe(g->rwin, sz * g->rwin_slots);
	dmd_wipe(g->s, 32);
	dmd_wipe(g->rs, 32);
	dmd_wipe(g->rs_next, 32);
}

static void sha_portable(void *ctx, uint8_t out[32], const uint8_t in[32])
{
	(void)ctx;
	dmd_sha256(out, in, 32);
}

static int init1(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		 uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	((struct graphene_ctx *)ctx)->sha256 = sha_portable;
	return graphene_init_common(ctx, 1, key, rec, b, w, ws, rw, rws);
}

static int init2(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		 uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	((struct graphene_ctx *)ctx)->sha256 = sha_portable;
	return graphene_init_common(ctx, 2, key, rec, b, w, ws, rw, rws);
}

const struct scheme scheme_graphene1 = {
	"Graphene1", sizeof(struct graphene_ctx), 0, graphene_slot_size, init1,
	graphene_begin, graphene_offline, graphene_seal, graphene_close,
	graphene_rx_offline, graphene_rx_open, graphene_wipe,
};

const struct scheme scheme_graphene2 = {
	"Graphene2", sizeof(struct graphene_ctx), 0, graphene_slot_size, init2,
	graphene_begin, graphene_offline, graphene_seal, graphene_close,
	graphene_rx_offline, graphene_rx_open, graphene_wipe,
};
