// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The units of a grouped device (spec 9.1): a non-final group i (records
 * i*g .. i*g+g-1 and its type 3 frame) or the final group (records
 * q*g .. n-1 and the epoch tag frame, which names n). Here they are cut
 * out of the open epochs: the first complete, untried unit at or past the
 * cursor.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Non-final unit @c of @ep as it is held (complete or not). */
static void nonfinal_unit(const struct dlib_ep *ep, uint32_t c,
			  struct dlib_unit *u)
{
	*u = (struct dlib_unit){ .group = c, .first = c * ep->dev->g,
				 .count = ep->dev->g,
				 .tags = &dlib_gtag_at(ep, c)->t };
}

/* Is the final unit of @ep (its tag held) complete and untried? */
static int final_unit(const struct dlib_ep *ep, struct dlib_unit *u)
{
	const struct dlib_dev *d = ep->dev;
	uint16_t n = ep->tag.n[0];	/* copies naming another n: unused */
	uint32_t q = dlib_nonfinal(n, d->st.b, d->g);

	*u = (struct dlib_unit){ .group = q, .first = q * d->g,
			    .count = n - q * d->g, .n = n, .final = 1,
			    .tags = &ep->tag };
	return !ep->tag_failed && dlib_asm_top(ep->asm_) <= n &&
	       dlib_asm_has(ep->asm_, u->first, u->count);
}

/* The first complete untried unit of @ep at or past group @c0. */
static int first_unit(const struct dlib_ep *ep, uint32_t c0,
		      struct dlib_unit *u)
{
	uint32_t c = ep->ready ? dlib_gtag_next(ep, c0) : UINT32_MAX;
	struct dlib_unit f;

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
struct dlib_ep *dlib_unit_find(struct dlib_dev *d, struct dlib_unit *u,
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
