// SPDX-License-Identifier: GPL-2.0 OR MIT
/* diamondctl keygen -o ROOT: a root secret from getrandom(2). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "diamondctl.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl keygen -o ROOT\n\n"
		"Write a 32-byte root secret from getrandom(2) to ROOT (mode 0600),\n"
		"and its empty provisioning ledger ROOT.generations. An existing\n"
		"ROOT is never overwritten. Keep ROOT and its ledger together and\n"
		"offline: ROOT recomputes every device key.\n\n"
		"  -o, --output ROOT   the file to create\n"
		"  -h, --help          this text\n");
}

int cmd_keygen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint8_t root[DIAMOND_ROOT_SIZE];
	const char *out = NULL;
	char ledger[4200];
	const char *paths[2] = { NULL, ledger };
	const void *data[2] = { root, "" };
	size_t lens[2] = { sizeof(root), 0 };
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (!out || optind != argc) {
		help(stderr);
		return EXIT_USAGE;
	}
	paths[0] = out;
	rc = random_bytes(root, sizeof(root));
	if (rc) {
		err_msg("getrandom: %s", strerror(-rc));
		return EXIT_SETUP;
	}
	ledger_path(out, ledger, sizeof(ledger));
	rc = write_new_files(paths, data, lens, 2, 0600);
	explicit_bzero(root, sizeof(root));
	if (rc) {
		err_msg("%s: %s", out, rc == -EEXIST ?
			"exists, refusing to overwrite a root secret" :
			strerror(-rc));
		return EXIT_SETUP;
	}
	return 0;
}
