// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Software backend: the portable core's receiver (dmd_open) on a copy of
 * the device's state. Chosen only on request (diamondctl --software); the
 * kernel backend never falls back to it.
 */
#include <errno.h>

#include "internal.h"

static int soft_open(struct dlib_dev *d,
		     const struct diamond_epoch_body *body, uint8_t *pt,
		     uint32_t max_skip)
{
	struct dmd_state st = d->st;
	int rc;

	rc = dmd_open(&st, body->epoch, body->ad, body->adlen, body->ct,
		      body->ct_len, pt, max_skip);
	dmd_wipe(&st, sizeof(st));
	return dlib_core_errno(rc);
}

static int soft_open_unit(struct dlib_dev *d, uint32_t group, uint32_t n,
			  const struct diamond_epoch_body *body, uint8_t *pt,
			  struct dmd_receiver *next)
{
	(void)d;
	return dlib_core_errno(n ?
		dmd_receiver_close(next, body->epoch, n, body->ad, body->adlen,
				   body->ct, body->ct_len, pt) :
		dmd_receiver_group(next, body->epoch, group, body->ad,
				   body->adlen, body->ct, body->ct_len, pt));
}

static int soft_open_grid(void *gh, unsigned int suite, const uint8_t *r,
			  uint64_t e, uint32_t u, struct dmd_grid_unit *g,
			  uint16_t before, struct dmd_grid_verdict *v)
{
	(void)gh;
	return dlib_core_errno(dmd_grid_open(suite, r, e, u, g, before, v,
					     NULL));
}

static void soft_release(struct dlib_dev *d)
{
	d->tfm = NULL;
}

const struct dlib_backend dlib_backend_software = {
	.name = "software",
	.open = soft_open,
	.open_unit = soft_open_unit,
	.release = soft_release,
	.open_grid = soft_open_grid,
};
