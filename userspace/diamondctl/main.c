// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl: provisioning, host sender and gateway for Diamond
 * (userspace/diamondctl/diamondctl.1, Documentation/userspace.rst).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "diamondctl.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *what;
} cmds[] = {
	{ "keygen", cmd_keygen, "make a 32-byte root secret" },
	{ "provision", cmd_provision, "derive a device blob and its gateway state" },
	{ "seal", cmd_seal, "host sender: telemetry lines in, frames out" },
	{ "open", cmd_open, "gateway: frames in, verified records out as JSON" },
	{ "radio", cmd_radio, "packet mode: a device's address on the air" },
#ifndef DIAMONDCTL_NO_MQTT
	{ "forward", cmd_forward, "radio side of a fleet: frames to an MQTT broker" },
#endif
	{ "state", cmd_state, "show, export or import a device's gateway state" },
	{ "bench", cmd_bench, "throughput of open (kernel and software)" },
	{ "keys", cmd_keys, "custody: load device keys into the kernel (root)" },
};

#ifndef DIAMONDCTL_VERSION
#define DIAMONDCTL_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: diamondctl [-q|-v] [--json-errors] COMMAND [OPTIONS]\n"
		"       diamondctl --version | --help   (COMMAND --help for its options)\n\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].what);
	fprintf(f, "\n  -q             quiet: errors only\n"
		"  -v             verbose: say what is done (repeat for more)\n"
		"  --json-errors  each error as one JSON line on stderr\n"
		"  --version      print the version\n");
}

/* Global options before the command; the index of the command, or < 0. */
static int global_options(int argc, char **argv, int *json)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q"))
			verbosity = 0;
		else if (!strcmp(argv[i], "-v"))
			verbosity++;
		else if (!strcmp(argv[i], "--json-errors"))
			*json = 1;
		else if (!strcmp(argv[i], "--version")) {
			printf("diamondctl %s (key blob version %d, spec "
			       "Documentation/spec.rst)\n", DIAMONDCTL_VERSION,
			       DMD_BLOB2_VERSION);
			return -1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return -1;
		} else {
			err_msg("unknown option '%s'", argv[i]);
			usage(stderr);
			return -2;
		}
	}
	return i;
}

int main(int argc, char **argv)
{
	int json = 0, c;
	size_t i;

	c = global_options(argc, argv, &json);
	if (c < 0)
		return c == -1 ? 0 : EXIT_USAGE;
	if (c >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[c], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[c], cmds[i].name))
			continue;
		if (json)
			set_json_errors(cmds[i].name);
		optind = 1;
		return cmds[i].fn(argc - c, argv + c);
	}
	if (json)
		set_json_errors("diamondctl");
	err_msg("unknown command '%s'", argv[c]);
	usage(stderr);
	return EXIT_USAGE;
}
