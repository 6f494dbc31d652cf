/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Two states equal, field by field: struct dmd_state has padding, whose
 * bytes C leaves unspecified, so memcmp() of two equal states may differ.
 */
#ifndef DMD_TEST_STATE_EQ_H
#define DMD_TEST_STATE_EQ_H

#include <string.h>

#include <diamond/core.h>

static inline int dmd_test_state_eq(const struct dmd_state *a,
				    const struct dmd_state *b)
{
	return a->suite == b->suite && a->agg == b->agg &&
	       a->flags == b->flags && a->b == b->b &&
	       a->gen == b->gen && a->group == b->group &&
	       a->device_id == b->device_id && a->epoch == b->epoch &&
	       !memcmp(a->key, b->key, sizeof(a->key));
}

#endif
