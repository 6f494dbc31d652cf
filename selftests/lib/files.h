/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Small whole-file helpers of the userspace unit tests. */
#ifndef SELFTESTS_FILES_H
#define SELFTESTS_FILES_H

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

/* Up to @size bytes of @path into @buf: the count, or -1. */
static inline int file_bytes(const char *path, uint8_t *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size);
	close(fd);
	return (int)n;
}

/* @path replaced by @len bytes of @buf (mode 0600): 0 or -1. */
static inline int put_bytes(const char *path, const uint8_t *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

#endif
