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
		"usage: diamondctl seal --blob DEV.bin [--ad HEX] [--flush N]\n\n"
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

int cmd_seal(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "blob", required_argument, NULL, 'b' },
		{ "ad", required_argument, NULL, 'a' },
		{ "flush", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static uint8_t frame[DIAMOND_FRAME_MAX + DIAMOND_MAX_AD];
	uint8_t ad[DIAMOND_MAX_AD];
	const char *blob = NULL;
	struct diamond_sender *s;
	uint64_t flush = 0, in_epoch = 0, lineno = 0;
	long adlen = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int c, n, full, status = 0;

	if (has_packet(argc, argv))
		return cmd_seal_packet(argc, argv);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': blob = optarg; break;
		case 'a':
			adlen = parse_hex(optarg, ad, sizeof(ad));
			if (adlen < 0) {
				err_msg("--ad: not hex of at most 1024 bytes");
				return EXIT_USAGE;
			}
			break;
		case 'f':
			if (parse_u64(optarg, 65535, &flush) || !flush) {
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
	n = diamond_sender_open(&s, blob);
	if (n == -EBUSY) {
		err_msg("%s: another seal is running on this blob (it holds "
			"%s.lock); two sealers would reuse keys", blob, blob);
		return EXIT_SETUP;
	}
	if (n) {
		err_msg("%s: %s", blob, diamond_strerror(n));
		return EXIT_SETUP;
	}
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		/* Refused before sealing: the line costs nothing, and the
		 * lines after it still go out. */
		if (len > DIAMOND_MAX_RECORD) {
			err_msg("line %llu: %zd bytes, over the %d-byte record "
				"limit: skipped", (unsigned long long)lineno,
				len, DIAMOND_MAX_RECORD);
			status = EXIT_REJECTED;
			continue;
		}
		n = diamond_sender_seal(s, (uint8_t *)line, (size_t)len, frame,
					&full);
		if (n < 0) {
			err_msg("line %llu: %s", (unsigned long long)lineno,
				diamond_strerror(n));
			status = EXIT_SETUP;
			break;
		}
		if (emit(frame, n)) {
			status = EXIT_SETUP;
			break;
		}
		n = diamond_sender_close_group(s, ad, (size_t)adlen, frame);
		if (emit_close(n, "group", frame)) {
			status = EXIT_SETUP;
			break;
		}
		in_epoch++;
		if (full || (flush && in_epoch >= flush)) {
			n = diamond_sender_close_epoch(s, ad, (size_t)adlen, frame);
			if (emit_close(n, "epoch", frame)) {
				status = EXIT_SETUP;
				break;
			}
			note(2, "epoch closed: %llu records",
			     (unsigned long long)in_epoch);
			in_epoch = 0;
		}
	}
	/* Also after a bad record: what was sealed before it still goes out. */
	n = diamond_sender_close_epoch(s, ad, (size_t)adlen, frame);
	if (emit_close(n, "epoch", frame))
		status = status ? status : EXIT_SETUP;
	free(line);
	diamond_sender_free(s);
	return status;
}
