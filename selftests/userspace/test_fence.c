// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fence of a shared state directory (libdiamond's fence.c; issue 31
 * item 3): a token is taken once, and only if larger than the stored
 * one; a gateway opened with DIAMOND_GW_SHARED writes its device states
 * only while its token is the stored one. Two gateways share one
 * directory (no lifetime lock); once B has taken it with a larger token,
 * A, whose states are still in memory, verifies the next epoch but
 * releases none of it and its state file does not move: the default
 * order is verify -> state durable -> records out, and the state write
 * is refused. B, loading the state from the directory, verifies it.
 * Software backend; an ungrouped device (b = 4) and a grouped one (b = 4,
 * g = 2).
 *
 * usage: test_fence WORKDIR
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
	unsigned int *n = arg;

	(void)r;
	(*n)++;
}

static int gw_open(struct diamond_gw **gw, const char *dir,
		   struct diamond_fence *f, unsigned int *records)
{
	struct diamond_gw_opts o = { .state_dir = dir,
				     .backend = DIAMOND_BACKEND_SOFTWARE,
				     .flags = DIAMOND_GW_SHARED |
					      DIAMOND_GW_SPOOL };
	struct diamond_gw_cbs cbs = { .record_ad = on_record, .arg = records };
	int rc = diamond_gw_new(gw, &o, &cbs, NULL, 0);

	if (!rc)
		rc = diamond_gw_set_fence(*gw, f);
	return rc;
}

/* Epoch @e of both devices: 0, or the first feed's error. */
static int feed_both(struct diamond_gw *gw, int e)
{
	int rc = diamond_gw_feed(gw, frames[0][e], flen[0][e]);

	return rc ? rc : diamond_gw_feed(gw, frames[1][e], flen[1][e]);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : NULL;
	struct diamond_fence *fa = NULL, *fb = NULL;
	struct diamond_gw *ga = NULL, *gb = NULL;
	unsigned int ra = 0, rb = 0;
	uint64_t token = 0;
	char holder[80] = "";
	int rc, ok;

	tap_plan(12);
	if (!dir || make(dir) || diamond_fence_open(&fa, dir) ||
	    diamond_fence_open(&fb, dir)) {
		tap_result(0, "make the state directory (usage: test_fence DIR)");
		return tap_finish();
	}
	ok = diamond_fence_read(fa, &token, holder, sizeof(holder)) == 0 &&
	     token == 0 && !*holder;
	tap_result(ok, "a new fence: token 0, no holder");
	tap_result(diamond_fence_check(fa) == -ESTALE,
		   "a fence never taken writes nothing");
	ok = diamond_fence_take(fa, 1, "va") == 0 &&
	     diamond_fence_read(fb, &token, holder, sizeof(holder)) == 0 &&
	     token == 1 && !strcmp(holder, "va");
	tap_result(ok, "A takes it with token 1: \"%llu %s\" stored",
		   (unsigned long long)token, holder);
	ok = diamond_fence_take(fb, 1, "vb") == -ESTALE &&
	     diamond_fence_stale(fb) == 1 &&
	     diamond_fence_take(fb, 0, "vb") == -EINVAL &&
	     diamond_fence_take(fb, 5, "v b") == -EINVAL;
	tap_result(ok, "B cannot take it with the same token (-ESTALE), token 0 or a name with a blank (-EINVAL)");
	rc = gw_open(&ga, dir, fa, &ra);
	ok = !rc && !feed_both(ga, 0) && ra == 2 * B &&
	     disk_epoch(dir, ids[0]) == 1;
	tap_result(ok, "A's gateway (DIAMOND_GW_SHARED, token 1) verifies epoch 0 of both devices (%u records), the state moves to epoch 1",
		   ra);
	ok = diamond_fence_take(fb, 2, "vb") == 0 &&
	     diamond_fence_token(fb) == 2;
	tap_result(ok, "B takes the directory with token 2");
	ra = 0;
	rc = feed_both(ga, 1);
	ok = rc == -ESTALE && ra == 0;
	tap_result(ok, "A, its states still in memory, releases nothing of epoch 1 (%u records) and its feed fails -ESTALE (%d: %s)",
		   ra, rc, diamond_gw_failure(ga));
	tap_result(disk_epoch(dir, ids[0]) == 1,
		   "... and A's state write is refused: the file stays at epoch 1");
	ok = diamond_fence_stale(fa) == 2 &&
	     diamond_fence_check(fa) == -ESTALE;
	tap_result(ok, "A's fence is refused for good and names the newer token (%llu)",
		   (unsigned long long)diamond_fence_stale(fa));
	rc = gw_open(&gb, dir, fb, &rb);
	tap_result(!rc, "B's gateway opens the directory A's gateway still has open (no lifetime lock)");
	ok = !rc && !feed_both(gb, 1) && rb == 2 * B &&
	     disk_epoch(dir, ids[0]) == 2;
	tap_result(ok, "B verifies epoch 1 of both devices from the stored states (%u records), the state moves to epoch 2",
		   rb);
	ra = 0;
	rc = feed_both(ga, 2);
	ok = rc == -ESTALE && ra == 0 && disk_epoch(dir, ids[0]) == 2;
	tap_result(ok, "A, fed epoch 2 as well, still releases and writes nothing (%u records) and fails -ESTALE (%d)",
		   ra, rc);
	diamond_gw_free(ga);
	diamond_gw_free(gb);
	diamond_fence_close(fa);
	diamond_fence_close(fb);
	return tap_finish();
}
