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

/* Y = (Y xor B_i) * H for @n whole 16-byte blocks at @b. */
void dmd_ghash_blocks(struct dmd_ghash *ctx, const uint8_t *b, size_t n);
/* Erase any scratch the multiplier keeps outside @ctx (none, portably). */
void dmd_ghash_mul_wipe(void);

#endif
