// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kernel-bench: diamond.ko against the kernel's own AEADs, through raw
 * AF_ALG, in the run-vm guest (`make bench-kernel`). Under qemu -icount
 * shift=0 guest nanoseconds are executed instructions, so the figures are
 * deterministic up to scheduling.
 *
 *   kernel-bench VECFILE [REPS [WHAT]]
 *
 * WHAT (default all) narrows the run for tools/bench/kernel-profile.sh:
 * d1 or d2 (that suite only), d1-total, d1-online, d2-total, d2-online
 * (that phase only; online includes the untimed precompute before it).
 *
 * For each suite, on the vector d<suite>-xor-b1024-len16 (one epoch of 1024
 * 16-byte records, b = 1024):
 *   total    setkey (with the accept() AF_ALG needs after it) + decrypt of
 *            the epoch, precompute_kib=0: every PRF call of the epoch runs
 *            inside the request (offline + online)
 *   offline  the precompute work item after setkey (precompute_kib=256),
 *            as the module reports it in last_precompute_ns
 *   online   decrypt of the epoch with that precompute ready
 * Baselines, decrypt with a valid tag, empty AD:
 *   1024 x gcm(aes) 16 B, 1 x gcm(aes) 16 KiB,
 *   1024 x rfc7539(chacha20,poly1305) 16 B, 1 x rfc7539 16 KiB.
 * Each figure is the median of REPS (default 5) runs, in guest ns.
 */
#define _GNU_SOURCE
#include "afalg_conn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/vecfile.h"

#define PARAMS "/sys/module/diamond/parameters/"
#define NMSG 1024
#define SMALL 16
#define BIG (16 * 1024)
#define MAXREPS 32

static unsigned int reps = 5;
static const char *what = "all";

/* Does WHAT select suite @suite's @phase ("total"/"online"), or all? */
static int selected(unsigned int suite, const char *phase)
{
	char want[16];

	if (!strcmp(what, "all"))
		return 1;
	snprintf(want, sizeof(want), "d%u", suite);
	if (!strcmp(what, want))
		return 1;
	snprintf(want, sizeof(want), "d%u-%s", suite, phase);
	return !strcmp(what, want);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
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
	/* $DMD_BENCH_NAME<suite>: another instance, e.g. a driver name. */
	static const char *names[] = {
		"", "diamond(ctr(aes),ghash)", "diamond(chacha20,poly1305)",
	};
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
	param_write("precompute_kib", 256);
	for (r = 0; r < (selected(suite, "online") ? reps : 0); r++) {
		param_write("last_precompute_ns", 0);	/* read-only: no-op */
		if (afalg_conn_rekey(&a, v->key.p, v->key.len))
			goto out_close;
		sleep_ms(300);
		offline[r] = param_read("last_precompute_ns");
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
		report(label, median(total, reps), NMSG);
	}
	if (selected(suite, "online")) {
		snprintf(label, sizeof(label), "%s offline (precompute)",
			 names[suite]);
		report(label, median(offline, reps), NMSG);
		snprintf(label, sizeof(label), "%s online (precompute ready)",
			 names[suite]);
		report(label, median(online, reps), NMSG);
	}
	err = 0;
out_close:
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
static int bench_aead(const char *name, size_t keylen, size_t len,
		      unsigned int count)
{
	uint8_t key[32], iv[12] = { 0 }, *pt = calloc(1, len);
	uint8_t *ct = malloc(len + 16), *out = malloc(len + 16);
	uint64_t t[MAXREPS], t0;
	unsigned int r, i;
	struct afalg_conn a;
	char label[96];
	int err = -1;

	memset(key, 0x42, sizeof(key));
	if (!pt || !ct || !out || afalg_conn_open(&a, name, key, keylen, 16)) {
		printf("# cannot open %s\n", name);
		goto out;
	}
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

int main(int argc, char **argv)
{
	struct vec_file *vf;
	const struct vec *v;
	unsigned long old_kib;
	int rc = 0, found = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: kernel-bench VECFILE [REPS [WHAT]]\n");
		return 2;
	}
	if (argc > 2)
		reps = (unsigned int)atoi(argv[2]);
	if (argc > 3)
		what = argv[3];
	if (reps < 1 || reps > MAXREPS)
		reps = 5;
	printf("# guest ns (instructions under -icount shift=0), median of %u\n",
	       reps);

	if (!strcmp(what, "all")) {
		rc |= bench_aead("gcm(aes)", 16, SMALL, NMSG);
		rc |= bench_aead("gcm(aes)", 16, BIG, 1);
		rc |= bench_aead("rfc7539(chacha20,poly1305)", 32, SMALL, NMSG);
		rc |= bench_aead("rfc7539(chacha20,poly1305)", 32, BIG, 1);
	}

	old_kib = param_read("precompute_kib");
	vf = vec_open(argv[1]);
	while (vf && (v = vec_next(vf))) {
		if (!strcmp(v->name, "d1-xor-b1024-len16")) {
			rc |= bench_diamond(1, v);
			found++;
		} else if (!strcmp(v->name, "d2-xor-b1024-len16")) {
			rc |= bench_diamond(2, v);
			found++;
		}
	}
	vec_close(vf);
	param_write("precompute_kib", old_kib);
	if (found != 2) {
		printf("# the b1024 vectors are missing from %s\n", argv[1]);
		rc = 1;
	}
	return rc ? 1 : 0;
}
