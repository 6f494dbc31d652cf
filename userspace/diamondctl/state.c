// SPDX-License-Identifier: GPL-2.0 OR MIT
/* diamondctl state: a device's gateway state (epoch, suite, agg, b). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "diamondctl.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl state --state-dir DIR --device ID\n\n"
		"Show the gateway's state for device ID: the next epoch it will\n"
		"accept (every epoch below it is verified or lost) and the parameters.\n"
		"Output: device=ID epoch=E index=0 suite=S agg=A b=B\n\n"
		"  --state-dir DIR  the gateway's state directory\n"
		"  --device ID      the device\n"
		"  -h, --help       this text\n");
}

int cmd_state(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'D' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *dir = NULL;
	struct diamond_store *store;
	struct diamond_params p;
	uint8_t blob[DIAMOND_BLOB_MAX];
	char path[4096];
	uint64_t id = UINT64_MAX;
	size_t len;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'D': dir = optarg; break;
		case 'd':
			if (parse_u64(optarg, UINT32_MAX, &id)) {
				err_msg("bad device id '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (!dir || id == UINT64_MAX || optind != argc) {
		help(stderr);
		return EXIT_USAGE;
	}
	rc = diamond_store_open(&store, dir, 0);
	if (rc) {
		err_msg("state dir %s: %s", dir, diamond_strerror(rc));
		return EXIT_SETUP;
	}
	diamond_store_path(store, (uint32_t)id, path, sizeof(path));
	rc = diamond_store_load(store, (uint32_t)id, blob, &len);
	diamond_store_close(store);
	if (!rc)
		rc = diamond_blob_info(blob, len, &p);
	explicit_bzero(blob, sizeof(blob));
	if (rc) {
		err_msg("device %u: %s: %s", (unsigned int)id, path,
			diamond_strerror(rc));
		return EXIT_SETUP;
	}
	printf("device=%u epoch=%llu index=0 suite=%u agg=%s b=%u\n",
	       (unsigned int)p.device_id, (unsigned long long)p.epoch,
	       p.suite, agg_name(p.agg), (unsigned int)p.b);
	return 0;
}
