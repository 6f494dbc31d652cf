/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The block split PMAC1 and PMAC2x share (pmac.h): how many full blocks
 * come before the last one, and the last one padded into a buffer.
 */
#ifndef DIAMOND_BENCH_PMAC_LAST_H
#define DIAMOND_BENCH_PMAC_LAST_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copies the last block of @m (@len bytes, blocks of @n) into @x (n bytes),
 * padded with 0x80 when short or empty; returns the number of blocks before
 * it and sets *@padded.
 */
size_t pmac_last_block(const uint8_t *m, size_t len, unsigned int n,
		       uint8_t *x, int *padded);

#endif
