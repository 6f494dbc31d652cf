/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * ForkSkinny-128-256 and ForkSkinny-128-384, the forkciphers of ForkAE
 * (Andreeva, Lallemand, Purnal, Reyhanitabar, Roy, Vizar; NIST LWC round
 * 2): SKINNY-128 rounds with a 7-bit round constant and a tweak indicator,
 * run for ROUNDS_BEFORE rounds, then forked into two branches of
 * ROUNDS_AFTER rounds each. The right branch C1 continues from the fork;
 * the left one C0 adds the branch constant at the fork and runs with the
 * round tweakeys that follow the right branch's. Tweakey = TK1 || TK2
 * (|| TK3) as in the ForkAE reference (key first), so the Sonikku MACs
 * (sonikku.h) put their key block in TK1.
 *
 * Either output may be NULL: only the branches asked for are computed
 * (Sonikku's chaining calls need only C1). Constant time (skinny128.h).
 */
#ifndef DIAMOND_BENCH_FORKSKINNY_H
#define DIAMOND_BENCH_FORKSKINNY_H

#include <stdint.h>

#define FORKSKINNY128_256_BEFORE	21
#define FORKSKINNY128_256_AFTER		27
#define FORKSKINNY128_384_BEFORE	25
#define FORKSKINNY128_384_AFTER		31

/* @ntk 2 (32-byte tweakey, ForkSkinny-128-256) or 3 (48 bytes, -384). */
void forkskinny128_encrypt(const uint8_t *tweakey, unsigned int ntk,
			   const uint8_t in[16], uint8_t *c0, uint8_t *c1);

#endif
