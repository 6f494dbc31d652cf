// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The decision: the one place where an epoch or a group is released,
 * lost or rejected, and where what follows from it happens, in this
 * order (Documentation/userspace.rst, the crash-safety argument):
 * verify (verify.c) -> make the new state durable -> deliver (deliver.c)
 * -> events (event.c) and quarantine (quarantine.c).
 *
 * - An epoch without groups is released when a tag copy and its records
 *   verify; the device's older open epochs can then never verify and are
 *   rejected as incomplete.
 * - A unit of a grouped device is released when it verifies; the groups
 *   between the cursor and it are lost (their keys erased with the moved
 *   cursor, stored before anything is delivered); once the cursor moves
 *   past an epoch, one event sums up each of its groups.
 * - A unit or epoch that fails changes nothing; a genuine copy may still
 *   come. Frames no epoch can use are rejected here too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Report, quarantine and free an open epoch that will never verify. */
void dlib_dec_reject(struct diamond_gw *gw, struct dlib_ep *ep, int err)
{
	if (err == -ENOBUFS)
		dlib_drop_frames(gw, ep->dev, ep->frames);
	if (err == -ENOMSG && ep->bad)	/* complete, but no copy verified */
		err = ep->bad;
	dlib_gw_event(gw, DIAMOND_EV_REJECTED, err, ep->dev->id, ep->epoch,
			  ep->tag.have ? ep->tag.n[0] : 0);
	dlib_quarantine(gw, ep, err);
	dlib_ep_free(gw, ep);
}

/* A copy of the tag frame of the epoch @d verified last. */
static int late_copy(const struct dlib_dev *d,
		     const struct diamond_frame *f)
{
	return f->type != DIAMOND_FRAME_RECORD && d->verified_once &&
	       f->epoch == d->stats.last_epoch &&
	       !memcmp(f->payload + f->len - DIAMOND_TAG_SIZE, d->last_tag,
		       DIAMOND_TAG_SIZE);
}

/* A group tag frame of a group the cursor has passed: a replay. */
static void stale(struct diamond_gw *gw, struct dlib_dev *d,
		  const struct diamond_frame *f)
{
	struct diamond_event ev = {
		.kind = DIAMOND_EV_GROUP_REJECTED, .err = -EKEYEXPIRED,
		.epoch = f->epoch, .group = f->index,
		.first = (uint32_t)f->index * d->g, .count = d->g,
	};

	dlib_group_event(gw, d, &ev);
}

/*
 * A frame no epoch can use (@d NULL: of no known device), for @err; 0, or
 * -ENOMEM. A tag names its epoch's (or group's) fate and is reported; a
 * replayed spool and a network duplicate of the last verified tag stay
 * quiet, and records are only counted.
 */
int dlib_dec_frame(struct diamond_gw *gw, struct dlib_dev *d,
		   const struct diamond_frame *f, int err)
{
	if (!d) {
		dlib_drop_frames(gw, NULL, 1);
		/* Unknown devices hold nothing: their tag reports them. */
		if (f->type == DIAMOND_FRAME_TAG && !gw->replaying)
			dlib_gw_event(gw, DIAMOND_EV_REJECTED, err,
				      f->device_id, f->epoch, f->index);
		gw->detail[0] = 0;
		return err == -ENOMEM ? err : 0;
	}
	/*
	 * No tag covers the suite byte (spec 8.1): a frame that names
	 * another suite is damaged and says nothing of its epoch.
	 */
	if (err == -EPROTO && !gw->replaying)
		dlib_gw_event(gw, DIAMOND_EV_FRAME, err, 0, 0,
			      DIAMOND_FRAME_HDR + (uint32_t)f->len);
	if (err == -EPROTO || f->type == DIAMOND_FRAME_RECORD ||
	    gw->replaying || late_copy(d, f))
		return 0;
	if (f->type != DIAMOND_FRAME_GROUP)
		dlib_gw_event(gw, DIAMOND_EV_REJECTED, err, d->id, f->epoch,
			      f->index);
	else if (err == -EKEYEXPIRED)
		stale(gw, d, f);
	return 0;
}

/*
 * A complete epoch: verify, make durable, deliver; then older ones go.
 * An epoch no copy opens stays while another copy of its tag may come
 * (spec 8.1): it is reported with why it failed once it goes.
 */
int dlib_dec_epoch(struct diamond_gw *gw, struct dlib_ep *ep)
{
	struct dlib_dev *d = ep->dev;
	struct diamond_epoch_body body;
	struct diamond_frame t;
	uint64_t e = ep->epoch;
	unsigned int i;
	int rc;

	rc = dlib_verify_epoch(gw, ep, &t, &body);
	if (rc && gw->fatal)
		return rc;	/* not durable: nothing decided, kept */
	if (rc == -ENOMSG)
		return 0;	/* no tag copy's records all here yet */
	if (rc == -EBADMSG && ep->tag.have < DLIB_COPIES) {
		ep->bad = rc;
		return 0;
	}
	if (rc) {
		dlib_dec_reject(gw, ep, rc);
		return rc == -ENOMEM ? rc : 0;
	}
	memcpy(d->last_tag, t.payload + t.len - DIAMOND_TAG_SIZE,
	       DIAMOND_TAG_SIZE);
	dlib_deliver(gw, d, &body, gw->pt, 0, 0);
	dmd_wipe(gw->pt, body.ct_len - DIAMOND_TAG_SIZE);
	dlib_gw_event(gw, DIAMOND_EV_VERIFIED, 0, d->id, e, body.count);
	dlib_ep_free(gw, ep);
	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++)
		if (d->win[i] && d->win[i]->epoch < e)
			dlib_dec_reject(gw, d->win[i], -ENOMSG);
	return 0;
}

/*
 * The record after group @to - 1 of the tracked epoch: the final group
 * ends at the n its held tag frame names (the unit that was tried), a
 * non-final one after g records.
 */
static uint32_t run_end(struct dlib_dev *d, uint32_t to)
{
	const struct dlib_ep *ep = dlib_ep_find(d, d->gerr_epoch);
	uint32_t n;

	if (ep && ep->tag.have) {
		n = ep->tag.n[0];
		if (to - 1 == dlib_nonfinal(n, d->st.b, d->g) &&
		    n >= (to - 1) * d->g)
			return n;
	}
	return to * d->g < d->st.b ? to * d->g : d->st.b;
}

/* One @kind event for groups @from .. @to - 1, all with @err. */
static void group_run(struct diamond_gw *gw, struct dlib_dev *d, int kind,
		      uint32_t from, uint32_t to, int err)
{
	uint32_t end = run_end(d, to);
	struct diamond_event ev = {
		.kind = kind, .epoch = d->gerr_epoch,
		.err = err, .group = from, .first = from * d->g,
		.count = end > from * d->g ? end - from * d->g : 0,
		.ngroups = to - from,
	};

	dlib_group_event(gw, d, &ev);
}

/* One event for groups @from .. @to - 1, all rejected with @err. */
static void rejected_run(struct diamond_gw *gw, struct dlib_dev *d,
			 uint32_t from, uint32_t to, int err)
{
	group_run(gw, d, DIAMOND_EV_GROUP_REJECTED, from, to, err);
}

/*
 * Groups @from .. @to - 1 of the tracked epoch are given up: one event per
 * run of groups with the same reason, so that what a forger makes the
 * gateway say grows with the runs, not with the groups (issue 23).
 */
static void give_up(struct diamond_gw *gw, struct dlib_dev *d,
		    uint32_t from, uint32_t to)
{
	uint32_t run = from;
	int err = 0;

	for (; from < to && from < d->ngerr; from++) {
		if (d->gerr[from] <= 0) {
			if (err)	/* released, or reported already */
				rejected_run(gw, d, run, from, err);
			err = 0;
			continue;
		}
		d->gerr[from] = dlib_lost_as(d->gerr[from]);
		if (err && d->gerr[from] != err)
			rejected_run(gw, d, run, from, err);
		if (d->gerr[from] != err)
			run = from;
		err = d->gerr[from];
	}
	if (err)
		rejected_run(gw, d, run, from, err);
}

/*
 * The gateway is done with the tracked epoch: give up its undecided
 * groups up to @units (all it had, or what its frames reached) and sum it
 * up. @n: its count if it closed, else 0.
 */
static void summarize(struct diamond_gw *gw, struct dlib_dev *d,
		      uint32_t units, uint32_t n)
{
	struct diamond_event ev = {
		.kind = DIAMOND_EV_EPOCH_GROUPS, .epoch = d->gerr_epoch,
		.closed = n != 0, .count = n, .group_err = d->gerr,
		.ngroups = units,
	};

	if (!d->gerr_live)
		return;
	give_up(gw, d, 0, units);
	/* Only an epoch of which something verified is a fact to report. */
	if (dlib_cur_any_released(d, units))
		dlib_group_event(gw, d, &ev);
	d->gerr_live = 0;
}

/* How many groups the frames of @ep reach, for an epoch left unclosed. */
static uint32_t reach(const struct dlib_dev *d,
		      const struct dlib_ep *ep)
{
	uint32_t top = 0, i, t;

	for (i = 0; d->gerr_live && i < d->ngerr; i++)
		if (d->gerr[i] != DLIB_UNDECIDED)
			top = i + 1;	/* decided or failed */
	if (!ep)
		return top;
	t = dlib_asm_top(ep->asm_);
	if (t && (t - 1) / d->g + 1 > top)
		top = (t - 1) / d->g + 1;
	i = dlib_gtag_top(ep);
	if (i > top)
		top = i;
	return top < d->ngerr ? top : d->ngerr;
}

/*
 * Free the open epoch of the epoch just summed up; with a group rejected,
 * its frames go to the quarantine first (named by the first reason).
 */
static void retire(struct diamond_gw *gw, struct dlib_dev *d,
		   struct dlib_ep *ep)
{
	uint32_t i;

	for (i = 0; i < d->ngerr; i++)
		if (d->gerr[i] < 0) {
			dlib_quarantine(gw, ep, d->gerr[i]);
			break;
		}
	dlib_ep_free(gw, ep);
}

/*
 * The cursor moved to @epoch: the tracked epoch before it is summed up
 * unclosed, and the open epochs before it go (those with no unit decided
 * are rejected as incomplete, as for devices without groups).
 */
static void moved_to(struct diamond_gw *gw, struct dlib_dev *d,
		     uint64_t epoch)
{
	struct dlib_ep *ep;
	unsigned int i;

	if (d->gerr_live && d->gerr_epoch < epoch)
		summarize(gw, d, reach(d, dlib_ep_find(d, d->gerr_epoch)),
			  0);
	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++) {
		ep = d->win[i];
		if (!ep || ep->epoch >= epoch)
			continue;
		if (ep->epoch == d->gerr_epoch)
			retire(gw, d, ep);	/* summed up */
		else	/* not one unit of it verified */
			dlib_dec_reject(gw, ep, -ENOMSG);
	}
}

/*
 * What gerr[@i] of @ep's epoch is: the tracked epoch's decisions, or, for
 * an epoch the cursor has not reached, why a try of the unit failed as it
 * is held: a unit past the cursor is tried before the cursor gets there,
 * and its failure must not become "incomplete" (every frame of it came).
 */
static int gerr_of(const struct dlib_dev *d, const struct dlib_ep *ep,
		   uint32_t i)
{
	int f;

	if (d->gerr_live && d->gerr_epoch == ep->epoch)
		return i < d->ngerr ? d->gerr[i] : DLIB_UNDECIDED;
	f = dlib_gtag_failed(ep, i);
	return f ? f : DLIB_UNDECIDED;
}

/*
 * Start the decisions on @ep's epoch (the cursor moves into it), with the
 * units of it whose tries failed before.
 */
static void track(struct dlib_dev *d, const struct dlib_ep *ep)
{
	uint32_t i, top;

	if (d->gerr_live && d->gerr_epoch == ep->epoch)
		return;
	dlib_cur_track(d, ep->epoch);
	top = dlib_gtag_top(ep);
	if (ep->tag.have && ep->tag_failed &&
	    dlib_nonfinal(ep->tag.n[0], d->st.b, d->g) + 1 > top)
		top = dlib_nonfinal(ep->tag.n[0], d->st.b, d->g) + 1;
	for (i = 0; i < top && i < d->ngerr; i++)
		if (dlib_gtag_failed(ep, i))
			d->gerr[i] = dlib_gtag_failed(ep, i);
}

/*
 * The decided runs the state file holds once unit @u of @ep is released:
 * the groups from the cursor (@from) to it lost (incomplete, or for why
 * their last try failed), it released.
 */
static int plan(struct dlib_dev *d, const struct dlib_ep *ep, uint32_t from,
		const struct dlib_unit *u)
{
	uint32_t i;
	int rc = 0;

	if (!d->rx->open || d->rx->st.epoch != ep->epoch)
		d->dec.nrun = 0;
	for (i = from; !rc && i < u->group; i++)
		rc = dlib_dec_add(&d->dec, 1, dlib_lost_as(gerr_of(d, ep, i)));
	return rc ? rc : dlib_dec_add(&d->dec, 1, 0);
}

/* A unit that did not verify: nothing changes; remember why. */
static void unit_failed(struct dlib_dev *d, struct dlib_ep *ep,
			const struct dlib_unit *u, int err)
{
	if (u->final) {
		ep->tag_failed = -err;
	} else {
		dlib_gtag_at(ep, u->group)->failed = -err;
		dlib_gtag_update(ep, u->group);
	}
	/*
	 * Another epoch tracked: the failure stays with @ep's unit, and goes
	 * into the decisions when the cursor gets there (track()).
	 */
	if (ep->epoch == d->rx->st.epoch || !d->gerr_live) {
		/* Nothing moved: no summary due. */
		track(d, ep);
		if (u->group < d->ngerr && d->gerr[u->group] > 0)
			d->gerr[u->group] = -err;	/* may still verify */
	}
}

/*
 * Make the cursor @next, moved past @u, durable with the decisions it
 * carries: the groups from @from lost, @u released. On failure (the
 * call's, dlib_gw_fail()) nothing moved: the decisions are as before.
 */
static int store_cursor(struct diamond_gw *gw, struct dlib_dev *d,
			struct dlib_ep *ep, const struct dlib_unit *u,
			uint32_t from, const struct dmd_receiver *next)
{
	char path[4200];
	int rc = plan(d, ep, from, u);

	if (rc)
		return dlib_gw_fail(gw, rc, "decisions", "");
	rc = d->w ? dlib_custody_save(gw, d, next->st.epoch + next->open,
				      next->open, next->group) :
	     dlib_store_save_rx(gw->store, next, &d->dec);
	if (!rc)
		return 0;
	dlib_cur_unplan(d);
	diamond_store_path(gw->store, d->id, path, sizeof(path));
	return dlib_gw_fail(gw, rc, "state", path);
}

/* A kernel tfm whose cursor moved but whose file did not: closed. */
static void close_tfm(struct diamond_gw *gw, struct dlib_dev *d)
{
	int had = d->tfm != NULL;

	gw->be->release(d);
	dlib_track_tfm(gw, d, had);
}

/*
 * @u is released and its cursor @next durable: the groups from @from to
 * it are lost, the records delivered, and once @u closes its epoch the
 * epoch is summed up.
 */
static void unit_released(struct diamond_gw *gw, struct dlib_dev *d,
			  struct dlib_ep *ep, const struct dlib_unit *u,
			  uint32_t from, struct dmd_receiver *next,
			  struct diamond_epoch_body *body)
{
	struct diamond_event ev = {
		.kind = DIAMOND_EV_GROUP_VERIFIED, .epoch = ep->epoch,
		.group = u->group, .first = u->first, .count = u->count,
	};

	moved_to(gw, d, ep->epoch);
	track(d, ep);
	give_up(gw, d, from, u->group);
	*d->rx = *next;
	dlib_ckpt_forget(ep->ckpt, d->rx);
	dlib_ckpt_verified(&d->walk_credit);
	dmd_receiver_state(next, &d->st);
	body->device_id = d->id;
	body->epoch = ep->epoch;
	dlib_deliver(gw, d, body, gw->pt, u->first, u->group);
	dmd_wipe(gw->pt, body->ct_len - DIAMOND_TAG_SIZE);
	memcpy(d->last_tag, u->tag + u->taglen - DIAMOND_TAG_SIZE,
	       DIAMOND_TAG_SIZE);
	d->stats.last_epoch = ep->epoch;
	if (!d->verified_once) {
		d->verified_once = 1;
		gw->stats.devices++;
	}
	d->gerr[u->group] = 0;
	dlib_group_event(gw, d, &ev);
	if (u->final) {
		dlib_gw_event(gw, DIAMOND_EV_VERIFIED, 0, d->id, ep->epoch,
			      u->n);
		summarize(gw, d, u->group + 1, u->n);
		retire(gw, d, ep);
	}
}

/*
 * Verified unit @u made durable: its records through the stage first, if
 * there is one, then the cursor @next. On failure (the call's) the unit
 * is not decided and the tfm, which moved, is closed.
 */
static int make_durable(struct diamond_gw *gw, struct dlib_dev *d,
			struct dlib_ep *ep, const struct dlib_unit *u,
			uint32_t from, const struct dmd_receiver *next,
			struct diamond_epoch_body *body)
{
	int rc;

	body->device_id = d->id;
	body->epoch = ep->epoch;
	rc = dlib_stage(gw, body, gw->pt, u->first, u->group);
	if (rc)
		dlib_gw_fail(gw, rc, "stage", "");
	else
		rc = store_cursor(gw, d, ep, u, from, next);
	if (rc)
		close_tfm(gw, d);
	return rc;
}

/*
 * A complete unit @u of @ep: verify -> durable cursor -> deliver, or, if
 * it fails, nothing changes. -ENOMEM and storage failures are fatal: a
 * verified unit that could not be made durable is not decided, and the
 * next call tries it again.
 */
int dlib_dec_unit(struct diamond_gw *gw, struct dlib_dev *d,
		  struct dlib_ep *ep, struct dlib_unit *u)
{
	struct diamond_epoch_body body;
	struct dmd_receiver next;
	uint32_t from = d->rx->open && d->rx->st.epoch == ep->epoch ?
			d->rx->group : 0;
	int rc;

	rc = dlib_verify_unit(gw, d, ep, u, &body, &next);
	if (!rc && make_durable(gw, d, ep, u, from, &next, &body)) {
		dmd_wipe(gw->pt, gw->pt_cap);
		dmd_wipe(&next, sizeof(next));
		return gw->fatal;
	}
	if (rc) {
		if (rc != -EBADMSG && rc != -ENOMEM)
			diamond_store_path(gw->store, d->id, gw->detail,
					   sizeof(gw->detail));
		if (gw->pt)
			dmd_wipe(gw->pt, gw->pt_cap);
		unit_failed(d, ep, u, rc);
	} else {
		unit_released(gw, d, ep, u, from, &next, &body);
	}
	dmd_wipe(&next, sizeof(next));
	return rc == -ENOMEM ? rc : 0;
}

/*
 * The groups from @from on whose tries failed, as runs of one reason: a
 * failure is reported as undecided, for it decides nothing (a genuine copy
 * may still come): it is not counted as rejected, and the summary line
 * does not name them.
 */
static void report_failed(struct diamond_gw *gw, struct dlib_dev *d,
			  uint32_t from)
{
	uint32_t i, run = from;

	for (i = from; i <= d->ngerr; i++) {
		if (i > run && (i == d->ngerr || d->gerr[i] != d->gerr[run])) {
			if (d->gerr[run] > 0 && d->gerr[run] != DLIB_UNDECIDED)
				group_run(gw, d, DIAMOND_EV_GROUP_UNDECIDED,
					  run, i, -d->gerr[run]);
			run = i;
		}
	}
}

/*
 * The end of the input is no news about a group: the tracked epoch is
 * summed up with the groups the cursor has decided, and the others keep
 * their keys, in memory and in the state file, for the next run.
 */
static void sum_up_decided(struct diamond_gw *gw, struct dlib_dev *d)
{
	uint32_t units = d->rx->open && d->gerr_epoch == d->rx->st.epoch ?
			 d->rx->group : 0;
	struct diamond_event ev = {
		.kind = DIAMOND_EV_EPOCH_GROUPS, .epoch = d->gerr_epoch,
		.group_err = d->gerr, .ngroups = units,
	};

	if (d->gerr_live && dlib_cur_any_released(d, units))
		dlib_group_event(gw, d, &ev);
	if (d->gerr_live)
		report_failed(gw, d, units);
	d->gerr_live = 0;
}

/* The input ended: sum up grouped device @d's epochs (nothing decided). */
void dlib_dec_end(struct diamond_gw *gw, struct dlib_dev *d)
{
	sum_up_decided(gw, d);
	moved_to(gw, d, UINT64_MAX);
}

/* Every open epoch goes: @report, rejected as incomplete (the end). */
void dlib_dec_close_all(struct diamond_gw *gw, int report)
{
	while (gw->ep_tail) {
		if (report)
			dlib_dec_reject(gw, gw->ep_tail, -ENOMSG);
		else
			dlib_ep_free(gw, gw->ep_tail);
	}
}
