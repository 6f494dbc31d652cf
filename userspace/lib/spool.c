// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What outlives a gateway run besides the state files:
 *
 * The spool, @state_dir/spool/frames: every frame taken into an open epoch
 * is appended, and the file is fsync'd once per feed call, so a restarted
 * gateway (diamond_gw_resume()) continues the epochs it had half received.
 * Ciphertext is not secret, so the spool is a plain frame file. It only
 * grows until it holds twice what is open (plus 1 MiB); then it is
 * rewritten from the open epochs in memory, so its size stays within
 * 2 * max_buffer + 1 MiB. With nothing open it is truncated.
 *
 * The quarantine, @state_dir/quarantine/: the frames of each rejected
 * epoch that its sender closed (a tag frame arrived; for a grouped device,
 * an epoch with a group rejected and a group tag frame held) in a frame
 * file of its own, named <seq>-<device>-<epoch>-<reason>.frames, for inspection or to
 * be fed again (diamondctl open --input). Epochs without a tag are
 * typically junk or lost and are only counted. Past quarantine_max bytes
 * or QUARANTINE_FILES files the lowest sequence numbers are removed, down
 * to 7/8 of either limit so that removal scans stay rare. Quarantine files
 * are not fsync'd: they are for inspection, a flood of rejections must
 * not become a flood of disk flushes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define SPOOL_SLACK	(1u << 20)
#define QUARANTINE_FILES	4096

struct dlib_spool {
	char path[4096];
	int fd;
	size_t bytes;		/* in the file and in @buf */
	int dirty;		/* appended since the last fsync */
	size_t used;		/* bytes in @buf, not yet written */
	uint8_t buf[65536];	/* one write() per feed, not per frame */
};

static int write_all(int fd, const uint8_t *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One frame to a file descriptor (@arg points to it). */
static int emit_fd(void *arg, const struct diamond_frame *f)
{
	uint8_t buf[DIAMOND_FRAME_HDR + DIAMOND_MAX_RECORD + DIAMOND_TAG_SIZE];
	int n = diamond_frame_write(buf, sizeof(buf), f);

	return n < 0 ? n : write_all(*(int *)arg, buf, (size_t)n);
}

static int make_dir(char *out, size_t size, const char *state_dir,
		    const char *name)
{
	snprintf(out, size, "%s/%s", state_dir, name);
	if (mkdir(out, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int dlib_spool_open(struct diamond_gw *gw, const char *state_dir)
{
	struct dlib_spool *s = calloc(1, sizeof(*s));
	struct stat sb;
	int rc;

	if (!s)
		return -ENOMEM;
	rc = make_dir(s->path, sizeof(s->path), state_dir, "spool");
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

static void flush(struct dlib_spool *s)
{
	if (s->used && write_all(s->fd, s->buf, s->used) < 0)
		s->bytes -= s->used;	/* lost: not in the file */
	s->used = 0;
}

void dlib_spool_close(struct diamond_gw *gw)
{
	if (!gw->spool)
		return;
	flush(gw->spool);
	if (gw->spool->dirty)
		fdatasync(gw->spool->fd);
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
	if (sizeof(s->buf) - s->used < DIAMOND_FRAME_HDR + (size_t)f->len)
		flush(s);
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
		rc = dlib_ep_frames(ep, emit_fd, &fd);
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

void dlib_spool_commit(struct diamond_gw *gw)
{
	struct dlib_spool *s = gw->spool;

	if (!s || s->fd < 0)
		return;
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

int diamond_gw_resume(struct diamond_gw *gw)
{
	uint8_t buf[65536];
	uint64_t before = gw->stats.bytes;
	ssize_t n;
	int fd, rc = 0;

	if (!gw->spool)
		return 0;
	fd = open(gw->spool->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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
			rc = dlib_gw_drain(gw);
	}
	close(fd);
	diamond_reader_reset(gw->rd);	/* a torn last frame: dropped */
	gw->replaying = 0;
	gw->stats.bytes = before;
	if (!rc)
		rc = gw->stats.open_epochs ? rewrite(gw) : 0;
	dlib_spool_commit(gw);
	return rc ? rc : (int)gw->stats.open_epochs;
}

/* ---- quarantine ------------------------------------------------------ */

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_qfile(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 7 && !strcmp(e->d_name + n - 7, ".frames");
}

/*
 * Sum the files and find the next sequence number; remove the oldest
 * until at most @keep bytes in @keep_files files remain.
 */
static void scan(struct diamond_gw *gw, size_t keep, size_t keep_files)
{
	struct dirent **list;
	struct stat sb;
	int i, n = scandir(gw->qdir, &list, is_qfile, by_name);
	size_t total = 0, files = n > 0 ? (size_t)n : 0;
	uint64_t seq;
	int dfd = open(gw->qdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	for (i = 0; i < n; i++)
		if (dfd >= 0 && fstatat(dfd, list[i]->d_name, &sb, 0) == 0)
			total += (size_t)sb.st_size;
	for (i = 0; i < n; i++) {
		seq = strtoull(list[i]->d_name, NULL, 10) + 1;
		if (seq > gw->qseq)
			gw->qseq = seq;
		if ((total > keep || files > keep_files) && dfd >= 0 &&
		    fstatat(dfd, list[i]->d_name, &sb, 0) == 0 &&
		    unlinkat(dfd, list[i]->d_name, 0) == 0) {
			total -= (size_t)sb.st_size;
			files--;
		}
		free(list[i]);
	}
	if (n > 0)
		free(list);
	if (dfd >= 0)
		close(dfd);
	gw->qused = total;
	gw->qfiles = files;
}

int dlib_quarantine_open(struct diamond_gw *gw, const char *state_dir,
			     size_t max)
{
	char path[4096];
	int rc = make_dir(path, sizeof(path), state_dir, "quarantine");

	if (rc) {
		snprintf(gw->detail, sizeof(gw->detail), "quarantine %s", path);
		return rc;
	}
	gw->qdir = strdup(path);
	if (!gw->qdir)
		return -ENOMEM;
	gw->qmax = max;
	scan(gw, max, QUARANTINE_FILES);
	return 0;
}

void dlib_quarantine(struct diamond_gw *gw, const struct dlib_ep *ep,
			 int err)
{
	char path[4400], tmp[4408];
	struct stat sb;
	int fd, rc;

	if (!gw->qdir || (!ep->tag.have && !ep->gtag))
		return;
	snprintf(path, sizeof(path), "%s/%010llu-%u-%llu-%s.frames", gw->qdir,
		 (unsigned long long)gw->qseq++, (unsigned int)ep->dev->id,
		 (unsigned long long)ep->epoch,
		 diamond_reason_name(diamond_reason(err)));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	rc = dlib_ep_frames(ep, emit_fd, &fd);
	if (!rc && fstat(fd, &sb) < 0)
		rc = -errno;
	close(fd);
	if (rc || rename(tmp, path) < 0) {
		unlink(tmp);
		return;
	}
	gw->qused += (size_t)sb.st_size;
	gw->qfiles++;
	if (gw->qused > gw->qmax || gw->qfiles > QUARANTINE_FILES)
		scan(gw, gw->qmax / 8 * 7, QUARANTINE_FILES / 8 * 7);
}
