// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The last block of PMAC1 and PMAC2x (pmac_last.h).
 */
#include "pmac_last.h"

size_t pmac_last_block(const uint8_t *m, size_t len, unsigned int n,
		       uint8_t *x, int *padded)
{
	size_t before = len ? (len - 1) / n : 0, last = len - n * before, i;

	for (i = 0; i < n; i++)
		x[i] = i < last ? m[n * before + i] : (uint8_t)(i == last ? 0x80 : 0);
	*padded = last < n;
	return before;
}
