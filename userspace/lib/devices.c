// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The gateway's devices: a table on the device id (open addressing, never
 * shrinks) of struct dlib_dev, each loaded from its state file on first
 * use: the blob and, for a grouped device, its cursor (cursor.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static size_t hash_id(uint32_t id, size_t size)
{
	return (size_t)((id * 2654435761u) & (uint32_t)(size - 1));
}

struct dlib_dev *dlib_dev_find(const struct diamond_gw *gw, uint32_t id)
{
	size_t i = hash_id(id, gw->tab_size);

	while (gw->tab[i]) {
		if (gw->tab[i]->id == id)
			return gw->tab[i];
		i = (i + 1) & (gw->tab_size - 1);
	}
	return NULL;
}

static void put(struct dlib_dev **tab, size_t size, struct dlib_dev *d)
{
	size_t i = hash_id(d->id, size);

	while (tab[i])
		i = (i + 1) & (size - 1);
	tab[i] = d;
}

static int insert(struct diamond_gw *gw, struct dlib_dev *d)
{
	struct dlib_dev **nt;
	size_t i, ns;

	if (2 * (gw->ndev + 1) > gw->tab_size) {
		ns = gw->tab_size * 2;
		nt = calloc(ns, sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		for (i = 0; i < gw->tab_size; i++)
			if (gw->tab[i])
				put(nt, ns, gw->tab[i]);
		free(gw->tab);
		gw->tab = nt;
		gw->tab_size = ns;
	}
	put(gw->tab, gw->tab_size, d);
	gw->ndev++;
	return 0;
}

static int load_state(struct diamond_gw *gw, uint32_t id,
		      struct dmd_state *st)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	unsigned int a;
	uint32_t addr;
	size_t len;
	int rc;

	rc = diamond_store_load(gw->store, id, blob, &len);
	if (!rc && dmd_blob_parse(st, blob, len) != DMD_OK)
		rc = -EUCLEAN;
	/*
	 * One framing per chain (spec 14.2): a packet-mode device's traffic
	 * is the packet receiver's, and a stream frame naming it is dropped.
	 */
	if (!rc && diamond_radio_get(gw->store, id, &a, &addr) == 0)
		rc = -EMEDIUMTYPE;
	dmd_wipe(blob, sizeof(blob));
	if (rc) {
		diamond_store_path(gw->store, id, gw->detail,
				   sizeof(gw->detail));
	}
	return rc;
}

/* The device's entry, loading its state file on first use. */
int dlib_gw_get_dev(struct diamond_gw *gw, uint32_t id,
		    struct dlib_dev **out)
{
	struct dlib_dev *d = dlib_dev_find(gw, id);
	int rc;

	if (d) {
		*out = d;
		return 0;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->id = id;
	d->stats.device_id = id;
	rc = load_state(gw, id, &d->st);
	if (rc == -ENOKEY)		/* version 4: a wrapped state */
		rc = dlib_custody_load(gw, d);
	else if (!rc && gw->custody)	/* a key in clear: load it first */
		rc = -EPERM;
	if (!rc) {
		d->g = d->st.group ? d->st.group : d->st.b;
		rc = dlib_cur_load(gw, d);
	}
	if (!rc)
		rc = insert(gw, d);
	if (rc) {
		dlib_cur_free(d);
		free(d->w);
		dlib_free_secret(d, sizeof(*d));
		return rc;
	}
	*out = d;
	return 0;
}

void diamond_gw_foreach_dev(const struct diamond_gw *gw,
			    void (*fn)(void *arg,
			    const struct diamond_dev_stats *s),
			    void *arg)
{
	size_t i;

	for (i = 0; i < gw->tab_size; i++)
		if (gw->tab[i] && (gw->tab[i]->stats.bytes ||
				   gw->tab[i]->stats.verified))
			fn(arg, &gw->tab[i]->stats);
}
