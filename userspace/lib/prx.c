// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The gateway's packet receiver (spec section 14.5): packets of
 * packet-mode devices, looked up by their short address, parsed, placed at
 * their candidate positions (at most 4), held per unit, tried there, and
 * released under verified tags only, once, after the state is stored.
 * Work per arriving packet is bounded: at most one try per candidate
 * unit, so at most 4 verifications of any tag.
 */
#include <stdlib.h>

#include "prx.h"

int diamond_prx_new(struct diamond_prx **out, struct diamond_store *store,
		    const struct diamond_prx_cbs *cbs, uint32_t max_skip,
		    unsigned int flags)
{
	struct diamond_prx *x;

	if (!out || !store || (flags & ~DIAMOND_PRX_KERNEL))
		return -EINVAL;
	/* diamond.ko refuses a unit past its own bound (-ERANGE). */
	if ((flags & DIAMOND_PRX_KERNEL) && max_skip > DMD_DEFAULT_MAX_SKIP)
		return -EINVAL;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->store = store;
	x->be = flags & DIAMOND_PRX_KERNEL ? &dlib_backend_kernel :
					     &dlib_backend_software;
	if (cbs)
		x->cbs = *cbs;
	x->max_skip = max_skip ? max_skip : 4096;
	if (flags & DIAMOND_PRX_KERNEL)
		x->max_grids = dlib_fit_tfms(DIAMOND_DEFAULT_MAX_TFMS);
	*out = x;
	return 0;
}

static struct dlib_pdev *by_id(const struct diamond_prx *x, uint32_t id)
{
	size_t i;

	for (i = 0; i < x->ndev; i++)
		if (x->dev[i]->id == id)
			return x->dev[i];
	return NULL;
}

/* The device whose address begins @pkt (at most one: prefix-free). */
static struct dlib_pdev *by_addr(const struct diamond_prx *x,
				 const uint8_t *pkt, size_t len)
{
	uint32_t v;
	size_t i;
	unsigned int k;

	for (i = 0; i < x->ndev; i++) {
		if (len < x->dev[i]->a)
			continue;
		for (v = 0, k = x->dev[i]->a; k; k--)
			v = v << 8 | pkt[k - 1];
		if (v == x->dev[i]->addr)
			return x->dev[i];
	}
	return NULL;
}

/* Would @a bytes of @addr begin, or be begun by, an added device's? */
static int clashes(const struct diamond_prx *x, uint32_t id, unsigned int a,
		   uint32_t addr)
{
	unsigned int w;
	uint32_t mask;
	size_t i;

	for (i = 0; i < x->ndev; i++) {
		w = a < x->dev[i]->a ? a : x->dev[i]->a;
		mask = w == 4 ? UINT32_MAX : (1u << (8 * w)) - 1;
		if (x->dev[i]->id != id && (x->dev[i]->addr & mask) == (addr & mask))
			return 1;
	}
	return 0;
}

int diamond_prx_add(struct diamond_prx *x, uint32_t device_id)
{
	struct dlib_pdev *d, **nd;
	unsigned int a, i;
	uint32_t addr;
	int rc;

	if (!x)
		return -EINVAL;
	if (by_id(x, device_id))
		return -EEXIST;
	rc = diamond_radio_get(x->store, device_id, &a, &addr);
	if (rc)
		return rc;
	if (clashes(x, device_id, a, addr))
		return -EADDRINUSE;
	if (x->ndev == x->cap) {
		nd = realloc(x->dev, (x->cap ? 2 * x->cap : 8) * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		x->dev = nd;
		x->cap = x->cap ? 2 * x->cap : 8;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	rc = dlib_store_load_pkt(x->store, device_id, &d->ps);
	if (rc) {
		free(d);
		return rc;
	}
	/* The stored bitmaps of its undecided units: nothing released twice. */
	for (i = 0; i < d->ps.n; i++) {
		d->unit[i].used = 1;
		d->unit[i].bits = d->ps.unit[i];
	}
	d->id = device_id;
	d->a = (uint8_t)a;
	d->addr = addr;
	dlib_prx_skip_released(d);
	/* The kernel's tfm now: a module that cannot take it says so here. */
	rc = dlib_prx_grid(x, d);
	if (rc) {
		for (i = 0; i < DLIB_PRX_UNITS; i++)
			if (d->unit[i].used)
				dlib_prx_unit_drop(&d->unit[i]);
		dmd_wipe(d, sizeof(*d));
		free(d);
		return rc;
	}
	x->dev[x->ndev++] = d;
	return 0;
}

static int add_one(void *arg, uint32_t id, unsigned int a, uint32_t addr)
{
	(void)a;
	(void)addr;
	return diamond_prx_add(arg, id);
}

int diamond_prx_add_all(struct diamond_prx *x)
{
	return x ? diamond_radio_list(x->store, add_one, x) : -EINVAL;
}

/* The core's refusals as the feed returns them. */
static int refusal(int dmd_rc)
{
	return dmd_rc == DMD_EFORMAT ? -EPROTO : dlib_core_errno(dmd_rc);
}

/*
 * dlib_prx_hold() at @pos. An anchored packet of an epoch past e_c newer
 * than the one held makes that epoch the held one (spec 14.5, candidate
 * 2) before its unit is taken, so the unit counts as near (prx_hold.c);
 * if the packet finds no room, the epoch held before stays.
 */
static int hold_at(struct diamond_prx *x, struct dlib_pdev *d,
		   const struct dmd_packet *p, const uint8_t *pkt, size_t len,
		   const struct dmd_pkt_pos *pos, struct dlib_punit **pu)
{
	uint64_t was_epoch = d->held_epoch;
	uint8_t was_held = d->held;
	int newer = p->anchored && pos->epoch > dlib_prx_ec(d) &&
		    (!d->held || pos->epoch > d->held_epoch);
	int rc;

	if (newer) {
		d->held = 1;
		d->held_epoch = pos->epoch;
	}
	rc = dlib_prx_hold(x, d, pkt, len, pos->epoch,
			   pos->index / DMD_GRID_UNIT, p->jm % DMD_GRID_UNIT, pu);
	if (newer && (rc < 0 || rc == 2)) {
		d->held = was_held;
		d->held_epoch = was_epoch;
	}
	return rc;
}

/* Hold @pkt at each candidate and try each unit it was new to. */
static int place(struct diamond_prx *x, struct dlib_pdev *d,
		 const struct dmd_packet *p, const uint8_t *pkt, size_t len,
		 const struct dmd_pkt_pos *pos, unsigned int n)
{
	/* One try per candidate; what n leaves of 4 goes to other copies. */
	unsigned int k, extra = DMD_PKT_CANDIDATES - n, r = p->jm % DMD_GRID_UNIT;
	struct dlib_punit *pu;
	uint8_t verified = 0;
	uint16_t was;
	uint32_t u;
	int rc = 0, here;

	for (k = 0; !rc && k < n; k++) {
		u = pos[k].index / DMD_GRID_UNIT;
		/* A try before this one may have moved the cursor. */
		if (dlib_pos_before(pos[k].epoch, u, dlib_prx_ec(d), d->ps.uc))
			continue;
		rc = hold_at(x, d, p, pkt, len, &pos[k], &pu);
		/* Held anew: spooled until its unit is decided. */
		if (rc == 0)
			dlib_prx_spool_append(x, pos[k].epoch, u, pkt, len);
		/* A copy of a record released here: genuine here, not later. */
		if (rc == 1 && (pu->bits.rel >> (p->jm % DMD_GRID_UNIT) & 1)) {
			x->stats.duplicates++;
			return 0;
		}
		if (rc == 1)
			x->stats.duplicates++;
		if (rc == 2)
			x->stats.unheld++;
		if (rc)
			rc = rc < 0 ? rc : 0;
		was = pu ? pu->bits.rel : 0;
		if (!rc && pu)
			rc = dlib_prx_try(x, d, pu, r, &extra, &verified);
		/* Released here now: genuine here, so at no later candidate. */
		here = !rc && pu && ((pu->bits.rel & ~was) >> r & 1);
		/* The cursor moves as the module's would (pu may go). */
		if (!rc && verified)
			rc = dlib_prx_follow(x, d, pos[k].epoch, u, verified);
		if (here)
			break;
	}
	return rc;
}

int diamond_prx_feed(struct diamond_prx *x, const uint8_t *pkt, size_t len)
{
	struct dmd_pkt_pos pos[DMD_PKT_CANDIDATES];
	struct dmd_pkt_cursor c;
	struct dmd_packet p;
	struct dlib_pdev *d;
	unsigned int n;
	int rc;

	if (!x || (!pkt && len))
		return -EINVAL;
	x->stats.packets++;
	d = by_addr(x, pkt, len);
	if (!d) {
		x->stats.nodev++;
		return -EPROTO;
	}
	rc = dmd_packet_parse(&p, pkt, len, d->a);
	if (rc != DMD_OK) {
		x->stats.format++;
		return refusal(rc);
	}
	c = (struct dmd_pkt_cursor){ .epoch = dlib_prx_ec(d), .unit = d->ps.uc,
		.b = d->ps.st.b, .max_skip = x->max_skip, .held = d->held,
		.held_epoch = d->held_epoch };
	rc = dmd_packet_candidates(&c, &p, pos, &n);
	if (rc != DMD_OK) {
		if (rc == DMD_EFORMAT)
			x->stats.format++;
		else
			x->stats.range++;
		return refusal(rc);
	}
	rc = place(x, d, &p, pkt, len, pos, n);
	return rc ? rc : dlib_prx_settle(x, d);
}

int diamond_prx_set_stage(struct diamond_prx *x, int (*commit)(void *arg),
			  void *arg)
{
	if (!x)
		return -EINVAL;
	x->stage = commit;
	x->stage_arg = arg;
	return 0;
}

int diamond_prx_set_fence(struct diamond_prx *x, struct diamond_fence *fence)
{
	if (!x || !fence)
		return -EINVAL;
	dlib_store_set_fence(x->store, fence);
	return 0;
}

int diamond_prx_dropped(int rc)
{
	return rc == -EPROTO || rc == -EMSGSIZE || rc == -EKEYEXPIRED ||
	       rc == -ERANGE || rc == -DIAMOND_EEXHAUSTED;
}

/*
 * Feed the spooled packets again, those held in a unit its device's
 * cursor has passed skipped (fed again they would sit at a later
 * candidate and cost tries); a torn last entry ends it.
 */
static int replay(struct diamond_prx *x, const uint8_t *buf, size_t len,
		  int *taken)
{
	const struct dlib_pdev *d;
	const uint8_t *pkt;
	size_t at, plen;
	uint64_t e;
	uint32_t u;
	int n, rc = 0;

	x->replaying = 1;
	for (at = 0; !rc && (n = dlib_prx_spool_entry(buf + at, len - at, &e,
						       &u, &pkt, &plen)); at += (size_t)n) {
		d = by_addr(x, pkt, plen);
		if (!d || dlib_pos_before(e, u, dlib_prx_ec(d), d->ps.uc))
			continue;
		rc = diamond_prx_feed(x, pkt, plen);
		if (diamond_prx_dropped(rc))
			rc = 0;	/* fed again and dropped: not a failure */
		(*taken)++;
	}
	x->replaying = 0;
	return rc;
}

int diamond_prx_spool(struct diamond_prx *x, const char *state_dir)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc, taken = 0;

	if (!x || !state_dir)
		return -EINVAL;
	rc = dlib_prx_spool_open(x, state_dir, &buf, &len);
	if (rc)
		return rc;
	/* The old file stays until the rewrite from what the replay held. */
	rc = replay(x, buf, len, &taken);
	free(buf);
	if (!rc)
		rc = dlib_prx_spool_rewrite(x);
	return rc ? rc : taken;
}

int diamond_prx_max_tfms(struct diamond_prx *x, unsigned int n)
{
	if (!x || !n)
		return -EINVAL;
	x->max_grids = dlib_fit_tfms(n);
	while (x->ngrids > x->max_grids)
		dlib_prx_grid_evict(x, NULL);
	return 0;
}

void diamond_prx_stats(const struct diamond_prx *x,
		       struct diamond_prx_stats *s)
{
	*s = x->stats;
}

int diamond_prx_cursor(const struct diamond_prx *x, uint32_t device_id,
		       uint64_t *epoch, uint32_t *unit)
{
	const struct dlib_pdev *d = by_id(x, device_id);

	if (!d)
		return -DIAMOND_ENODEVICE;
	*epoch = dlib_prx_ec(d);
	*unit = d->ps.uc;
	return 0;
}

void diamond_prx_free(struct diamond_prx *x)
{
	unsigned int i;
	size_t k;

	if (!x)
		return;
	dlib_prx_spool_close(x);
	for (k = 0; k < x->ndev; k++) {
		dlib_prx_grid_drop(x, x->dev[k]);
		for (i = 0; i < DLIB_PRX_UNITS; i++)
			if (x->dev[k]->unit[i].used)
				dlib_prx_unit_drop(&x->dev[k]->unit[i]);
		dmd_wipe(x->dev[k], sizeof(*x->dev[k]));
		free(x->dev[k]);
	}
	free(x->dev);
	dmd_wipe(x, sizeof(*x));
	free(x);
}
