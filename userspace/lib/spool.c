// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The spool, @state_dir/spool/frames: every frame taken into an open epoch
 * is appended, and the file is fdatasync'd once per feed call, so a
 * restarted gateway (diamond_gw_resume()) continues the epochs it had half
 * received. Ciphertext is not secret, so the spool is a plain frame file.
 * It only grows until it holds twice what is open (plus 1 MiB); then it is
 * rewritten from the open epochs in memory, so its size stays within
 * 2 * max_buffer + 1 MiB. With nothing open it is truncated.
 *
 * A caller may acknowledge its input once the feed call returned 0 (open
 * --mqtt does), so every failure to write or sync is returned by
 * dlib_spool_commit(). After one the file may lack frames held in memory
 * (a short write is cut off again, but after a failed fsync the kernel may
 * have dropped pages it then reports clean: a second fsync proves
 * nothing), so the spool counts as broken until a rewrite from memory into
 * a new file succeeds; every commit tries that first.
 *
 * In a shared shard directory (DIAMOND_GW_SHARED) every write, fsync,
 * truncate and rewrite is made under the gateway's fence (fence.c): a
 * holder that lost the shard appends nothing to its new holder's spool,
 * and its commit fails (-ESTALE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define SPOOL_SLACK	(1u << 20)

struct dlib_spool {
	char path[4096];
	int fd;
	size_t bytes;		/* in the file and in @buf */
	int dirty;		/* appended since the last fdatasync */
	int broken;		/* -errno: the file may lack frames held */
	size_t used;		/* bytes in @buf, not yet written */
	uint8_t buf[65536];	/* one write() per feed, not per frame */
};

int dlib_spool_open(struct diamond_gw *gw, const char *state_dir)
{
	struct dlib_spool *s = calloc(1, sizeof(*s));
	struct stat sb;
	int rc;

	if (!s)
		return -ENOMEM;
	rc = dlib_make_dir(s->path, sizeof(s->path), state_dir, "spool");
	/* New names (directory, file) durable before any frame counts. */
	if (!rc)
		rc = dlib_fsync_parent(s->path);
	strncat(s->path, "/frames", sizeof(s->path) - strlen(s->path) - 1);
	s->fd = rc ? -1 : open(s->path, O_RDWR | O_CREAT | O_APPEND |
			       O_CLOEXEC, 0600);
	if (!rc && (s->fd < 0 || fstat(s->fd, &sb) < 0))
		rc = -errno;
	if (!rc)
		rc = dlib_fsync_parent(s->path);
	if (rc) {
		snprintf(gw->detail, sizeof(gw->detail), "spool %s", s->path);
		if (s->fd >= 0)
			close(s->fd);
		free(s);
		return rc;
	}
	s->bytes = (size_t)sb.st_size;
	gw->spool = s;
	return 0;
}

/* May the spool be written now? Then diamond_fence_exit() (unfence()). */
static int fence(struct diamond_gw *gw)
{
	return gw->fence ? diamond_fence_enter(gw->fence) : 0;
}

static void unfence(struct diamond_gw *gw)
{
	if (gw->fence)
		diamond_fence_exit(gw->fence);
}

/*
 * @buf to the file. On failure the bytes are not in the file (a short
 * write is cut off, so no torn frame sits before later ones) and the
 * spool is broken. 0 or -errno.
 */
static int flush(struct dlib_spool *s)
{
	size_t good = s->bytes - s->used;
	int rc = s->used ? dlib_write_all(s->fd, s->buf, s->used) : 0;

	if (rc) {
		/* A short write cut off; else unknown until the rewrite. */
		s->bytes = ftruncate(s->fd, (off_t)good) == 0 ? good : SIZE_MAX;
		s->broken = rc;
	}
	s->used = 0;
	return rc;
}

void dlib_spool_close(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;

	if (!s)
		return;
	/* After the last commit nothing is buffered; errors told then. */
	if (!fence(gw)) {
		if (!s->broken && !flush(s) && s->dirty)
			fdatasync(s->fd);
		unfence(gw);
	}
	close(s->fd);
	free(s);
	gw->spool = NULL;
}

void dlib_spool_append(struct diamond_gw *gw, const struct diamond_frame *f)
{
	struct dlib_spool *s = gw->spool;
	int n;

	/* Broken: the next commit writes every open frame anew. */
	if (!s || s->fd < 0 || s->broken)
		return;
	if (sizeof(s->buf) - s->used < DIAMOND_FRAME_HDR + (size_t)f->len) {
		if (fence(gw)) {	/* not ours now: nothing more written */
			s->bytes -= s->used;
			s->used = 0;
		} else {
			int rc = flush(s);

			unfence(gw);
			if (rc)
				return;
		}
	}
	n = diamond_frame_write(s->buf + s->used, sizeof(s->buf) - s->used, f);
	if (n > 0) {
		s->used += (size_t)n;
		s->bytes += (size_t)n;
		s->dirty = 1;
	}
}

/*
 * Replace the spool by the frames of the open epochs, crash-safely: a new
 * file, written and fsync'd, renamed over the old one, then the directory
 * fsync'd. Once renamed the new file is the spool even if the directory
 * sync fails (that is reported: the spool stays broken).
 */
static int emit_open(void *arg, int fd)
{
	const struct diamond_gw *gw = arg;
	struct dlib_ep *ep;
	int rc = 0;

	for (ep = gw->ep_tail; ep && !rc; ep = ep->prev)
		rc = dlib_ep_frames(ep, dlib_emit_fd, &fd);
	return rc;
}

static int rewrite(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;
	size_t size;
	int fd, rc = dlib_spool_replace(s->path, emit_open, gw, &fd, &size);

	if (rc)
		return rc;	/* the old file as it was */
	close(s->fd);
	s->fd = fd;
	s->bytes = size;
	s->used = 0;	/* what @buf held is in the open epochs */
	s->dirty = 0;
	s->broken = dlib_fsync_parent(s->path);
	return s->broken;
}

int dlib_spool_rewrite(struct diamond_gw *gw)
{
	int rc = fence(gw);

	if (!rc) {
		rc = rewrite(gw);
		unfence(gw);
	}
	return rc;
}

/* Nothing open: an empty spool. 0 or -errno (then broken). */
static int empty(struct dlib_spool *s)
{
	s->bytes -= s->used;
	s->used = 0;
	s->dirty = 0;
	if (!s->bytes && !s->broken)
		return 0;
	if (ftruncate(s->fd, 0) < 0 || fdatasync(s->fd) < 0) {
		s->broken = -errno;
		return s->broken;
	}
	s->bytes = 0;
	s->broken = 0;
	return 0;
}

static int commit(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;

	/* Epochs that opened and closed within this feed: no disk. */
	if (!gw->stats.open_epochs)
		return empty(s) ? dlib_gw_fail(gw, s->broken, "spool", s->path) : 0;
	if (!s->broken)
		flush(s);
	/* Outgrown, or broken: anew from memory (fdatasync if that fails). */
	if ((s->broken || s->bytes > 2 * gw->stats.buffered + SPOOL_SLACK) &&
	    rewrite(gw) == 0)
		return 0;
	if (!s->broken && s->dirty && fdatasync(s->fd) < 0) {
		s->broken = -errno;
		/* The pages may be gone although clean: rewrite them now. */
		if (rewrite(gw) == 0)
			return 0;
	}
	if (s->broken)
		return dlib_gw_fail(gw, s->broken, "spool", s->path);
	s->dirty = 0;
	return 0;
}

int dlib_spool_commit(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;
	int rc;

	if (!s || s->fd < 0)
		return 0;
	rc = fence(gw);
	if (rc) {	/* the shard is another's: drop what is held */
		s->bytes -= s->used;
		s->used = 0;
		s->dirty = 0;
		return dlib_gw_fail(gw, rc, "spool", s->path);
	}
	rc = commit(gw);
	unfence(gw);
	return rc;
}

int dlib_spool_reader(const struct diamond_gw *gw)
{
	int fd = open(gw->spool->path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

const char *dlib_spool_path(const struct diamond_gw *gw)
{
	return gw->spool ? gw->spool->path : "";
}
