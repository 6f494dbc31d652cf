// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Comparison benchmark firmware (not a test): one epoch of BENCH_MSGS
 * records of REC_LEN bytes through scheme SCHEME_VAR (bench/baselines/
 * scheme.h), sender side, with a precompute window of WINDOW_BYTES. The
 * region ids follow embedded/common/bench_main.c, so Diamond's figures here
 * and in make bench-embedded are directly comparable:
 *   region 1  begin (epoch update)                 offline
 *   region 2  offline(): window refills            offline
 *   region 3  seal(), one per record               online
 *   region 4  close() (aggregate tag)              per epoch
 * Built for the ATmega2560 (tools/avr-run) and the Cortex-M4 (tools/m4-run)
 * on the embedded boards' support code. The key is a fixed, public
 * benchmark key; the tag goes out on the board's link.
 */
#include "board.h"
#include "scheme.h"

#ifndef BENCH_MSGS
#define BENCH_MSGS 1024
#endif

extern const struct scheme SCHEME_VAR;

/* Scheme context; UMAC's subkeys need more than 512 bytes (M4 only). */
#ifndef CTX_BYTES
#define CTX_BYTES 512
#endif

static uint8_t window[WINDOW_BYTES];
static uint8_t ctx[CTX_BYTES] __attribute__((aligned(8)));
static uint8_t m[REC_LEN], c[REC_LEN];

int main(void)
{
	const struct scheme *s = &SCHEME_VAR;
	uint8_t key[SCHEME_KEY_SIZE], tag[SCHEME_TAG_SIZE];
	uint32_t j, i, ready = 0;

	board_init();
	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0x40 + i);
	for (i = 0; i < REC_LEN; i++)
		m[i] = (uint8_t)(0x20 + i);
	if (s->ctx_size > sizeof(ctx) ||
	    s->init(ctx, key, REC_LEN, BENCH_MSGS, window, sizeof(window),
		    (void *)0, 0))
		board_exit(1);
	board_mark_start(1);
	s->begin(ctx);
	board_mark_stop(1);
	for (j = 0; j < BENCH_MSGS; j++) {
		if (ready == 0) {
			board_mark_start(2);
			ready = (uint32_t)s->offline(ctx, (size_t)-1);
			board_mark_stop(2);
		}
		board_mark_start(3);
		s->seal(ctx, m, c);
		board_mark_stop(3);
		if (ready)
			ready--;
		m[j % REC_LEN] ^= c[0];	/* records differ, as sensor data does */
	}
	board_mark_start(4);
	s->close(ctx, tag);
	board_mark_stop(4);
	board_out(tag, sizeof(tag));
	board_exit(0);
}
