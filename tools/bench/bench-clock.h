/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The guest clock of the kernel bench (kernel-bench.c, kernel-floor.c):
 * under qemu -icount shift=0 a CLOCK_MONOTONIC nanosecond is one executed
 * guest instruction, so a median of a few runs is deterministic up to
 * scheduling.
 */
#ifndef DIAMOND_BENCH_CLOCK_H
#define DIAMOND_BENCH_CLOCK_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n figures (@v is sorted in place). */
static inline uint64_t median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

#endif
