// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Crash-safe file replacement: temporary file, fsync, rename, fsync of the
 * directory. rename() is atomic, so a reader (or a restart after a crash)
 * sees the old or the new file; the file fsync makes the new contents
 * durable before the name points at them, the directory fsync makes the
 * new name durable before the caller acts on it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

void dlib_free_secret(void *p, size_t len)
{
	if (!p)
		return;
	dmd_wipe(p, len);
	free(p);
}

uint32_t dlib_crc32(const uint8_t *p, size_t len)
{
	return dmd_crc32(p, len);
}

int dlib_fsync_parent(const char *path)
{
	char *copy = strdup(path);
	int fd, rc = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		rc = -errno;
	else if (fsync(fd) < 0)
		rc = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return rc;
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int diamond_file_replace(const char *path, const void *data, size_t len,
			 unsigned int mode)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 32);
	int fd, rc;

	if (!tmp)
		return -ENOMEM;
	/* One writer per file is the caller's rule; the pid keeps a stale
	 * temporary of a crashed process from being opened by a new one. */
	snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 07777);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = write_all(fd, data, len);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc) {
		unlink(tmp);
		goto out;
	}
	rc = dlib_fsync_parent(path);
out:
	free(tmp);
	return rc;
}
