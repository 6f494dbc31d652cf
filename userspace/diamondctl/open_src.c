// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open: where frames come from. A file or stdin is a byte
 * stream read to its end. A UDP socket is bound to --bind (IPv4 or IPv6,
 * loopback by default) and each datagram is parsed on its own, so a lying
 * length in one can never swallow the next. A serial port (or a FIFO) is a
 * stream that may go away: on hangup, EOF or EIO, or when its path is
 * removed or replaced, it is closed, a partial frame is dropped, and it is
 * opened again once the path is back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "open.h"

static const struct olog_ctx setup_ctx = { .what = "setup" };
static const struct olog_ctx source_ctx = { .what = "source" };

/* An IPv4 or IPv6 literal and a port: no resolver (static builds). */
static int parse_addr(const char *addr, uint16_t port,
		      struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(port);
		*len = sizeof(*v4);
		return 0;
	}
	if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(port);
		*len = sizeof(*v6);
		return 0;
	}
	return -1;
}

static int open_udp(struct src *s)
{
	struct sockaddr_storage ss;
	socklen_t len;
	uint64_t port;
	int fd, rcvbuf = 8 << 20;

	if (parse_u64(s->name, 65535, &port)) {
		olog(OLOG_SETUP, &setup_ctx, "--udp: bad port '%s'", s->name);
		return -1;
	}
	if (parse_addr(s->bind, (uint16_t)port, &ss, &len)) {
		olog(OLOG_SETUP, &setup_ctx,
		     "--bind '%s': not an IPv4 or IPv6 address", s->bind);
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	/* Room for bursts; the kernel caps it at net.core.rmem_max. */
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len) < 0) {
		olog(OLOG_SETUP, &setup_ctx, "udp %s port %s: %m", s->bind,
		     s->name);
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	s->fd = fd;
	return fd < 0 ? -1 : 0;
}

/* Non-blocking: a FIFO without a writer must not hold the loop. */
static int open_serial(const char *dev)
{
	struct termios t;
	int fd = open(dev, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (isatty(fd) && tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

int src_open(struct src *s)
{
	switch (s->kind) {
	case SRC_FD:
		s->fd = 0;
		return 0;
	case SRC_FILE:
		s->fd = open(s->name, O_RDONLY | O_CLOEXEC);
		break;
	case SRC_SERIAL:
		s->fd = open_serial(s->name);
		break;
	case SRC_UDP:
		return open_udp(s);
	}
	if (s->fd < 0) {
		olog(OLOG_SETUP, &setup_ctx, "%s: %m", s->name);
		return -1;
	}
	return 0;
}

int src_reopen(struct src *s)
{
	s->fd = open_serial(s->name);
	if (s->fd < 0)
		return 0;
	olog_info(1, &source_ctx, "%s: reconnected", s->name);
	return 1;
}

void src_close(struct src *s)
{
	if (s->fd > 0)
		close(s->fd);
	s->fd = -1;
}

/* The serial port went away: forget it and its partial frame. */
static int serial_gone(struct src *s, struct diamond_gw *gw, int err)
{
	if (err)
		olog(OLOG_SOURCE, &source_ctx, "%s: %s; reconnecting", s->name,
		     strerror(err));
	else
		olog(OLOG_SOURCE, &source_ctx, "%s: hung up; reconnecting",
		     s->name);
	src_close(s);
	diamond_gw_break(gw);
	return 1;
}

int src_check(struct src *s, struct diamond_gw *gw)
{
	struct stat a, b;

	if (s->kind != SRC_SERIAL || s->fd < 0)
		return 0;
	/* Removed or replaced (a FIFO made anew, a device re-enumerated). */
	if (stat(s->name, &a) < 0 || fstat(s->fd, &b) < 0 ||
	    a.st_ino != b.st_ino || a.st_dev != b.st_dev || a.st_rdev != b.st_rdev)
		return serial_gone(s, gw, ENODEV);
	return 0;
}

/*
 * Up to UDP_BATCH datagrams per recvmmsg() and 4 batches per wake-up: on a
 * loaded machine the syscalls, not the parsing, are what a flood costs.
 */
#define UDP_BATCH	16

int feed_failed(struct diamond_gw *gw, int rc)
{
	const char *what = diamond_gw_failure(gw);

	if (*what)
		olog(OLOG_SETUP, &setup_ctx, "cannot make durable: %s: %s; "
		     "stopping (what is open stays in the spool)", what,
		     diamond_strerror(rc));
	else
		olog(OLOG_SETUP, &setup_ctx, "%s", diamond_strerror(rc));
	return -1;
}

static int pump_udp(struct src *s, struct diamond_gw *gw)
{
	static uint8_t bufs[UDP_BATCH][65536];
	struct mmsghdr m[UDP_BATCH];
	struct iovec iov[UDP_BATCH];
	int i, n, round, rc;

	for (round = 0; round < 4; round++) {
		for (i = 0; i < UDP_BATCH; i++) {
			iov[i] = (struct iovec){ bufs[i], sizeof(bufs[i]) };
			m[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i],
							     .msg_iovlen = 1 } };
		}
		n = recvmmsg(s->fd, m, UDP_BATCH, MSG_DONTWAIT, NULL);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return 1;
		if (n < 0) {
			olog(OLOG_SETUP, &setup_ctx, "reading udp: %m");
			return -1;
		}
		for (i = 0; i < n; i++) {
			rc = diamond_gw_feed_datagram(gw, bufs[i], m[i].msg_len);
			if (rc < 0)
				return feed_failed(gw, rc);
		}
		if (n < UDP_BATCH)
			return 1;
	}
	return 1;
}

int src_pump(struct src *s, struct diamond_gw *gw, uint8_t *buf, size_t size)
{
	ssize_t n;
	int rc;

	if (s->fd < 0)
		return 1;
	if (s->kind == SRC_UDP)
		return pump_udp(s, gw);
	n = read(s->fd, buf, size);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (s->kind == SRC_SERIAL && (n == 0 || (n < 0 && (errno == EIO ||
	    errno == ENXIO || errno == ENODEV))))
		return serial_gone(s, gw, n ? errno : 0);
	if (n < 0) {
		olog(OLOG_SETUP, &setup_ctx, "reading %s: %m",
		     s->kind == SRC_FD ? "stdin" : s->name);
		return -1;
	}
	if (n == 0)
		return 0;
	rc = diamond_gw_feed(gw, buf, (size_t)n);
	return rc < 0 ? feed_failed(gw, rc) : 1;
}
