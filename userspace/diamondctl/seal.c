// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl seal: a host sender. One telemetry line on stdin is one record;
 * frames (spec section 8) go to stdout: record frames, a group tag frame
 * after each full group when the blob's group size g is below b (spec
 * section 5.1), an epoch tag frame per epoch. The blob file is updated in
 * place, crash-safely, with each epoch's reservation before the epoch is
 * used.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diamondctl.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl seal --blob DEV.bin [--ad HEX] [--flush N]\n"
		"       diamondctl seal --devices FIRST-LAST --blob 'd%%u.bin' [...]\n\n"
		"Read telemetry lines on stdin (one line = one record, without its\n"
		"newline, at most 4096 bytes; a longer line is skipped with a message\n"
		"and the exit status is 1) and write frames to stdout. An epoch is\n"
		"closed after b records, after every N records with --flush, before\n"
		"its body could pass the gateway's 1 MiB limit, and at end of input.\n"
		"A blob provisioned with --group-size G < b also gets a group tag\n"
		"frame (type 3, AD and the group's tag) after every G records of an\n"
		"epoch that the epoch goes on past.\n"
		"DEV.bin is rewritten crash-safely with the next epoch's reservation\n"
		"before each epoch's first record is sealed. A seal is exclusive: it\n"
		"holds a lock on DEV.bin.lock, and a second seal of DEV.bin fails.\n\n"
		"  --blob DEV.bin  the device key blob (from provision), updated in place\n"
		"  --ad HEX        associated data of every epoch (at most 1024 bytes)\n"
		"  --flush N       close an epoch every N records (short epochs)\n"
		"  --devices FIRST-LAST  many devices in one run: a line is \"ID RECORD\",\n"
		"                  sealed with the blob --blob names with %%u as ID;\n"
		"                  a line of another device closes the epoch of the\n"
		"                  one before (so give each device's lines together)\n"
		"  --packet        packet mode: see diamondctl seal --packet --help\n"
		"  -h, --help      this text\n");
}

static int emit(const uint8_t *frame, int n)
{
	if (fwrite(frame, 1, (size_t)n, stdout) != (size_t)n ||
	    fflush(stdout)) {
		err_msg("writing frames: %m");
		return -1;
	}
	return 0;
}

/* The tag frame a close wrote (@n bytes, 0: none due) out, or its error. */
static int emit_close(int n, const char *what, const uint8_t *frame)
{
	if (n < 0) {
		err_msg("closing %s: %s", what, diamond_strerror(n));
		return -1;
	}
	return n > 0 ? emit(frame, n) : 0;
}

/* One device's sender and what its epochs are closed by. */
struct sealer {
	struct diamond_sender *s;
	const uint8_t *ad;
	size_t adlen;
	uint64_t flush, in_epoch;
	uint32_t id;		/* --devices: the device of @s */
};

static uint8_t frame[DIAMOND_FRAME_MAX + DIAMOND_MAX_AD];

/* A sender on @blob; 0, or EXIT_SETUP after a message. */
static int sealer_open(struct sealer *z, const char *blob)
{
	int n = diamond_sender_open(&z->s, blob);

	z->in_epoch = 0;
	if (n)
		z->s = NULL;
	if (n == -EBUSY) {
		err_msg("%s: another seal is running on this blob (it holds "
			"%s.lock); two sealers would reuse keys", blob, blob);
		return EXIT_SETUP;
	}
	if (n) {
		err_msg("%s: %s", blob, diamond_strerror(n));
		return EXIT_SETUP;
	}
	return 0;
}

/* One record's frames out; 0, or an exit status after a message. */
static int seal_record(struct sealer *z, const char *rec, size_t len,
		       uint64_t lineno)
{
	int n, full;

	/* Refused before sealing: the line costs nothing, and the lines
	 * after it still go out. */
	if (len > DIAMOND_MAX_RECORD) {
		err_msg("line %llu: %zu bytes, over the %d-byte record limit: "
			"skipped", (unsigned long long)lineno, len,
			DIAMOND_MAX_RECORD);
		return EXIT_REJECTED;
	}
	n = diamond_sender_seal(z->s, (const uint8_t *)rec, len, frame, &full);
	if (n < 0) {
		err_msg("line %llu: %s", (unsigned long long)lineno,
			diamond_strerror(n));
		return EXIT_SETUP;
	}
	if (emit(frame, n))
		return EXIT_SETUP;
	n = diamond_sender_close_group(z->s, z->ad, z->adlen, frame);
	if (emit_close(n, "group", frame))
		return EXIT_SETUP;
	z->in_epoch++;
	if (!full && !(z->flush && z->in_epoch >= z->flush))
		return 0;
	n = diamond_sender_close_epoch(z->s, z->ad, z->adlen, frame);
	if (emit_close(n, "epoch", frame))
		return EXIT_SETUP;
	note(2, "epoch closed: %llu records", (unsigned long long)z->in_epoch);
	z->in_epoch = 0;
	return 0;
}

/* The open epoch closed, the sender freed; 0 or EXIT_SETUP. */
static int sealer_close(struct sealer *z)
{
	int n, rc = 0;

	if (!z->s)
		return 0;
	n = diamond_sender_close_epoch(z->s, z->ad, z->adlen, frame);
	if (emit_close(n, "epoch", frame))
		rc = EXIT_SETUP;
	diamond_sender_free(z->s);
	z->s = NULL;
	return rc;
}

/*
 * --devices: a line "ID RECORD" is RECORD sealed by device ID's blob
 * (@pat's path for ID); a run of lines of one device is one sender, and a
 * line of another device closes its epoch as the end of input would.
 */
static int seal_routed(struct sealer *z, const char *pat, uint32_t first,
		       uint32_t last, char *line, size_t len, uint64_t lineno)
{
	char *sp = memchr(line, ' ', len), path[4200];
	uint64_t id;
	int rc;

	if (sp)
		*sp = 0;
	if (!sp || parse_u64(line, UINT32_MAX, &id) || id < first || id > last) {
		err_msg("line %llu: not \"ID RECORD\" with an ID of %u-%u: "
			"skipped", (unsigned long long)lineno,
			(unsigned int)first, (unsigned int)last);
		return EXIT_REJECTED;
	}
	if (!z->s || z->id != id) {
		rc = sealer_close(z);
		id_path(path, sizeof(path), pat, (uint32_t)id);
		if (rc || (rc = sealer_open(z, path)))
			return rc;
		z->id = (uint32_t)id;
	}
	return seal_record(z, sp + 1, len - (size_t)(sp + 1 - line), lineno);
}

int cmd_seal(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "blob", required_argument, NULL, 'b' },
		{ "devices", required_argument, NULL, 'd' },
		{ "ad", required_argument, NULL, 'a' },
		{ "flush", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint8_t ad[DIAMOND_MAX_AD];
	const char *blob = NULL;
	struct sealer z = { .ad = ad };
	uint64_t lineno = 0;
	uint32_t first = 0, last = 0;
	long adlen = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int c, rc, range = 0, status = 0;

	if (has_packet(argc, argv))
		return cmd_seal_packet(argc, argv);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': blob = optarg; break;
		case 'd':
			if (parse_id_range(optarg, (uint64_t)UINT32_MAX + 1,
					   &first, &last)) {
				err_msg("--devices: FIRST-LAST, FIRST <= LAST");
				return EXIT_USAGE;
			}
			range = 1;
			break;
		case 'a':
			adlen = parse_hex(optarg, ad, sizeof(ad));
			if (adlen < 0) {
				err_msg("--ad: not hex of at most 1024 bytes");
				return EXIT_USAGE;
			}
			break;
		case 'f':
			if (parse_u64(optarg, 65535, &z.flush) || !z.flush) {
				err_msg("--flush: want 1..65535");
				return EXIT_USAGE;
			}
			break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (!blob || optind != argc) {
		help(stderr);
		return EXIT_USAGE;
	}
	if (range && !id_pattern_ok(blob)) {
		err_msg("--devices: --blob is a pattern with one %%u and no other %%");
		return EXIT_USAGE;
	}
	z.adlen = (size_t)adlen;
	if (!range && (status = sealer_open(&z, blob)))
		return status;
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		rc = range ? seal_routed(&z, blob, first, last, line,
					 (size_t)len, lineno) :
			     seal_record(&z, line, (size_t)len, lineno);
		if (rc)
			status = rc;
		if (rc == EXIT_SETUP)
			break;
	}
	/* Also after a bad record: what was sealed before it still goes out. */
	if (sealer_close(&z))
		status = status ? status : EXIT_SETUP;
	free(line);
	return status;
}
