// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_gw_set_stage() (issue 31 item 2): with a stage the records of a
 * verified epoch or unit reach the callbacks before the device's state is
 * saved, then the stage's commit runs, and only after it returns 0 is the
 * state saved. A failing commit leaves the state where it was, so the same
 * frames fed again deliver the same records (at least once). Software
 * backend; an ungrouped device (b = 4) and a grouped one (b = 4, g = 2).
 *
 * usage: test_stage WORKDIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include <diamond/libdiamond.h>

#include "tap.h"

#define B	4
#define EPOCHS	3

static uint8_t frames[2][EPOCHS][1024];
static size_t flen[2][EPOCHS];
static const uint32_t ids[2] = { 5, 6 };
static const uint16_t groups[2] = { 0, 2 };

struct seen {
	const char *dir;
	unsigned int records, commits, records_at_commit;
	int64_t epoch_at_commit;	/* device 5's state file then */
	int fail;		/* commit returns this */
};

/* The epoch device @id's state file holds, or -1. */
static int64_t disk_epoch(const char *dir, uint32_t id)
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

static void put(int d, int e, uint8_t type, uint16_t index, uint16_t len,
		const uint8_t *p)
{
	struct diamond_frame f = { type, 2, ids[d], (uint64_t)e, index, len, p };
	int n = diamond_frame_write(frames[d][e] + flen[d][e],
				    sizeof(frames[d][e]) - flen[d][e], &f);

	if (n > 0)
		flen[d][e] += (size_t)n;
}

/* Both devices' state files, and their first EPOCHS epochs as frames. */
static int make(const char *dir)
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
		state.b = B;
		state.group = groups[d];
		state.device_id = ids[d];
		dmd_derive_initial(&state, root);
		dmd_blob2_write(blob, &state);
		if (diamond_store_create(st, blob, dmd_blob2_size(state.suite)))
			return -1;
		if (dmd_sender_init_groups(&s, &state, NULL, 0, 0,
					   groups[d] ? groups[d] : B))
			return -1;
		for (e = 0; e < EPOCHS; e++) {
			dmd_sender_begin(&s, NULL);
			for (j = 0; j < B; j++) {
				uint8_t m[4] = { 'r', (uint8_t)('0' + e), (uint8_t)('0' + j), 0 };

				dmd_sender_seal(&s, m, 3, ct, NULL);
				put(d, e, DIAMOND_FRAME_RECORD, (uint16_t)j, 3, ct);
				if (dmd_sender_group_due(&s)) {
					dmd_sender_close_group(&s, NULL, 0, tag, &g);
					put(d, e, DIAMOND_FRAME_GROUP, (uint16_t)g,
					    16, tag);
				}
			}
			dmd_sender_close(&s, NULL, 0, tag, &n);
			put(d, e, DIAMOND_FRAME_TAG, (uint16_t)n, 16, tag);
		}
		dmd_sender_wipe(&s);
	}
	diamond_store_close(st);
	return 0;
}

static void on_record(void *arg, const struct diamond_record *r)
{
	struct seen *s = arg;

	(void)r;
	s->records++;
}

/* The commit: how many records came before it. */
static int commit(void *arg)
{
	struct seen *s = arg;

	s->commits++;
	s->records_at_commit = s->records;
	s->epoch_at_commit = disk_epoch(s->dir, ids[0]);
	return s->fail;
}

static int feed(const char *dir, struct seen *s, int d, int e)
{
	struct diamond_gw_opts o = { .state_dir = dir,
				     .backend = DIAMOND_BACKEND_SOFTWARE };
	struct diamond_gw_cbs cbs = { .record_ad = on_record, .arg = s };
	struct diamond_gw *gw;
	int rc = diamond_gw_new(&gw, &o, &cbs, NULL, 0);

	if (rc)
		return rc;
	rc = diamond_gw_set_stage(gw, commit, s);
	if (!rc)
		rc = diamond_gw_feed(gw, frames[d][e], flen[d][e]);
	diamond_gw_free(gw);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : NULL;
	struct seen s;
	int d, rc;

	tap_plan(12);
	if (!dir || make(dir)) {
		tap_result(0, "make the state directory (usage: test_stage DIR)");
		return tap_finish();
	}
	tap_result(diamond_gw_set_stage(NULL, commit, NULL) == -EINVAL,
		   "set_stage without a gateway: -EINVAL");
	for (d = 0; d < 2; d++) {
		const char *what = d ? "grouped (g = 2)" : "ungrouped";
		unsigned int units = groups[d] ? B / groups[d] : 1;

		memset(&s, 0, sizeof(s));
		s.dir = dir;
		feed(dir, &s, d, 0);
		tap_result(s.records == B && s.commits == units &&
			   s.records_at_commit == B,
			   "%s: the records reach the callbacks before each commit (%u records, %u commits)",
			   what, s.records, s.commits);
		/* A failing commit: the state must not move. */
		if (!d)
			tap_result(s.epoch_at_commit == 0 &&
				   disk_epoch(dir, ids[0]) == 1,
				   "ungrouped: the state file moves from epoch 0 to 1 only after the commit (%lld at it)",
				   (long long)s.epoch_at_commit);
		memset(&s, 0, sizeof(s));
		s.dir = dir;
		s.fail = -EIO;
		rc = feed(dir, &s, d, 1);
		tap_result(s.commits >= 1 && s.records >= 1,
			   "%s: a failing commit is called after the records (%u, %u)",
			   what, s.records, s.commits);
		/* Nothing of it durable: the caller must acknowledge nothing. */
		tap_result(rc == -EIO,
			   "%s: a failing commit fails the feed call with its errno (%d)",
			   what, rc);
		if (!d)
			tap_result(disk_epoch(dir, ids[0]) == 1,
				   "ungrouped: after a failing commit the state file stays at epoch 1");
		/* The same frames again, committed: delivered again, and then
		 * the state moved (epoch 2 opens). */
		memset(&s, 0, sizeof(s));
		s.dir = dir;
		feed(dir, &s, d, 1);
		feed(dir, &s, d, 2);
		tap_result(s.records == 2 * B && s.commits == 2 * units,
			   "%s: after a failed commit the same epoch delivers again, then the next (%u records)",
			   what, s.records);
	}
	memset(&s, 0, sizeof(s));
	s.dir = dir;
	feed(dir, &s, 0, 2);
	tap_result(s.records == 0, "an epoch delivered once its commit returned 0 never comes again (%u)",
		   s.records);
	return tap_finish();
}
