// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tag aggregation (spec section 5): XOR, addition mod 2^128 (little-endian)
 * and the SHA-256 accumulator A = SHA-256(A || sigma)[0:16]. The trailer tag
 * folds in exactly like a record tag, as the last one.
 */
#include <diamond/tag.h>

#include <diamond/sha256.h>
#include <diamond/util.h>

void dmd_agg_init(struct dmd_agg *a, unsigned int mode)
{
	size_t i;

	for (i = 0; i < DMD_TAG_SIZE; i++)
		a->acc[i] = 0;
	a->mode = (uint8_t)mode;
}

static void add_mod128(uint8_t acc[16], const uint8_t t[16])
{
	uint16_t carry = 0;
	size_t i;

	for (i = 0; i < 16; i++) {
		carry = (uint16_t)(carry + acc[i] + t[i]);
		acc[i] = (uint8_t)carry;
		carry >>= 8;
	}
}

static void hash_chain(uint8_t acc[16], const uint8_t t[16])
{
	uint8_t in[32], out[32];
	size_t i;

	for (i = 0; i < 16; i++) {
		in[i] = acc[i];
		in[16 + i] = t[i];
	}
	dmd_sha256(out, in, sizeof(in));
	for (i = 0; i < 16; i++)
		acc[i] = out[i];
	dmd_wipe(in, sizeof(in));
	dmd_wipe(out, sizeof(out));
}

void dmd_agg_add(struct dmd_agg *a, const uint8_t tag[16])
{
	size_t i;

	if (a->mode == DMD_AGG_ADD) {
		add_mod128(a->acc, tag);
	} else if (a->mode == DMD_AGG_HASH) {
		hash_chain(a->acc, tag);
	} else {
		for (i = 0; i < 16; i++)
			a->acc[i] ^= tag[i];
	}
}

void dmd_agg_final(struct dmd_agg *a, const uint8_t tau[16], uint8_t out[16])
{
	size_t i;

	dmd_agg_add(a, tau);
	for (i = 0; i < 16; i++)
		out[i] = a->acc[i];
	dmd_wipe(a, sizeof(*a));
}
