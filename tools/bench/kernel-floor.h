/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Diamond against its floor (issue 21; Documentation/performance.md,
 * "Against the floor"): the figures of dmd_floor.ko (tools/bench/floor/)
 * plus one AF_ALG round trip, and Diamond's own total and online per record
 * against them, for tools/bench/kernel-bench.c.
 */
#ifndef DIAMOND_KERNEL_FLOOR_H
#define DIAMOND_KERNEL_FLOOR_H

#include <stdint.h>

/* One suite's Diamond figures, guest ns for the whole epoch (0: none). */
struct floor_diamond {
	uint64_t total;
	uint64_t online;
};

/*
 * Print the floor of suites 1 and 2 (@d indexed by suite) over @records
 * records, each figure the median of @reps runs; 0, or -1 when the floor
 * could not be measured or a variant computed a different tag.
 */
int floor_report(const struct floor_diamond d[3], unsigned int records,
		 unsigned int reps);

#endif
