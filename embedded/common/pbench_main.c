// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Benchmark firmware of the packet sender (not a test): one full epoch of
 * BENCH_MSGS records of REC_LEN bytes through dmd_psender_* (spec section
 * 14.3), each step in a runner region as bench_main.c's, so
 * tools/bench/embedded-packet.sh sets the two framings side by side:
 *   region 1  dmd_psender_begin (epoch update)              offline
 *   region 2  dmd_sender_precompute (window refills)        offline
 *   region 3  dmd_psender_seal, one per packet: the record,
 *             the unit's tau* at r = 0, the accumulators
 *             and the tags it carries                       online
 * There is no region 4: packet mode has no epoch tag. The packets go
 * nowhere (the link is not what is measured). The key is bench_main.c's
 * fixed, public benchmark key; A = 1, address 5.
 */
#include <diamond/packet.h>
#include "board.h"
#include "sensor.h"

#ifndef BENCH_MSGS
#define BENCH_MSGS 1024
#endif

static uint8_t window[WINDOW_BYTES];
static struct dmd_psender ps;
static uint8_t rec[REC_LEN], pkt[DMD_PKT_MAX];

int main(void)
{
	struct dmd_state st = { .suite = SENDER_SUITE, .agg = DMD_AGG_XOR,
				.b = BENCH_MSGS, .device_id = 1, .epoch = 0 };
	struct dmd_state reserve;
	size_t n;
	uint32_t j, i;

	board_init();
	for (i = 0; i < DMD_KEY_MAX; i++)
		st.key[i] = (uint8_t)(0x40 + i);
	if (dmd_psender_init(&ps, &st, 1, 5, window, sizeof(window), REC_LEN))
		board_exit(1);
	board_mark_start(1);
	dmd_psender_begin(&ps, &reserve);
	board_mark_stop(1);
	for (j = 0; j < BENCH_MSGS; j++) {
		if (ps.s.win_count == 0) {
			board_mark_start(2);
			dmd_sender_precompute(&ps.s, (size_t)-1);
			board_mark_stop(2);
		}
		sensor_read(rec, sizeof(rec), 1, j, 0);
		board_mark_start(3);
		dmd_psender_seal(&ps, rec, sizeof(rec), 0, pkt, sizeof(pkt), &n);
		board_mark_stop(3);
	}
	board_out(pkt, n);
	board_exit(0);
}
