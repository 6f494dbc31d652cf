// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the state-file parser. The first byte picks a device
 * of the fixture, the rest is its state file ("<id>.state": blob and, for
 * a grouped device, a cursor). It is loaded as a blob and as a cursor, then
 * a software gateway opens two genuine epochs of that device with it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

#include "fixture.h"

static uint8_t stream[FX_DEVICES][8192];
static size_t slen[FX_DEVICES];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uint32_t id;

	(void)argc;
	(void)argv;
	for (id = 1; id <= FX_DEVICES; id++)
		slen[id - 1] = fx_seal(id, 2, 8, 3, stream[id - 1],
				       sizeof(stream[0]));
	return 0;
}

static void parse(uint32_t id)
{
	struct diamond_params p;
	struct diamond_store *store;
	struct dlib_decided dec = { 0 };
	struct dmd_receiver rx;
	struct dlib_wstate w;
	struct dmd_state st;
	uint8_t blob[DIAMOND_BLOB_MAX];
	size_t len;

	fx_params(id, &p);
	if (diamond_store_open(&store, fx_dir(), 0))
		abort();
	if (!diamond_store_load(store, id, blob, &len) &&
	    diamond_blob_info(blob, len, NULL))
		abort();	/* a loaded state is a valid blob */
	dlib_store_load_rx(store, id, &st, &rx,
			   p.group_size ? p.group_size : p.b, &dec);
	/* Custody's version 4: a loaded one is its own header's state. */
	if (!dlib_store_load_w(store, id, &w, &dec) &&
	    (w.st.device_id != id || (w.len && w.blob[4] != 1)))
		abort();
	free(dec.run);
	diamond_store_close(store);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diamond_gw_opts o = {
		.backend = DIAMOND_BACKEND_SOFTWARE, .state_dir = fx_dir(),
	};
	struct diamond_gw *gw;
	char path[4200];
	uint32_t id;

	if (!size)
		return 0;
	id = 1 + data[0] % FX_DEVICES;
	if (fx_reset(fx_dir()))
		abort();
	snprintf(path, sizeof(path), "%s/%u.state", fx_dir(), (unsigned int)id);
	if (fx_write(path, data + 1, size - 1))
		abort();
	parse(id);
	if (diamond_gw_new(&gw, &o, NULL, NULL, 0))
		abort();
	diamond_gw_feed(gw, stream[id - 1], slen[id - 1]);
	diamond_gw_finish(gw);
	diamond_gw_free(gw);
	return 0;
}
