// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sonikku benchmark firmware (not a test): the primitives and SuperSonic
 * (bench/baselines/forkskinny.h, skinny128.h, supersonic.h) per call, REPS
 * calls per region, with the board's code:
 *   1  SKINNY-128-384, one block (ZMAC's tweakable block cipher)
 *   2  ForkSkinny-128-384, right branch only (a Sonikku chaining call)
 *   3  ForkSkinny-128-384, both branches
 *   4  SuperSonic-384 key set-up (one both-branch call: K', L)
 *   5-8   SuperSonic-384 MAC of 16, 64, 95, 128 bytes, C0 || C1
 *   9-12  SuperSonic-256 MAC of the same lengths
 *   13 SKINNY-128-256, one block; 14 ForkSkinny-128-256, right branch only
 * Per-call figures are region totals / REPS (bench/run-bench.sh).
 */
#include "board.h"
#include "forkskinny.h"
#include "skinny128.h"
#include "supersonic.h"

#ifndef REPS
#define REPS 8
#endif

/* One call in its own region. */
#define TIMED(id, call)							\
	do {								\
		board_mark_start(id);					\
		call;							\
		board_mark_stop(id);					\
	} while (0)

static const unsigned short lens[4] = { 16, 64, 95, 128 };
static uint8_t tk[48], x[16], m[128], t[32];

static void mac_regions(unsigned int first, unsigned int ntk)
{
	struct supersonic_key k;
	unsigned int i, l;

	supersonic_init(&k, tk, ntk);
	for (l = 0; l < 4; l++)
		for (i = 0; i < REPS; i++) {
			TIMED(first + l, supersonic_mac(&k, m, lens[l], t, t + 16));
			m[i] ^= t[0];
		}
	supersonic_wipe(&k);
}

int main(void)
{
	struct supersonic_key k;
	unsigned int i;

	board_init();
	for (i = 0; i < sizeof(tk); i++)
		tk[i] = (uint8_t)(0x40 + i);
	for (i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)(0x20 + i);
	for (i = 0; i < REPS; i++) {
		TIMED(1, skinny128_encrypt(tk, 3, x, x));
		TIMED(2, forkskinny128_encrypt(tk, 3, x, (uint8_t *)0, x));
		TIMED(3, forkskinny128_encrypt(tk, 3, x, t, x));
		TIMED(4, supersonic_init(&k, x, 3));
		TIMED(13, skinny128_encrypt(tk, 2, x, x));
		TIMED(14, forkskinny128_encrypt(tk, 2, x, (uint8_t *)0, x));
	}
	supersonic_wipe(&k);
	mac_regions(5, 3);
	mac_regions(9, 2);
	board_out(t, sizeof(t));
	board_exit(0);
}
