// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Custody mode (userspace.rst section 1, "Custody"): a device whose key
 * only diamond.ko holds. The gateway keeps its wrapped state (wstate.c)
 * and learns where the device stands from the DMDW header alone; after
 * each request that moved the tfm, the module's export of the new state
 * is made durable before the records are delivered (section 4), exactly
 * where a clear device's advanced blob would be.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

int dlib_custody_save(struct diamond_gw *gw, struct dlib_dev *d,
		      uint64_t epoch, int open, uint32_t c)
{
	struct dlib_wstate nw = *d->w;
	int rc = gw->be->wrapped ? gw->be->wrapped(d, &nw) : -ENOKEY;

	/* The module must stand where the library thinks the device does. */
	if (!rc && (nw.st.epoch != epoch || nw.cursor != !!open ||
		    nw.c != (open ? c : 0)))
		rc = -EIO;
	if (!rc)
		rc = dlib_store_save_w(gw->store, &nw, open ? &d->dec : NULL);
	if (!rc)
		*d->w = nw;
	return rc;
}

int dlib_custody_load(struct diamond_gw *gw, struct dlib_dev *d)
{
	int rc;

	if (!gw->custody)
		return -ENOKEY;	/* wrapped, and no wrap key to open it */
	d->w = calloc(1, sizeof(*d->w));
	if (!d->w)
		return -ENOMEM;
	rc = dlib_store_load_w(gw->store, d->id, d->w, &d->dec);
	if (rc)
		diamond_store_path(gw->store, d->id, gw->detail,
				   sizeof(gw->detail));
	else
		d->st = d->w->st;	/* parameters and epoch, no key */
	return rc;
}
