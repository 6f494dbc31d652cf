// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Kernel tfms are capped: each holds descriptors, so the least recently
 * used device gives its tfm up when another needs one (an LRU). The
 * software backend never opens one, and this costs it nothing.
 */
#include <errno.h>
#include <sys/resource.h>

#include "internal.h"

/*
 * Descriptors per kernel tfm: libkcapi holds the AF_ALG tfm socket, the
 * operation socket and a pipe pair for vmsplice. Some are kept for stdio,
 * the state files and the input.
 */
#define FDS_PER_TFM	4
#define FDS_RESERVED	32

/* Raise the soft descriptor limit to the hard one; cap tfms to fit. */
unsigned int dlib_fit_tfms(unsigned int want)
{
	struct rlimit rl;
	rlim_t fit;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return want;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		return want;
	fit = rl.rlim_cur > FDS_RESERVED + FDS_PER_TFM ?
	      (rl.rlim_cur - FDS_RESERVED) / FDS_PER_TFM : 1;
	return fit < want ? (unsigned int)fit : want;
}

static void lru_unlink(struct diamond_gw *gw, struct dlib_dev *d)
{
	if (d->lru_prev)
		d->lru_prev->lru_next = d->lru_next;
	else if (gw->lru_head == d)
		gw->lru_head = d->lru_next;
	if (d->lru_next)
		d->lru_next->lru_prev = d->lru_prev;
	else if (gw->lru_tail == d)
		gw->lru_tail = d->lru_prev;
	d->lru_prev = d->lru_next = NULL;
}

static void lru_front(struct diamond_gw *gw, struct dlib_dev *d)
{
	d->lru_next = gw->lru_head;
	d->lru_prev = NULL;
	if (gw->lru_head)
		gw->lru_head->lru_prev = d;
	gw->lru_head = d;
	if (!gw->lru_tail)
		gw->lru_tail = d;
}

/* Before a device may take a tfm: close the least recently used ones. */
void dlib_make_room(struct diamond_gw *gw, struct dlib_dev *self)
{
	struct dlib_dev *v;

	while (gw->ntfms >= gw->max_tfms && gw->lru_tail &&
	       gw->lru_tail != self) {
		v = gw->lru_tail;
		lru_unlink(gw, v);
		gw->be->release(v);
		gw->ntfms--;
		gw->stats.tfm_evictions++;
	}
}

/* Account for a tfm the backend opened or closed during open(). */
void dlib_track_tfm(struct diamond_gw *gw, struct dlib_dev *d, int had)
{
	if (d->tfm && !had) {
		gw->ntfms++;
		gw->stats.tfm_inits++;
		lru_front(gw, d);
	} else if (d->tfm) {
		lru_unlink(gw, d);
		lru_front(gw, d);
	} else if (had) {
		lru_unlink(gw, d);
		gw->ntfms--;
	}
}
