// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The FAAE baselines' shape (Diamond paper, Table 3; design brief): one
 * AEAD key per record from a hash chain K_{i+1} = H(K_i)[0:16], the
 * record's AEAD tag XORed into the epoch's aggregate, no offline work beyond
 * the key chain: an integrated AEAD (GCM used as a black box, Ascon) cannot
 * precompute its tag mask or keystream apart from the call. Each key is
 * wiped as soon as its record is sealed or opened.
 */
#include "internal.h"

#include <diamond/util.h>

void bench_copy(uint8_t *d, const uint8_t *s, size_t n)
{
	while (n--)
		*d++ = *s++;
}

void scheme_nonce(uint8_t nonce[16], uint64_t epoch, uint32_t j)
{
	dmd_store64_le(nonce, epoch);
	dmd_store64_le(nonce + 8, j);
}

void scheme_xor16(uint8_t acc[16], const uint8_t t[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		acc[i] ^= t[i];
}

size_t faae_slot_size(size_t rec)
{
	(void)rec;
	return 16;
}

int faae_init(void *ctx, const uint8_t key[32], size_t rec, uint32_t b,
	      uint8_t *w, size_t ws, uint8_t *rw, size_t rws)
{
	struct faae_ctx *f = ctx;

	f->rec = rec;
	f->b = b;
	bench_copy(f->k, key, 16);
	bench_copy(f->rk, key, 16);
	f->epoch = f->repoch = 0;
	f->index = 0;
	f->win = w;
	f->win_slots = w ? ws / 16 : 0;
	f->head = f->count = 0;
	f->rwin = rw;
	f->rwin_slots = rw ? rws / 16 : 0;
	f->rn = 0;
	return 0;
}

void faae_begin(void *ctx)
{
	struct faae_ctx *f = ctx;

	f->index = 0;
	dmd_wipe(f->acc, 16);
}

size_t faae_offline(void *ctx, size_t k)
{
	struct faae_ctx *f = ctx;
	size_t added = 0;

	while (added < k && f->count < f->win_slots) {
		uint8_t *slot = f->win + 16 * ((f->head + f->count) % f->win_slots);

		bench_copy(slot, f->k, 16);
		f->ops->keyupd(f, f->k);
		f->count++;
		added++;
	}
	return added;
}

void faae_seal(void *ctx, const uint8_t *m, uint8_t *c)
{
	struct faae_ctx *f = ctx;
	uint8_t key[16], tag[16];

	if (f->count) {
		uint8_t *slot = f->win + 16 * f->head;

		bench_copy(key, slot, 16);
		dmd_wipe(slot, 16);
		f->head = (f->head + 1) % f->win_slots;
		f->count--;
	} else {
		bench_copy(key, f->k, 16);
		f->ops->keyupd(f, f->k);
	}
	f->ops->enc(f, key, f->epoch, f->index, m, f->rec, c, tag);
	scheme_xor16(f->acc, tag);
	dmd_wipe(key, sizeof(key));
	dmd_wipe(tag, sizeof(tag));
	f->index++;
}

void faae_close(void *ctx, uint8_t tag[16])
{
	struct faae_ctx *f = ctx;

	bench_copy(tag, f->acc, 16);
	dmd_wipe(f->acc, 16);
	f->epoch++;
}

void faae_rx_offline(void *ctx, uint32_t n)
{
	struct faae_ctx *f = ctx;
	uint32_t j;

	bench_copy(f->rk_next, f->rk, 16);
	for (j = 0; j < n && j < f->rwin_slots; j++) {
		bench_copy(f->rwin + 16 * j, f->rk_next, 16);
		f->ops->keyupd(f, f->rk_next);
	}
	f->rn = j;
}

int faae_rx_open(void *ctx, const uint8_t *c, uint32_t n,
		 const uint8_t tag[16], uint8_t *m)
{
	struct faae_ctx *f = ctx;
	uint8_t acc[16] = { 0 }, t[16];
	uint32_t j;
	int ok;

	if (n != f->rn)
		return -1;
	for (j = 0; j < n; j++) {
		f->ops->dec_tag(f, f->rwin + 16 * j, f->repoch, j,
				c + (size_t)j * f->rec, f->rec,
				m + (size_t)j * f->rec, t);
		scheme_xor16(acc, t);
	}
	ok = dmd_ct_equal(acc, tag, 16);
	dmd_wipe(t, sizeof(t));
	if (!ok) {
		dmd_wipe(m, (size_t)n * f->rec);
		return -1;
	}
	dmd_wipe(f->rwin, 16 * (size_t)n);
	bench_copy(f->rk, f->rk_next, 16);
	dmd_wipe(f->rk_next, 16);
	f->repoch++;
	f->rn = 0;
	return 0;
}

void faae_wipe(void *ctx)
{
	struct faae_ctx *f = ctx;

	if (f->win)
		dmd_wipe(f->win, 16 * f->win_slots);
	if (f->rwin)
		dmd_wipe(f->rwin, 16 * f->rwin_slots);
	dmd_wipe(f->k, 16);
	dmd_wipe(f->rk, 16);
	dmd_wipe(f->rk_next, 16);
}
