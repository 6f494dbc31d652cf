// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open: the gateway. Frames from a file, stdin, a serial device
 * or a loopback UDP port; every epoch verified (in the kernel unless
 * --software), its new state durable, then its records written as JSON
 * lines on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include "diamondctl.h"

static volatile sig_atomic_t stop;

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl open --state-dir DIR [--software]\n"
		"                       [--input FILE | --serial DEV | --udp PORT]\n"
		"                       [--max-tfms N] [--max-skip N]\n\n"
		"Verify every epoch of the frames read (stdin by default) and write\n"
		"its records to stdout as JSON lines:\n"
		"  {\"device\":ID,\"epoch\":E,\"index\":J,\"data\":\"...\"}\n"
		"data is the record as a JSON string when it is printable ASCII, else\n"
		"hex with \"encoding\":\"hex\" added. Records are written only after the\n"
		"device's new state is durable in DIR. Rejected epochs are reported on\n"
		"stderr with device, epoch and reason; a summary line ends the run.\n\n"
		"  --state-dir DIR  the state directory (one file per device, provision)\n"
		"  --software       verify with the portable core instead of the kernel\n"
		"                   (the default needs the diamond module: modprobe diamond)\n"
		"  --input FILE     read frames from FILE\n"
		"  --serial DEV     read frames from a serial device (raw mode) until\n"
		"                   SIGINT/SIGTERM\n"
		"  --udp PORT       read datagrams on 127.0.0.1:PORT until SIGINT/SIGTERM\n"
		"  --max-tfms N     kernel tfms kept open at once, LRU (default 256)\n"
		"  --max-skip N     lost epochs a device may skip (default 4096)\n"
		"  -h, --help       this text\n\n"
		"Exit status: 0; 1 an epoch or frame was rejected (file or stdin input);\n"
		"2 usage; 3 setup (state directory, missing kernel module, I/O).\n");
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_record(void *arg, uint32_t dev, uint64_t epoch, uint32_t index,
		      const uint8_t *data, size_t len)
{
	(void)arg;
	json_record(stdout, dev, epoch, index, data, len);
}

static void on_event(void *arg, const struct diamond_event *ev)
{
	(void)arg;
	switch (ev->kind) {
	case DIAMOND_EV_VERIFIED:
		fflush(stdout);
		break;
	case DIAMOND_EV_REJECTED:
		if (ev->err == -ENOPKG)
			err_msg("device %u epoch %llu rejected: the diamond kernel module is missing (modprobe diamond)",
				(unsigned int)ev->device_id,
				(unsigned long long)ev->epoch);
		else
			err_msg("device %u epoch %llu rejected: %s%s%s",
				(unsigned int)ev->device_id,
				(unsigned long long)ev->epoch,
				diamond_strerror(ev->err),
				ev->detail && *ev->detail ? ": " : "",
				ev->detail ? ev->detail : "");
		break;
	default:
		if (ev->err == -EILSEQ)
			err_msg("input: %u bytes without frame sync skipped",
				(unsigned int)ev->count);
		else if (ev->err == -ENODATA)
			err_msg("input: truncated frame at end of input (%u bytes)",
				(unsigned int)ev->count);
		else
			err_msg("input: malformed frame header (%s)",
				diamond_strerror(ev->err));
		break;
	}
}

static int open_udp(const char *port_s)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	uint64_t port;
	int fd;

	if (parse_u64(port_s, 65535, &port)) {
		err_msg("--udp: bad port '%s'", port_s);
		return -1;
	}
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);	/* loopback only */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err_msg("udp 127.0.0.1:%llu: %m", (unsigned long long)port);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int open_serial(const char *dev)
{
	struct termios t;
	int fd = open(dev, O_RDONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		err_msg("%s: %m", dev);
		return -1;
	}
	if (isatty(fd) && tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

int cmd_open(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'D' },
		{ "software", no_argument, NULL, 's' },
		{ "input", required_argument, NULL, 'i' },
		{ "serial", required_argument, NULL, 'S' },
		{ "udp", required_argument, NULL, 'u' },
		{ "max-tfms", required_argument, NULL, 'T' },
		{ "max-skip", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct diamond_gw_opts go = { .backend = DIAMOND_BACKEND_KERNEL };
	struct diamond_gw_cbs cbs = { .record = on_record, .event = on_event };
	const char *input = NULL, *serial = NULL, *udp = NULL;
	static uint8_t buf[65536];
	struct diamond_gw_stats st;
	struct sigaction sa = { .sa_handler = on_signal };
	struct diamond_gw *gw;
	char msg[512] = "";
	int c, fd = 0, rc, nsrc = 0, stream;
	uint64_t v;
	ssize_t n;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'D': go.state_dir = optarg; break;
		case 's': go.backend = DIAMOND_BACKEND_SOFTWARE; break;
		case 'i': input = optarg; nsrc++; break;
		case 'S': serial = optarg; nsrc++; break;
		case 'u': udp = optarg; nsrc++; break;
		case 'T':
			if (parse_u64(optarg, 1u << 20, &v) || !v)
				goto bad;
			go.max_tfms = (unsigned int)v;
			break;
		case 'K':
			if (parse_u64(optarg, UINT32_MAX, &v) || !v)
				goto bad;
			go.max_skip = (uint32_t)v;
			break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (!go.state_dir || nsrc > 1 || optind != argc) {
		if (nsrc > 1)
			err_msg("choose one of --input, --serial, --udp");
		help(stderr);
		return EXIT_USAGE;
	}
	rc = diamond_gw_new(&gw, &go, &cbs, msg, sizeof(msg));
	if (rc) {
		if (rc == -ENOPKG)
			err_msg("%s; or verify in software with --software", msg);
		else
			err_msg("%s", *msg ? msg : diamond_strerror(rc));
		return EXIT_SETUP;
	}
	stream = serial || udp;
	if (input && (fd = open(input, O_RDONLY | O_CLOEXEC)) < 0) {
		err_msg("%s: %m", input);
		diamond_gw_free(gw);
		return EXIT_SETUP;
	}
	if (serial && (fd = open_serial(serial)) < 0) {
		diamond_gw_free(gw);
		return EXIT_SETUP;
	}
	if (udp && (fd = open_udp(udp)) < 0) {
		diamond_gw_free(gw);
		return EXIT_SETUP;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = 0;
	while (!stop) {
		n = udp ? recv(fd, buf, sizeof(buf), 0) : read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_msg("reading %s: %m", input ? input : serial ? serial :
				udp ? "udp" : "stdin");
			rc = EXIT_SETUP;
			break;
		}
		if (n == 0 && !udp)
			break;
		if (diamond_gw_feed(gw, buf, (size_t)n) < 0) {
			err_msg("out of memory");
			rc = EXIT_SETUP;
			break;
		}
	}
	diamond_gw_finish(gw);
	fflush(stdout);
	diamond_gw_stats(gw, &st);
	fprintf(stderr, "diamondctl: open (%s): %llu devices, %llu epochs verified, "
		"%llu rejected, %llu records, %llu frame errors\n",
		go.backend == DIAMOND_BACKEND_KERNEL ? "kernel" : "software",
		(unsigned long long)st.devices, (unsigned long long)st.verified,
		(unsigned long long)st.rejected, (unsigned long long)st.records,
		(unsigned long long)st.frame_errors);
	diamond_gw_free(gw);
	if (fd > 0)
		close(fd);
	if (!rc && !stream && (st.rejected || st.frame_errors))
		rc = EXIT_REJECTED;
	return rc;
bad:
	err_msg("bad value '%s'", optarg);
	return EXIT_USAGE;
}
