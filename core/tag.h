/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Per-record and trailer tags (spec sections 4, 5) and their aggregation. */
#ifndef DIAMOND_CORE_TAG_H
#define DIAMOND_CORE_TAG_H

#include <stddef.h>
#include <stdint.h>

#include "../include/diamond/core.h"

/*
 * UH_H(pad16(data) || le64(epoch) || le32(index_field) || le32(len))
 * combined with the pad P, where @hp is a slot's H || P: XOR for GHASH
 * (suite 1), Poly1305's "+ s" (suite 2, whose key r || s is exactly H || P).
 */
void dmd_uh_tag(unsigned int suite, const uint8_t hp[32], const uint8_t *data,
		size_t len, uint64_t epoch, uint32_t index_field,
		uint8_t tag[16]);

void dmd_agg_init(struct dmd_agg *a, unsigned int mode);
void dmd_agg_add(struct dmd_agg *a, const uint8_t tag[16]);
/* Folds in the trailer tag @tau, writes the aggregate tag, wipes @a. */
void dmd_agg_final(struct dmd_agg *a, const uint8_t tau[16], uint8_t out[16]);

#endif
