// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Grouped devices at the gateway (g < b, spec sections 5.1 and 9.1). The
 * window files a device's frames per epoch as for any device; here the
 * units are cut out of them and opened in order with the portable core's
 * group receiver (dmd_receiver_*), the device's cursor:
 *
 * - a unit is a non-final group i (records i*g .. i*g+g-1 and its type 3
 *   frame) or the final group (records q*g .. n-1 and the epoch tag frame,
 *   which names n); it is opened as soon as it is complete and next;
 * - a complete unit past an incomplete or failing one waits
 *   GROUP_HORIZON more frames of the device (a late frame may complete the
 *   one before), then is opened, which gives up the groups between;
 * - verify -> store the moved cursor (state file version 2) -> deliver,
 *   as for whole epochs; a unit that fails changes nothing, and a genuine
 *   copy that arrives later still verifies;
 * - once the gateway moves past an epoch, one event lists what became of
 *   each of its groups and whether the epoch closed.
 *
 * Either backend opens a unit (dlib_backend.open_unit): the core's group
 * receiver, or the kernel's grouped request (backend_kcapi.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Frames of the device a complete later unit waits for the one before. */
#define GROUP_HORIZON	32
/*
 * gerr[] of a group: UNDECIDED nothing known yet; 0 released; a positive
 * errno: it failed (bad tag) and may still verify; a negative errno: given
 * up and reported.
 */
#define UNDECIDED	1

struct unit {
	uint32_t group, first, count, n;
	int final;
	const struct dlib_tags *tags;	/* its tag frame's copies */
	const uint8_t *tag;	/* the copy that verified: AD || G_i or AD || T */
	size_t taglen;
};

static uint32_t nonfinal(uint32_t n, uint32_t b, uint32_t g)
{
	return n < b ? n / g : (b - 1) / g;
}

/* The units an epoch of device @d can have at most: q(b) + 1. */
static uint32_t max_units(const struct dlib_dev *d)
{
	return nonfinal(d->st.b, d->st.b, d->g) + 1;
}

/*
 * A restart inside an epoch: its groups below the cursor were decided in
 * an earlier run, as the state file says, and are reported so again.
 */
static void resume_decided(struct dlib_dev *d)
{
	uint32_t i, j, g = 0;

	for (i = 0; i < d->ngerr; i++)
		d->gerr[i] = UNDECIDED;
	for (i = 0; i < d->dec.nrun; i++)
		for (j = 0; j < d->dec.run[i].n && g < d->ngerr; j++)
			d->gerr[g++] = d->dec.run[i].err;
	d->gerr_epoch = d->rx->st.epoch;
	d->gerr_live = 1;
}

int dlib_grp_load(struct diamond_gw *gw, struct dlib_dev *d)
{
	int rc;

	if (!dlib_grouped(d))
		return 0;
	d->rx = calloc(1, sizeof(*d->rx));
	d->gerr = calloc(max_units(d), sizeof(*d->gerr));
	if (!d->rx || !d->gerr)
		return -ENOMEM;
	d->ngerr = max_units(d);
	d->gerr_epoch = UINT64_MAX;	/* no epoch summed up yet */
	d->walk_credit = DLIB_WALK_CREDITS;
	rc = dlib_store_load_rx(gw->store, d->id, &d->st, d->rx, d->g,
				&d->dec);
	if (rc)
		diamond_store_path(gw->store, d->id, gw->detail,
				   sizeof(gw->detail));
	d->rx->max_skip = gw->max_skip;
	if (!rc && d->rx->open)
		resume_decided(d);
	return rc;
}

void dlib_grp_free(struct dlib_dev *d)
{
	dlib_free_secret(d->rx, sizeof(*d->rx));
	free(d->gerr);
	free(d->dec.run);
	d->dec = (struct dlib_decided){ 0 };
	d->rx = NULL;
	d->gerr = NULL;
}

static uint32_t nchunks(const struct dlib_ep *ep)
{
	return (ep->ngtag + DLIB_GTAG_CHUNK - 1) / DLIB_GTAG_CHUNK;
}

/* The held tag of group @c, if its chunk exists (else NULL). */
static struct dlib_gtag *gtag_at(const struct dlib_ep *ep, uint32_t c)
{
	struct dlib_gtag *k = c < ep->ngtag ? ep->gtag[c / DLIB_GTAG_CHUNK] :
			      NULL;

	return k ? &k[c % DLIB_GTAG_CHUNK] : NULL;
}

/* The highest group with a tag held + 1, or 0. */
static uint32_t top_tag(const struct dlib_ep *ep)
{
	uint32_t k, j;

	for (k = nchunks(ep); k-- > 0;)
		for (j = DLIB_GTAG_CHUNK; ep->gtag[k] && j-- > 0;)
			if (ep->gtag[k][j].t.have)
				return k * DLIB_GTAG_CHUNK + j + 1;
	return 0;
}

int dlib_ep_tag_frames(const struct dlib_ep *ep,
		       int (*emit)(void *arg, const struct diamond_frame *f),
		       void *arg)
{
	struct diamond_frame t = {
		.type = DIAMOND_FRAME_GROUP, .suite = ep->suite,
		.device_id = ep->dev->id, .epoch = ep->epoch,
	};
	const struct dlib_tags *g;
	unsigned int c;
	uint32_t k, j;
	int rc = 0;

	for (k = 0; !rc && k < nchunks(ep); k++)
		for (j = 0; ep->gtag[k] && !rc && j < DLIB_GTAG_CHUNK; j++) {
			g = &ep->gtag[k][j].t;
			for (c = 0; !rc && c < g->have; c++) {
				t.index = g->n[c];
				t.len = g->len[c];
				t.payload = g->p[c];
				rc = emit(arg, &t);
			}
		}
	return rc;
}

void dlib_ep_tags_free(struct dlib_ep *ep)
{
	uint32_t k, j;

	for (k = 0; ep->gtag && k < nchunks(ep); k++) {
		for (j = 0; ep->gtag[k] && j < DLIB_GTAG_CHUNK; j++)
			dlib_tags_free(&ep->gtag[k][j].t);
		free(ep->gtag[k]);
	}
	free(ep->gtag);
	free(ep->ready);
	ep->gtag = NULL;
	ep->ready = NULL;
	ep->ngtag = 0;
	ep->gtag_bytes = 0;
}

/* Is group @group of @epoch one the cursor has passed (its keys gone)? */
static int behind_cursor(const struct dlib_dev *d, uint64_t epoch,
			 uint32_t group)
{
	return d->rx->open && epoch == d->rx->st.epoch &&
	       group < d->rx->group;
}

int dlib_grp_screen(const struct dlib_dev *d,
			const struct diamond_frame *f)
{
	if (f->type == DIAMOND_FRAME_GROUP &&
	    (!d->rx || f->index >= max_units(d) - 1))
		return -EINVAL;
	if (!d->rx)
		return 0;
	if (f->type == DIAMOND_FRAME_RECORD)
		return behind_cursor(d, f->epoch, f->index / d->g) ?
		       -EKEYEXPIRED : 0;
	if (f->type == DIAMOND_FRAME_TAG)
		return behind_cursor(d, f->epoch,
				     nonfinal(f->index, d->st.b, d->g)) ?
		       -EKEYEXPIRED : 0;
	return behind_cursor(d, f->epoch, f->index) ? -EKEYEXPIRED : 0;
}

/* Counters and the callback for a group event. */
static void group_event(struct diamond_gw *gw, struct dlib_dev *d,
			struct diamond_event *ev)
{
	uint32_t n = ev->ngroups ? ev->ngroups : 1;	/* groups it covers */

	ev->device_id = d->id;
	ev->detail = gw->detail;
	if (ev->kind == DIAMOND_EV_GROUP_VERIFIED) {
		gw->stats.groups_verified++;
		d->stats.groups_verified++;
	} else if (ev->kind == DIAMOND_EV_GROUP_REJECTED &&
		   ev->err != -EKEYEXPIRED) {
		gw->stats.groups_rejected += n;
		d->stats.groups_rejected += n;
	}
	if (gw->cbs.event)
		gw->cbs.event(gw->cbs.arg, ev);
	gw->detail[0] = 0;
}

void dlib_grp_stale(struct diamond_gw *gw, struct dlib_dev *d,
			const struct diamond_frame *f)
{
	struct diamond_event ev = {
		.kind = DIAMOND_EV_GROUP_REJECTED, .err = -EKEYEXPIRED,
		.epoch = f->epoch, .group = f->index,
		.first = (uint32_t)f->index * d->g, .count = d->g,
	};

	group_event(gw, d, &ev);
}

/*
 * Hold a group tag frame's copy (spec 8.1); 1: a repeat or a copy past
 * the bound.
 */
int dlib_grp_frame(struct diamond_gw *gw, struct dlib_ep *ep,
		       const struct diamond_frame *f)
{
	uint32_t groups = max_units(ep->dev) - 1;
	size_t words = (groups + 63) / 64, n = DLIB_GTAG_CHUNK;
	struct dlib_gtag **k;
	int rc;

	if (!ep->gtag) {
		ep->ngtag = groups;
		ep->gtag = calloc(nchunks(ep), sizeof(*ep->gtag));
		ep->ready = calloc(words, sizeof(*ep->ready));
		if (!ep->gtag || !ep->ready) {
			dlib_ep_tags_free(ep);
			return -ENOMEM;
		}
		ep->gtag_bytes = nchunks(ep) * sizeof(*ep->gtag) +
				 words * sizeof(*ep->ready);
	}
	k = &ep->gtag[f->index / DLIB_GTAG_CHUNK];
	if (!*k) {
		*k = calloc(n, sizeof(**k));
		if (!*k)
			return -ENOMEM;
		ep->gtag_bytes += n * sizeof(**k);	/* charged */
	}
	rc = dlib_tags_hold(&gtag_at(ep, f->index)->t, f);
	if (rc == 1)
		dlib_drop_frames(gw, ep->dev, 1);
	if (!rc)
		ep->gtag_bytes += f->len;	/* charged */
	return rc;
}

/* Non-final unit @c of @ep as it is held (complete or not). */
static void nonfinal_unit(const struct dlib_ep *ep, uint32_t c, struct unit *u)
{
	*u = (struct unit){ .group = c, .first = c * ep->dev->g,
			    .count = ep->dev->g, .tags = &gtag_at(ep, c)->t };
}

/* Is the final unit of @ep (its tag held) complete and untried? */
static int final_unit(const struct dlib_ep *ep, struct unit *u)
{
	const struct dlib_dev *d = ep->dev;
	uint16_t n = ep->tag.n[0];	/* copies naming another n: unused */
	uint32_t q = nonfinal(n, d->st.b, d->g);

	*u = (struct unit){ .group = q, .first = q * d->g,
			    .count = n - q * d->g, .n = n, .final = 1,
			    .tags = &ep->tag };
	return !ep->tag_failed && dlib_asm_top(ep->asm_) <= n &&
	       dlib_asm_has(ep->asm_, u->first, u->count);
}

/*
 * Keep @ep->ready right for non-final unit @c: its tag held and untried,
 * its records all there. Called for every frame a unit may depend on, so
 * that finding the next unit never scans every group (issue 23).
 */
static void update_ready(struct dlib_ep *ep, uint32_t c)
{
	const struct dlib_gtag *t = gtag_at(ep, c);
	uint64_t bit = (uint64_t)1 << (c % 64);
	int ready;

	if (c >= ep->ngtag)
		return;
	ready = t && t->t.have && !t->failed &&
		dlib_asm_has(ep->asm_, c * ep->dev->g, ep->dev->g);
	if (ready)
		ep->ready[c / 64] |= bit;
	else
		ep->ready[c / 64] &= ~bit;
}

/* The first ready non-final unit at or past @c, or UINT32_MAX. */
static uint32_t next_ready(const struct dlib_ep *ep, uint32_t c)
{
	uint64_t w;

	while (c < ep->ngtag) {
		w = ep->ready[c / 64] >> (c % 64);
		if (w)
			return c + (uint32_t)__builtin_ctzll(w);
		c = (c / 64 + 1) * 64;
	}
	return UINT32_MAX;
}

/* The first complete untried unit of @ep at or past group @c0. */
static int first_unit(const struct dlib_ep *ep, uint32_t c0, struct unit *u)
{
	uint32_t c = ep->ready ? next_ready(ep, c0) : UINT32_MAX;
	struct unit f;

	if (ep->tag.have) {
		/* Past the final group, no unit of this epoch exists. */
		if (final_unit(ep, &f) && f.group >= c0 && f.group <= c) {
			*u = f;
			return 1;
		}
		if (c >= f.group)
			return 0;
	}
	if (c == UINT32_MAX)
		return 0;
	nonfinal_unit(ep, c, u);
	return 1;
}

/* The device's open epochs in epoch order (at most the window). */
static unsigned int sorted_eps(struct dlib_dev *d,
			       struct dlib_ep **out)
{
	unsigned int i, j, n = 0;
	struct dlib_ep *t;

	for (i = 0; i < DIAMOND_WINDOW_EPOCHS; i++)
		if (d->win[i])
			out[n++] = d->win[i];
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && out[j - 1]->epoch > out[j]->epoch; j--) {
			t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/*
 * The first complete unit at or past the cursor that has not failed (a
 * failed unit is tried again only once one of its frames changes);
 * *@next: it is the cursor's own unit.
 */
static struct dlib_ep *find_unit(struct dlib_dev *d, struct unit *u,
				     int *next)
{
	struct dlib_ep *eps[DIAMOND_WINDOW_EPOCHS];
	unsigned int i, n = sorted_eps(d, eps);
	uint32_t c0;

	for (i = 0; i < n; i++) {
		if (eps[i]->epoch < d->rx->st.epoch)
			continue;
		c0 = d->rx->open && eps[i]->epoch == d->rx->st.epoch ?
		     d->rx->group : 0;
		/* A unit that would walk far with no credit left waits. */
		if (!first_unit(eps[i], c0, u) ||
		    !dlib_ckpt_may(eps[i]->ckpt, d->rx, eps[i]->epoch,
				   u->group, d->walk_credit))
			continue;
		*next = eps[i]->epoch == d->rx->st.epoch && u->group == c0;
		return eps[i];
	}
	return NULL;
}

/* Start the decisions list of @epoch (the cursor moves into it). */
static void track(struct dlib_dev *d, uint64_t epoch)
{
	uint32_t i;

	if (d->gerr_live && d->gerr_epoch == epoch)
		return;
	for (i = 0; i < d->ngerr; i++)
		d->gerr[i] = UNDECIDED;
	d->gerr_epoch = epoch;
	d->gerr_live = 1;
}

/*
 * Why group @i of @epoch is lost once the cursor passes it unreleased:
 * incomplete, or the reason its last try failed with.
 */
static int lost_as(const struct dlib_dev *d, uint64_t epoch, uint32_t i)
{
	int v = d->gerr_live && d->gerr_epoch == epoch && i < d->ngerr ?
		d->gerr[i] : UNDECIDED;

	return v == UNDECIDED ? -ENOMSG : v > 0 ? -v : v;
}

/*
 * The decided runs the state file holds once unit @u of @epoch is
 * released: the groups from the cursor (@from) to it lost, it released.
 */
static int plan(struct dlib_dev *d, uint64_t epoch, uint32_t from,
		const struct unit *u)
{
	uint32_t i;
	int rc = 0;

	if (!d->rx->open || d->rx->st.epoch != epoch)
		d->dec.nrun = 0;
	for (i = from; !rc && i < u->group; i++)
		rc = dlib_dec_add(&d->dec, 1, lost_as(d, epoch, i));
	return rc ? rc : dlib_dec_add(&d->dec, 1, 0);
}

/*
 * The runs as the cursor has them, after a planned move failed. They
 * never need more room than they had, so this allocates nothing.
 */
static void unplan(struct dlib_dev *d)
{
	uint32_t i;

	d->dec.nrun = 0;
	if (!d->rx->open || !d->gerr_live || d->gerr_epoch != d->rx->st.epoch)
		return;
	for (i = 0; i < d->rx->group && i < d->ngerr; i++)
		dlib_dec_add(&d->dec, 1, d->gerr[i]);
}

/* One event for groups @from .. @to - 1, all rejected with @err. */
static void rejected_run(struct diamond_gw *gw, struct dlib_dev *d,
			 uint32_t from, uint32_t to, int err)
{
	uint32_t end = to * d->g < d->st.b ? to * d->g : d->st.b;
	struct diamond_event ev = {
		.kind = DIAMOND_EV_GROUP_REJECTED, .epoch = d->gerr_epoch,
		.err = err, .group = from, .first = from * d->g,
		.count = end - from * d->g, .ngroups = to - from,
	};

	group_event(gw, d, &ev);
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
		d->gerr[from] = lost_as(d, d->gerr_epoch, from);
		if (err && d->gerr[from] != err)
			rejected_run(gw, d, run, from, err);
		if (d->gerr[from] != err)
			run = from;
		err = d->gerr[from];
	}
	if (err)
		rejected_run(gw, d, run, from, err);
}

/* Was any group of the tracked epoch released? */
static int any_released(const struct dlib_dev *d, uint32_t units)
{
	uint32_t i;

	for (i = 0; i < units && i < d->ngerr; i++)
		if (!d->gerr[i])
			return 1;
	return 0;
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
	if (any_released(d, units))
		group_event(gw, d, &ev);
	d->gerr_live = 0;
}

/* How many groups the frames of @ep reach, for an epoch left unclosed. */
static uint32_t reach(const struct dlib_dev *d,
		      const struct dlib_ep *ep)
{
	uint32_t top = 0, i, t;

	for (i = 0; d->gerr_live && i < d->ngerr; i++)
		if (d->gerr[i] != UNDECIDED)
			top = i + 1;	/* decided or failed */
	if (!ep)
		return top;
	t = dlib_asm_top(ep->asm_);
	if (t && (t - 1) / d->g + 1 > top)
		top = (t - 1) / d->g + 1;
	i = top_tag(ep);
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
			dlib_ep_reject(gw, ep, -ENOMSG);
	}
}

/* A unit that did not verify: nothing changes; remember why. */
static void unit_failed(struct dlib_dev *d, struct dlib_ep *ep,
			const struct unit *u, int err)
{
	if (u->final) {
		ep->tag_failed = 1;
	} else {
		gtag_at(ep, u->group)->failed = 1;
		update_ready(ep, u->group);
	}
	if (ep->epoch == d->rx->st.epoch || !d->gerr_live) {
		track(d, ep->epoch);	/* nothing moved: no summary due */
		if (u->group < d->ngerr && d->gerr[u->group] > 0)
			d->gerr[u->group] = -err;	/* may still verify */
	}
}

/* Open unit @u as the pick @pick of its record copies puts it together. */
static int try_pick(struct diamond_gw *gw, struct dlib_dev *d,
		    struct dlib_ep *ep, const struct unit *u, unsigned int pick,
		    struct diamond_epoch_body *body, struct dmd_receiver *next)
{
	int rc, had;

	rc = dlib_asm_range(ep->asm_, u->first, u->count, pick, u->tag,
			    u->taglen, &gw->body, &gw->body_cap, body);
	if (!rc)
		rc = dlib_grow_pt(gw, body->ct_len - DIAMOND_TAG_SIZE + 1);
	body->epoch = ep->epoch;
	if (rc)
		return rc;
	had = d->tfm != NULL;
	if (!had)
		dlib_make_room(gw, d);
	rc = gw->be->open_unit(d, u->group, u->final ? u->n : 0, body, gw->pt,
			       next);
	dlib_track_tfm(gw, d, had);
	return rc;
}

/*
 * Open unit @u with each held copy of its tag frame (of the final group:
 * those naming u->n), the latest first, and each way its held record
 * copies go together, at most DLIB_TRIES verifications in all, shared
 * evenly (spec 8.1), each from the cursor @next was sought to; @next
 * moved past the unit and u->tag the copy that verified if one did.
 */
static int try_picks(struct diamond_gw *gw, struct dlib_dev *d,
		     struct dlib_ep *ep, struct unit *u,
		     struct diamond_epoch_body *body,
		     struct dmd_receiver *next)
{
	unsigned int c = u->tags->have, pick, each = c ? DLIB_TRIES / c : 0,
		     n = dlib_asm_picks(ep->asm_, u->first, u->count);
	struct dmd_receiver at = *next;
	int rc = -EBADMSG;

	while (c-- > 0 && rc == -EBADMSG) {
		if (u->final && u->tags->n[c] != u->n)
			continue;
		u->tag = u->tags->p[c];
		u->taglen = u->tags->len[c];
		for (pick = 0; pick < n && pick < each; pick++) {
			*next = at;
			rc = try_pick(gw, d, ep, u, pick, body, next);
			if (rc != -EBADMSG)
				break;	/* verified, or no copy can help */
		}
	}
	dmd_wipe(&at, sizeof(at));
	return rc;
}

/* Verify @u of @ep; durable cursor; deliver. -ENOMEM only is fatal. */
static int open_unit(struct diamond_gw *gw, struct dlib_dev *d,
		     struct dlib_ep *ep, struct unit *u)
{
	struct diamond_event ev = {
		.kind = DIAMOND_EV_GROUP_VERIFIED, .epoch = ep->epoch,
		.group = u->group, .first = u->first, .count = u->count,
	};
	struct diamond_epoch_body body;
	struct dmd_receiver next = *d->rx;
	uint32_t from = d->rx->open && d->rx->st.epoch == ep->epoch ?
			d->rx->group : 0;
	int rc, had, saved = 0, planned = 0;

	/* The cursor moved to the unit from the epoch's nearest checkpoint. */
	rc = dlib_ckpt_seek(&ep->ckpt, d->rx, ep->epoch, u->group, &next,
			    &gw->chain_steps, &d->walk_credit);
	if (!rc)
		rc = try_picks(gw, d, ep, u, &body, &next);
	if (!rc)
		rc = plan(d, ep->epoch, from, u);
	planned = !rc;
	/* Verify -> durable cursor and decisions -> deliver (userspace.rst 4). */
	if (!rc)
		rc = saved = dlib_store_save_rx(gw->store, &next, &d->dec);
	if (saved) {
		/* The kernel's cursor moved but the file's did not. */
		had = d->tfm != NULL;
		gw->be->release(d);
		dlib_track_tfm(gw, d, had);
	}
	if (rc) {
		if (rc != -EBADMSG && rc != -ENOMEM)
			diamond_store_path(gw->store, d->id, gw->detail,
					   sizeof(gw->detail));
		if (gw->pt)
			dmd_wipe(gw->pt, gw->pt_cap);
		dmd_wipe(&next, sizeof(next));
		if (planned)
			unplan(d);
		unit_failed(d, ep, u, rc);
		return rc == -ENOMEM ? rc : 0;
	}
	moved_to(gw, d, ep->epoch);
	track(d, ep->epoch);
	give_up(gw, d, from, u->group);
	*d->rx = next;
	dlib_ckpt_forget(ep->ckpt, d->rx);
	dlib_ckpt_verified(&d->walk_credit);
	dmd_receiver_state(&next, &d->st);
	dmd_wipe(&next, sizeof(next));
	body.device_id = d->id;
	body.epoch = ep->epoch;
	dlib_deliver(gw, d, &body, gw->pt, u->first, u->group);
	dmd_wipe(gw->pt, body.ct_len - DIAMOND_TAG_SIZE);
	memcpy(d->last_tag, u->tag + u->taglen - DIAMOND_TAG_SIZE,
	       DIAMOND_TAG_SIZE);
	d->stats.last_epoch = ep->epoch;
	if (!d->verified_once) {
		d->verified_once = 1;
		gw->stats.devices++;
	}
	d->gerr[u->group] = 0;
	group_event(gw, d, &ev);
	if (u->final) {
		dlib_gw_event(gw, DIAMOND_EV_VERIFIED, 0, d->id, ep->epoch,
				  u->n);
		summarize(gw, d, u->group + 1, u->n);
		retire(gw, d, ep);
	}
	return 0;
}

int dlib_grp_progress(struct diamond_gw *gw, struct dlib_dev *d,
			  int all)
{
	struct dlib_ep *ep;
	struct unit u;
	int next, rc, waited = 0;

	while ((ep = find_unit(d, &u, &next))) {
		/* A unit past a gap waits GROUP_HORIZON frames (spec 9.1). */
		if (!next && !all) {
			if (!waited++)
				d->stall++;
			if (d->stall < GROUP_HORIZON)
				return 0;
		}
		d->stall = 0;
		rc = open_unit(gw, d, ep, &u);
		if (rc)
			return rc;
	}
	d->stall = 0;
	return 0;
}

void dlib_grp_touch(struct dlib_ep *ep, const struct diamond_frame *f)
{
	uint32_t c = f->type == DIAMOND_FRAME_GROUP ? f->index :
		     f->type == DIAMOND_FRAME_RECORD ? f->index / ep->dev->g :
		     UINT32_MAX;

	if (f->type != DIAMOND_FRAME_GROUP)
		ep->tag_failed = 0;	/* the final group's record or tag */
	if (gtag_at(ep, c)) {
		gtag_at(ep, c)->failed = 0;
		update_ready(ep, c);
	}
}

/*
 * The groups from @from on whose tries failed, as runs of one reason: a
 * failure is counted and reported, but it decides nothing (a genuine copy
 * may still come), so the summary line does not name them.
 */
static void report_failed(struct diamond_gw *gw, struct dlib_dev *d,
			  uint32_t from)
{
	uint32_t i, run = from;

	for (i = from; i <= d->ngerr; i++) {
		if (i > run && (i == d->ngerr || d->gerr[i] != d->gerr[run])) {
			if (d->gerr[run] > 0 && d->gerr[run] != UNDECIDED)
				rejected_run(gw, d, run, i, -d->gerr[run]);
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

	if (d->gerr_live && any_released(d, units))
		group_event(gw, d, &ev);
	if (d->gerr_live)
		report_failed(gw, d, units);
	d->gerr_live = 0;
}

/* End of input: open every complete unit, sum up every open epoch. */
void dlib_grp_finish(struct diamond_gw *gw)
{
	struct dlib_dev *d;
	size_t i;

	for (i = 0; i < gw->tab_size; i++) {
		d = gw->tab[i];
		if (!d || !d->rx)
			continue;
		dlib_grp_progress(gw, d, 1);
		sum_up_decided(gw, d);
		moved_to(gw, d, UINT64_MAX);
	}
}
