/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SKINNY's MixColumns on the four rows of a state, for every cell size:
 * rows of 4-bit cells in 16-bit words (skinny64.c) or of 8-bit cells in
 * 32-bit words (skinny128.c). A macro, so one text serves both row types
 * without a call: M = (1 0 1 1, 1 0 0 0, 0 1 1 0, 1 0 1 0), as three XORs
 * in place and the rows moved down by one. @t is a scratch of the row type.
 */
#ifndef DIAMOND_BENCH_SKINNY_MIX_H
#define DIAMOND_BENCH_SKINNY_MIX_H

#define SKINNY_MIX_COLUMNS(s, t)		\
	do {					\
		(s)[1] ^= (s)[2];		\
		(s)[2] ^= (s)[0];		\
		(s)[3] ^= (s)[2];		\
		(t) = (s)[3];			\
		(s)[3] = (s)[2];		\
		(s)[2] = (s)[1];		\
		(s)[1] = (s)[0];		\
		(s)[0] = (t);			\
	} while (0)

#endif
