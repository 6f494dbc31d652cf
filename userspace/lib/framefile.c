// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Frame files: the spool and the quarantine keep frames as plain frame
 * files (ciphertext is not secret), each in a directory of the state
 * directory of its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

int dlib_write_all(int fd, const uint8_t *p, size_t len)
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
int dlib_emit_fd(void *arg, const struct diamond_frame *f)
{
	uint8_t buf[DIAMOND_FRAME_HDR + DIAMOND_MAX_RECORD + DIAMOND_TAG_SIZE];
	int n = diamond_frame_write(buf, sizeof(buf), f);

	return n < 0 ? n : dlib_write_all(*(int *)arg, buf, (size_t)n);
}

int dlib_make_dir(char *out, size_t size, const char *state_dir,
		  const char *name)
{
	snprintf(out, size, "%s/%s", state_dir, name);
	if (mkdir(out, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int dlib_spool_replace(const char *path, int (*emit)(void *arg, int fd),
		       void *arg, int *fd_out, size_t *size)
{
	char tmp[4200];
	struct stat sb;
	int fd, rc;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	rc = emit(arg, fd);
	if (!rc && (fsync(fd) < 0 || fstat(fd, &sb) < 0))
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc) {
		close(fd);
		unlink(tmp);
		return rc;	/* the old file as it was */
	}
	*fd_out = fd;
	*size = (size_t)sb.st_size;
	return 0;
}
