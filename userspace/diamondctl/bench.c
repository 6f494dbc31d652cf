// SPDX-License-Identifier: GPL-2.0 OR MIT
/* diamondctl bench: placeholder until the benchmark lands. */
#include <stdio.h>

#include "diamondctl.h"

int cmd_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	err_msg("bench: not implemented yet");
	return EXIT_USAGE;
}
