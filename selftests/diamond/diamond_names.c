// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_names: one instance per algorithm (Documentation/kernel-api.rst,
 * Names). The crypto API finds an instance only by its cra_name or driver
 * name, so any other spelling used to register one more instance (and one
 * more testmgr "alg: No test for" line) at every bind.
 *
 *  1. Every diamond instance in /proc/crypto binds by its driver name and
 *     by its cra_name without adding an instance.
 *  2. After one warm-up round (inner instances such as ctr(aes-generic) may
 *     appear once), three more rounds of binds of non-canonical names
 *     (inner driver names that are not the instance's, an extra parameter)
 *     all fail with ENOENT and add 0 /proc/crypto entries and 0 kernel log
 *     lines naming a diamond algorithm.
 *  3. From 7.x, /proc/sys/crypto/af_alg_restrict, read and never
 *     written: at 1, the kernel's default, type "aead" does not bind an
 *     instance, for root either (ENOENT: only algif_aead's allowlist
 *     does), and the module's type "diamond" does (Documentation/
 *     kernel-api.rst, "AF_ALG from 7.x"). A SKIP where the kernel has no
 *     such sysctl or it is not 1.
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

/*
 * The defect this guards against added one instance per bind, so each
 * round shows it eight times over. A failed bind is slow in a guest: the
 * crypto API asks for modules by name (request_module(), a usermode
 * modprobe) for the instance and its inner algorithms. 200 binds took 55
 * to 85 s of the make check matrix's TCG arm64 guests on 6.1 and 6.12.
 */
#define ROUNDS	3
#define MAXINST	16
#define RESTRICT "/proc/sys/crypto/af_alg_restrict"

static const char *const noncanonical[] = {
	"diamond(chacha20-generic,poly1305-generic)",
	"diamond(chacha20-simd,poly1305-simd)",
	"diamond(chacha20,poly1305-generic)",
	"diamond(chacha20,poly1305,x)",
	"diamond(ctr(aes),ghash,x)",
	"diamond(ctr(aes),ghash-generic)",
	"diamond(ctr(aes-generic),ghash)",
	"diamond(ctr-aes-aesni,ghash)",
};

#define NNAMES	(sizeof(noncanonical) / sizeof(noncanonical[0]))
#define BINDS	(ROUNDS * (int)NNAMES)

struct census {
	int entries, diamond;
	char driver[MAXINST][128], name[MAXINST][128];
};

static void census(struct census *c)
{
	char line[256], cur[128] = "";
	FILE *f = fopen("/proc/crypto", "r");

	memset(c, 0, sizeof(*c));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (!v)
			continue;
		v += 2;
		v[strcspn(v, "\n")] = 0;
		if (!strncmp(line, "name ", 5)) {
			c->entries++;
			snprintf(cur, sizeof(cur), "%s", v);
		} else if (!strncmp(line, "driver ", 7) &&
			   !strncmp(cur, "diamond(", 8)) {
			if (c->diamond < MAXINST) {
				snprintf(c->name[c->diamond], 128, "%s", cur);
				snprintf(c->driver[c->diamond], 128, "%s", v);
			}
			c->diamond++;
		}
	}
	fclose(f);
}

/* Kernel log lines that name a diamond algorithm. */
static int log_lines(void)
{
	int len = klogctl(10, NULL, 0), n, count = 0;
	char *buf = len > 0 ? malloc((size_t)len + 1) : NULL, *p;

	n = buf ? klogctl(3, buf, len) : -1;
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = 0;
	for (p = buf; (p = strstr(p, "diamond(")); p++)
		count++;
	free(buf);
	return count;
}

static int bind_close(const char *name)
{
	int fd = afalg_bind(name);

	afalg_close(fd);
	return fd < 0 ? fd : 0;
}

static void canonical_names(void)
{
	struct census before, after;
	int i, err;

	census(&before);
	for (i = 0; i < before.diamond && i < MAXINST; i++) {
		err = bind_close(before.driver[i]);
		tap_result(!err, "bind by driver name %s (%s)",
			   before.driver[i], dmd_errname(err));
		err = bind_close(before.name[i]);
		tap_result(!err, "bind by name %s (%s)", before.name[i],
			   dmd_errname(err));
	}
	census(&after);
	tap_result(after.diamond == before.diamond,
		   "binding %d instances by their names adds none (%d -> %d)",
		   before.diamond, before.diamond, after.diamond);
}

static void noncanonical_names(void)
{
	struct census before, after;
	int i, err, wrong = 0, l0, l1;

	for (i = 0; i < (int)NNAMES; i++)
		bind_close(noncanonical[i]);
	census(&before);
	l0 = log_lines();
	for (i = 0; i < BINDS; i++) {
		err = bind_close(noncanonical[i % NNAMES]);
		if (err != -ENOENT && wrong++ < 5)
			tap_diag("bind %s: %s, want ENOENT",
				 noncanonical[i % NNAMES], dmd_errname(err));
	}
	census(&after);
	l1 = log_lines();
	tap_result(!wrong, "%d non-canonical binds all fail with ENOENT (%d did not)",
		   BINDS, wrong);
	tap_result(after.diamond == before.diamond,
		   "%d non-canonical binds add 0 diamond instances (%d -> %d)",
		   BINDS, before.diamond, after.diamond);
	tap_result(after.entries == before.entries,
		   "%d non-canonical binds add 0 /proc/crypto entries (%d -> %d)",
		   BINDS, before.entries, after.entries);
	tap_result(l0 >= 0 && l1 == l0,
		   "%d non-canonical binds add 0 kernel log lines naming diamond (%d -> %d)",
		   BINDS, l0, l1);
}

/* Read only: the tests run at the kernel's own setting (run_all.sh). */
static void restricted(unsigned int suite)
{
	const char *name = dmd_alg_name(suite);
	const char *t1 = "af_alg_restrict=1 keeps type aead from the instances";
	const char *t2 = "af_alg_restrict=1: type diamond binds them";
	FILE *f = fopen(RESTRICT, "r");
	int v = -1, err1, err2;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	if (v != 1) {
		tap_skip(f ? "af_alg_restrict is not 1 here" :
			     "no af_alg_restrict sysctl on this kernel (before 7.x)",
			 t1);
		tap_skip(f ? "af_alg_restrict is not 1 here" :
			     "no af_alg_restrict sysctl on this kernel (before 7.x)",
			 t2);
		return;
	}
	err1 = afalg_bind_type("aead", name);
	afalg_close(err1);
	err2 = afalg_bind_type(AFALG_DIAMOND_TYPE, name);
	afalg_close(err2);
	tap_result(err1 == -ENOENT, "%s: %s is %s for root", t1, name,
		   dmd_errname(err1 < 0 ? err1 : 0));
	tap_result(err2 >= 0, "%s: %s (%s)", t2, name,
		   dmd_errname(err2 < 0 ? err2 : 0));
}

int main(void)
{
	unsigned int suite, any = 0;

	tap_header();
	for (suite = 1; suite <= 2; suite++)
		if (dmd_suite_available(suite))
			any = 1;
	if (!any)
		return TAP_EXIT_SKIP;
	canonical_names();
	noncanonical_names();
	restricted(dmd_suite_available(2) ? 2 : 1);
	tap_trailing_plan();
	return tap_finish();
}
