// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The gateway: frames in, verified records out. Per device it keeps the
 * mirror of the state file, an epoch assembler and (kernel backend) a
 * keyed tfm; tfms are capped by an LRU, everything else is small.
 *
 * Ordering, which the crash-safety argument rests on
 * (Documentation/userspace.rst): verify -> make the new state durable ->
 * deliver the plaintext. A crash before the state is durable leaves the old
 * state and nothing delivered; a crash after leaves the new state, so a
 * delivered epoch can never verify twice and old state never comes back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
static unsigned int fit_tfms(unsigned int want)
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

static size_t hash_id(uint32_t id, size_t size)
{
	return (size_t)((id * 2654435761u) & (uint32_t)(size - 1));
}

static struct dlib_dev *find(struct diamond_gw *gw, uint32_t id)
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

static int load_state(struct diamond_gw *gw, uint32_t id,
		      struct dmd_state *st)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	size_t len;
	int rc;

	rc = diamond_store_load(gw->store, id, blob, &len);
	if (!rc && dmd_blob_parse(st, blob, len) != DMD_OK)
		rc = -EUCLEAN;
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
	struct dlib_dev *d = find(gw, id);
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
	if (!rc) {
		d->g = d->st.group ? d->st.group : d->st.b;
		rc = dlib_grp_load(gw, d);
	}
	if (!rc)
		rc = insert(gw, d);
	if (rc) {
		dlib_grp_free(d);
		dlib_free_secret(d, sizeof(*d));
		return rc;
	}
	*out = d;
	return 0;
}

void dlib_gw_event(struct diamond_gw *gw, int kind, int err,
		       uint32_t dev, uint64_t epoch, uint32_t count)
{
	struct diamond_event ev = {
		.kind = kind, .err = err, .device_id = dev, .epoch = epoch,
		.count = count, .detail = gw->detail,
	};
	struct dlib_dev *d = kind == DIAMOND_EV_FRAME ? NULL : find(gw, dev);
	int reason = diamond_reason(err);

	if (kind == DIAMOND_EV_VERIFIED) {
		gw->stats.verified++;
		if (d) {
			d->stats.verified++;
			d->stats.last_epoch = epoch;
		}
	} else if (kind == DIAMOND_EV_REJECTED) {
		gw->stats.rejected++;
		gw->stats.rejected_by[reason]++;
		if (d)
			d->stats.rejected_by[reason]++;
	} else {
		gw->stats.frame_errors++;
	}
	if (gw->cbs.event)
		gw->cbs.event(gw->cbs.arg, &ev);
	gw->detail[0] = 0;
}

int diamond_reason(int err)
{
	switch (-err) {
	case EBADMSG:		return DIAMOND_REASON_BAD_TAG;
	case EKEYEXPIRED:	return DIAMOND_REASON_REPLAY;
	case ERANGE:		return DIAMOND_REASON_TOO_FAR;
	case ENOMSG:		return DIAMOND_REASON_INCOMPLETE;
	case EMSGSIZE:		return DIAMOND_REASON_TOO_LARGE;
	case ENOBUFS:		return DIAMOND_REASON_EVICTED;
	case DIAMOND_ENODEVICE:	return DIAMOND_REASON_UNKNOWN_DEVICE;
	case DIAMOND_EOLDGEN:	return DIAMOND_REASON_OLD_GENERATION;
	case EOPNOTSUPP:	return DIAMOND_REASON_UNSUPPORTED;
	case EUCLEAN: case EXDEV: case EIO: case ENOSPC: case EDQUOT:
	case EACCES: case EROFS: case ENOENT:
				return DIAMOND_REASON_STATE;
	default:		return DIAMOND_REASON_OTHER;
	}
}

const char *diamond_reason_name(int reason)
{
	static const char *const names[DIAMOND_REASON_COUNT] = {
		"bad_tag", "replay", "too_far", "incomplete", "too_large",
		"evicted", "unknown_device", "old_generation", "state", "other",
		"unsupported",
	};

	return reason >= 0 && reason < DIAMOND_REASON_COUNT ? names[reason] :
	       "other";
}

int diamond_gw_new(struct diamond_gw **out, const struct diamond_gw_opts *o,
		   const struct diamond_gw_cbs *cbs, char *msg, size_t size)
{
	struct diamond_gw *gw;
	int rc;

	/* One limit for sender and gateway: no other body cap (issue 10). */
	if (!out || !o || !o->state_dir ||
	    (o->max_body && o->max_body != DIAMOND_MAX_BODY) ||
	    (o->max_buffer && o->max_buffer < DIAMOND_MIN_MAX_BUFFER))
		return -EINVAL;
	if (o->backend == DIAMOND_BACKEND_KERNEL) {
		rc = diamond_kernel_probe(msg, size);
		if (rc)
			return rc;
	} else if (o->backend != DIAMOND_BACKEND_SOFTWARE) {
		return -EINVAL;
	}
	gw = calloc(1, sizeof(*gw));
	if (!gw)
		return -ENOMEM;
	gw->be = o->backend == DIAMOND_BACKEND_KERNEL ?
		 &dlib_backend_kernel : &dlib_backend_software;
	gw->max_skip = o->max_skip ? o->max_skip : DMD_DEFAULT_MAX_SKIP;
	gw->max_tfms = o->max_tfms ? o->max_tfms : DIAMOND_DEFAULT_MAX_TFMS;
	if (o->backend == DIAMOND_BACKEND_KERNEL)
		gw->max_tfms = fit_tfms(gw->max_tfms);
	gw->max_body = o->max_body ? o->max_body : DIAMOND_DEFAULT_MAX_BODY;
	gw->max_buffer = o->max_buffer ? o->max_buffer :
			 DIAMOND_DEFAULT_MAX_BUFFER;
	if (cbs)
		gw->cbs = *cbs;
	gw->tab_size = 1024;
	gw->tab = calloc(gw->tab_size, sizeof(*gw->tab));
	gw->rd = diamond_reader_new();
	if (!gw->tab || !gw->rd) {
		diamond_gw_free(gw);
		return -ENOMEM;
	}
	rc = diamond_store_open(&gw->store, o->state_dir, DIAMOND_STORE_LOCK);
	if (rc) {
		if (msg && size)
			snprintf(msg, size, "state directory %s: %s%s",
				 o->state_dir, diamond_strerror(rc),
				 rc == -EBUSY ? " (another gateway holds it)" : "");
		diamond_gw_free(gw);
		return rc;
	}
	rc = o->flags & DIAMOND_GW_SPOOL ?
	     dlib_spool_open(gw, o->state_dir) : 0;
	if (!rc && (o->flags & DIAMOND_GW_QUARANTINE))
		rc = dlib_quarantine_open(gw, o->state_dir,
					      o->quarantine_max ? o->quarantine_max :
					      DIAMOND_DEFAULT_QUARANTINE_MAX);
	if (rc) {
		if (msg && size)
			snprintf(msg, size, "%s: %s", gw->detail,
				 diamond_strerror(rc));
		diamond_gw_free(gw);
		return rc;
	}
	*out = gw;
	return 0;
}

void diamond_gw_free(struct diamond_gw *gw)
{
	size_t i;

	if (!gw)
		return;
	dlib_win_close_all(gw, 0);	/* still spooled for the next run */
	dlib_spool_close(gw);
	free(gw->qdir);
	for (i = 0; gw->tab && i < gw->tab_size; i++) {
		if (!gw->tab[i])
			continue;
		gw->be->release(gw->tab[i]);
		dlib_grp_free(gw->tab[i]);
		dlib_free_secret(gw->tab[i], sizeof(*gw->tab[i]));
	}
	free(gw->tab);
	diamond_reader_free(gw->rd);
	diamond_store_close(gw->store);
	free(gw->body);
	dlib_free_secret(gw->pt, gw->pt_cap);
	free(gw);
}

void diamond_gw_stats(const struct diamond_gw *gw,
		      struct diamond_gw_stats *stats)
{
	*stats = gw->stats;
}

uint64_t diamond_gw_chain_steps(const struct diamond_gw *gw)
{
	return gw->chain_steps;
}

int diamond_gw_open_epoch(struct diamond_gw *gw,
			  const struct diamond_epoch_body *body, uint8_t *pt)
{
	struct dlib_dev *d;
	struct dmd_state next;
	uint8_t blob[DIAMOND_BLOB_MAX];
	int rc, had;

	rc = dlib_gw_get_dev(gw, body->device_id, &d);
	if (rc)
		return rc;
	if (body->suite != d->st.suite)
		return -EPROTO;
	if (dlib_grouped(d))	/* units of spec 9.1, not epochs */
		return -EOPNOTSUPP;
	had = d->tfm != NULL;
	if (!had)
		dlib_make_room(gw, d);
	rc = gw->be->open(d, body, pt, gw->max_skip);
	dlib_track_tfm(gw, d, had);
	if ((rc == -EMFILE || rc == -ENFILE) && !d->tfm && gw->ntfms) {
		/* Out of descriptors anyway: shrink the LRU and retry once. */
		gw->max_tfms = gw->ntfms > 1 ? gw->ntfms - 1 : 1;
		dlib_make_room(gw, d);
		rc = gw->be->open(d, body, pt, gw->max_skip);
		dlib_track_tfm(gw, d, 0);
	}
	/* Spec section 2: generation G's epochs start at G * 2^32. */
	if (rc == -EKEYEXPIRED && body->epoch >> DMD_GEN_SHIFT < d->st.gen)
		rc = -DIAMOND_EOLDGEN;
	if (rc)
		return rc;

	next = d->st;
	dlib_state_advance(&next, body->epoch);
	dmd_blob2_write(blob, &next);
	rc = diamond_store_save(gw->store, blob, dmd_blob2_size(next.suite));
	dmd_wipe(blob, sizeof(blob));
	if (rc) {
		/* The tfm moved on but the file did not: re-key from disk. */
		had = d->tfm != NULL;
		gw->be->release(d);
		dlib_track_tfm(gw, d, had);
		dmd_wipe(&next, sizeof(next));
		diamond_store_path(gw->store, d->id, gw->detail,
				   sizeof(gw->detail));
		dmd_wipe(pt, body->ct_len - DIAMOND_TAG_SIZE);
		return rc;
	}
	d->st = next;
	dmd_wipe(&next, sizeof(next));
	if (!d->verified_once) {
		d->verified_once = 1;
		gw->stats.devices++;
	}
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

/* Take every whole frame the reader holds. */
int dlib_gw_drain(struct diamond_gw *gw)
{
	struct diamond_frame f;
	size_t skipped;
	int rc;

	for (;;) {
		rc = diamond_reader_next(gw->rd, &f, &skipped);
		if (rc == 0)
			return 0;
		if (rc < 0) {
			dlib_gw_event(gw, DIAMOND_EV_FRAME, rc, 0, 0,
					  (uint32_t)skipped);
			continue;
		}
		rc = dlib_win_frame(gw, &f);
		if (rc)
			return rc;
	}
}

int diamond_gw_feed(struct diamond_gw *gw, const uint8_t *data, size_t len)
{
	int rc;

	gw->stats.bytes += len;
	rc = diamond_reader_feed(gw->rd, data, len);
	if (!rc)
		rc = dlib_gw_drain(gw);
	dlib_spool_commit(gw);
	return rc;
}

/* Report and drop what the reader holds that is not a whole frame. */
static void drop_partial(struct diamond_gw *gw)
{
	size_t left = diamond_reader_pending(gw->rd);

	if (!left)
		return;
	dlib_gw_event(gw, DIAMOND_EV_FRAME, -ENODATA, 0, 0, (uint32_t)left);
	diamond_reader_reset(gw->rd);
}

int diamond_gw_feed_datagram(struct diamond_gw *gw, const uint8_t *data,
			     size_t len)
{
	int rc;

	drop_partial(gw);	/* a stream fed earlier must not leak in */
	rc = diamond_gw_feed(gw, data, len);
	drop_partial(gw);
	return rc;
}

void diamond_gw_break(struct diamond_gw *gw)
{
	drop_partial(gw);
}

int diamond_gw_finish(struct diamond_gw *gw)
{
	drop_partial(gw);
	dlib_grp_finish(gw);
	dlib_win_close_all(gw, 1);
	dlib_spool_commit(gw);
	return 0;
}
