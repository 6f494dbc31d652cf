// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_memcg: what a user's Diamond sockets pin is charged to the user's
 * memory cgroup (Documentation/kernel-api.rst, Memory).
 *
 * Per suite, two children, each in a fresh cgroup v2 group and dropped to
 * uid/gid 65534:
 *  - measure (no limit): 64 socket pairs, each bind, setkey (b = 1024, a
 *    precompute table of at most precompute_kib), accept and one small
 *    sealed epoch, all kept open; memory.current per pair must be within
 *    10% of the formula of kernel-api.rst, and at most 64 KiB: between
 *    epochs a keyed tfm holds no bounce buffer (its requests allocate
 *    their own), so 10,000 keyed devices fit in 1 GiB (issue 31).
 *  - limit (memory.max = 16 MiB): first bind 400 tfm sockets (about 7 MiB
 *    charged), then key them one after the other (a table each: 45 MiB
 *    more for suite 1, were it not charged; 12.5 MiB since the table is
 *    bounded by precompute_kib = 32). A setkey must be refused with
 *    ENOMEM before the last (the module never invokes the memcg OOM
 *    killer; keying allocates nothing the kernel would charge instead),
 *    and memory.events must count "max".
 * Mounts cgroup2 on /sys/fs/cgroup when nothing is there. TAP 13; exit 4
 * when there is no cgroup v2 memory controller.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

#define CG		"/sys/fs/cgroup"
#define GIDPARAM	"/sys/module/diamond/parameters/afalg_gid"
#define LIMIT		(16u << 20)
#define MAX_TFMS	400
#define MEASURE		64
#define B		1024
#define PAGE		4096u
/* Issue 31: what a keyed tfm may cost between epochs at b = 1024. */
#define KEYED_MAX	(64u << 10)
#define PARAM		"/sys/module/diamond/parameters/"

struct report {
	int pairs;		/* socket pairs (measure) or keyed tfms (limit) */
	int err;		/* what refused the next one, 0 if none did */
	long long c0, c1;	/* memory.current before, after MEASURE pairs */
};

static int tfms[MAX_TFMS];

static unsigned long long page_align(unsigned long long n)
{
	return (n + PAGE - 1) / PAGE * PAGE;
}

/*
 * What kernel-api.rst says one pair charges: the table (allocated by
 * setkey, one vmalloc, page granular: min(b + 1, precompute_kib / slot)
 * slots), the two 8 KiB scratch slabs (4160 and 4176 bytes), the suite 1
 * child request, and the socket pair's own objects (inodes, files,
 * dentries: 3 KiB measured). No bounce buffer: the instance AF_ALG gets
 * allocates one per request and frees it before the request returns.
 */
static long long formula(unsigned int suite, long long pre_kib,
			 long long pre_bytes)
{
	unsigned long long k = suite == 1 ? 16 : 32, cap = B + 1, slot;

	if (pre_kib < 0 || pre_bytes < 0)
		return -1;
	slot = k + 32 + (pre_bytes + 63) / 64 * 64;
	if (pre_kib > 65536)
		pre_kib = 65536;
	if (cap > (unsigned long long)pre_kib * 1024 / slot)
		cap = (unsigned long long)pre_kib * 1024 / slot;
	return (long long)(page_align(cap * slot) + 2 * 8192 +
			   (suite == 1 ? 512 : 0) + 3072);
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static long long read_key(const char *path, const char *key)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!key) {
			v = atoll(line);
			break;
		}
		if (!strncmp(line, key, strlen(key)) &&
		    line[strlen(key)] == ' ')
			v = atoll(line + strlen(key) + 1);
	}
	fclose(f);
	return v;
}

static int have_memcg(void)
{
	char buf[256] = "";
	FILE *f = fopen(CG "/cgroup.controllers", "r");

	if (!f) {
		if (mount("cgroup2", CG, "cgroup2", 0, NULL))
			return 0;
		f = fopen(CG "/cgroup.controllers", "r");
		if (!f)
			return 0;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strstr(buf, "memory") &&
	       !write_file(CG "/cgroup.subtree_control", "+memory");
}

static void measure(struct report *r, unsigned int suite, const uint8_t *blob,
		    size_t len, const char *current)
{
	static uint8_t pt[2 + 32], ct[2 + 32 + DMD_TAG_SIZE];
	int tfm, op;

	pt[0] = 32;
	r->c0 = read_key(current, NULL);
	while (r->pairs < MEASURE) {
		tfm = dmd_tfm(suite, blob, len);
		op = tfm < 0 ? tfm : afalg_accept(tfm);
		r->err = op < 0 ? op : dmd_kseal(op, 0, 0, NULL, 0, pt,
						  sizeof(pt), ct);
		if (r->err)
			return;
		r->pairs++;
	}
	r->c1 = read_key(current, NULL);
}

static void limit(struct report *r, unsigned int suite, const uint8_t *blob,
		  size_t len, int out)
{
	int i;

	for (i = 0; i < MAX_TFMS; i++) {
		tfms[i] = afalg_bind(dmd_alg_name(suite));
		if (tfms[i] < 0) {
			r->err = tfms[i];
			return;
		}
	}
	while (r->pairs < MAX_TFMS) {
		r->err = afalg_setkey(tfms[r->pairs], blob, len);
		if (r->err)
			return;
		r->pairs++;
		if (write(out, r, sizeof(*r)) != sizeof(*r))
			_exit(3);
	}
}

static void child(unsigned int suite, const char *grp, int lim, int out)
{
	struct dmd_rng rng = { .s = 0x11 + suite };
	struct report r = { 0 };
	char path[128];
	uint8_t blob[DMD_BLOB_MAX];
	size_t len;

	snprintf(path, sizeof(path), "%s/cgroup.procs", grp);
	if (write_file(path, "0") || setgid(65534) || setuid(65534))
		_exit(3);
	snprintf(path, sizeof(path), "%s/memory.current", grp);
	len = dmd_make_blob(&rng, blob, suite, 0, B, 0);
	if (lim)
		limit(&r, suite, blob, len, out);
	else
		measure(&r, suite, blob, len, path);
	if (write(out, &r, sizeof(r)) != sizeof(r))
		_exit(3);
	_exit(0);
}

/* Run child() in a fresh group (memory.max = @lim if set); its report. */
static int in_group(unsigned int suite, int lim, struct report *r,
		    long long *max_events)
{
	struct report got;
	char grp[64], path[128], val[32];
	int pfd[2], status = 0;
	pid_t pid;

	snprintf(grp, sizeof(grp), CG "/dmd_memcg%u%c.%d", suite,
		 lim ? 'l' : 'm', getpid());
	snprintf(path, sizeof(path), "%s/memory.max", grp);
	snprintf(val, sizeof(val), "%u", LIMIT);
	if (mkdir(grp, 0755) || (lim && write_file(path, val)) || pipe(pfd))
		return -1;
	pid = fork();
	if (!pid) {
		close(pfd[0]);
		child(suite, grp, lim, pfd[1]);
	}
	close(pfd[1]);
	memset(r, 0, sizeof(*r));
	while (read(pfd[0], &got, sizeof(got)) == sizeof(got))
		*r = got;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	snprintf(path, sizeof(path), "%s/memory.events", grp);
	*max_events = read_key(path, "max");
	rmdir(grp);
	if (WIFSIGNALED(status))
		tap_diag("suite%u: child killed by signal %d", suite,
			 WTERMSIG(status));
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static void run_suite(unsigned int suite)
{
	struct report r;
	long long per, want, max_events;
	int rc;

	rc = in_group(suite, 0, &r, &max_events);
	per = !rc && r.c1 > r.c0 && r.c0 >= 0 ? (r.c1 - r.c0) / MEASURE : -1;
	want = formula(suite, read_key(PARAM "precompute_kib", NULL),
		       read_key(PARAM "precompute_bytes", NULL));
	tap_result(per > 0 && per * 10 >= want * 9 && per * 10 <= want * 11,
		   "suite%u: charged per socket pair %lld bytes, formula %lld (within 10%%)",
		   suite, per, want);
	tap_result(per > 0 && per <= KEYED_MAX,
		   "suite%u: a keyed tfm at b = %d costs %lld bytes between epochs, at most %u (issue 31; 10,000 take %lld MiB)",
		   suite, B, per, KEYED_MAX, per * 10000 >> 20);

	rc = in_group(suite, 1, &r, &max_events);
	tap_diag("suite%u: %d of %d tfms keyed in memory.max %u MiB, then %s",
		 suite, r.pairs, MAX_TFMS, LIMIT >> 20,
		 r.err ? dmd_errname(r.err) : "none refused");
	tap_result(!rc && r.pairs < MAX_TFMS && r.err == -ENOMEM,
		   "suite%u: uid 65534 under memory.max 16 MiB: setkey refused with ENOMEM after %d tfms, not OOM-killed",
		   suite, r.pairs);
	tap_result(max_events > 0, "suite%u: memory.events max = %lld",
		   suite, max_events);
}

int main(void)
{
	unsigned int suite, any = 0;
	char was[32] = "";
	int set_gid = 0;
	FILE *gid;

	tap_header();
	if (geteuid() || !have_memcg()) {
		tap_skip("needs root and a cgroup v2 memory controller",
			 "memcg limit");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	/*
	 * Where the module's type "diamond" serves the binds (7.3's
	 * af_alg_restrict=1), uid 65534 may bind only as the afalg_gid group:
	 * grant it for the run and restore it after.
	 */
	gid = fopen(GIDPARAM, "r");
	if (gid && fgets(was, sizeof(was), gid))
		set_gid = !write_file(GIDPARAM, "65534");
	if (gid)
		fclose(gid);
	for (suite = 1; suite <= 2; suite++) {
		if (!dmd_suite_available(suite))
			continue;
		any = 1;
		run_suite(suite);
	}
	if (set_gid && write_file(GIDPARAM, was))
		tap_diag("could not restore afalg_gid=%s", was);
	tap_trailing_plan();
	return any ? tap_finish() : TAP_EXIT_SKIP;
}
