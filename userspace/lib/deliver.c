// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Delivery: the records of a released epoch or unit to the caller's
 * callbacks, each with its true index. Called only once the new state is
 * durable (decide.c); with a stage (diamond_gw_set_stage()) the records
 * went out before the state was saved (dlib_stage()), and this only
 * counts them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The records of @b, from index @first, to the record callbacks. */
static void hand_out(struct diamond_gw *gw, const struct diamond_epoch_body *b,
		     const uint8_t *pt, uint32_t first, uint32_t group)
{
	struct diamond_record r = {
		.device_id = b->device_id, .epoch = b->epoch,
		.ad = b->ad, .adlen = b->adlen, .group = group,
	};
	size_t pos = 0;

	for (r.index = first; r.index < first + b->count; r.index++) {
		r.len = (size_t)pt[pos] | (size_t)pt[pos + 1] << 8;
		r.data = pt + pos + DMD_BODY_LEN_SIZE;
		if (gw->cbs.record_ad)
			gw->cbs.record_ad(gw->cbs.arg, &r);
		else if (gw->cbs.record)
			gw->cbs.record(gw->cbs.arg, r.device_id, r.epoch,
				       r.index, r.data, r.len);
		pos += DMD_BODY_LEN_SIZE + r.len;
	}
}

int dlib_stage(struct diamond_gw *gw, const struct diamond_epoch_body *b,
	       const uint8_t *pt, uint32_t first, uint32_t group)
{
	if (!gw->stage)
		return 0;
	hand_out(gw, b, pt, first, group);
	return gw->stage(gw->stage_arg);
}

void dlib_deliver(struct diamond_gw *gw, struct dlib_dev *d,
		  const struct diamond_epoch_body *b, const uint8_t *pt,
		  uint32_t first, uint32_t group)
{
	if (!gw->stage)		/* staged: they went out before the state */
		hand_out(gw, b, pt, first, group);
	gw->stats.records += b->count;
	d->stats.records += b->count;
}
