/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The GF(2^128) multiplier behind GHASH (core/ghash.c). core/ghash_mul.c
 * has the portable forms; a port may replace that file with its own (the
 * AVR build takes embedded/avr/prims/ghash_mul.c). Both functions must be
 * constant time in H and the data.
 */
#ifndef DIAMOND_CORE_GHASH_MUL_H
#define DIAMOND_CORE_GHASH_MUL_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/ghash.h>

/*
 * Prepare for the hash key @h (the context's words), once per context: a
 * port that multiplies by tables of H builds them here (the AVR); the
 * portable multipliers need nothing. Called by dmd_ghash_init().
 */
void dmd_ghash_mul_setup(const uint32_t h[4]);
/* Y = (Y xor B_i) * H for @n whole 16-byte blocks at @b. */
void dmd_ghash_blocks(struct dmd_ghash *ctx, const uint8_t *b, size_t n);
/* Erase any scratch the multiplier keeps outside @ctx (none, portably). */
void dmd_ghash_mul_wipe(void);

#endif
