// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The spool, @state_dir/spool/frames: every frame taken into an open epoch
 * is appended, and the file is fsync'd once per feed call, so a restarted
 * gateway (diamond_gw_resume()) continues the epochs it had half received.
 * Ciphertext is not secret, so the spool is a plain frame file. It only
 * grows until it holds twice what is open (plus 1 MiB); then it is
 * rewritten from the open epochs in memory, so its size stays within
 * 2 * max_buffer + 1 MiB. With nothing open it is truncated.
 *
 * In a shared shard directory (DIAMOND_GW_SHARED) every write, fsync,
 * truncate and rewrite is made under the gateway's fence (fence.c): a
 * holder that lost the shard appends nothing to its new holder's spool.
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
	int dirty;		/* appended since the last fsync */
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
	strncat(s->path, "/frames", sizeof(s->path) - strlen(s->path) - 1);
	s->fd = rc ? -1 : open(s->path, O_RDWR | O_CREAT | O_APPEND |
			       O_CLOEXEC, 0600);
	if (!rc && (s->fd < 0 || fstat(s->fd, &sb) < 0))
		rc = -errno;
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

static void flush(struct dlib_spool *s)
{
	if (s->used && dlib_write_all(s->fd, s->buf, s->used) < 0)
		s->bytes -= s->used;	/* lost: not in the file */
	s->used = 0;
}

void dlib_spool_close(struct diamond_gw *gw)
{
	if (!gw->spool)
		return;
	if (!fence(gw)) {
		flush(gw->spool);
		if (gw->spool->dirty)
			fdatasync(gw->spool->fd);
		unfence(gw);
	}
	close(gw->spool->fd);
	free(gw->spool);
	gw->spool = NULL;
}

void dlib_spool_append(struct diamond_gw *gw, const struct diamond_frame *f)
{
	struct dlib_spool *s = gw->spool;
	int n;

	if (!s || s->fd < 0)
		return;
	if (sizeof(s->buf) - s->used < DIAMOND_FRAME_HDR + (size_t)f->len) {
		if (fence(gw)) {	/* not ours now: nothing more written */
			s->bytes -= s->used;
			s->used = 0;
		} else {
			flush(s);
			unfence(gw);
		}
	}
	n = diamond_frame_write(s->buf + s->used, sizeof(s->buf) - s->used, f);
	if (n > 0) {
		s->used += (size_t)n;
		s->bytes += (size_t)n;
		s->dirty = 1;
	}
}

/* Replace the spool by the frames of the open epochs, crash-safely. */
static int rewrite(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;
	struct dlib_ep *ep;
	char tmp[4200];
	struct stat sb;
	int fd, rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", s->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	for (ep = gw->ep_tail; ep && !rc; ep = ep->prev)
		rc = dlib_ep_frames(ep, dlib_emit_fd, &fd);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (!rc && rename(tmp, s->path) < 0)
		rc = -errno;
	if (!rc)
		rc = dlib_fsync_parent(s->path);
	if (rc) {
		close(fd);
		unlink(tmp);
		return rc;
	}
	close(s->fd);
	/* The renamed file, now for appending; keep @fd if that fails. */
	s->fd = open(s->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (s->fd < 0) {
		s->fd = fd;
	} else {
		close(fd);
	}
	s->bytes = fstat(s->fd, &sb) == 0 ? (size_t)sb.st_size : 0;
	s->dirty = 0;
	return 0;
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

static void commit(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;

	if (!gw->stats.open_epochs) {
		/* Epochs that opened and closed within this feed: no disk. */
		s->bytes -= s->used;
		s->used = 0;
		if (s->bytes && ftruncate(s->fd, 0) == 0) {
			s->bytes = 0;
			fdatasync(s->fd);
		}
		s->dirty = 0;
		return;
	}
	flush(s);
	if (s->bytes > 2 * gw->stats.buffered + SPOOL_SLACK) {
		if (rewrite(gw) == 0)
			return;
		fdatasync(s->fd);
	} else if (s->dirty) {
		fdatasync(s->fd);
	}
	s->dirty = 0;
}

void dlib_spool_commit(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;

	if (!s || s->fd < 0)
		return;
	if (fence(gw)) {	/* the shard is another's: drop what is held */
		s->bytes -= s->used;
		s->used = 0;
		s->dirty = 0;
		return;
	}
	commit(gw);
	unfence(gw);
}

int dlib_spool_reader(const struct diamond_gw *gw)
{
	int fd = open(gw->spool->path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}
