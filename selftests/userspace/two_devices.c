// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Two devices for the gateway tests (two_devices.h). */
#include <string.h>

#include <diamond/core.h>
#include <diamond/libdiamond.h>

#include "two_devices.h"

const uint32_t two_devices_ids[2] = { 5, 6 };
const uint16_t two_devices_groups[2] = { 0, 2 };

int64_t two_devices_disk_epoch(const char *dir, uint32_t id)
{
	struct diamond_store *st;
	struct diamond_params p;
	uint8_t blob[DIAMOND_BLOB_MAX];
	size_t len;
	int rc;

	if (diamond_store_open(&st, dir, 0))
		return -1;
	rc = diamond_store_load(st, id, blob, &len);
	if (!rc)
		rc = diamond_blob_info(blob, len, &p);
	diamond_store_close(st);
	return rc ? -1 : (int64_t)p.epoch;
}

static void put(struct two_devices *t, int d, int e, uint8_t type, uint16_t index, uint16_t len,
		const uint8_t *p)
{
	struct diamond_frame f = { type, 2, two_devices_ids[d], (uint64_t)e, index, len, p };
	int n = diamond_frame_write(t->frames[d][e] + t->len[d][e],
				    sizeof(t->frames[d][e]) - t->len[d][e], &f);

	if (n > 0)
		t->len[d][e] += (size_t)n;
}

int two_devices_make(struct two_devices *t, const char *dir)
{
	struct diamond_store *st;
	struct dmd_sender s;
	struct dmd_state state;
	uint8_t root[32], blob[DIAMOND_BLOB_MAX], ct[16], tag[16];
	uint32_t j, n, g;
	int d, e;

	memset(root, 0x5a, sizeof(root));
	if (diamond_store_open(&st, dir, DIAMOND_STORE_CREATE))
		return -1;
	for (d = 0; d < 2; d++) {
		memset(&state, 0, sizeof(state));
		state.suite = 2;
		state.b = TWO_DEVICES_B;
		state.group = two_devices_groups[d];
		state.device_id = two_devices_ids[d];
		dmd_derive_initial(&state, root);
		dmd_blob2_write(blob, &state);
		if (diamond_store_create(st, blob, dmd_blob2_size(state.suite)))
			return -1;
		if (dmd_sender_init_groups(&s, &state, NULL, 0, 0,
					   two_devices_groups[d] ? two_devices_groups[d] : TWO_DEVICES_B))
			return -1;
		for (e = 0; e < TWO_DEVICES_EPOCHS; e++) {
			dmd_sender_begin(&s, NULL);
			for (j = 0; j < TWO_DEVICES_B; j++) {
				uint8_t m[4] = { 'r', (uint8_t)('0' + e), (uint8_t)('0' + j), 0 };

				dmd_sender_seal(&s, m, 3, ct, NULL);
				put(t, d, e, DIAMOND_FRAME_RECORD, (uint16_t)j, 3, ct);
				if (dmd_sender_group_due(&s)) {
					dmd_sender_close_group(&s, NULL, 0, tag, &g);
					put(t, d, e, DIAMOND_FRAME_GROUP, (uint16_t)g,
					    16, tag);
				}
			}
			dmd_sender_close(&s, NULL, 0, tag, &n);
			put(t, d, e, DIAMOND_FRAME_TAG, (uint16_t)n, 16, tag);
		}
		dmd_sender_wipe(&s);
	}
	diamond_store_close(st);
	return 0;
}
