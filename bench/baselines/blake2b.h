/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * BLAKE2b (RFC 7693), unkeyed, one shot: AEZ's key extraction (aez.c)
 * is BLAKE2b with a 48-byte digest. Constant time (ARX only).
 */
#ifndef DIAMOND_BENCH_BLAKE2B_H
#define DIAMOND_BENCH_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

/* @outlen is 1..64. */
void blake2b(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

#endif
