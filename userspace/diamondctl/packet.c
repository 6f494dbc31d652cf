// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl in packet mode (spec section 14): seal --packet (a host
 * sender emitting packets), open --packet (the gateway's packet receiver,
 * JSON lines out), and radio (a device's address on the air, kept in the
 * state directory beside its key, spec 14.2). On a file or a pipe each
 * packet is written after a 1-byte length, standing in for the length the
 * PHY gives with every packet.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diamondctl.h"

static int parse_addr(const char *s, uint32_t *addr)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 16);
	if (errno || end == s || *end || v > UINT32_MAX)
		return -1;
	*addr = (uint32_t)v;
	return 0;
}

static int parse_width(const char *s, unsigned int *a)
{
	uint64_t v;

	if (parse_u64(s, 4, &v) || !v)
		return -1;
	*a = (unsigned int)v;
	return 0;
}

static void seal_help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl seal --packet --blob DEV.bin --addr-width A --addr X\n\n"
		"Packet mode (spec section 14): one telemetry line on stdin is one\n"
		"record (at most 222 bytes) in one packet; each packet goes to stdout\n"
		"after a 1-byte length (the PHY's length on a real link). Epochs hold\n"
		"b records; each epoch's reservation is written to DEV.bin first.\n\n"
		"  --blob DEV.bin     the device key blob (XOR, b a multiple of 16, no groups)\n"
		"  --addr-width A     address bytes on the air, 1..4\n"
		"  --addr X           the short address, hex, below 2^(8A)\n");
}

int cmd_seal_packet(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "packet", no_argument, NULL, 'p' },
		{ "blob", required_argument, NULL, 'b' },
		{ "addr-width", required_argument, NULL, 'w' },
		{ "addr", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint8_t pkt[1 + DIAMOND_PKT_MAX];
	struct diamond_psender *s;
	const char *blob = NULL;
	unsigned int a = 0;
	uint32_t addr = 0;
	int c, n, have = 0, status = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': break;
		case 'b': blob = optarg; break;
		case 'w': if (parse_width(optarg, &a)) goto bad; have |= 1; break;
		case 'x': if (parse_addr(optarg, &addr)) goto bad; have |= 2; break;
		case 'h': seal_help(stdout); return 0;
		default: seal_help(stderr); return EXIT_USAGE;
		}
	}
	if (!blob || have != 3 || optind != argc) {
		seal_help(stderr);
		return EXIT_USAGE;
	}
	n = diamond_psender_open(&s, blob, a, addr);
	if (n) {
		err_msg("%s: %s", blob, diamond_strerror(n));
		return EXIT_SETUP;
	}
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		if (len && line[len - 1] == '\n')
			len--;
		n = diamond_psender_seal(s, (const uint8_t *)line, (size_t)len,
					 pkt + 1);
		if (n == -EMSGSIZE) {
			err_msg("a line of %zd bytes: a record holds at most 222", len);
			status = 1;
			continue;
		}
		if (n < 0) {
			err_msg("seal: %s", diamond_strerror(n));
			status = EXIT_SETUP;
			break;
		}
		pkt[0] = (uint8_t)n;
		if (fwrite(pkt, 1, (size_t)n + 1, stdout) != (size_t)n + 1 ||
		    fflush(stdout)) {
			err_msg("writing packets: %m");
			status = EXIT_SETUP;
			break;
		}
	}
	free(line);
	diamond_psender_free(s);
	return status;
bad:
	err_msg("bad value '%s'", optarg);
	return EXIT_USAGE;
}

static void on_record(void *arg, uint32_t dev, uint64_t e, uint32_t j,
		      const uint8_t *data, size_t len)
{
	(void)arg;
	json_record(stdout, dev, e, j, data, len, NULL, 0);
}

static void on_lost(void *arg, uint32_t dev, uint64_t e, uint32_t first,
		    uint32_t count)
{
	(void)arg;
	json_lost(stdout, dev, e, first, count);
}

static void open_help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl open --packet --state-dir DIR [--software]\n"
		"                         [--max-skip N] [--max-tfms N] [FILE]\n\n"
		"Read packets, each after a 1-byte length (from seal --packet), from\n"
		"FILE or stdin (a length of 0 is no packet, as a firmware's link\n"
		"idles), and open them with the packet receiver (spec 14.5)\n"
		"for every device of DIR with a radio configuration (diamondctl\n"
		"radio). A JSON line per released record, as the stream path prints,\n"
		"and {\"event\":\"lost\",...} per run of records given up; a summary\n"
		"on stderr. Units are verified in diamond.ko (its tag grid, authsize\n"
		"12: one tfm per device, keyed at the state directory's cursor),\n"
		"which must be loaded (modprobe diamond); --software verifies with\n"
		"the portable core instead, and releases exactly the same records.\n"
		"--max-tfms N: kernel tfms kept open at once, LRU (default 16384,\n"
		"lowered to fit the descriptor limit); a device whose tfm was\n"
		"closed is keyed again from its state when a packet needs it.\n");
}

int cmd_open_packet(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "packet", no_argument, NULL, 'p' },
		{ "state-dir", required_argument, NULL, 'D' },
		{ "software", no_argument, NULL, 's' },
		{ "max-skip", required_argument, NULL, 'k' },
		{ "max-tfms", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct diamond_prx_cbs cbs = { on_record, on_lost, NULL };
	uint8_t pkt[256];
	struct diamond_prx_stats st;
	struct diamond_store *store;
	struct diamond_prx *x = NULL;
	const char *dir = NULL;
	uint64_t skip = 0, tfms = 0;
	int c, rc, sw = 0, status = 0, len;
	char msg[512] = "";
	FILE *in = stdin;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': break;
		case 'D': dir = optarg; break;
		case 's': sw = 1; break;
		case 'k':
			if (parse_u64(optarg, UINT32_MAX, &skip))
				return EXIT_USAGE;
			break;
		case 't':
			if (parse_u64(optarg, UINT32_MAX, &tfms) || !tfms)
				return EXIT_USAGE;
			break;
		case 'h': open_help(stdout); return 0;
		default: open_help(stderr); return EXIT_USAGE;
		}
	}
	if (!dir || optind + 1 < argc) {
		open_help(stderr);
		return EXIT_USAGE;
	}
	/* As the stream path: the kernel unless --software, or say why not. */
	if (!sw && diamond_kernel_probe(msg, sizeof(msg))) {
		err_msg("%s; or verify in software with --software", msg);
		return EXIT_SETUP;
	}
	if (*msg)	/* which way the kernel path goes, when not the usual */
		note(1, "%s", msg);
	if (!sw && skip > 4096) {
		err_msg("--max-skip %llu: diamond.ko takes at most 4096",
			(unsigned long long)skip);
		return EXIT_USAGE;
	}
	if (optind < argc && !(in = fopen(argv[optind], "rb"))) {
		err_msg("%s: %m", argv[optind]);
		return EXIT_SETUP;
	}
	rc = diamond_store_open(&store, dir, DIAMOND_STORE_LOCK);
	if (!rc) {
		rc = diamond_prx_new(&x, store, &cbs, (uint32_t)skip,
				     sw ? 0 : DIAMOND_PRX_KERNEL);
		if (!rc && tfms)
			rc = diamond_prx_max_tfms(x, (unsigned int)tfms);
		if (rc && x)
			diamond_prx_free(x);
		if (rc)
			diamond_store_close(store);
	}
	if (!rc && (rc = diamond_prx_add_all(x))) {
		diamond_prx_free(x);
		diamond_store_close(store);
	}
	if (rc) {
		err_msg("state dir %s: %s%s", dir, diamond_strerror(rc),
			sw ? "" : " (keying diamond.ko's tag grid with a "
			"device's state: a module without it refuses "
			"authsize 12; --software verifies without it)");
		if (in != stdin)
			fclose(in);
		return EXIT_SETUP;
	}
	while ((len = fgetc(in)) != EOF) {
		if (!len)
			continue;	/* no packet: a firmware's idle link */
		if (fread(pkt, 1, (size_t)len, in) != (size_t)len)
			break;	/* a packet cut short: the PHY never gives one */
		rc = diamond_prx_feed(x, pkt, (size_t)len);
		/* What was released is out before the next packet is read. */
		if (fflush(stdout)) {
			err_msg("writing records: %m");
			status = EXIT_SETUP;
			break;
		}
		if (rc && !diamond_prx_dropped(rc)) {
			err_msg("packet receiver: %s", diamond_strerror(rc));
			status = EXIT_SETUP;
			break;
		}
	}
	fflush(stdout);
	diamond_prx_stats(x, &st);
	note(1, "open --packet (%s): packets %llu: released %llu, lost %llu, "
	     "tries %llu (failed %llu), dropped %llu, duplicates %llu",
	     sw ? "software" : "kernel", (unsigned long long)st.packets, (unsigned long long)st.released,
	     (unsigned long long)st.lost, (unsigned long long)st.tries,
	     (unsigned long long)st.failed,
	     (unsigned long long)(st.nodev + st.format + st.range),
	     (unsigned long long)st.duplicates);
	diamond_prx_free(x);
	diamond_store_close(store);
	if (in != stdin)
		fclose(in);
	return status;
}

static int list_one(void *arg, uint32_t id, unsigned int a, uint32_t addr)
{
	(void)arg;
	printf("{\"device\":%u,\"addr_width\":%u,\"addr\":\"%0*x\"}\n",
	       (unsigned int)id, a, (int)(2 * a), (unsigned int)addr);
	return 0;
}

static void radio_help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl radio --state-dir DIR --device ID --addr-width A --addr X\n"
		"       diamondctl radio --state-dir DIR --list\n\n"
		"Put device ID in packet mode (spec 14.2): its address on the air, A\n"
		"bytes (1..4), X in hex, kept in DIR/ID.radio beside its state, not in\n"
		"its key. Addresses are prefix-free: one whose bytes begin, or are\n"
		"begun by, another device's is refused. --list prints one JSON line\n"
		"per packet-mode device.\n");
}

int cmd_radio(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'D' },
		{ "device", required_argument, NULL, 'd' },
		{ "addr-width", required_argument, NULL, 'w' },
		{ "addr", required_argument, NULL, 'x' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct diamond_store *store;
	const char *dir = NULL;
	unsigned int a = 0;
	uint32_t addr = 0;
	uint64_t id = 0;
	int c, rc, have = 0, list = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'D': dir = optarg; break;
		case 'd': if (parse_u64(optarg, UINT32_MAX, &id)) goto bad; have |= 1; break;
		case 'w': if (parse_width(optarg, &a)) goto bad; have |= 2; break;
		case 'x': if (parse_addr(optarg, &addr)) goto bad; have |= 4; break;
		case 'l': list = 1; break;
		case 'h': radio_help(stdout); return 0;
		default: radio_help(stderr); return EXIT_USAGE;
		}
	}
	if (!dir || optind != argc || (!list && have != 7) || (list && have)) {
		radio_help(stderr);
		return EXIT_USAGE;
	}
	rc = diamond_store_open(&store, dir, 0);
	if (!rc) {
		rc = list ? diamond_radio_list(store, list_one, NULL) :
		     diamond_radio_set(store, (uint32_t)id, a, addr);
		diamond_store_close(store);
	}
	if (rc) {
		err_msg("state dir %s: %s", dir, rc == -EADDRINUSE ?
			"the address begins, or is begun by, another device's" :
			rc == -EINVAL ? "a key packet mode refuses (XOR, b a "
			"multiple of 16, no groups) or a bad address" :
			diamond_strerror(rc));
		return EXIT_SETUP;
	}
	return 0;
bad:
	err_msg("bad value '%s'", optarg);
	return EXIT_USAGE;
}

/* The key rules of spec 14.2, from the parameters before a key exists. */
static const char *packet_params_refused(const struct diamond_params *p)
{
	if (p->agg != 0)
		return "packet mode needs --agg xor (spec 14.2)";
	if (p->b % 16)
		return "packet mode needs b a multiple of 16 (units of 16)";
	if (p->group_size)
		return "packet mode has no groups (the grid replaces them)";
	return NULL;
}

int provision_radio_check(const char *dir, const struct diamond_params *p,
			  unsigned int a, uint32_t addr)
{
	const char *why = packet_params_refused(p);
	struct diamond_store *store;
	int rc;

	if (why) {
		err_msg("%s", why);
		return EXIT_USAGE;
	}
	rc = diamond_store_open(&store, dir, 0);
	if (!rc) {
		rc = diamond_radio_free(store, p->device_id, a, addr);
		diamond_store_close(store);
	}
	/* No directory yet: no device has an address (provision makes it). */
	if (!rc || rc == -ENOENT)
		return 0;
	err_msg("state dir %s, device %u: packet mode: %s", dir,
		(unsigned int)p->device_id, rc == -EADDRINUSE ?
		"the address begins, or is begun by, another device's" :
		diamond_strerror(rc));
	return EXIT_SETUP;
}

int provision_radio(const char *dir, uint32_t id, unsigned int a,
		    uint32_t addr)
{
	struct diamond_store *store;
	int rc = diamond_store_open(&store, dir, 0);

	if (!rc) {
		rc = diamond_radio_set(store, id, a, addr);
		diamond_store_close(store);
	}
	if (rc)
		err_msg("state dir %s, device %u: packet mode: %s", dir,
			(unsigned int)id, rc == -EADDRINUSE ?
			"the address begins, or is begun by, another device's" :
			rc == -EINVAL ? "a key packet mode refuses (XOR, b a "
			"multiple of 16, no groups)" : diamond_strerror(rc));
	return rc;
}

int packet_width(const char *s, unsigned int *a)
{
	return parse_width(s, a);
}

int packet_addr(const char *s, uint32_t *addr)
{
	return parse_addr(s, addr);
}

/* Is "--packet" among @argv? */
int has_packet(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--packet"))
			return 1;
	return 0;
}
