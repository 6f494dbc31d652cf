// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Frame files: the spool and the quarantine keep frames as plain frame
 * files (ciphertext is not secret), each in a directory of the state
 * directory of its own.
 */
#include <errno.h>
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
