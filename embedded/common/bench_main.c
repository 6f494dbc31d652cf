// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Benchmark firmware (not a test): one full epoch of BENCH_MSGS records of
 * REC_LEN bytes with a window of WINDOW_BYTES, every crypto step inside a
 * runner region so tools/bench/embedded-bench.sh can split the cost:
 *   region 1  dmd_sender_begin (epoch update)            offline
 *   region 2  dmd_sender_precompute (window refills)     offline
 *   region 3  dmd_sender_seal, one per record            online
 *   region 4  dmd_sender_close (trailer tag, aggregate)  per epoch
 *   region 5  dmd_sender_close_group, with BENCH_GROUP    per group
 *             below BENCH_MSGS (spec section 5.1)
 * The key is a fixed, public benchmark key.
 */
#include <diamond/core.h>
#include "board.h"
#include "sensor.h"

#ifndef BENCH_MSGS
#define BENCH_MSGS 1024
#endif
#ifndef BENCH_GROUP
#define BENCH_GROUP BENCH_MSGS	/* g = b: no group tags */
#endif

static uint8_t window[WINDOW_BYTES];
static struct dmd_sender snd;
static uint8_t rec[REC_LEN], c[REC_LEN];

int main(void)
{
	struct dmd_state st = { .suite = SENDER_SUITE, .agg = DMD_AGG_XOR,
				.b = BENCH_MSGS, .device_id = 1, .epoch = 0 };
	struct dmd_state reserve;
	uint8_t tag[DMD_TAG_SIZE];
	uint32_t j, i;

	board_init();
	for (i = 0; i < DMD_KEY_MAX; i++)
		st.key[i] = (uint8_t)(0x40 + i);
	if (dmd_sender_init_groups(&snd, &st, window, sizeof(window), REC_LEN,
				   BENCH_GROUP))
		board_exit(1);
	board_mark_start(1);
	dmd_sender_begin(&snd, &reserve);
	board_mark_stop(1);
	for (j = 0; j < BENCH_MSGS; j++) {
		if (snd.win_count == 0) {
			board_mark_start(2);
			dmd_sender_precompute(&snd, (size_t)-1);
			board_mark_stop(2);
		}
		sensor_read(rec, sizeof(rec), 1, j, 0);
		board_mark_start(3);
		dmd_sender_seal(&snd, rec, sizeof(rec), c, NULL);
		board_mark_stop(3);
		if (dmd_sender_group_due(&snd)) {
			board_mark_start(5);
			dmd_sender_close_group(&snd, NULL, 0, tag, NULL);
			board_mark_stop(5);
		}
	}
	board_mark_start(4);
	dmd_sender_close(&snd, NULL, 0, tag, NULL);
	board_mark_stop(4);
	board_out(tag, sizeof(tag));
	board_exit(0);
}
