// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Re-keying benchmark firmware (not a test): the data-dependent re-keying
 * PRF F(K, X) = E(E(K, X), X) (bench/baselines/rekey.h) beside the AES
 * calls Diamond1's key chain makes per record (Documentation/spec.rst
 * section 4: Y_j = G(R_j, 0^16), R_{j+1} = Y_j[0:16], H_j, P_j from the
 * next two blocks), with the board's AES. REPS calls of each, in regions:
 *   1  F(K, X): one block under K, one key schedule, one block
 *   2  one AES-128 key schedule
 *   3  one AES-128 block
 *   4  Diamond1's chain step alone: schedule R_j, R_{j+1} = E(R_j, 0^16)
 *   5  Diamond1's slot minus keystream: schedule R_j, 3 CTR blocks (48 B)
 *   6  the chain step re-keyed: schedule R_j, R_{j+1} = F(R_j, 0^16)
 * Per-call figures are region totals / REPS (bench/run-bench.sh).
 */
#include "board.h"
#include "rekey.h"

#include <diamond/util.h>

#ifndef REPS
#define REPS 64
#endif

static uint8_t x[16], y[48], r[16];

int main(void)
{
	static const uint8_t zero[16];
	struct dmd_aes128 k;
	unsigned int i, j;

	board_init();
	for (i = 0; i < 16; i++) {
		r[i] = (uint8_t)(0x40 + i);
		x[i] = (uint8_t)(0x20 + i);
	}
	dmd_aes128_init(&k, r);
	for (i = 0; i < REPS; i++) {
		board_mark_start(1);
		rekey_prf(&k, x, x);
		board_mark_stop(1);
	}
	for (i = 0; i < REPS; i++) {
		board_mark_start(2);
		dmd_aes128_init(&k, x);
		board_mark_stop(2);
		board_mark_start(3);
		dmd_aes128_encrypt(&k, x, x);
		board_mark_stop(3);
	}
	for (i = 0; i < REPS; i++) {
		board_mark_start(4);
		dmd_aes128_init(&k, r);
		dmd_aes128_encrypt(&k, r, zero);
		board_mark_stop(4);
	}
	for (i = 0; i < REPS; i++) {
		uint8_t ctr[16] = { 0 };

		board_mark_start(5);
		dmd_aes128_init(&k, r);
		dmd_aes128_ctr(&k, ctr, y, sizeof(y));
		board_mark_stop(5);
		for (j = 0; j < 16; j++)	/* the chain moves on */
			r[j] = y[j];
	}
	for (i = 0; i < REPS; i++) {
		board_mark_start(6);
		dmd_aes128_init(&k, r);
		rekey_prf(&k, zero, r);
		board_mark_stop(6);
	}
	dmd_aes128_wipe(&k);
	board_out(r, sizeof(r));
	board_exit(0);
}
