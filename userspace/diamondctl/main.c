// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl: provisioning, host sender and gateway for Diamond
 * (userspace/diamondctl/diamondctl.1, Documentation/userspace.rst).
 */
#define _GNU_SOURCE
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
	{ "state", cmd_state, "show a device's gateway state" },
	{ "bench", cmd_bench, "throughput of open (kernel and software)" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: diamondctl COMMAND [OPTIONS]   (COMMAND --help for its options)\n\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].what);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	err_msg("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
