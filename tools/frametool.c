// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * frametool: hostile and disordered input for the gateway's tests and
 * benchmarks (selftests/userspace/ingest.sh, Documentation/userspace.rst).
 *
 *   frametool pick FILE SPEC...          frames of FILE in the order given
 *   frametool list FILE                  one line per frame: number, type,
 *        epoch, index, payload length
 *   frametool send ADDR PORT FILE GROUP...  one datagram per GROUP
 *   frametool flood ADDR PORT FILE JUNK [RATE]  FILE's epochs, one datagram
 *        each, spread evenly among JUNK junk datagrams; RATE datagrams/s
 *        (default: as fast as sendto() goes)
 *   frametool states DIR N B             gateway states for devices 1..N
 *   frametool mix N B EPOCHS IDX LEN TAG frames to fill open epochs: for
 *        each epoch and device 1..N, record frames at index IDX (or LO-HI)
 *        of LEN bytes, then a tag frame (count B, 1024 B of AD) if TAG is 1
 *   frametool rss CMD [ARG...]           run CMD, print its max RSS (KiB)
 *   frametool scrape PATH                print what a unix socket sends
 *
 * A SPEC is a frame number of FILE (0-based) or L, a 20-byte record header
 * claiming 4096 payload bytes it does not have; N~ is frame N with the
 * last payload byte's low bit flipped (a damaged frame), N@E frame N with
 * its epoch field set to E (a frame moved to another epoch), N#I frame N
 * with its index field set to I (a group tag moved to another group),
 * N%S frame N with its suite byte set to S; modifiers combine (N@E#I:
 * both fields set); a GROUP is
 * SPECs joined by commas.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <diamond/libdiamond.h>

#define MAX_FRAMES	(1u << 20)

static uint8_t *data;
static size_t frame_off[MAX_FRAMES], frame_len[MAX_FRAMES], nframes;

static void die(const char *what)
{
	fprintf(stderr, "frametool: %s\n", what);
	exit(2);
}

/* Load FILE and find its frames. */
static void load(const char *path)
{
	struct diamond_frame f;
	size_t pos = 0, size;
	FILE *fp = fopen(path, "rb");
	struct stat sb;
	int n;

	if (!fp || fstat(fileno(fp), &sb) < 0)
		die("cannot open the frame file");
	size = (size_t)sb.st_size;
	data = malloc(size + 1);
	if (!data || fread(data, 1, size, fp) != size)
		die("cannot read the frame file");
	fclose(fp);
	while (pos < size) {
		if (nframes == MAX_FRAMES)
			die("more frames than frametool takes (2^20)");
		n = diamond_frame_parse(&f, data + pos, size - pos);
		if (n <= 0)
			die("the frame file holds something that is not a frame");
		frame_off[nframes] = pos;
		frame_len[nframes++] = (size_t)n;
		pos += (size_t)n;
	}
}

/* Append SPEC to @out; the new length. */
static size_t put_spec(uint8_t *out, size_t len, const char *spec)
{
	unsigned long long e;
	unsigned long i;
	char *end;
	int b;

	if (!strcmp(spec, "L")) {
		memcpy(out + len, data, DIAMOND_FRAME_HDR);
		out[len + 2] = DIAMOND_FRAME_RECORD;
		out[len + 18] = 0x00;	/* L = 4096, none of it present */
		out[len + 19] = 0x10;
		return len + DIAMOND_FRAME_HDR;
	}
	i = strtoul(spec, &end, 10);
	if (i >= nframes)
		die("frame number out of range");
	memcpy(out + len, data + frame_off[i], frame_len[i]);
	while (*end) {		/* modifiers combine: N@E#I%S~ */
		if (*end == '~') {
			if (frame_len[i] > DIAMOND_FRAME_HDR)
				out[len + frame_len[i] - 1] ^= 1;
			end++;
		} else if (*end == '@') {	/* le64 epoch at offset 8 */
			e = strtoull(end + 1, &end, 10);
			for (b = 0; b < 8; b++)
				out[len + 8 + b] = (uint8_t)(e >> (8 * b));
		} else if (*end == '%') {	/* the suite byte, offset 3 */
			out[len + 3] = (uint8_t)strtoul(end + 1, &end, 10);
		} else if (*end == '#') {	/* le16 index at offset 16 */
			e = strtoull(end + 1, &end, 10);
			for (b = 0; b < 2; b++)
				out[len + 16 + b] = (uint8_t)(e >> (8 * b));
		} else {
			die("bad frame modifier");
		}
	}
	return len + frame_len[i];
}

static int cmd_list(int argc, char **argv)
{
	struct diamond_frame f;
	size_t i;

	(void)argc;
	load(argv[0]);
	for (i = 0; i < nframes; i++) {
		diamond_frame_parse(&f, data + frame_off[i], frame_len[i]);
		printf("%zu %u %llu %u %u\n", i, (unsigned int)f.type,
		       (unsigned long long)f.epoch, (unsigned int)f.index,
		       (unsigned int)f.len);
	}
	return 0;
}

static int cmd_pick(int argc, char **argv)
{
	static uint8_t out[DIAMOND_FRAME_MAX + DIAMOND_MAX_AD];
	int i;

	load(argv[0]);
	for (i = 1; i < argc; i++)
		fwrite(out, 1, put_spec(out, 0, argv[i]), stdout);
	return 0;
}

static int udp_socket(const char *addr, const char *port,
		      struct sockaddr_storage *sa, socklen_t *salen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai;
	int fd;

	if (getaddrinfo(addr, port, &hints, &ai))
		die("bad address or port");
	fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	memcpy(sa, ai->ai_addr, ai->ai_addrlen);
	*salen = ai->ai_addrlen;
	freeaddrinfo(ai);
	if (fd < 0)
		die("socket");
	return fd;
}

/* Send one datagram; wait out a full socket buffer rather than drop. */
static void send_dgram(int fd, const void *p, size_t len,
		       const struct sockaddr_storage *sa, socklen_t salen)
{
	while (sendto(fd, p, len, 0, (const struct sockaddr *)sa, salen) < 0)
		if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
			die("sendto");
}

static int cmd_send(int argc, char **argv)
{
	static uint8_t out[65536];
	struct sockaddr_storage sa;
	socklen_t salen;
	char *spec, *save;
	size_t len;
	int i, fd = udp_socket(argv[0], argv[1], &sa, &salen);

	load(argv[2]);
	for (i = 3; i < argc; i++) {
		len = 0;
		for (spec = strtok_r(argv[i], ",", &save); spec;
		     spec = strtok_r(NULL, ",", &save)) {
			if (len + DIAMOND_FRAME_MAX + DIAMOND_MAX_AD > sizeof(out))
				die("datagram too large");
			len = put_spec(out, len, spec);
		}
		send_dgram(fd, out, len, &sa, salen);
	}
	close(fd);
	return 0;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * One junk datagram, four kinds in turn: random bytes; a lying header; a
 * well-formed record frame of a random device; a well-formed record frame
 * of FILE's device at a random epoch and index.
 */
static size_t junk(uint8_t *out, uint64_t k)
{
	struct diamond_frame f = { .type = DIAMOND_FRAME_RECORD,
				   .suite = data[3] };
	uint8_t payload[256];
	size_t i, len = 1 + rnd() % 1400;

	switch (k % 4) {
	case 0:
		for (i = 0; i < len; i++)
			out[i] = (uint8_t)rnd();
		return len;
	case 1:
		return put_spec(out, 0, "L");
	case 2:
		f.device_id = (uint32_t)rnd();
		break;
	default:
		memcpy(&f.device_id, data + 4, 4);	/* little-endian host */
		break;
	}
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)rnd();
	f.epoch = rnd() & 0xffffffffu;
	f.index = (uint16_t)rnd();
	f.len = (uint16_t)(rnd() % sizeof(payload));
	f.payload = payload;
	return (size_t)diamond_frame_write(out, 65536, &f);
}

/* Wait until datagram @n is due at @rate per second (0: no wait). */
static void pace(const struct timespec *t0, uint64_t n, double rate)
{
	struct timespec t;

	if (rate <= 0)
		return;
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((double)(t.tv_sec - t0->tv_sec) +
	       (double)(t.tv_nsec - t0->tv_nsec) / 1e9 < (double)n / rate);
}

static int cmd_flood(int argc, char **argv)
{
	static uint8_t out[65536];
	struct sockaddr_storage sa;
	socklen_t salen;
	struct timespec t0, t1;
	uint64_t njunk = strtoull(argv[3], NULL, 10), sent = 0, nep = 0, k;
	double rate = argc > 4 ? strtod(argv[4], NULL) : 0;
	size_t i, len, first = 0;
	int fd = udp_socket(argv[0], argv[1], &sa, &salen);

	load(argv[2]);
	for (i = 0; i < nframes; i++)
		nep += data[frame_off[i] + 2] == DIAMOND_FRAME_TAG;
	if (!nep)
		die("no epochs in the frame file");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < njunk; k++) {
		pace(&t0, sent, rate);
		/* Epochs spread evenly: one after every njunk/nep junk. */
		if (first < nframes && k % (njunk / nep ? njunk / nep : 1) == 0) {
			len = 0;
			do {
				memcpy(out + len, data + frame_off[first],
				       frame_len[first]);
				len += frame_len[first];
			} while (data[frame_off[first++] + 2] != DIAMOND_FRAME_TAG);
			send_dgram(fd, out, len, &sa, salen);
			sent++;
			pace(&t0, sent, rate);
		}
		send_dgram(fd, out, junk(out, k), &sa, salen);
		sent++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "frametool: %llu datagrams (%llu junk) in %.3f s\n",
		(unsigned long long)sent, (unsigned long long)njunk,
		(double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	close(fd);
	return first < nframes ? 1 : 0;
}

static int cmd_states(int argc, char **argv)
{
	struct diamond_params p = { .suite = 2, .agg = 0 };
	struct diamond_store *st;
	uint8_t root[DIAMOND_ROOT_SIZE] = { 1 }, blob[DIAMOND_BLOB_MAX];
	uint32_t n = (uint32_t)strtoul(argv[1], NULL, 10), i;
	size_t len;

	(void)argc;
	p.b = (uint32_t)strtoul(argv[2], NULL, 10);
	if (diamond_store_open(&st, argv[0], DIAMOND_STORE_CREATE))
		die("cannot open the state directory");
	for (i = 1; i <= n; i++) {
		p.device_id = i;
		if (diamond_provision(root, &p, blob, &len) ||
		    diamond_store_create(st, blob, len))
			die("cannot provision");
	}
	diamond_store_close(st);
	return 0;
}

static int cmd_mix(int argc, char **argv)
{
	static uint8_t payload[DIAMOND_MAX_RECORD + DIAMOND_MAX_AD], out[8192];
	struct diamond_frame f = { .suite = 2 };
	uint32_t n = (uint32_t)strtoul(argv[0], NULL, 10), d;
	uint32_t b = (uint32_t)strtoul(argv[1], NULL, 10);
	uint64_t epochs = strtoull(argv[2], NULL, 10), e;
	int tag = atoi(argv[5]);
	char *end;
	unsigned long lo = strtoul(argv[3], &end, 10), hi = lo, j;

	(void)argc;
	if (*end == '-')	/* IDX may be a range LO-HI */
		hi = strtoul(end + 1, NULL, 10);
	memset(payload, 0x5a, sizeof(payload));
	f.payload = payload;
	for (e = 0; e < epochs; e++) {
		for (d = 1; d <= n; d++) {
			f.device_id = d;
			f.epoch = e;
			f.type = DIAMOND_FRAME_RECORD;
			f.len = (uint16_t)strtoul(argv[4], NULL, 10);
			for (j = lo; j <= hi; j++) {
				f.index = (uint16_t)j;
				fwrite(out, 1, (size_t)diamond_frame_write(out, sizeof(out), &f),
				       stdout);
			}
			if (!tag)
				continue;
			f.type = DIAMOND_FRAME_TAG;
			f.index = (uint16_t)b;
			f.len = DIAMOND_MAX_AD + DIAMOND_TAG_SIZE;
			fwrite(out, 1, (size_t)diamond_frame_write(out, sizeof(out), &f),
			       stdout);
		}
	}
	return 0;
}

static int cmd_scrape(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[4096];
	ssize_t n;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	(void)argc;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[0]);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("cannot connect to the socket");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}

static int cmd_rss(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	(void)argc;
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		die("cannot run the command");
	printf("%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int args;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "pick", 1, cmd_pick }, { "list", 1, cmd_list },
		{ "send", 3, cmd_send },
		{ "flood", 4, cmd_flood }, { "states", 3, cmd_states },
		{ "mix", 6, cmd_mix }, { "rss", 1, cmd_rss },
		{ "scrape", 1, cmd_scrape },
	};
	size_t i;

	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name) && argc - 2 >= cmds[i].args)
			return cmds[i].fn(argc - 2, argv + 2);
	fprintf(stderr, "usage: see the comment at the top of tools/frametool.c\n");
	return 2;
}
