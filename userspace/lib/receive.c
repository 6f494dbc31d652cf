// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The receive pipeline, one way: frames (reader.c) -> per-(device, epoch)
 * assembly (window.c) -> verification (verify.c) -> the decision
 * (decide.c) -> delivery, state, spool, events. Each stage calls only
 * stages after it; this file runs them in order for every frame.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Frames of the device a complete later unit waits for the one before. */
#define GROUP_HORIZON	32

/*
 * Open a unit of grouped device @d as soon as it is complete and next; a
 * complete unit past a gap waits GROUP_HORIZON frames of the device (a
 * late frame may complete the one before), unless @all (the end, or a full
 * window).
 */
static int progress(struct diamond_gw *gw, struct dlib_dev *d, int all)
{
	struct dlib_ep *ep;
	struct dlib_unit u;
	int next, rc, waited = 0;

	while ((ep = dlib_unit_find(d, &u, &next))) {
		/* A unit past a gap waits GROUP_HORIZON frames (spec 9.1). */
		if (!next && !all) {
			if (!waited++)
				d->stall++;
			if (d->stall < GROUP_HORIZON)
				return 0;
		}
		d->stall = 0;
		rc = dlib_dec_unit(gw, d, ep, &u);
		if (rc)
			return rc;
	}
	d->stall = 0;
	return 0;
}


/*
 * The open epoch of @d for @f (window.c), making room in a full window:
 * a grouped device first opens what it holds, then the oldest epoch goes.
 */
static int open_epoch(struct diamond_gw *gw, struct dlib_dev *d,
		      const struct diamond_frame *f, struct dlib_ep **ep)
{
	int rc, tried = 0;

	while ((rc = dlib_win_open(gw, d, f, ep)) == -ENOSPC) {
		if (d->rx && !tried++) {
			rc = progress(gw, d, 1);
			if (rc)
				return rc;
			continue;
		}
		dlib_dec_reject(gw, *ep, -ENOBUFS);
	}
	if (rc == -ENOBUFS)	/* older than every open epoch: the straggler */
		dlib_drop_frames(gw, d, 1);
	return rc;
}

/* Over max_buffer: evict from the cold end. 1 if @keep went too. */
static int over_budget(struct diamond_gw *gw, struct dlib_ep *keep)
{
	struct dlib_ep *v;

	while ((v = dlib_win_victim(gw))) {
		dlib_dec_reject(gw, v, -ENOBUFS);
		if (v == keep)
			return 1;
	}
	return 0;
}

/*
 * One frame down the pipeline: its device, screened, filed in its open
 * epoch (spooled), then whatever it completed verified and decided.
 * Only -ENOMEM and a storage failure (gw->fatal: what the frame completed
 * was not decided) are returned; everything else is decided and reported.
 */
static int take(struct diamond_gw *gw, const struct diamond_frame *f)
{
	struct dlib_dev *d;
	struct dlib_ep *ep;
	int rc;

	rc = dlib_gw_get_dev(gw, f->device_id, &d);
	if (rc)
		return dlib_dec_frame(gw, NULL, f, rc);
	d->stats.bytes += DIAMOND_FRAME_HDR + (size_t)f->len;
	rc = dlib_win_screen(gw, d, f);
	if (rc)
		return dlib_dec_frame(gw, d, f, rc);
	rc = open_epoch(gw, d, f, &ep);
	if (!rc)
		rc = dlib_win_take(gw, ep, f);
	if (rc == -EMSGSIZE)	/* a record that can never fit its epoch */
		dlib_dec_reject(gw, ep, rc);
	if (rc)		/* dropped (1), rejected, -ENOMEM or a failure */
		return rc == -ENOMEM || gw->fatal ? rc : 0;
	if (!gw->replaying)
		dlib_spool_append(gw, f);
	if (over_budget(gw, ep))
		return 0;
	if (d->rx)
		return progress(gw, d, 0);
	return ep->tag.have ? dlib_dec_epoch(gw, ep) : 0;
}

/* Take every whole frame the reader holds. */
int dlib_rx_drain(struct diamond_gw *gw)
{
	struct diamond_frame f;
	size_t skipped;
	int rc;

	for (;;) {
		rc = diamond_reader_next(gw->rd, &f, &skipped);
		if (rc == 0)
			return 0;
		if (rc < 0) {
			dlib_gw_event(gw, DIAMOND_EV_FRAME, rc, 0, 0,
					  (uint32_t)skipped);
			continue;
		}
		rc = take(gw, &f);
		if (rc)
			return rc;
	}
}

/*
 * End of input: open every complete unit, sum up every grouped device's
 * epochs, and report every open epoch left as incomplete.
 */
int dlib_rx_finish(struct diamond_gw *gw)
{
	struct dlib_dev *d;
	size_t i;

	for (i = 0; i < gw->tab_size; i++) {
		d = gw->tab[i];
		if (!d || !d->rx)
			continue;
		progress(gw, d, 1);
		if (gw->fatal)	/* not durable: nothing decided, all spooled */
			return gw->fatal;
		dlib_dec_end(gw, d);
	}
	dlib_dec_close_all(gw, 1);
	return 0;
}
