// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kernel-bench: diamond.ko against the kernel's own AEADs, through raw
 * AF_ALG, in the run-vm guest (`make bench-kernel`). Under qemu -icount
 * shift=0 guest nanoseconds are executed instructions, so the figures are
 * deterministic up to scheduling.
 *
 *   kernel-bench VECFILE [REPS [WHAT [PRE_KIB]]]
 *
 * WHAT (default all) narrows the run for tools/bench/kernel-profile.sh:
 * d1 or d2 (that suite only), d1-total, d1-online, d2-total, d2-online
 * (that phase only; online includes the untimed precompute before it),
 * diamond (both suites, no baselines and no floor), floor (the floor
 * alone, below). PRE_KIB (default 256, what the figures of performance.md
 * were taken with before issue 31) is the precompute_kib of the offline
 * and online phases; the module's own default is 32 (kernel-api.rst).
 *
 * For each suite, on the vector d<suite>-xor-b1024-len16 (one epoch of 1024
 * 16-byte records, b = 1024):
 *   total    setkey (with the accept() AF_ALG needs after it) + decrypt of
 *            the epoch, precompute_kib=0: every PRF call of the epoch runs
 *            inside the request (offline + online)
 *   offline  the precompute work item after setkey (precompute_kib=PRE_KIB),
 *            timed by the workqueue's own tracepoints
 *            (workqueue_execute_start/end of precompute_worker, tracefs
 *            clock "mono"): the module carries no benchmark hook
 *   online   decrypt of the epoch with that precompute ready
 * Baselines, decrypt with a valid tag, empty AD:
 *   1024 x gcm(aes) 16 B, 1 x gcm(aes) 16 KiB,
 *   1024 x rfc7539(chacha20,poly1305) 16 B, 1 x rfc7539 16 KiB.
 * Each figure is the median of REPS (default 5) runs, in guest ns.
 *
 * WHAT = groups (not part of all): the gateway cost of group tags (spec
 * 5.1, kernel-api.rst "Groups") on the same epoch, b = 1024, sealed again
 * by the portable core with g = 1024 (no groups, the plain request), 64
 * and 16, each suite: total (setkey + one request of every unit,
 * precompute off), online (that request, precompute ready) and per unit
 * (one request per unit, as units complete at a gateway; precompute ready
 * before the first).
 *
 * Then (all, or WHAT = floor) the floor (kernel-floor.c): dmd_floor.ko's
 * figures for the same epoch on the kernel's own primitives plus one
 * AF_ALG round trip, and Diamond's total and online against them.
 *
 * Last, the drivers /proc/crypto lists under each name benched, with their
 * priorities and async flags: AF_ALG binds the name to the one of highest
 * priority that its mask admits (from 7.x no async ones).
 */
#define _GNU_SOURCE
#include "afalg_conn.h"
#include "bench-clock.h"
#include "kernel-floor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include <diamond/core.h>
#include "lib/vecfile.h"

#define PARAMS "/sys/module/diamond/parameters/"
#define TRACING "/sys/kernel/tracing/"
#define WQ_EVENT TRACING "events/workqueue/workqueue_execute_"
#define NMSG 1024
#define SMALL 16
#define BIG (16 * 1024)
#define MAXREPS 32

static unsigned int reps = 5;
static const char *what = "all";
/* precompute_kib of the offline and online phases (PRE_KIB). */
static unsigned long pre_kib = 256;
/* Each suite's total and online for the epoch, for the floor's ratios. */
static struct floor_diamond dmd_fig[3];
/* $DMD_BENCH_NAME<suite>: another instance, e.g. a driver name. */
static const char *dmd_names[] = {
	"", "diamond(ctr(aes),ghash)", "diamond(chacha20,poly1305)",
};

/* Does WHAT select suite @suite's @phase ("total"/"online"), or all? */
static int selected(unsigned int suite, const char *phase)
{
	char want[16];

	if (!strcmp(what, "all") || !strcmp(what, "diamond"))
		return 1;
	snprintf(want, sizeof(want), "d%u", suite);
	if (!strcmp(what, want))
		return 1;
	snprintf(want, sizeof(want), "d%u-%s", suite, phase);
	return !strcmp(what, want);
}

static int param_write(const char *name, unsigned long v)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%lu\n", v);
	return fclose(f);
}

static unsigned long param_read(const char *name)
{
	char path[128];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int file_write(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(s, f);
	return fclose(f);
}

/* The address of the module's work function, from /proc/kallsyms. */
static unsigned long long worker_address(void)
{
	unsigned long long addr = 0, a;
	char line[256], name[128];
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %*s %127s", &a, name) == 2 &&
		    !strcmp(name, "precompute_worker") && strstr(line, "[diamond]"))
			addr = a;
	if (f)
		fclose(f);
	return addr;
}

/*
 * Trace the start and end of diamond's precompute work item: the two
 * workqueue events, filtered to its function, raw output (nanosecond
 * timestamps) on the monotonic clock the rest of the bench reads.
 */
static int trace_on(void)
{
	unsigned long long fn = worker_address();
	char filter[64];

	if (access(TRACING "trace", W_OK))
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
	if (!fn) {
		printf("# precompute_worker not in /proc/kallsyms\n");
		return -1;
	}
	snprintf(filter, sizeof(filter), "function == 0x%llx", fn);
	if (file_write(TRACING "trace_clock", "mono") ||
	    file_write(TRACING "options/raw", "1") ||
	    file_write(WQ_EVENT "start/filter", filter) ||
	    file_write(WQ_EVENT "end/filter", filter) ||
	    file_write(WQ_EVENT "start/enable", "1") ||
	    file_write(WQ_EVENT "end/enable", "1") ||
	    file_write(TRACING "tracing_on", "1")) {
		printf("# cannot set up tracefs at " TRACING "\n");
		return -1;
	}
	return 0;
}

static void trace_off(void)
{
	file_write(WQ_EVENT "start/enable", "0");
	file_write(WQ_EVENT "end/enable", "0");
	file_write(WQ_EVENT "start/filter", "0");
	file_write(WQ_EVENT "end/filter", "0");
	file_write(TRACING "options/raw", "0");
	file_write(TRACING "trace_clock", "local");
}

static int event_id(const char *which)
{
	char path[128];
	int id = -1;
	FILE *f;

	snprintf(path, sizeof(path), WQ_EVENT "%s/id", which);
	f = fopen(path, "r");
	if (f && fscanf(f, "%d", &id) != 1)
		id = -1;
	if (f)
		fclose(f);
	return id;
}

/*
 * The traced work items since the last call, summed (end - start), and the
 * buffer cleared. A raw line is "PID CPU TS type: ID" (trace_nop_print()).
 */
static uint64_t trace_take(void)
{
	int start = event_id("start"), end = event_id("end"), id;
	unsigned long long ts, t0 = 0, sum = 0;
	char line[256];
	FILE *f = fopen(TRACING "trace", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' ||
		    sscanf(line, "%*d %*d %llu type: %d", &ts, &id) != 2)
			continue;
		if (id == start) {
			t0 = ts;
		} else if (id == end && t0) {
			sum += ts - t0;
			t0 = 0;
		}
	}
	if (f)
		fclose(f);
	file_write(TRACING "trace", "");
	return sum;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void report(const char *what, uint64_t ns, unsigned int records)
{
	printf("%-46s %10llu ns", what, (unsigned long long)ns);
	if (records > 1)
		printf("  (%llu ns/record)",
		       (unsigned long long)(ns / records));
	printf("\n");
	fflush(stdout);
}

/* The diamond figures for one suite. */
static int bench_diamond(unsigned int suite, const struct vec *v)
{
	const char **names = dmd_names;
	const char *env = getenv(suite == 1 ? "DMD_BENCH_NAME1" :
				 "DMD_BENCH_NAME2");
	const struct vec_step *s = &v->step[0];
	uint64_t total[MAXREPS] = { 0 }, online[MAXREPS] = { 0 };
	uint64_t offline[MAXREPS] = { 0 }, t0;
	size_t inlen = s->ad.len + s->ct.len;
	size_t outlen = s->ad.len + s->ct.len - 16;
	uint8_t *in = malloc(inlen), *out = malloc(inlen), iv[8] = { 0 };
	struct afalg_conn a;
	unsigned int r;
	char label[96];
	ssize_t n;
	int err = -1;

	if (env && *env)
		names[suite] = env;
	if (!selected(suite, "total") && !selected(suite, "online")) {
		err = 0;
		goto out;
	}
	if (!in || !out)
		goto out;
	memcpy(in, s->ad.p, s->ad.len);
	memcpy(in + s->ad.len, s->ct.p, s->ct.len);
	if (afalg_conn_open(&a, names[suite], v->key.p, v->key.len, 16)) {
		printf("# cannot open %s\n", names[suite]);
		goto out;
	}

	/* total: precompute off, setkey + the whole epoch in the request */
	param_write("precompute_kib", 0);
	for (r = 0; r < (selected(suite, "total") ? reps : 0); r++) {
		t0 = now_ns();
		if (afalg_conn_rekey(&a, v->key.p, v->key.len))
			goto out_close;
		n = afalg_conn_op(&a, 0, iv, 8, s->ad.len, in, inlen, out, outlen);
		total[r] = now_ns() - t0;
		if (n != (ssize_t)outlen ||
		    memcmp(out + s->ad.len, s->pt.p, s->pt.len)) {
			printf("# %s: decrypt failed (%zd)\n", names[suite], n);
			goto out_close;
		}
	}

	/* offline and online: precompute on, let the work item finish */
	param_write("precompute_kib", pre_kib);
	if (selected(suite, "online") && trace_on())
		goto out_close;
	for (r = 0; r < (selected(suite, "online") ? reps : 0); r++) {
		trace_take();
		if (afalg_conn_rekey(&a, v->key.p, v->key.len))
			goto out_close;
		sleep_ms(300);
		offline[r] = trace_take();
		t0 = now_ns();
		n = afalg_conn_op(&a, 0, iv, 8, s->ad.len, in, inlen, out, outlen);
		online[r] = now_ns() - t0;
		if (n != (ssize_t)outlen) {
			printf("# %s: decrypt failed (%zd)\n", names[suite], n);
			goto out_close;
		}
		printf("# %s rep %u: total %llu offline %llu online %llu\n",
		       names[suite], r, (unsigned long long)total[r],
		       (unsigned long long)offline[r],
		       (unsigned long long)online[r]);
		sleep_ms(300);	/* the next epoch's precompute, untimed */
	}

	if (selected(suite, "total")) {
		snprintf(label, sizeof(label), "%s total (setkey+epoch)",
			 names[suite]);
		dmd_fig[suite].total = median(total, reps);
		report(label, dmd_fig[suite].total, NMSG);
	}
	if (selected(suite, "online")) {
		snprintf(label, sizeof(label), "%s offline (precompute)",
			 names[suite]);
		report(label, median(offline, reps), NMSG);
		snprintf(label, sizeof(label), "%s online (precompute ready)",
			 names[suite]);
		dmd_fig[suite].online = median(online, reps);
		report(label, dmd_fig[suite].online, NMSG);
	}
	err = 0;
out_close:
	if (selected(suite, "online"))
		trace_off();
	afalg_conn_close(&a);
out:
	free(in);
	free(out);
	return err;
}

/*
 * @count decrypts of @len bytes each with the kernel AEAD @name (key of
 * @keylen bytes, 12-byte IV, empty AD); returns the median over reps.
 */
/* 1 where /proc/sys/crypto/af_alg_restrict is 1 (read, never written). */
static int restricted(void)
{
	FILE *f = fopen("/proc/sys/crypto/af_alg_restrict", "r");
	int v = 0;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v == 1;
}

static int bench_aead(const char *name, size_t keylen, size_t len,
		      unsigned int count)
{
	uint8_t key[32], iv[12] = { 0 }, *pt = calloc(1, len);
	uint8_t *ct = malloc(len + 16), *out = malloc(len + 16);
	uint64_t t[MAXREPS], t0;
	unsigned int r, i;
	struct afalg_conn a;
	char label[96];
	int err;

	memset(key, 0x42, sizeof(key));
	err = pt && ct && out ? afalg_conn_open(&a, name, key, keylen, 16) :
				-ENOMEM;
	if (err == -ENOENT && restricted()) {
		/* Not a failure: the kernel's default from 7.3 (kernel-api.rst). */
		printf("# SKIP %s: type aead refuses it at af_alg_restrict=1\n",
		       name);
		err = 0;
		goto out;
	}
	if (err) {
		printf("# cannot open %s\n", name);
		err = -1;
		goto out;
	}
	err = -1;	/* until the last request has run */
	if (afalg_conn_op(&a, 1, iv, 12, 0, pt, len, ct, len + 16) !=
	    (ssize_t)(len + 16))
		goto out_close;
	for (r = 0; r < reps; r++) {
		t0 = now_ns();
		for (i = 0; i < count; i++)
			if (afalg_conn_op(&a, 0, iv, 12, 0, ct, len + 16, out,
				     len) != (ssize_t)len)
				goto out_close;
		t[r] = now_ns() - t0;
	}
	snprintf(label, sizeof(label), "%u x %s %zu B", count, name, len);
	report(label, median(t, reps), count);
	err = 0;
out_close:
	afalg_conn_close(&a);
out:
	free(pt);
	free(ct);
	free(out);
	return err;
}

/* A grouped epoch as kernel requests: the whole one, and one per unit. */
struct grouped {
	uint8_t key[DMD_BLOB2_MAX];
	size_t keylen;
	uint8_t *all;		/* table || AD || every unit */
	size_t all_len, all_assoc;
	uint8_t *unit[NMSG];	/* le16(1) || entry || AD || unit i */
	size_t unit_len[NMSG], unit_assoc;
	unsigned int u;
};

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/*
 * The requests from the sealed units (@ct, @field[i] and @len[i] each):
 * a table unless @plain (g = b: the ungrouped request, AD || body || T).
 */
static int build_requests(struct grouped *gr, const struct vec_buf *ad,
			  const uint8_t *ct, const uint32_t *field,
			  const size_t *len, int plain)
{
	size_t tbl = plain ? 0 : 2 + 8 * (size_t)gr->u, total = 0, off = 0;
	unsigned int i;
	uint8_t *p;

	for (i = 0; i < gr->u; i++)
		total += len[i];
	gr->all_assoc = tbl + ad->len;
	gr->all_len = gr->all_assoc + total;
	gr->all = malloc(gr->all_len);
	if (!gr->all)
		return -1;
	if (!plain) {
		gr->all[0] = (uint8_t)gr->u;
		gr->all[1] = (uint8_t)(gr->u >> 8);
	}
	memcpy(gr->all + tbl, ad->p, ad->len);
	memcpy(gr->all + gr->all_assoc, ct, total);
	gr->unit_assoc = (plain ? 0 : 10) + ad->len;
	for (i = 0; i < gr->u; i++) {
		if (!plain) {
			put_le32(gr->all + 2 + 8 * i, field[i]);
			put_le32(gr->all + 2 + 8 * i + 4, (uint32_t)len[i]);
		}
		gr->unit_len[i] = gr->unit_assoc + len[i];
		p = gr->unit[i] = malloc(gr->unit_len[i]);
		if (!p)
			return -1;
		if (!plain) {
			p[0] = 1;
			p[1] = 0;
			memcpy(p + 2, gr->all + 2 + 8 * i, 8);
		}
		memcpy(p + gr->unit_assoc - ad->len, ad->p, ad->len);
		memcpy(p + gr->unit_assoc, ct + off, len[i]);
		off += len[i];
	}
	return 0;
}

/*
 * Seal the vector's epoch again with group size @g (the core's sender),
 * as requests for a tfm keyed with the version 2 blob of group size g.
 */
static int seal_grouped(const struct vec *v, uint32_t g, struct grouped *gr)
{
	static uint32_t field[NMSG];
	static size_t len[NMSG];
	const struct vec_step *s = &v->step[0];
	uint8_t *ct = malloc(s->pt.len + 16 * NMSG);
	size_t pos = 0, out = 0, start = 0, rec;
	struct dmd_sender snd;
	struct dmd_state st;
	uint32_t n = 0, idx;
	int rc;

	memset(gr, 0, sizeof(*gr));
	if (!ct || dmd_blob_parse(&st, v->key.p, v->key.len))
		return -1;
	st.group = (uint16_t)g;
	dmd_blob2_write(gr->key, &st);
	gr->keylen = dmd_blob2_size(st.suite);
	rc = dmd_sender_init_groups(&snd, &st, NULL, 0, 0, g) ?:
	     dmd_sender_begin(&snd, NULL);
	while (!rc && pos < s->pt.len) {
		rec = s->pt.p[pos] | s->pt.p[pos + 1] << 8;
		memcpy(ct + out, s->pt.p + pos, 2);
		rc = dmd_sender_seal(&snd, s->pt.p + pos + 2, rec,
				     ct + out + 2, &idx);
		pos += 2 + rec;
		out += 2 + rec;
		n++;
		if (!rc && dmd_sender_group_due(&snd)) {
			rc = dmd_sender_close_group(&snd, s->ad.p, s->ad.len,
						    ct + out, &idx);
			out += 16;
			field[gr->u] = DMD_GROUP_FLAG | n;
			len[gr->u++] = out - start;
			start = out;
		}
	}
	if (!rc)
		rc = dmd_sender_close(&snd, s->ad.p, s->ad.len, ct + out, &idx);
	out += 16;
	field[gr->u] = DMD_TRAILER_FLAG | n;
	len[gr->u++] = out - start;
	dmd_sender_wipe(&snd);
	if (!rc)
		rc = build_requests(gr, &s->ad, ct, field, len, g >= st.b);
	free(ct);
	return rc ? -1 : 0;
}

static void grouped_free(struct grouped *gr)
{
	unsigned int i;

	for (i = 0; i < gr->u; i++)
		free(gr->unit[i]);
	free(gr->all);
}

/* One grouped request; 0 when it released every unit. */
static int grouped_op(struct afalg_conn *a, const uint8_t *in, size_t len,
		      size_t assoc, uint8_t *out)
{
	uint8_t iv[8] = { 0 };

	return afalg_conn_op(a, 0, iv, 8, assoc, in, len, out, len - 16) ==
	       (ssize_t)(len - 16) ? 0 : -1;
}

/* The three figures of one suite and group size. */
static int bench_group_size(unsigned int suite, const struct vec *v,
			    uint32_t g)
{
	static const char *names[] = {
		"", "diamond(ctr(aes),ghash)", "diamond(chacha20,poly1305)",
	};
	uint64_t total[MAXREPS], online[MAXREPS], per[MAXREPS], t0;
	struct grouped gr;
	struct afalg_conn a;
	unsigned int r, i;
	uint8_t *out;
	char label[96];
	int err = -1;

	if (seal_grouped(v, g, &gr) || !(out = malloc(gr.all_len))) {
		printf("# d%u g=%u: cannot seal the grouped epoch\n", suite, g);
		return -1;
	}
	if (afalg_conn_open(&a, names[suite], gr.key, gr.keylen, 16))
		goto out;
	param_write("precompute_kib", 0);
	for (r = 0; r < reps; r++) {
		t0 = now_ns();
		if (afalg_conn_rekey(&a, gr.key, gr.keylen) ||
		    grouped_op(&a, gr.all, gr.all_len, gr.all_assoc, out))
			goto out_close;
		total[r] = now_ns() - t0;
	}
	param_write("precompute_kib", pre_kib);
	for (r = 0; r < reps; r++) {
		if (afalg_conn_rekey(&a, gr.key, gr.keylen))
			goto out_close;
		sleep_ms(300);
		t0 = now_ns();
		if (grouped_op(&a, gr.all, gr.all_len, gr.all_assoc, out))
			goto out_close;
		online[r] = now_ns() - t0;
		if (afalg_conn_rekey(&a, gr.key, gr.keylen))
			goto out_close;
		sleep_ms(300);
		t0 = now_ns();
		for (i = 0; i < gr.u; i++)
			if (grouped_op(&a, gr.unit[i], gr.unit_len[i],
				       gr.unit_assoc, out))
				goto out_close;
		per[r] = now_ns() - t0;
	}
	snprintf(label, sizeof(label), "d%u g=%u total (setkey+%u units)",
		 suite, g, gr.u);
	report(label, median(total, reps), NMSG);
	snprintf(label, sizeof(label), "d%u g=%u online (1 request)", suite, g);
	report(label, median(online, reps), NMSG);
	snprintf(label, sizeof(label), "d%u g=%u online (%u requests)", suite,
		 g, gr.u);
	report(label, median(per, reps), NMSG);
	err = 0;
out_close:
	if (err)
		printf("# d%u g=%u: grouped decrypt failed\n", suite, g);
	afalg_conn_close(&a);
out:
	free(out);
	grouped_free(&gr);
	return err;
}

static int bench_groups(unsigned int suite, const struct vec *v)
{
	static const uint32_t gs[] = { 1024, 64, 16 };
	unsigned int i;
	int rc = 0;

	for (i = 0; i < sizeof(gs) / sizeof(gs[0]); i++)
		rc |= bench_group_size(suite, v, gs[i]);
	return rc;
}

struct crypto_entry {
	char name[160], driver[160], priority[160], async[160];
};

static void entry_print(struct crypto_entry *e, const char *name)
{
	if (!strcmp(e->name, name))
		printf("# driver %s: %s priority %s async %s\n", name,
		       e->driver, e->priority, e->async[0] ? e->async : "-");
	memset(e, 0, sizeof(*e));
}

/*
 * "# driver NAME: DRIVER priority P async A" for each /proc/crypto entry
 * of @name (entries end at a blank line).
 */
static void print_drivers(const char *name)
{
	char line[256], key[32], val[160];
	struct crypto_entry e = { 0 };
	FILE *f = fopen("/proc/crypto", "r");

	if (!f) {
		printf("# /proc/crypto: %s\n", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s : %159s", key, val) != 2) {
			entry_print(&e, name);
			continue;
		}
		if (!strcmp(key, "name"))
			snprintf(e.name, sizeof(e.name), "%s", val);
		else if (!strcmp(key, "driver"))
			snprintf(e.driver, sizeof(e.driver), "%s", val);
		else if (!strcmp(key, "priority"))
			snprintf(e.priority, sizeof(e.priority), "%s", val);
		else if (!strcmp(key, "async"))
			snprintf(e.async, sizeof(e.async), "%s", val);
	}
	entry_print(&e, name);
	fclose(f);
}

int main(int argc, char **argv)
{
	struct vec_file *vf;
	const struct vec *v;
	unsigned long old_kib;
	int rc = 0, found = 0;

	if (argc < 2) {
		fprintf(stderr,
			"usage: kernel-bench VECFILE [REPS [WHAT [PRE_KIB]]]\n");
		return 2;
	}
	if (argc > 2)
		reps = (unsigned int)atoi(argv[2]);
	if (argc > 3)
		what = argv[3];
	if (argc > 4)
		pre_kib = strtoul(argv[4], NULL, 10);
	if (reps < 1 || reps > MAXREPS)
		reps = 5;
	printf("# guest ns (instructions under -icount shift=0), median of %u, precompute_kib %lu\n",
	       reps, pre_kib);

	if (!strcmp(what, "all")) {
		rc |= bench_aead("gcm(aes)", 16, SMALL, NMSG);
		rc |= bench_aead("gcm(aes)", 16, BIG, 1);
		rc |= bench_aead("rfc7539(chacha20,poly1305)", 32, SMALL, NMSG);
		rc |= bench_aead("rfc7539(chacha20,poly1305)", 32, BIG, 1);
	}

	old_kib = param_read("precompute_kib");
	vf = vec_open(argv[1]);
	while (vf && (v = vec_next(vf))) {
		unsigned int suite = !strcmp(v->name, "d1-xor-b1024-len16") ?
				     1 : !strcmp(v->name, "d2-xor-b1024-len16") ?
				     2 : 0;

		if (!suite)
			continue;
		if (!strcmp(what, "groups"))
			rc |= bench_groups(suite, v);
		else if (strcmp(what, "floor"))
			rc |= bench_diamond(suite, v);
		found++;
	}
	vec_close(vf);
	param_write("precompute_kib", old_kib);
	if (found != 2) {
		printf("# the b1024 vectors are missing from %s\n", argv[1]);
		rc = 1;
	}
	if (!strcmp(what, "all") || !strcmp(what, "floor"))
		rc |= floor_report(dmd_fig, NMSG, reps) ? 1 : 0;
	if (!strcmp(what, "all")) {
		print_drivers("gcm(aes)");
		print_drivers("rfc7539(chacha20,poly1305)");
		print_drivers(dmd_names[1]);
		print_drivers(dmd_names[2]);
	}
	return rc ? 1 : 0;
}
