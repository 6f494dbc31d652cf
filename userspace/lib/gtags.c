// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The group tag frames an open epoch of a grouped device holds (type 3,
 * spec 5.1), by group, in chunks of DLIB_GTAG_CHUNK made as tags arrive:
 * a forged tag at a high group costs one chunk, not a table of every
 * group (issue 23). A bitmap keeps which non-final units are complete and
 * untried, so that finding the next unit never scans every group.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint32_t nchunks(const struct dlib_ep *ep)
{
	return (ep->ngtag + DLIB_GTAG_CHUNK - 1) / DLIB_GTAG_CHUNK;
}

/* The held tag of group @c, if its chunk exists (else NULL). */
struct dlib_gtag *dlib_gtag_at(const struct dlib_ep *ep, uint32_t c)
{
	struct dlib_gtag *k = c < ep->ngtag ? ep->gtag[c / DLIB_GTAG_CHUNK] :
			      NULL;

	return k ? &k[c % DLIB_GTAG_CHUNK] : NULL;
}

/* The highest group with a tag held + 1, or 0. */
uint32_t dlib_gtag_top(const struct dlib_ep *ep)
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

/*
 * Keep @ep->ready right for non-final unit @c: its tag held and untried,
 * its records all there. Called for every frame a unit may depend on, so
 * that finding the next unit never scans every group (issue 23).
 */
void dlib_gtag_update(struct dlib_ep *ep, uint32_t c)
{
	const struct dlib_gtag *t = dlib_gtag_at(ep, c);
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

/*
 * Hold a group tag frame's copy (spec 8.1); 1: a repeat or a copy past
 * the bound.
 */
int dlib_gtag_hold(struct diamond_gw *gw, struct dlib_ep *ep,
		   const struct diamond_frame *f)
{
	uint32_t groups = dlib_max_units(ep->dev) - 1;
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
	rc = dlib_tags_hold(&dlib_gtag_at(ep, f->index)->t, f);
	if (rc == 1)
		dlib_drop_frames(gw, ep->dev, 1);
	if (!rc)
		ep->gtag_bytes += f->len;	/* charged */
	return rc;
}

/* The first ready non-final unit at or past @c, or UINT32_MAX. */
uint32_t dlib_gtag_next(const struct dlib_ep *ep, uint32_t c)
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

int dlib_gtag_failed(const struct dlib_ep *ep, uint32_t c)
{
	const struct dlib_dev *d = ep->dev;
	const struct dlib_gtag *t = dlib_gtag_at(ep, c);

	if (ep->tag.have && ep->tag_failed &&
	    c == dlib_nonfinal(ep->tag.n[0], d->st.b, d->g))
		return ep->tag_failed;
	return t ? t->failed : 0;
}

void dlib_gtag_touch(struct dlib_ep *ep, const struct diamond_frame *f)
{
	uint32_t c = f->type == DIAMOND_FRAME_GROUP ? f->index :
		     f->type == DIAMOND_FRAME_RECORD ? f->index / ep->dev->g :
		     UINT32_MAX;

	if (f->type != DIAMOND_FRAME_GROUP)
		ep->tag_failed = 0;	/* the final group's record or tag */
	if (dlib_gtag_at(ep, c)) {
		dlib_gtag_at(ep, c)->failed = 0;
		dlib_gtag_update(ep, c);
	}
}
