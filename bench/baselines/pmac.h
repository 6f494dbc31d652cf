/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * PMAC1 and PMAC2x on SKINNY (skinny_tbc.h), ZMAC's parallel cousins
 * (PMAC1: Rogaway's PMAC with a tweakable block cipher; PMAC2x: List and
 * Nandi, "Revisiting full-PRF-secure PMAC and using it for beyond-birthday
 * authenticated encryption", CT-RSA 2017), as the PMAC-variants reference
 * code (n0900/MAC__PMAC-Variants, source/pmac1.c, pmac2x.c) computes
 * them. Blocks of n bytes; the last one padded with 0x80 when short (an
 * empty message is one padded block: the reference underflows its count).
 *
 * PMAC1 (SKINNY-128-256 only, as in the reference): block i (from 1)
 * under tweak 0^13 || i (16 bits, little-endian) || 02; the last block,
 * XORed with the sum of the others' outputs, under i || 03 (full) or
 * i || 04 (padded). 16-byte tag.
 *
 * PMAC2x: block i under tweak 00 || i (16 bits, little-endian) || 0s;
 * U = sum of the outputs, V = 2(V ^ output) per block; tag = E(02 || V,
 * U) || E(03 || U, V) (the first t - 1 bytes of V and U), 2n bytes. As in
 * the reference, a full and a padded last block share their tweak (so M
 * and M || 80 collide when |M| is not a multiple of n). The reference
 * writes (uint8_t)(i) >> 8, always 0, as the counter's high byte; here it
 * is i >> 8, the same for the answers (fewer than 256 blocks), distinct
 * tweaks beyond.
 *
 * Constant time: branches only on the public length.
 */
#ifndef DIAMOND_BENCH_PMAC_H
#define DIAMOND_BENCH_PMAC_H

#include <stddef.h>
#include <stdint.h>

#include "skinny_tbc.h"

/* The 16-bit block counter: at most 65535 blocks. */
#define PMAC_MAX_BLOCKS	65535u

/* @tag: 16 bytes. */
void pmac1(const uint8_t key[TBC_KEY_BYTES], const uint8_t *m, size_t len,
	   uint8_t tag[16]);
/* @tag: @taglen bytes, 2 * e->n (the whole tag) or e->n (its first half). */
void pmac2x(const struct skinny_tbc *e, const uint8_t key[TBC_KEY_BYTES],
	    const uint8_t *m, size_t len, uint8_t *tag, size_t taglen);

#endif
