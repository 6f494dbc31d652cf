// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * One try of one held unit (spec 14.5): the tags whose carrier and
 * records are all held, not verified yet and covering a record not yet
 * released are verified through the backend, with one combination of the
 * held copies (the next in turn: a failed try moves to the next, so a
 * damaged copy that came first delays the genuine one by a try, never
 * deletes it). The unit's new bitmaps are stored before any record is
 * released, and a record is released only once: the stored release
 * bitmap is dmd_grid_open()'s @before. With a stage the records go out
 * first, are made durable by it, and then the bitmaps are stored: a
 * crash between the two releases them again, never loses them.
 */
#include <stdlib.h>

#include "prx.h"

/* The records tag t covers, and its carrier's r (spec 14.3). */
static uint16_t cover(unsigned int t)
{
	return t < 4 ? (uint16_t)(0xfu << (4 * t)) :
		       (uint16_t)(0x1111u << (t - 4));
}

static unsigned int carrier(unsigned int t)
{
	return t < 4 ? 4 * t + 3 : t + 8;
}

/* The tags worth a try now. */
static uint8_t tryable(const struct dlib_punit *pu)
{
	uint16_t held = 0;
	uint8_t want = 0;
	unsigned int r, t;

	for (r = 0; r < DMD_GRID_UNIT; r++)
		if (pu->ncopy[r])
			held |= (uint16_t)(1u << r);
	for (t = 0; t < DMD_GRID_TAGS; t++)
		if ((held >> carrier(t) & 1) && (held & cover(t)) == cover(t) &&
		    !(pu->bits.ver >> t & 1) && (cover(t) & ~pu->bits.rel))
			want |= (uint8_t)(1u << t);
	return want;
}

/* The held copies as a grid unit, combination @pick (mixed radix). */
static void build(struct diamond_prx *x, const struct dlib_pdev *d,
		  const struct dlib_punit *pu, uint32_t pick,
		  unsigned int arrived, struct dmd_grid_unit *g,
		  uint8_t used[DMD_GRID_UNIT])
{
	struct dmd_packet p;
	unsigned int r, c;

	memset(g, 0, sizeof(*g));
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!pu->ncopy[r])
			continue;
		/*
		 * The packet that just arrived is the newest copy of its
		 * record, and is always in; the others newest first (a copy
		 * held at a wrong candidate came earlier), then in turn.
		 */
		if (r == arrived) {
			c = pu->ncopy[r] - 1u;
		} else {
			c = pu->ncopy[r] - 1 - pick % pu->ncopy[r];
			pick /= pu->ncopy[r];
		}
		used[r] = (uint8_t)c;
		/* It parsed when it arrived; the bytes are unchanged. */
		if (dmd_packet_parse(&p, pu->pkt[r][c], pu->len[r][c], d->a))
			continue;
		dmd_grid_unit_add(g, &p);
		g->pt[r] = x->pt[r];
	}
}

static uint32_t combinations(const struct dlib_punit *pu, unsigned int arrived)
{
	uint32_t n = 1;
	unsigned int r;

	for (r = 0; r < DMD_GRID_UNIT; r++)
		if (pu->ncopy[r] && r != arrived && n < (1u << 20))
			n *= pu->ncopy[r];	/* enough to turn through */
	return n;
}

static unsigned int popcount8(uint8_t v)
{
	unsigned int n = 0;

	for (; v; v &= (uint8_t)(v - 1))
		n++;
	return n;
}

/* Released records to the callback, in index order. */
static void deliver(struct diamond_prx *x, const struct dlib_pdev *d,
		    const struct dlib_punit *pu, const struct dmd_grid_unit *g,
		    uint16_t rel)
{
	unsigned int r;

	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!(rel >> r & 1))
			continue;
		x->stats.released++;
		if (x->cbs.record)
			x->cbs.record(x->cbs.arg, d->id, pu->bits.e,
				      pu->bits.u * DMD_GRID_UNIT + r, g->pt[r],
				      g->len[r]);
	}
}

/*
 * A packet released here is genuine here: its copies held at the other
 * candidates of its arrival are at wrong positions (the same bytes cannot
 * verify at two), so they go, and no try there picks them again.
 */
static void forget_elsewhere(struct dlib_pdev *d, const struct dlib_punit *pu,
			     const uint8_t used[DMD_GRID_UNIT], uint16_t rel)
{
	struct dlib_punit *o;
	unsigned int i, r, c, k;

	for (i = 0; i < DLIB_PRX_UNITS; i++) {
		o = &d->unit[i];
		if (!o->used || o == pu)
			continue;
		for (r = 0; r < DMD_GRID_UNIT; r++) {
			if (!(rel >> r & 1))
				continue;
			for (c = 0; c < o->ncopy[r]; c++) {
				if (o->len[r][c] != pu->len[r][used[r]] ||
				    memcmp(o->pkt[r][c], pu->pkt[r][used[r]],
					   o->len[r][c]))
					continue;
				free(o->pkt[r][c]);
				for (k = c + 1; k < o->ncopy[r]; k++) {
					o->pkt[r][k - 1] = o->pkt[r][k];
					o->len[r][k - 1] = o->len[r][k];
				}
				o->ncopy[r]--;
				o->pick = 0;
				break;
			}
		}
	}
}

/*
 * A released record keeps the copy that verified, alone: a later copy
 * equal to it is then known as a repeat of a released record.
 */
static void keep_released(struct dlib_punit *pu,
			  const uint8_t used[DMD_GRID_UNIT], uint16_t rel)
{
	unsigned int r, c;

	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!(rel >> r & 1))
			continue;
		for (c = 0; c < pu->ncopy[r]; c++)
			if (c != used[r])
				free(pu->pkt[r][c]);
		pu->pkt[r][0] = pu->pkt[r][used[r]];
		pu->len[r][0] = pu->len[r][used[r]];
		pu->ncopy[r] = 1;
	}
	pu->pick = 0;
}

/*
 * Store the bitmaps @nb of @pu, then release: the order spec 14.5 wants.
 * With a stage (diamond_prx_set_stage()) the records @rel are released
 * first and the stage makes them durable before the state that passes
 * them is stored (*@out set: they went out).
 */
static int commit(struct diamond_prx *x, struct dlib_pdev *d,
		  struct dlib_punit *pu, const struct dlib_pbits *nb,
		  const struct dmd_grid_unit *g, uint16_t rel, int *out)
{
	struct dlib_pstate ps;
	int rc;

	if (nb->rel == pu->bits.rel && nb->ver == pu->bits.ver)
		return 0;
	if (x->stage) {
		deliver(x, d, pu, g, rel);
		*out = 1;
		rc = x->stage(x->stage_arg);
		if (rc)
			return rc;
	}
	dlib_prx_state(d, pu, nb, &ps);
	rc = dlib_store_save_pkt(x->store, &ps);
	dmd_wipe(&ps, sizeof(ps));
	if (rc)
		return rc;
	x->stats.saves++;
	pu->bits = *nb;
	return 0;
}

/*
 * The backend's verdict on @pu: 0 or -EBADMSG with *@v, else -errno. The
 * kernel's -EKEYEXPIRED (its cursor passed the unit: the receiver's
 * follows, dlib_prx_follow()) verifies nothing and changes nothing; any
 * other failure drops the tfm, which is keyed again from the state.
 */
static int verify(struct diamond_prx *x, struct dlib_pdev *d,
		  struct dlib_punit *pu, struct dmd_grid_unit *g,
		  struct dmd_grid_verdict *v)
{
	int rc = dlib_prx_grid(x, d);

	if (rc)
		return rc;
	if (!d->grid && !pu->have_r) {	/* a future key: holding it costs nothing */
		dlib_prx_keys(&d->ps, pu->bits.e, pu->bits.u, pu->r, NULL);
		pu->have_r = 1;
	}
	x->stats.tries++;
	rc = x->be->open_grid(d->grid, d->ps.st.suite, pu->r, pu->bits.e,
			      pu->bits.u, g, pu->bits.rel, v);
	if (rc == -EKEYEXPIRED && d->grid)
		rc = -EBADMSG;
	if (rc && rc != -EBADMSG)
		dlib_prx_grid_drop(x, d);
	return rc;
}

/* One verification of @pu with combination @pick of its copies. */
static int try_once(struct diamond_prx *x, struct dlib_pdev *d,
		    struct dlib_punit *pu, unsigned int arrived, uint32_t pick,
		    uint8_t want, int *failed)
{
	struct dmd_grid_verdict v = { 0, 0 };
	struct dmd_grid_unit g;
	struct dlib_pbits nb;
	uint8_t used[DMD_GRID_UNIT];
	int rc, out = 0;

	build(x, d, pu, pick, arrived, &g, used);
	rc = verify(x, d, pu, &g, &v);
	if (rc && rc != -EBADMSG)
		return rc;
	*failed = (want & ~v.verified) != 0;
	x->stats.failed += (uint64_t)*failed;
	x->stats.verified += popcount8(v.verified & ~pu->bits.ver);
	nb = pu->bits;
	nb.rel |= v.released;
	nb.ver |= v.verified;
	rc = commit(x, d, pu, &nb, &g, v.released, &out);
	if (rc) {
		/* The module released what is not stored: key it again. */
		dlib_prx_grid_drop(x, d);
	} else {
		if (!out)
			deliver(x, d, pu, &g, v.released);
		forget_elsewhere(d, pu, used, v.released);
		keep_released(pu, used, v.released);
	}
	dmd_wipe(x->pt, sizeof(x->pt));
	return rc;
}

/*
 * First the newest copies (pick 0); then, while the packet's budget of
 * tries lasts (*@extra), the unit's next combination in turn, so that a
 * damaged copy that came after the genuine one delays it, never deletes it.
 */
int dlib_prx_try(struct diamond_prx *x, struct dlib_pdev *d,
		 struct dlib_punit *pu, unsigned int arrived,
		 unsigned int *extra, uint8_t *verified)
{
	uint8_t want = tryable(pu), was = pu->bits.ver;
	uint32_t n;
	int rc, failed = 0;

	*verified = 0;
	if (!want)
		return 0;
	rc = try_once(x, d, pu, arrived, 0, want, &failed);
	while (!rc && failed && *extra && (want = tryable(pu)) &&
	       (n = combinations(pu, arrived)) > 1) {
		(*extra)--;
		pu->pick = pu->pick % (n - 1) + 1;	/* 1 .. n - 1 in turn */
		rc = try_once(x, d, pu, arrived, pu->pick, want, &failed);
	}
	*verified = (uint8_t)(pu->bits.ver & ~was);
	return rc;
}
