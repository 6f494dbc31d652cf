/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SKINNY-64-192's known answer (skinny64.h), shared by the host's mac-kat
 * and the boards': the SKINNY paper's test vector (Beierle et al., CRYPTO
 * 2016, Appendix B), and what the PMAC-variants reference's
 * skinny_64_192_encrypt(), rows little-endian, makes of the same bytes
 * (run outside this tree, Documentation/performance.md).
 */
#ifndef DIAMOND_BENCH_SKINNY64_VECTORS_H
#define DIAMOND_BENCH_SKINNY64_VECTORS_H

static const unsigned char skinny64_tk[24] = {
	0xed, 0x00, 0xc8, 0x5b, 0x12, 0x0d, 0x68, 0x61, 0x87, 0x53, 0xe2, 0x4b,
	0xfd, 0x90, 0x8f, 0x60, 0xb2, 0xdb, 0xb4, 0x1b, 0x42, 0x2d, 0xfc, 0xd0,
};
static const unsigned char skinny64_pt[8] = { 0x53, 0x0c, 0x61, 0xd3, 0x5e, 0x86, 0x63, 0xc3 };
static const unsigned char skinny64_ct[8] = { 0xdd, 0x2c, 0xf1, 0xa8, 0xf3, 0x30, 0x30, 0x3c };
static const unsigned char skinny64_ct_swapped[8] = {
	0x0a, 0x69, 0x16, 0x22, 0xc2, 0xd0, 0x52, 0x0c,
};

#endif
