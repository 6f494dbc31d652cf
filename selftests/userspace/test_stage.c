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
#include "two_devices.h"

#define B	TWO_DEVICES_B

static struct two_devices td;

struct seen {
	const char *dir;
	unsigned int records, commits, records_at_commit;
	int64_t epoch_at_commit;	/* device 5's state file then */
	int fail;		/* commit returns this */
};

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
	s->epoch_at_commit = two_devices_disk_epoch(s->dir, two_devices_ids[0]);
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
		rc = diamond_gw_feed(gw, td.frames[d][e], td.len[d][e]);
	diamond_gw_free(gw);
	return rc;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : NULL;
	struct seen s;
	int d, rc;

	tap_plan(12);
	if (!dir || two_devices_make(&td, dir)) {
		tap_result(0, "make the state directory (usage: test_stage DIR)");
		return tap_finish();
	}
	tap_result(diamond_gw_set_stage(NULL, commit, NULL) == -EINVAL,
		   "set_stage without a gateway: -EINVAL");
	for (d = 0; d < 2; d++) {
		const char *what = d ? "grouped (g = 2)" : "ungrouped";
		unsigned int units = two_devices_groups[d] ? B / two_devices_groups[d] : 1;

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
				   two_devices_disk_epoch(dir, two_devices_ids[0]) == 1,
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
			tap_result(two_devices_disk_epoch(dir, two_devices_ids[0]) == 1,
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
