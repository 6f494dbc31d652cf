// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The gateway: frames in, verified records out, through the receive
 * pipeline (receive.c). Per device it keeps the mirror of the state file,
 * its open epochs and (kernel backend) a keyed tfm; tfms are capped by an
 * LRU (tfm.c), everything else is small.
 *
 * Ordering, which the crash-safety argument rests on
 * (Documentation/userspace.rst): verify -> make the new state durable ->
 * deliver the plaintext. A crash before the state is durable leaves the old
 * state and nothing delivered; a crash after leaves the new state, so a
 * delivered epoch can never verify twice and old state never comes back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* The options, checked; the kernel backend probed. 0 or -errno. */
static int check_opts(const struct diamond_gw_opts *o, char *msg, size_t size)
{
	/* One limit for sender and gateway: no other body cap (issue 10). */
	if (!o->state_dir ||
	    (o->max_body && o->max_body != DIAMOND_MAX_BODY) ||
	    (o->max_buffer && o->max_buffer < DIAMOND_MIN_MAX_BUFFER))
		return -EINVAL;
	if (o->backend == DIAMOND_BACKEND_KERNEL)
		return diamond_kernel_probe(msg, size);
	return o->backend == DIAMOND_BACKEND_SOFTWARE ? 0 : -EINVAL;
}

/*
 * Custody (userspace.rst section 1): on when the key diamond:wrap is
 * in this process's keyrings (the loader put it there), required with
 * DIAMOND_GW_CUSTODY. Without it the kernel path keeps device keys in
 * clear, and one line in @msg says so.
 */
static int custody_mode(struct diamond_gw *gw,
			const struct diamond_gw_opts *o, char *msg,
			size_t size)
{
	size_t n = msg && size ? strlen(msg) : 0;
	int32_t wrap;

	if (o->backend != DIAMOND_BACKEND_KERNEL)
		return o->flags & DIAMOND_GW_CUSTODY ? -EINVAL : 0;
	wrap = dlib_key_find(DLIB_WRAP_DESC);
	if (wrap >= 0) {
		gw->custody = 1;
		return 0;
	}
	if (!msg || !size)
		return o->flags & DIAMOND_GW_CUSTODY ? wrap : 0;
	if (o->flags & DIAMOND_GW_CUSTODY) {
		snprintf(msg, size, "custody: no key \"%s\" in this "
			 "process's keyrings (%s): start the gateway through "
			 "diamondctl keys load", DLIB_WRAP_DESC,
			 strerror(-wrap));
		return wrap;
	}
	snprintf(msg + n, size - n, "%scustody: weaker (no \"%s\" key): "
		 "device keys are in clear in the state directory and in "
		 "this process; diamondctl keys load puts them in diamond.ko",
		 n ? "; " : "", DLIB_WRAP_DESC);
	return 0;
}

/* The limits of @o, defaults where it has none. */
static void set_limits(struct diamond_gw *gw, const struct diamond_gw_opts *o)
{
	gw->be = o->backend == DIAMOND_BACKEND_KERNEL ?
		 &dlib_backend_kernel : &dlib_backend_software;
	gw->max_skip = o->max_skip ? o->max_skip : DMD_DEFAULT_MAX_SKIP;
	gw->max_tfms = o->max_tfms ? o->max_tfms : DIAMOND_DEFAULT_MAX_TFMS;
	if (o->backend == DIAMOND_BACKEND_KERNEL)
		gw->max_tfms = dlib_fit_tfms(gw->max_tfms);
	gw->max_body = o->max_body ? o->max_body : DIAMOND_DEFAULT_MAX_BODY;
	gw->max_buffer = o->max_buffer ? o->max_buffer :
			 DIAMOND_DEFAULT_MAX_BUFFER;
}

/*
 * The state directory (locked for the gateway's life, or shared and
 * fenced: DIAMOND_GW_SHARED), its spool and quarantine as @o asks.
 */
static int open_dirs(struct diamond_gw *gw, const struct diamond_gw_opts *o,
		     char *msg, size_t size)
{
	int rc = diamond_store_open(&gw->store, o->state_dir,
				    o->flags & DIAMOND_GW_SHARED ? 0 :
				    DIAMOND_STORE_LOCK);

	if (rc) {
		if (msg && size)
			snprintf(msg, size, "state directory %s: %s%s",
				 o->state_dir, diamond_strerror(rc),
				 rc == -EBUSY ? " (another gateway holds it)" : "");
		return rc;
	}
	rc = o->flags & DIAMOND_GW_SPOOL ?
	     dlib_spool_open(gw, o->state_dir) : 0;
	if (!rc && (o->flags & DIAMOND_GW_QUARANTINE))
		rc = dlib_quarantine_open(gw, o->state_dir,
					  o->quarantine_max ? o->quarantine_max :
					  DIAMOND_DEFAULT_QUARANTINE_MAX);
	if (rc && msg && size)
		snprintf(msg, size, "%s: %s", gw->detail, diamond_strerror(rc));
	return rc;
}

int diamond_gw_new(struct diamond_gw **out, const struct diamond_gw_opts *o,
		   const struct diamond_gw_cbs *cbs, char *msg, size_t size)
{
	struct diamond_gw *gw;
	int rc;

	if (!out || !o)
		return -EINVAL;
	rc = check_opts(o, msg, size);
	if (rc)
		return rc;
	gw = calloc(1, sizeof(*gw));
	if (!gw)
		return -ENOMEM;
	set_limits(gw, o);
	rc = custody_mode(gw, o, msg, size);
	if (rc) {
		free(gw);
		return rc;
	}
	if (cbs)
		gw->cbs = *cbs;
	gw->tab_size = 1024;
	gw->tab = calloc(gw->tab_size, sizeof(*gw->tab));
	gw->rd = diamond_reader_new();
	rc = gw->tab && gw->rd ? open_dirs(gw, o, msg, size) : -ENOMEM;
	if (rc) {
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
	dlib_dec_close_all(gw, 0);	/* still spooled for the next run */
	dlib_spool_close(gw);
	free(gw->qdir);
	for (i = 0; gw->tab && i < gw->tab_size; i++) {
		if (!gw->tab[i])
			continue;
		gw->be->release(gw->tab[i]);
		dlib_cur_free(gw->tab[i]);
		free(gw->tab[i]->w);
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

int diamond_gw_set_stage(struct diamond_gw *gw, int (*commit)(void *arg),
			 void *arg)
{
	if (!gw)
		return -EINVAL;
	gw->stage = commit;
	gw->stage_arg = arg;
	return 0;
}

int diamond_gw_set_fence(struct diamond_gw *gw, struct diamond_fence *fence)
{
	if (!gw || !fence)
		return -EINVAL;
	gw->fence = fence;
	dlib_store_set_fence(gw->store, fence);
	return 0;
}

uint64_t diamond_gw_chain_steps(const struct diamond_gw *gw)
{
	return gw->chain_steps;
}

/* A public call begins: no storage failure yet (diamond_gw_failure()). */
static void begin(struct diamond_gw *gw)
{
	gw->fatal = 0;
	gw->failure[0] = 0;
}

/* The spool made durable after a call; what the call returns. */
static int end(struct diamond_gw *gw, int rc)
{
	int sync = dlib_spool_commit(gw);

	return rc ? rc : sync;
}

int diamond_gw_feed(struct diamond_gw *gw, const uint8_t *data, size_t len)
{
	int rc;

	begin(gw);
	gw->stats.bytes += len;
	rc = diamond_reader_feed(gw->rd, data, len);
	if (!rc)
		rc = dlib_rx_drain(gw);
	return end(gw, rc);
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
	begin(gw);
	drop_partial(gw);
	return end(gw, dlib_rx_finish(gw));
}

/* Feed the spool back as it was received, with no appends to it. */
int diamond_gw_resume(struct diamond_gw *gw)
{
	uint8_t buf[65536];
	uint64_t before = gw->stats.bytes;
	ssize_t n;
	int fd, rc = 0;

	if (!gw->spool)
		return 0;
	begin(gw);
	fd = dlib_spool_reader(gw);
	if (fd < 0)
		return fd;
	gw->replaying = 1;
	while (!rc && (n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		rc = diamond_reader_feed(gw->rd, buf, (size_t)n);
		if (!rc)
			rc = dlib_rx_drain(gw);
	}
	close(fd);
	diamond_reader_reset(gw->rd);	/* a torn last frame: dropped */
	gw->replaying = 0;
	gw->stats.bytes = before;
	if (!rc && gw->stats.open_epochs && (rc = dlib_spool_rewrite(gw)))
		dlib_gw_fail(gw, rc, "spool", dlib_spool_path(gw));
	rc = end(gw, rc);
	return rc ? rc : (int)gw->stats.open_epochs;
}
