// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fence of a shared state directory (Documentation/userspace.rst,
 * "Shards and failover"): DIR/fence holds "TOKEN HOLDER\n", the highest
 * fencing token any verifier took the directory with. A verifier takes
 * the directory with a token larger than the stored one, and every write
 * it makes there afterwards happens under flock(DIR/fence) and only while
 * the stored token is still its own. The check and the write are one step
 * under the lock, so once a newer holder has written its token no write
 * of an older one lands, however late it comes: the storage, not the
 * lease on the broker, decides who may write.
 *
 * Once refused, a fence stays refused (diamond_fence_stale()): a verifier
 * that lost the directory never writes to it again through this object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "internal.h"

#define FENCE_TEXT	(24 + DIAMOND_FENCE_HOLDER_MAX)

struct diamond_fence {
	int fd;
	uint64_t token;		/* ours, once taken; 0 before */
	uint64_t newer;		/* the stored token that refused us, or 0 */
};

int diamond_fence_open(struct diamond_fence **out, const char *dir)
{
	struct diamond_fence *f;
	char *path;
	int rc = 0;

	if (!out || !dir)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f || asprintf(&path, "%s/fence", dir) < 0) {
		free(f);
		return -ENOMEM;
	}
	f->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (f->fd < 0)
		rc = -errno;
	free(path);
	if (rc) {
		free(f);
		return rc;
	}
	*out = f;
	return 0;
}

void diamond_fence_close(struct diamond_fence *f)
{
	if (!f)
		return;
	close(f->fd);
	free(f);
}

/* The stored token and holder (an empty file: 0, ""). 0 or -errno. */
static int read_locked(struct diamond_fence *f, uint64_t *token,
		       char *holder, size_t size)
{
	char buf[FENCE_TEXT + 1], who[DIAMOND_FENCE_HOLDER_MAX + 1] = "";
	ssize_t n = pread(f->fd, buf, FENCE_TEXT, 0);
	unsigned long long t = 0;

	if (n < 0)
		return -errno;
	buf[n] = 0;
	if (n && (sscanf(buf, "%llu %64s", &t, who) < 1 || !strchr(buf, '\n')))
		return -EUCLEAN;	/* not written by this file: refuse all */
	*token = t;
	if (holder && size)
		snprintf(holder, size, "%s", who);
	return 0;
}

static int lock(struct diamond_fence *f)
{
	while (flock(f->fd, LOCK_EX) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

static void unlock(struct diamond_fence *f)
{
	flock(f->fd, LOCK_UN);
}

int diamond_fence_read(struct diamond_fence *f, uint64_t *token,
		       char *holder, size_t size)
{
	int rc = lock(f);

	if (!rc)
		rc = read_locked(f, token, holder, size);
	unlock(f);
	return rc;
}

/* @token and @holder as the file's whole content, durably. */
static int write_locked(struct diamond_fence *f, uint64_t token,
			const char *holder)
{
	char buf[FENCE_TEXT + 1];
	int n = snprintf(buf, sizeof(buf), "%" PRIu64 " %s\n", token, holder);

	if (pwrite(f->fd, buf, (size_t)n, 0) != n ||
	    ftruncate(f->fd, n) < 0 || fsync(f->fd) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

int diamond_fence_take(struct diamond_fence *f, uint64_t token,
		       const char *holder)
{
	uint64_t stored;
	int rc;

	if (!f || !token || !holder || !*holder ||
	    strlen(holder) > DIAMOND_FENCE_HOLDER_MAX || strpbrk(holder, " \n"))
		return -EINVAL;
	rc = lock(f);
	if (!rc)
		rc = read_locked(f, &stored, NULL, 0);
	if (!rc && stored >= token) {
		f->newer = stored;
		rc = -ESTALE;	/* as new a holder took it already */
	}
	if (!rc)
		rc = write_locked(f, token, holder);
	unlock(f);
	if (!rc) {
		f->token = token;
		f->newer = 0;
	}
	return rc;
}

int diamond_fence_enter(struct diamond_fence *f)
{
	uint64_t stored;
	int rc;

	if (!f->token || f->newer)
		return -ESTALE;
	rc = lock(f);
	if (!rc)
		rc = read_locked(f, &stored, NULL, 0);
	if (!rc && stored != f->token) {
		f->newer = stored;
		rc = -ESTALE;
	}
	if (rc)
		unlock(f);
	return rc;
}

void diamond_fence_exit(struct diamond_fence *f)
{
	unlock(f);
}

int diamond_fence_check(struct diamond_fence *f)
{
	int rc = diamond_fence_enter(f);

	if (!rc)
		diamond_fence_exit(f);
	return rc;
}

uint64_t diamond_fence_token(const struct diamond_fence *f)
{
	return f->token;
}

uint64_t diamond_fence_stale(const struct diamond_fence *f)
{
	return f->newer;
}
