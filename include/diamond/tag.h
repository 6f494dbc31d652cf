/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Per-record and trailer tags (spec sections 4, 5) and their aggregation. */
#ifndef DIAMOND_CORE_TAG_H
#define DIAMOND_CORE_TAG_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>
#include <diamond/poly1305.h>

/*
 * The tag of one slot, @hp being its H || P, with the header block
 * HB = le64(epoch) || le32(index_field) || le32(len):
 *   suite 1: GHASH_H(HB || pad16(data)) xor P
 *   suite 2: Poly1305_{H || P}(data), or (HB || data) for a trailer
 *            (index_field with DMD_TRAILER_FLAG, DMD_GROUP_FLAG or
 *            DMD_GRID_FLAG).
 * @tag must not overlap @hp or @data: it holds HB while they are read.
 */
void dmd_uh_tag(unsigned int suite, const uint8_t hp[32], const uint8_t *data,
		size_t len, uint64_t epoch, uint32_t index_field,
		uint8_t tag[16]);

/*
 * A record's tag (no flag in its index field) folded into @a when that
 * needs no tag buffer: suite 2 with XOR aggregation, where the tag is
 * Poly1305 of the data alone (as dmd_uh_tag() computes it), XORed straight
 * into the aggregate. Returns 1 if it did; 0 (nothing done) means
 * dmd_uh_tag() and dmd_agg_add(). Inline: suite 1's seal pays one compare.
 */
static inline int dmd_record_tag_fold(unsigned int suite, const uint8_t hp[32],
				      const uint8_t *data, size_t len,
				      struct dmd_agg *a)
{
	if (suite != DMD_SUITE_CHACHA_POLY || a->mode != DMD_AGG_XOR)
		return 0;
	dmd_poly1305_xor(hp, data, len, a->acc);
	return 1;
}

void dmd_agg_init(struct dmd_agg *a, unsigned int mode);
void dmd_agg_add(struct dmd_agg *a, const uint8_t tag[16]);
/* Folds in the trailer tag @tau, writes the aggregate tag, wipes @a. */
void dmd_agg_final(struct dmd_agg *a, const uint8_t tau[16], uint8_t out[16]);

#endif
