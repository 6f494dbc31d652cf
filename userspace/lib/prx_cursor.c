// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet receiver's cursor (spec 14.5, "Deciding a unit"): it moves
 * past a unit once all 16 records are released or the unit is given up
 * under section 9.1's policy (prx.h, DLIB_PRX_WAIT). Every move is stored
 * before it is reported: the new cursor and the bitmaps of the units left
 * first, then the records passed unreleased are reported lost, once. With
 * a stage (diamond_prx_set_stage()) the other way round: reported, made
 * durable by the stage, then stored, so a crash reports them again.
 */
#include <stdlib.h>

#include "prx.h"

uint64_t dlib_prx_distance(const struct dlib_pdev *d, uint64_t e, uint32_t u)
{
	return dlib_kgrid_distance(d->ps.st.b / DMD_GRID_UNIT, dlib_prx_ec(d),
				   d->ps.uc, e, u);
}

void dlib_prx_grid_evict(struct diamond_prx *x, const struct dlib_pdev *keep)
{
	struct dlib_pdev *lru = NULL;
	size_t i;

	for (i = 0; i < x->ndev; i++)
		if (x->dev[i]->grid && x->dev[i] != keep &&
		    (!lru || x->dev[i]->grid_used < lru->grid_used))
			lru = x->dev[i];
	if (lru)
		dlib_prx_grid_drop(x, lru);
}

int dlib_prx_grid(struct diamond_prx *x, struct dlib_pdev *d)
{
	struct dlib_pstate ps;
	int rc;

	d->grid_used = ++x->clock;
	if (d->grid || !x->be->grid_attach)
		return 0;
	while (x->ngrids >= x->max_grids && x->ngrids)
		dlib_prx_grid_evict(x, d);
	dlib_prx_state(d, NULL, NULL, &ps);
	rc = x->be->grid_attach(&d->grid, &ps);
	dmd_wipe(&ps, sizeof(ps));
	x->ngrids += !rc;
	return rc;
}

void dlib_prx_grid_drop(struct diamond_prx *x, struct dlib_pdev *d)
{
	if (d->grid) {
		x->be->grid_drop(d->grid);
		x->ngrids--;
	}
	d->grid = NULL;
}

struct dlib_punit *dlib_prx_unit(struct dlib_pdev *d, uint64_t e, uint32_t u)
{
	unsigned int i;

	for (i = 0; i < DLIB_PRX_UNITS; i++)
		if (d->unit[i].used && d->unit[i].bits.e == e &&
		    d->unit[i].bits.u == u)
			return &d->unit[i];
	return NULL;
}

void dlib_prx_unit_drop(struct dlib_punit *pu)
{
	unsigned int r, c;

	for (r = 0; r < DMD_GRID_UNIT; r++)
		for (c = 0; c < pu->ncopy[r]; c++)
			free(pu->pkt[r][c]);
	dmd_wipe(pu, sizeof(*pu));
}

void dlib_prx_state(const struct dlib_pdev *d, const struct dlib_punit *pu,
		    const struct dlib_pbits *bits, struct dlib_pstate *ps)
{
	const struct dlib_pbits *b;
	unsigned int i;

	*ps = d->ps;
	ps->n = 0;
	for (i = 0; i < DLIB_PRX_UNITS; i++) {
		if (!d->unit[i].used)
			continue;
		b = &d->unit[i] == pu && bits ? bits : &d->unit[i].bits;
		if (b->rel || b->ver)
			ps->unit[ps->n++] = *b;
	}
}

/* Runs of lost records, merged while they follow one another. */
struct lost {
	struct diamond_prx *x;
	uint32_t id;
	uint64_t e;
	uint32_t first, count;
};

static void lost_flush(struct lost *l)
{
	if (!l->count)
		return;
	l->x->stats.lost += l->count;
	if (l->x->cbs.lost)
		l->x->cbs.lost(l->x->cbs.arg, l->id, l->e, l->first, l->count);
	l->count = 0;
}

static void lost_add(struct lost *l, uint64_t e, uint32_t first, uint32_t n)
{
	if (!n)
		return;
	if (l->count && (l->e != e || l->first + l->count != first))
		lost_flush(l);
	if (!l->count) {
		l->e = e;
		l->first = first;
	}
	l->count += n;
}

/* The held unit of epoch @e with the lowest u in [@from, @to), or NULL. */
static const struct dlib_punit *next_in(const struct dlib_pdev *d, uint64_t e,
					uint32_t from, uint32_t to)
{
	const struct dlib_punit *best = NULL;
	unsigned int i;

	for (i = 0; i < DLIB_PRX_UNITS; i++) {
		const struct dlib_punit *pu = &d->unit[i];

		if (pu->used && pu->bits.e == e && pu->bits.u >= from &&
		    pu->bits.u < to && (!best || pu->bits.u < best->bits.u))
			best = pu;
	}
	return best;
}

/* Records of units [@from, @to) of epoch @e not released, as lost. */
static void lost_units(struct lost *l, const struct dlib_pdev *d, uint64_t e,
		       uint32_t from, uint32_t to)
{
	const struct dlib_punit *pu;
	uint32_t p = from, r;

	while ((pu = next_in(d, e, p, to))) {
		lost_add(l, e, p * DMD_GRID_UNIT, (pu->bits.u - p) * DMD_GRID_UNIT);
		for (r = 0; r < DMD_GRID_UNIT; r++)
			if (!(pu->bits.rel >> r & 1))
				lost_add(l, e, pu->bits.u * DMD_GRID_UNIT + r, 1);
		p = pu->bits.u + 1;
	}
	lost_add(l, e, p * DMD_GRID_UNIT, (to - p) * DMD_GRID_UNIT);
}

/* Report what lies between the cursor and (@e, @u) unreleased. */
static void report_lost(struct diamond_prx *x, const struct dlib_pdev *d,
			uint64_t e, uint32_t u)
{
	struct lost l = { .x = x, .id = d->id };
	uint32_t units = d->ps.st.b / DMD_GRID_UNIT;
	uint64_t ep;

	for (ep = dlib_prx_ec(d); ep <= e; ep++)
		lost_units(&l, d, ep, ep == dlib_prx_ec(d) ? d->ps.uc : 0,
			   ep == e ? u : units);
	lost_flush(&l);
}

/*
 * Move the cursor to (@e, @u), at or past it: the new state stored first
 * (a failure changes nothing), then the units passed dropped with their
 * keys, then their unreleased records reported lost (with a stage:
 * reported and staged before the state is stored).
 */
static int move(struct diamond_prx *x, struct dlib_pdev *d, uint64_t e,
		uint32_t u)
{
	struct dlib_pstate ps;
	unsigned int i;
	int rc = 0;

	if (u == d->ps.st.b / DMD_GRID_UNIT) {	/* past the epoch's last unit */
		e++;
		u = 0;
	}
	if (e > DMD_EPOCH_LAST)
		return -DIAMOND_EEXHAUSTED;
	dlib_prx_state(d, NULL, NULL, &ps);
	dlib_prx_keys(&d->ps, e, u, ps.rc, ps.st.key);
	ps.st.epoch = e + 1;
	ps.uc = u;
	ps.n = 0;
	for (i = 0; i < DLIB_PRX_UNITS; i++) {
		const struct dlib_pbits *b = &d->unit[i].bits;

		if (d->unit[i].used && (b->rel || b->ver) &&
		    !dlib_pos_before(b->e, b->u, e, u))
			ps.unit[ps.n++] = *b;
	}
	/* With a stage, the losses go out and are durable first. */
	if (x->stage) {
		report_lost(x, d, e, u);
		rc = x->stage(x->stage_arg);
	}
	rc = rc ? rc : dlib_store_save_pkt(x->store, &ps);
	if (rc) {
		dmd_wipe(&ps, sizeof(ps));
		return rc;
	}
	x->stats.saves++;
	if (!x->stage)
		report_lost(x, d, e, u);
	for (i = 0; i < DLIB_PRX_UNITS; i++)
		if (d->unit[i].used &&
		    dlib_pos_before(d->unit[i].bits.e, d->unit[i].bits.u, e, u))
			dlib_prx_unit_drop(&d->unit[i]);
	d->ps = ps;
	dmd_wipe(&ps, sizeof(ps));
	if (d->held && d->held_epoch <= e)
		d->held = 0;
	/*
	 * The module's cursor follows (a give-up request), after the store:
	 * if it cannot, its tfm goes, and the next try keys a new one at the
	 * state just stored.
	 */
	if (d->grid && x->be->grid_decide(d->grid, e, u))
		dlib_prx_grid_drop(x, d);
	return 0;
}

void dlib_prx_skip_released(struct dlib_pdev *d)
{
	struct dlib_punit *cu;
	uint64_t e;
	uint32_t u, i;

	while ((cu = dlib_prx_unit(d, dlib_prx_ec(d), d->ps.uc)) &&
	       cu->bits.rel == 0xffff) {
		e = dlib_prx_ec(d);
		u = d->ps.uc + 1;
		if (u == d->ps.st.b / DMD_GRID_UNIT) {
			if (e == DMD_EPOCH_LAST)
				return;
			e++;
			u = 0;
		}
		dlib_prx_keys(&d->ps, e, u, d->ps.rc, d->ps.st.key);
		d->ps.st.epoch = e + 1;
		d->ps.uc = u;
		dlib_prx_unit_drop(cu);
		for (i = 0; i < d->ps.n; i++)
			if (dlib_pos_before(d->ps.unit[i].e, d->ps.unit[i].u, e, u))
				d->ps.unit[i--] = d->ps.unit[--d->ps.n];
	}
}

/* The module's cursor, when it is past the receiver's: 1 and (*@e, *@u). */
static int module_ahead(struct diamond_prx *x, const struct dlib_pdev *d,
			uint64_t *e, uint32_t *u)
{
	if (!d->grid || !x->be->grid_cursor)
		return 0;
	x->be->grid_cursor(d->grid, e, u);
	return dlib_pos_before(dlib_prx_ec(d), d->ps.uc, *e, *u);
}

/* One move of the cursor that needs no policy, if any: 1 moved, or -errno. */
static int head_step(struct diamond_prx *x, struct dlib_pdev *d)
{
	struct dlib_punit *cu = dlib_prx_unit(d, dlib_prx_ec(d), d->ps.uc);
	uint64_t e;
	uint32_t u;
	int rc;

	if (cu && cu->bits.rel == 0xffff)	/* decided: all released */
		rc = move(x, d, dlib_prx_ec(d), d->ps.uc + 1);
	else if (module_ahead(x, d, &e, &u))
		rc = move(x, d, e, u);
	else
		return 0;
	return rc ? rc : 1;
}

int dlib_prx_follow(struct diamond_prx *x, struct dlib_pdev *d, uint64_t e,
		    uint32_t u, uint8_t verified)
{
	int rc = 0;

	if (verified && !dlib_pos_before(e, u, dlib_prx_ec(d), d->ps.uc) &&
	    dlib_prx_distance(d, e, u) >= DLIB_PRX_WINDOW)
		rc = move(x, d, e, u);
	while (!rc && (rc = head_step(x, d)) == 1)
		rc = 0;
	return rc;
}

/*
 * The first unit past the cursor with a verified tag, in a later epoch
 * (@later_epoch) or in any: it, or NULL.
 */
static const struct dlib_punit *later_verified(const struct dlib_pdev *d,
					       int later_epoch)
{
	const struct dlib_punit *pu, *best = NULL;
	unsigned int i;

	for (i = 0; i < DLIB_PRX_UNITS; i++) {
		pu = &d->unit[i];
		if (!pu->used || !pu->bits.ver ||
		    !dlib_pos_before(dlib_prx_ec(d), d->ps.uc, pu->bits.e,
				     pu->bits.u) ||
		    (later_epoch && pu->bits.e == dlib_prx_ec(d)))
			continue;
		if (!best || dlib_pos_before(pu->bits.e, pu->bits.u,
					     best->bits.e, best->bits.u))
			best = pu;
	}
	return best;
}

/* Stamp the units whose first tag verified with this packet's count. */
static void stamp_verified(struct dlib_pdev *d)
{
	unsigned int i;

	for (i = 0; i < DLIB_PRX_UNITS; i++)
		if (d->unit[i].used && d->unit[i].bits.ver &&
		    !d->unit[i].ver_seen) {
			d->unit[i].ver_seen = 1;
			d->unit[i].ver_at = d->packets;
		}
}

int dlib_prx_settle(struct diamond_prx *x, struct dlib_pdev *d)
{
	const struct dlib_punit *later;
	int rc = 0;

	d->packets++;
	stamp_verified(d);
	while (!rc) {
		rc = head_step(x, d);
		if (rc)
			rc = rc < 0 ? rc : 0;
		else if ((later = later_verified(d, 1)))	/* a later epoch verified */
			rc = move(x, d, later->bits.e, 0);
		else if ((later = later_verified(d, 0)) &&
			 d->packets - later->ver_at >= DLIB_PRX_WAIT)	/* given up */
			rc = move(x, d, later->bits.e, later->bits.u);
		else
			break;
	}
	return rc;
}
