// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the key blob parsers (dmd_blob_parse, the public
 * diamond_blob_info). A blob that parses must survive a round trip
 * through the version 2 writer unchanged, and both parsers must agree.
 */
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>

#include "fixture.h"
#include "../lib/state_eq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmd_state st, again;
	struct dmd_receiver rx;
	struct diamond_params p;
	uint8_t blob[DIAMOND_BLOB_MAX];
	int ok = dmd_blob_parse(&st, data, size) == DMD_OK;

	if (ok != !diamond_blob_info(data, size, &p))
		abort();
	if (!ok)
		return 0;
	if (p.b != st.b || p.device_id != st.device_id || p.epoch != st.epoch ||
	    p.suite != st.suite || p.agg != st.agg)
		abort();
	dmd_blob2_write(blob, &st);
	if (dmd_blob_parse(&again, blob, dmd_blob2_size(st.suite)) != DMD_OK ||
	    !dmd_test_state_eq(&again, &st))
		abort();
	if (dmd_receiver_init(&rx, &st, st.group ? st.group : st.b, 0))
		abort();	/* a parsed blob is a usable receiver */
	return 0;
}
