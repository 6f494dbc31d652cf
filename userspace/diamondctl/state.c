// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl state: show a device's gateway state, and export/import
 * states for backup, restore and moving a gateway. An import only ever
 * moves a device forward (diamond_store_import), so no epoch is accepted
 * twice whatever copy is imported.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diamondctl.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl state --state-dir DIR --device ID\n"
		"       diamondctl state export --state-dir DIR [--device ID] OUTDIR\n"
		"       diamondctl state import --state-dir DIR [--advance N] BLOB...\n\n"
		"Show the gateway's state for device ID: the next epoch it will\n"
		"accept (every epoch below it is verified or lost) and the parameters.\n"
		"Output: device=ID epoch=E index=0 suite=S agg=A b=B generation=G\n\n"
		"export writes each device's state (or only ID's) as OUTDIR/ID.blob, a\n"
		"version 2 key blob (mode 0600; OUTDIR must exist, files are never\n"
		"overwritten). Stop the gateway first, or the copy may be behind it.\n\n"
		"import takes each BLOB as a device's state only if it moves the device\n"
		"forward: a newer generation, or a later epoch of the same key chain.\n"
		"An older or equal state is refused, so a stale backup can never\n"
		"reopen epochs. A device the directory does not know is taken as is:\n"
		"restoring a backup after the live state was lost needs --advance N,\n"
		"at least the number of epochs the device may have sent since the\n"
		"backup (or re-provision the device). Takes the gateway's lock.\n\n"
		"  --state-dir DIR  the gateway's state directory\n"
		"  --device ID      the device (decimal)\n"
		"  --advance N      import the state N epochs further on (N <= 2^24)\n"
		"  -h, --help       this text\n");
}

static int show(const char *dir, uint64_t id)
{
	struct diamond_store *store;
	struct diamond_params p;
	uint8_t blob[DIAMOND_BLOB_MAX];
	char path[4096];
	size_t len;
	int rc;

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
	printf("device=%u epoch=%llu index=0 suite=%u agg=%s b=%u generation=%u\n",
	       (unsigned int)p.device_id, (unsigned long long)p.epoch,
	       p.suite, agg_name(p.agg), (unsigned int)p.b, p.generation);
	return 0;
}

static int export_one(struct diamond_store *store, uint32_t id,
		      const char *out)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	char path[4200];
	size_t len;
	int rc;

	rc = diamond_store_load(store, id, blob, &len);
	snprintf(path, sizeof(path), "%s/%u.blob", out, (unsigned int)id);
	if (!rc)
		rc = write_new_file(path, blob, len, 0600);
	explicit_bzero(blob, sizeof(blob));
	if (rc)
		err_msg("device %u: %s", (unsigned int)id, diamond_strerror(rc));
	else
		note(2, "device %u -> %s", (unsigned int)id, path);
	return rc;
}

/* Every "<decimal id>.state" in @dir. */
static int export_all(struct diamond_store *store, const char *dir,
		      const char *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t id;
	char name[32];
	int failed = 0;

	if (!d) {
		err_msg("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		const char *dot = strchr(e->d_name, '.');

		if (!dot || strcmp(dot, ".state") ||
		    (size_t)(dot - e->d_name) >= sizeof(name))
			continue;
		memcpy(name, e->d_name, (size_t)(dot - e->d_name));
		name[dot - e->d_name] = 0;
		if (!parse_u64(name, UINT32_MAX, &id))
			failed |= export_one(store, (uint32_t)id, out) != 0;
	}
	closedir(d);
	return failed ? -1 : 0;
}

static int import_one(struct diamond_store *store, const char *path,
		      uint64_t advance)
{
	uint8_t blob[DIAMOND_BLOB_MAX + 1];
	long n = read_file(path, blob, sizeof(blob));
	int rc = n < 0 ? (int)n : diamond_store_import(store, blob, (size_t)n,
							 advance);

	explicit_bzero(blob, sizeof(blob));
	if (rc)
		err_msg("%s: %s", path, diamond_strerror(rc));
	else
		note(2, "%s imported", path);
	return rc;
}

int cmd_state(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'D' },
		{ "device", required_argument, NULL, 'd' },
		{ "advance", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *dir = NULL, *verb = NULL;
	struct diamond_store *store;
	uint64_t id = UINT64_MAX, advance = 0;
	int c, rc = 0, i;

	if (argc > 1 && (!strcmp(argv[1], "export") ||
			 !strcmp(argv[1], "import"))) {
		verb = argv[1];
		argc--;
		argv++;
	}
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'D': dir = optarg; break;
		case 'd':
			if (parse_u64(optarg, UINT32_MAX, &id)) {
				err_msg("bad device id '%s' (decimal, no leading zeros)",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'a':
			/* Each epoch is one PRF call: 2^24 take seconds. */
			if (parse_u64(optarg, 1u << 24, &advance)) {
				err_msg("bad --advance '%s' (0..16777216)", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (!verb) {
		if (!dir || id == UINT64_MAX || optind != argc || advance) {
			help(stderr);
			return EXIT_USAGE;
		}
		return show(dir, id);
	}
	if (!dir || (!strcmp(verb, "export") ? optind + 1 != argc || advance :
		     optind >= argc || id != UINT64_MAX)) {
		help(stderr);
		return EXIT_USAGE;
	}
	rc = diamond_store_open(&store, dir, !strcmp(verb, "import") ?
				DIAMOND_STORE_LOCK | DIAMOND_STORE_CREATE : 0);
	if (rc) {
		err_msg("state dir %s: %s", dir, rc == -EBUSY ?
			"a gateway is running on it (stop it first)" :
			diamond_strerror(rc));
		return EXIT_SETUP;
	}
	if (!strcmp(verb, "export"))
		rc = id == UINT64_MAX ? export_all(store, dir, argv[optind]) :
		     export_one(store, (uint32_t)id, argv[optind]);
	else
		for (i = optind; i < argc; i++)
			rc |= import_one(store, argv[i], advance) != 0;
	diamond_store_close(store);
	if (!rc)
		return 0;
	return !strcmp(verb, "import") ? EXIT_REJECTED : EXIT_SETUP;
}
