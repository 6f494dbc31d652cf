// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Diamond1 / Diamond2 behind the benchmark interface. The sender is the
 * core's public sender (include/diamond/core.h) unchanged: begin, window
 * precompute, seal, close, with every wipe the core does. The core's
 * receiver (dmd_open) verifies a whole epoch in one call; the paper splits
 * verification into offline and online, so the receiver here is that split
 * built from the core's own chain and tag functions (as the kernel module's
 * receiver is): rx_offline derives the epoch's keys, pads and keystream,
 * rx_open hashes, aggregates, compares and only then decrypts. bench-kat
 * checks it against dmd_open.
 */
#include "internal.h"

#include <diamond/core.h>
#include <diamond/chain.h>
#include <diamond/tag.h>
#include <diamond/util.h>

struct diamond_ctx {
	unsigned int suite;
	size_t rec;
	struct dmd_sender snd;
	struct dmd_state rx;
	uint8_t rx_next[DMD_KEY_MAX];
	uint8_t *rwin;
	size_t rwin_slots;
	uint32_t rn;
};

static size_t slot1(size_t rec)
{
	return dmd_slot_size(1, rec);
}

static size_t slot2(size_t rec)
{
	return dmd_slot_size(2, rec);
}

static size_t rx_slot(size_t rec)
{
	return 32 + rec;
}

static int init(struct diamond_ctx *d, unsigned int suite,
		const uint8_t key[32], size_t rec, uint32_t b, uint8_t *w,
		size_t ws, uint8_t *rw, size_t rws)
{
	struct dmd_state st = { 0 };

	st.suite = (uint8_t)suite;
	st.agg = DMD_AGG_XOR;
	st.b = b;
	st.device_id = 1;
	st.epoch = 0;
	bench_copy(st.key, key, dmd_key_size(suite));
	d->suite = suite;
	d->rec = rec;
	d->rx = st;
	d->rwin = rw;
	d->rwin_slots = rw ? rws / rx_slot(rec) : 0;
	d->rn = 0;
	if (dmd_sender_init(&d->snd, &st, w, ws, rec) != DMD_OK)
		return -1;
	dmd_wipe(&st, sizeof(st));
	return 0;
}

static int init1(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		 uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	return init(ctx, 1, key, rec, b, w, ws, rw, rws);
}

static int init2(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
		 uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	return init(ctx, 2, key, rec, b, w, ws, rw, rws);
}

static void begin(void *ctx)
{
	struct diamond_ctx *d = ctx;

	dmd_sender_begin(&d->snd, NULL);
}

static size_t offline(void *ctx, size_t k)
{
	struct diamond_ctx *d = ctx;

	return dmd_sender_precompute(&d->snd, k);
}

static void seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct diamond_ctx *d = ctx;

	dmd_sender_seal(&d->snd, m, d->rec, c, NULL);
}

static void close_epoch(void *ctx, uint8_t tag[16])
{
	struct diamond_ctx *d = ctx;

	dmd_sender_close(&d->snd, NULL, 0, tag, NULL);
}

static void rx_offline(void *ctx, uint32_t n)
{
	struct diamond_ctx *d = ctx;
	size_t sz = rx_slot(d->rec);
	struct dmd_stream s;
	uint8_t r[DMD_KEY_MAX];
	uint32_t j;

	dmd_epoch_update(d->suite, d->rx.key, d->rx_next, r);
	for (j = 0; j <= n && j < d->rwin_slots; j++) {
		uint8_t *slot = d->rwin + sz * j;

		dmd_slot_open(&s, d->suite, r, r, slot);
		if (j < n)
			dmd_stream_read(&s, slot + 32, d->rec);
		dmd_stream_wipe(&s);
	}
	dmd_wipe(r, sizeof(r));
	d->rn = j ? j - 1 : 0;
}

static int rx_open(void *ctx, const uint8_t *c, uint32_t n,
		   const uint8_t tag[16], uint8_t *m)
{
	struct diamond_ctx *d = ctx;
	size_t sz = rx_slot(d->rec), i;
	struct dmd_agg agg;
	uint8_t t[16], mask;
	uint32_t j;

	if (n != d->rn)
		return -1;
	dmd_agg_init(&agg, DMD_AGG_XOR);
	for (j = 0; j < n; j++) {
		const uint8_t *slot = d->rwin + sz * j;

		dmd_uh_tag(d->suite, slot, c + (size_t)j * d->rec,
			   d->rec, d->rx.epoch, j, t);
		dmd_agg_add(&agg, t);
	}
	dmd_uh_tag(d->suite, d->rwin + sz * n, NULL, 0,
		   d->rx.epoch, DMD_TRAILER_FLAG | n, t);
	dmd_agg_final(&agg, t, t);
	mask = (uint8_t)(0 - dmd_ct_equal(t, tag, 16));
	for (j = 0; j < n; j++)
		for (i = 0; i < d->rec; i++)
			m[(size_t)j * d->rec + i] = (uint8_t)
				((c[(size_t)j * d->rec + i] ^
				  d->rwin[sz * j + 32 + i]) & mask);
	dmd_wipe(d->rwin, sz * (n + 1));
	dmd_wipe(t, sizeof(t));
	if (!mask)
		return -1;
	bench_copy(d->rx.key, d->rx_next, sizeof(d->rx.key));
	dmd_wipe(d->rx_next, sizeof(d->rx_next));
	d->rx.epoch++;
	d->rn = 0;
	return 0;
}

static void wipe(void *ctx)
{
	struct diamond_ctx *d = ctx;

	dmd_sender_wipe(&d->snd);
	if (d->rwin)
		dmd_wipe(d->rwin, rx_slot(d->rec) * d->rwin_slots);
	dmd_wipe(&d->rx, sizeof(d->rx));
	dmd_wipe(d->rx_next, sizeof(d->rx_next));
}

const struct scheme scheme_diamond1 = {
	"Diamond1", sizeof(struct diamond_ctx), 0, slot1, init1, begin,
	offline, seal, close_epoch, rx_offline, rx_open, wipe,
};

const struct scheme scheme_diamond2 = {
	"Diamond2", sizeof(struct diamond_ctx), 0, slot2, init2, begin,
	offline, seal, close_epoch, rx_offline, rx_open, wipe,
};
