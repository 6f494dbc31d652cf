/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The packet receiver's internals (spec section 14.5), in pipeline order:
 * prx.c (the public entry points) -> prx_spool.c (what is held, durable;
 * its replay is prx.c's) -> prx_hold.c (packets into units) ->
 * prx_try.c (a unit verified, saved, released) -> prx_cursor.c (the
 * cursor moved, units given up, lost reported) -> prx_keys.c (chain walks)
 * -> store.c.
 */
#ifndef LIBDIAMOND_PRX_H
#define LIBDIAMOND_PRX_H

#include <string.h>

#include "internal.h"

/*
 * Section 9.1's policy, as the packet receiver applies it: the cursor's
 * unit is given up once the first later unit of its epoch with a verified
 * tag has had DLIB_PRX_WAIT more packets of the device arrive since its
 * first tag verified (two units' worth, so a record delayed by up to 32
 * packets is still released); a verified tag in a later epoch gives up
 * the rest of the cursor's epoch at once. The wait is counted from that
 * unit's own verification, not from the cursor's last move: counted from
 * the move, every unit with a loss cost 32 packets more than the 16 it
 * spans, the cursor fell behind the link and out of its 8 held units,
 * and at b = 1024 and 5% loss most of what arrived was never released.
 */
#define DLIB_PRX_WAIT	32

/*
 * Distinct packets held per record of a unit (section 8.1's copy rule):
 * a unit's slot also collects the packets of the same j mod 64 sent at
 * the (at most 3) positions before it of which it is a candidate, so it
 * holds those, one damaged copy, and the genuine packet: 5. A forger who
 * sends more distinct copies of a record before the genuine one than
 * that keeps it out (it is then lost, never released wrong), as with the
 * stream's DLIB_COPIES. Worst case 16 * 5 * 255 bytes per unit held.
 */
#define DLIB_PRX_COPIES	5

/* One undecided unit (e, u) at or past the cursor, and what it holds. */
struct dlib_punit {
	struct dlib_pbits bits;		/* the two bitmaps (stored) */
	uint8_t used;
	uint8_t have_r;			/* @r holds R_{e,16u}, a future key */
	uint8_t ncopy[DMD_GRID_UNIT];	/* distinct packets held per r */
	uint16_t len[DMD_GRID_UNIT][DLIB_PRX_COPIES];
	uint8_t *pkt[DMD_GRID_UNIT][DLIB_PRX_COPIES];
	uint32_t pick;			/* the next copy combination */
	uint8_t ver_seen;		/* a tag verified since it was held */
	uint32_t ver_at;		/* the device's packet count then */
	uint8_t r[DMD_KEY_MAX];
};

/*
 * kernel-api.rst "The cursor and the window": a tag verified this many
 * units or more past the cursor moves diamond.ko's cursor to its unit, and
 * the receiver's follows, whichever backend verifies.
 */
#define DLIB_PRX_WINDOW	16

/* One packet-mode device: its cursor, keys and undecided units. */
struct dlib_pdev {
	struct dlib_pstate ps;		/* cursor and keys, as stored */
	void *grid;			/* the backend's handle (kernel: a tfm) */
	uint64_t grid_used;		/* when it was last used (x->clock) */
	uint32_t id, addr;
	uint8_t a;
	uint8_t held;			/* an anchored epoch past e_c is held */
	uint64_t held_epoch;
	uint32_t packets;		/* packets of the device (wraps) */
	struct dlib_punit unit[DLIB_PRX_UNITS];
};

struct diamond_prx {
	struct diamond_store *store;
	const struct dlib_backend *be;
	struct diamond_prx_cbs cbs;
	int (*stage)(void *arg);	/* diamond_prx_set_stage() or NULL */
	void *stage_arg;
	struct dlib_pspool *spool;	/* diamond_prx_spool() or NULL */
	int replaying;			/* feeding the spool back: no appends */
	uint32_t max_skip;
	struct dlib_pdev **dev;
	size_t ndev, cap;
	struct diamond_prx_stats stats;
	unsigned int ngrids, max_grids;	/* kernel tfms open, and at most */
	uint64_t clock;			/* grid uses, for the LRU */
	uint8_t pt[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD];
};

static inline uint64_t dlib_prx_ec(const struct dlib_pdev *d)
{
	return d->ps.st.epoch - 1;
}

/* prx_hold.c: a parsed packet into the unit of one candidate. */
/*
 * The packet of record @r of the unit: 0 held anew, 1 a duplicate, 2 not held (its copies full, or no unit
 * free: the nearest units to the cursor are kept); *@out the unit.
 */
int dlib_prx_hold(struct diamond_prx *x, struct dlib_pdev *d,
		  const uint8_t *pkt, size_t len, uint64_t e, uint32_t u,
		  unsigned int r, struct dlib_punit **out);

/* prx_try.c */
/*
 * Try @pu with the copy of record @arrived that just arrived and the newest
 * of the others, then other combinations while *@extra (the tries left of
 * the packet's budget of DMD_PKT_CANDIDATES) lasts, if a tag whose carrier and
 * records are held has not verified yet and covers a record not released:
 * the bitmaps stored before anything is released; the tags that verified
 * anew into *@verified. 0 (tried or nothing to try), or a storage or
 * backend failure (nothing released).
 */
int dlib_prx_try(struct diamond_prx *x, struct dlib_pdev *d,
		 struct dlib_punit *pu, unsigned int arrived,
		 unsigned int *extra, uint8_t *verified);

/* prx_cursor.c */
/*
 * After a try of (@e, @u) in which @verified tags verified: the cursor
 * moved as diamond.ko moves its own (kernel-api.rst): to (@e, @u) when it
 * lies DLIB_PRX_WINDOW units or more past the cursor, then past every unit
 * at its head with all 16 records released, then, with a kernel handle,
 * to the module's cursor if that is further still (the module's cursor is
 * authoritative). Stored before any loss is reported.
 */
int dlib_prx_follow(struct diamond_prx *x, struct dlib_pdev *d, uint64_t e,
		    uint32_t u, uint8_t verified);
/* The units from the cursor to (@e, @u), in stream order. */
uint64_t dlib_prx_distance(const struct dlib_pdev *d, uint64_t e, uint32_t u);
/*
 * A loaded state whose cursor unit has all 16 records released (stored
 * between a release and the move it caused) moved past them: no record is
 * lost, and the module's restore form wants an undecided cursor unit.
 */
void dlib_prx_skip_released(struct dlib_pdev *d);
/*
 * The device's backend handle, attached from its state if it has none;
 * the least recently used other device's goes first when x->max_grids are
 * open (its state is the receiver's, so it is keyed again when needed).
 */
int dlib_prx_grid(struct diamond_prx *x, struct dlib_pdev *d);
/* Close the least recently used device's tfm, other than @keep's. */
void dlib_prx_grid_evict(struct diamond_prx *x, const struct dlib_pdev *keep);
/* Drop it (the next use keys a new one from the receiver's state). */
void dlib_prx_grid_drop(struct diamond_prx *x, struct dlib_pdev *d);
/*
 * After a packet: move the cursor past decided units, past the cursor's
 * epoch when a later epoch verified, and give up the cursor's unit under
 * the DLIB_PRX_WAIT policy; the state stored before any loss is reported.
 */
int dlib_prx_settle(struct diamond_prx *x, struct dlib_pdev *d);
/* The unit (e, u) of @d, or NULL. */
struct dlib_punit *dlib_prx_unit(struct dlib_pdev *d, uint64_t e, uint32_t u);
/* Free a unit's packets and erase its key. */
void dlib_prx_unit_drop(struct dlib_punit *pu);
/* @d's state with @pu's bitmaps as @bits (NULL: as held) into @ps. */
void dlib_prx_state(const struct dlib_pdev *d, const struct dlib_punit *pu,
		    const struct dlib_pbits *bits, struct dlib_pstate *ps);

/* prx_spool.c */
/*
 * A packet just held anew in unit (@e, @u), to the spool (if any; not
 * while replaying).
 */
void dlib_prx_spool_append(struct diamond_prx *x, uint64_t e, uint32_t u,
			   const uint8_t *pkt, size_t len);
void dlib_prx_spool_close(struct diamond_prx *x);
/*
 * Open (make) @state_dir/spool/packets as @x's spool, and read what it
 * holds into *@buf (malloc'd, *@len bytes; NULL when empty). 0 or -errno.
 */
int dlib_prx_spool_open(struct diamond_prx *x, const char *state_dir,
			uint8_t **buf, size_t *len);
/*
 * The entry at @p (@len bytes left): its unit (*@e, *@u) and packet;
 * returns its size, 0 at the end or at a torn entry.
 */
int dlib_prx_spool_entry(const uint8_t *p, size_t len, uint64_t *e,
			 uint32_t *u, const uint8_t **pkt, size_t *plen);
/* The spool anew from the packets held, under the fence. 0 or -errno. */
int dlib_prx_spool_rewrite(struct diamond_prx *x);

/* prx_keys.c */
/* Walk @n record slots of @suite from @r in place. */
void dlib_prx_walk(unsigned int suite, uint8_t *r, uint64_t n);
/*
 * From the cursor of @ps: R_{e,16u} into @r and E_{e+1} into @enext (if
 * not NULL), for (e, u) at or past the cursor.
 */
void dlib_prx_keys(const struct dlib_pstate *ps, uint64_t e, uint32_t u,
		   uint8_t *r, uint8_t *enext);

#endif
