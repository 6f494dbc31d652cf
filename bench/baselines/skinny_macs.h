/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The five MACs of the PMAC-variants reference by number, in the order of
 * vectors/skinny-macs.txt's tag columns, with their whole tags (zmac.h,
 * pmac.h): 0 ZMAC on SKINNY-128-256 (32 bytes), 1 ZMAC on SKINNY-64-192
 * (16), 2 PMAC1 (16), 3 PMAC2x on SKINNY-128-256 (32), 4 PMAC2x on
 * SKINNY-64-192 (16). ZMAC as the reference computes it.
 */
#ifndef DIAMOND_BENCH_SKINNY_MACS_H
#define DIAMOND_BENCH_SKINNY_MACS_H

#include <stddef.h>
#include <stdint.h>

#define SKINNY_MACS	5

extern const char *const skinny_mac_names[SKINNY_MACS];
extern const uint8_t skinny_mac_taglen[SKINNY_MACS];

void skinny_mac(unsigned int i, const uint8_t key[16], const uint8_t *m,
		size_t len, uint8_t *tag);

#endif
