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
#include "two_devices.h"

#define B	TWO_DEVICES_B

static struct two_devices td;

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
	int rc = diamond_gw_feed(gw, td.frames[0][e], td.len[0][e]);

	return rc ? rc : diamond_gw_feed(gw, td.frames[1][e], td.len[1][e]);
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
	if (!dir || two_devices_make(&td, dir) || diamond_fence_open(&fa, dir) ||
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
	     two_devices_disk_epoch(dir, two_devices_ids[0]) == 1;
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
	tap_result(two_devices_disk_epoch(dir, two_devices_ids[0]) == 1,
		   "... and A's state write is refused: the file stays at epoch 1");
	ok = diamond_fence_stale(fa) == 2 &&
	     diamond_fence_check(fa) == -ESTALE;
	tap_result(ok, "A's fence is refused for good and names the newer token (%llu)",
		   (unsigned long long)diamond_fence_stale(fa));
	rc = gw_open(&gb, dir, fb, &rb);
	tap_result(!rc, "B's gateway opens the directory A's gateway still has open (no lifetime lock)");
	ok = !rc && !feed_both(gb, 1) && rb == 2 * B &&
	     two_devices_disk_epoch(dir, two_devices_ids[0]) == 2;
	tap_result(ok, "B verifies epoch 1 of both devices from the stored states (%u records), the state moves to epoch 2",
		   rb);
	ra = 0;
	rc = feed_both(ga, 2);
	ok = rc == -ESTALE && ra == 0 && two_devices_disk_epoch(dir, two_devices_ids[0]) == 2;
	tap_result(ok, "A, fed epoch 2 as well, still releases and writes nothing (%u records) and fails -ESTALE (%d)",
		   ra, rc);
	diamond_gw_free(ga);
	diamond_gw_free(gb);
	diamond_fence_close(fa);
	diamond_fence_close(fb);
	return tap_finish();
}
