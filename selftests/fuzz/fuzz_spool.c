// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the spool a gateway takes up after a restart
 * (DIR/spool/frames, diamond_gw_resume()), here any bytes at all, over the
 * fixture's devices; then the end of input decides every open epoch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diamond_gw_opts o = {
		.backend = DIAMOND_BACKEND_SOFTWARE, .state_dir = fx_dir(),
		.flags = DIAMOND_GW_SPOOL | DIAMOND_GW_QUARANTINE,
		.quarantine_max = 1u << 16,
	};
	struct diamond_gw *gw;
	char path[4200];

	if (fx_reset(fx_dir()))
		abort();
	snprintf(path, sizeof(path), "%s/spool", fx_dir());
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/spool/frames", fx_dir());
	if (fx_write(path, data, size))
		abort();
	if (diamond_gw_new(&gw, &o, NULL, NULL, 0))
		abort();
	diamond_gw_resume(gw);
	diamond_gw_finish(gw);
	diamond_gw_free(gw);
	return 0;
}
