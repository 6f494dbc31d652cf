// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_gw_open_epoch(): one assembled epoch of a device without groups
 * verified by the backend, and on success the device's new state made
 * durable before the caller may use the plaintext. The public entry for
 * an epoch assembled elsewhere, and the verification step of verify.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/*
 * The backend's verdict on @body, with a tfm from the LRU: out of
 * descriptors anyway, or of memory (the tfm's, charged to our memcg:
 * kernel-api.rst, "Memory"), the LRU shrinks and the open is tried once
 * more.
 */
static int backend_open(struct diamond_gw *gw, struct dlib_dev *d,
			const struct diamond_epoch_body *body, uint8_t *pt)
{
	int rc, had = d->tfm != NULL;

	if (!had)
		dlib_make_room(gw, d);
	rc = gw->be->open(d, body, pt, gw->max_skip);
	dlib_track_tfm(gw, d, had);
	if ((rc == -EMFILE || rc == -ENFILE || rc == -ENOMEM) && !d->tfm &&
	    gw->ntfms) {
		gw->max_tfms = gw->ntfms > 1 ? gw->ntfms - 1 : 1;
		dlib_make_room(gw, d);
		rc = gw->be->open(d, body, pt, gw->max_skip);
		dlib_track_tfm(gw, d, 0);
	}
	/* Spec section 2: generation G's epochs start at G * 2^32. */
	if (rc == -EKEYEXPIRED && body->epoch >> DMD_GEN_SHIFT < d->st.gen)
		rc = -DIAMOND_EOLDGEN;
	return rc;
}

/* The state after @body, to its file (or the module's export: custody). */
static int save_next(struct diamond_gw *gw, struct dlib_dev *d,
		     const struct diamond_epoch_body *body,
		     struct dmd_state *next)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	int rc;

	if (d->w) {
		next->epoch = body->epoch + 1;
		return dlib_custody_save(gw, d, body->epoch + 1, 0, 0);
	}
	dlib_state_advance(next, body->epoch);
	dmd_blob2_write(blob, next);
	rc = diamond_store_save(gw->store, blob, dmd_blob2_size(next->suite));
	dmd_wipe(blob, sizeof(blob));
	return rc;
}

/*
 * Make (epoch + 1, E_{epoch+1}) durable, then the device's mirror of it
 * (after the stage's commit, if the caller set one: diamond_gw_set_stage());
 * in custody the module's export of that state (custody.c), with no key
 * in the process. If the file cannot be written, the tfm (which moved on)
 * is closed and re-keyed from disk on next use, the plaintext erased, and
 * the call fails (dlib_gw_fail()): the epoch is not decided.
 */
static int persist(struct diamond_gw *gw, struct dlib_dev *d,
		   const struct diamond_epoch_body *body, uint8_t *pt)
{
	struct dmd_state next = d->st;
	int rc, had;

	/* With a stage, the records are made durable first (at least once). */
	rc = dlib_stage(gw, body, pt, 0, 0);
	if (rc)
		dlib_gw_fail(gw, rc, "stage", "");
	else
		rc = save_next(gw, d, body, &next);
	if (rc) {
		had = d->tfm != NULL;
		gw->be->release(d);
		dlib_track_tfm(gw, d, had);
		diamond_store_path(gw->store, d->id, gw->detail,
				   sizeof(gw->detail));
		dlib_gw_fail(gw, rc, "state", gw->detail);
		dmd_wipe(pt, body->ct_len - DIAMOND_TAG_SIZE);
	} else {
		d->st = next;
	}
	dmd_wipe(&next, sizeof(next));
	return rc;
}

int diamond_gw_open_epoch(struct diamond_gw *gw,
			  const struct diamond_epoch_body *body, uint8_t *pt)
{
	struct dlib_dev *d;
	int rc;

	rc = dlib_gw_get_dev(gw, body->device_id, &d);
	if (rc)
		return rc;
	if (body->suite != d->st.suite)
		return -EPROTO;
	if (dlib_grouped(d))	/* units of spec 9.1, not epochs */
		return -EOPNOTSUPP;
	rc = backend_open(gw, d, body, pt);
	if (!rc)
		rc = persist(gw, d, body, pt);
	if (!rc && !d->verified_once) {
		d->verified_once = 1;
		gw->stats.devices++;
	}
	return rc;
}
