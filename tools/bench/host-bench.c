// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * host-bench SUITE SIZE: one epoch of 1024 records of SIZE bytes through the
 * portable core, split into the three phases that tools/bench/bench-host.sh
 * measures with callgrind --toggle-collect:
 *   bench_offline  sender: begin the epoch, precompute every slot
 *   bench_online   sender: seal the 1024 records and close the epoch
 *   bench_verify   receiver: dmd_open, i.e. derive, verify, then decrypt
 * A benchmark, not a test: it only checks that the epoch opened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/diamond/core.h"

#define B 1024

static struct dmd_sender snd;
static uint8_t *win, *pt, *ct, *out;
static size_t rec;

__attribute__((noinline)) void bench_offline(void)
{
	dmd_sender_begin(&snd, NULL);
	dmd_sender_precompute(&snd, B + 1);
}

__attribute__((noinline)) void bench_online(void)
{
	size_t j, pos = 0;

	for (j = 0; j < B; j++, pos += 2 + rec) {
		ct[pos] = pt[pos];
		ct[pos + 1] = pt[pos + 1];
		dmd_sender_seal(&snd, pt + pos + 2, rec, ct + pos + 2, NULL);
	}
	dmd_sender_close(&snd, NULL, 0, ct + pos, NULL);
}

__attribute__((noinline)) int bench_verify(struct dmd_state *rx)
{
	return dmd_open(rx, 0, NULL, 0, ct, B * (2 + rec) + 16, out,
			DMD_DEFAULT_MAX_SKIP);
}

int main(int argc, char **argv)
{
	struct dmd_state st = { .agg = DMD_AGG_XOR, .b = B, .device_id = 1 };
	struct dmd_state rx;
	size_t body, winsize, j;

	if (argc != 3 || (atoi(argv[1]) != 1 && atoi(argv[1]) != 2)) {
		fprintf(stderr, "usage: host-bench 1|2 SIZE\n");
		return 2;
	}
	st.suite = (uint8_t)atoi(argv[1]);
	rec = (size_t)atoi(argv[2]);
	memset(st.key, 0x17, sizeof(st.key));
	rx = st;
	body = B * (2 + rec);
	winsize = (B + 1) * dmd_slot_size(st.suite, rec);
	win = malloc(winsize);
	pt = malloc(body);
	ct = malloc(body + 16);
	out = malloc(body);
	if (!win || !pt || !ct || !out)
		return 2;
	for (j = 0; j < body; j += 2 + rec) {
		pt[j] = (uint8_t)rec;
		pt[j + 1] = (uint8_t)(rec >> 8);
		memset(pt + j + 2, 'x', rec);
	}
	dmd_sender_init(&snd, &st, win, winsize, rec);
	bench_offline();
	bench_online();
	if (bench_verify(&rx) != DMD_OK || memcmp(out, pt, body)) {
		fprintf(stderr, "host-bench: epoch did not open\n");
		return 1;
	}
	return 0;
}
