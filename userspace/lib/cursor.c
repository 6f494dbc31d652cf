// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A grouped device's cursor (spec 9.1): the portable core's group
 * receiver, loaded from the state file, and the decisions on the groups
 * of the epoch it tracks: gerr[] per group, and the runs below the cursor
 * as the state file stores them (version 3), so that a restart reports
 * every group as it was decided. What a passed group becomes is decided
 * in decide.c (it needs the open epoch's units, gtags.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * Mark @n groups undecided. The bound is a local, so that the stores
 * cannot alias it and the loop vectorizes: q(b) + 1 can be 65,535 groups
 * per epoch.
 */
static void undecided(int *gerr, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		gerr[i] = DLIB_UNDECIDED;
}

/*
 * A restart inside an epoch: its groups below the cursor were decided in
 * an earlier run, as the state file says, and are reported so again.
 */
static void resume_decided(struct dlib_dev *d)
{
	uint32_t i, j, g = 0;

	undecided(d->gerr, d->ngerr);
	for (i = 0; i < d->dec.nrun; i++)
		for (j = 0; j < d->dec.run[i].n && g < d->ngerr; j++)
			d->gerr[g++] = d->dec.run[i].err;
	d->gerr_epoch = d->rx->st.epoch;
	d->gerr_live = 1;
}

/*
 * A custody device's cursor: positions only, from its DMDW header (the
 * runs are in d->dec already); the keys stay in the module, so rx's are
 * zero and nothing here walks a chain.
 */
static int custody_rx(struct dlib_dev *d)
{
	int rc = dlib_core_errno(dmd_receiver_init(d->rx, &d->st, d->g, 0));

	if (!rc && d->w->cursor) {
		d->rx->st.epoch = d->st.epoch - 1;
		d->rx->group = d->w->c;
		d->rx->open = 1;
	}
	return rc;
}

int dlib_cur_load(struct diamond_gw *gw, struct dlib_dev *d)
{
	int rc;

	if (!dlib_grouped(d))
		return 0;
	d->rx = calloc(1, sizeof(*d->rx));
	d->gerr = calloc(dlib_max_units(d), sizeof(*d->gerr));
	if (!d->rx || !d->gerr)
		return -ENOMEM;
	d->ngerr = dlib_max_units(d);
	d->gerr_epoch = UINT64_MAX;	/* no epoch summed up yet */
	d->walk_credit = DLIB_WALK_CREDITS;
	rc = d->w ? custody_rx(d) :
	     dlib_store_load_rx(gw->store, d->id, &d->st, d->rx, d->g,
				&d->dec);
	if (rc)
		diamond_store_path(gw->store, d->id, gw->detail,
				   sizeof(gw->detail));
	d->rx->max_skip = gw->max_skip;
	if (!rc && d->rx->open)
		resume_decided(d);
	return rc;
}

void dlib_cur_free(struct dlib_dev *d)
{
	dlib_free_secret(d->rx, sizeof(*d->rx));
	free(d->gerr);
	free(d->dec.run);
	d->dec = (struct dlib_decided){ 0 };
	d->rx = NULL;
	d->gerr = NULL;
}

/* Is group @group of @epoch one the cursor has passed (its keys gone)? */
int dlib_cur_behind(const struct dlib_dev *d, uint64_t epoch,
		    uint32_t group)
{
	return d->rx->open && epoch == d->rx->st.epoch &&
	       group < d->rx->group;
}

/* Start the decisions list of @epoch (the cursor moves into it). */
void dlib_cur_track(struct dlib_dev *d, uint64_t epoch)
{
	if (d->gerr_live && d->gerr_epoch == epoch)
		return;
	undecided(d->gerr, d->ngerr);
	d->gerr_epoch = epoch;
	d->gerr_live = 1;
}

/*
 * The runs as the cursor has them, after a planned move failed. They
 * never need more room than they had, so this allocates nothing.
 */
void dlib_cur_unplan(struct dlib_dev *d)
{
	uint32_t i;

	d->dec.nrun = 0;
	if (!d->rx->open || !d->gerr_live || d->gerr_epoch != d->rx->st.epoch)
		return;
	for (i = 0; i < d->rx->group && i < d->ngerr; i++)
		dlib_dec_add(&d->dec, 1, d->gerr[i]);
}

/* Was any group of the tracked epoch released? */
int dlib_cur_any_released(const struct dlib_dev *d, uint32_t units)
{
	uint32_t i;

	for (i = 0; i < units && i < d->ngerr; i++)
		if (!d->gerr[i])
			return 1;
	return 0;
}
