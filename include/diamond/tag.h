/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Per-record and trailer tags (spec sections 4, 5) and their aggregation. */
#ifndef DIAMOND_CORE_TAG_H
#define DIAMOND_CORE_TAG_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>

/*
 * The tag of one slot, @hp being its H || P, with the header block
 * HB = le64(epoch) || le32(index_field) || le32(len):
 *   suite 1: GHASH_H(HB || pad16(data)) xor P
 *   suite 2: Poly1305_{H || P}(data), or (HB || data) for a trailer
 *            (index_field with DMD_TRAILER_FLAG or DMD_GROUP_FLAG).
 * @tag must not overlap @hp or @data: it holds HB while they are read.
 */
void dmd_uh_tag(unsigned int suite, const uint8_t hp[32], const uint8_t *data,
		size_t len, uint64_t epoch, uint32_t index_field,
		uint8_t tag[16]);

void dmd_agg_init(struct dmd_agg *a, unsigned int mode);
void dmd_agg_add(struct dmd_agg *a, const uint8_t tag[16]);
/* Folds in the trailer tag @tau, writes the aggregate tag, wipes @a. */
void dmd_agg_final(struct dmd_agg *a, const uint8_t tau[16], uint8_t out[16]);

#endif
