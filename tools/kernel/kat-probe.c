// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kat-probe: guest half of the kernel-kat check suite (mk/kernel.mk).
 *
 *   kat-probe VECFILE DRIVER1 DRIVER2
 *
 * After `modprobe diamond` in the run-vm guest it checks, as TAP 13:
 *  - the module's selftest pass line is in the kernel log;
 *  - both instances bind through AF_ALG by their generic names, and
 *    /proc/crypto then lists them with the expected driver names (DRIVER1
 *    for suite 1, DRIVER2 for suite 2; "auto" derives them from the best
 *    inner drivers /proc/crypto lists, so no architecture's names are
 *    fixed here);
 *  - every vector of VECFILE opens through AF_ALG with the expected errno
 *    and plaintext, and every positive step seals back to its ciphertext
 *    (with an open-only key, spec section 2, every seal is -EPERM).
 *
 *   kat-probe VECFILE DRIVER1 DRIVER2 FAILKO OKKO
 *
 * first checks unloading and reloading (issue 34 item 6), with diamond.ko
 * not loaded but its dependencies loaded (modprobe diamond; rmmod
 * diamond): FAILKO, a module built with DIAMOND_SELFTEST_FAIL=1 (its
 * selftest fails one known answer), does not load (EINVAL) while another
 * process binds the instances over and over, leaves nothing to unload,
 * and then OKKO loads, unloads and loads again. A BUG, WARNING or Oops on
 * the way fails run-vm (exit 126); the checks above then run on OKKO.
 */
#define _GNU_SOURCE
#include "afalg_conn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <diamond/spec.h>
#include "lib/vecfile.h"
#include "tap.h"

static const char *const names[] = {
	[DMD_SUITE_AES_GHASH] = "diamond(ctr(aes),ghash)",
	[DMD_SUITE_CHACHA_POLY] = "diamond(chacha20,poly1305)",
};

static void check_log(void)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf = len > 0 ? malloc((size_t)len + 1) : NULL;
	int n = buf ? klogctl(3, buf, len) : -1;	/* READ_ALL */
	const char *pass = NULL, *next;

	if (n >= 0) {
		buf[n] = 0;
		pass = strstr(buf, "diamond: selftest passed");
	}
	tap_result(pass != NULL,
		   "kernel log has the diamond selftest pass line");
	/* The last load's line, with its case count, for the record. */
	while (pass && (next = strstr(pass + 1, "diamond: selftest passed")))
		pass = next;
	if (pass)
		tap_diag("%.*s", (int)strcspn(pass, "\n"), pass);
	/* The module built to fail (FAILKO) logs this too, before. */
	if (n >= 0 && strstr(buf, "diamond: selftest FAILED"))
		tap_diag("the module reported selftest failures");
	free(buf);
}

/*
 * The driver /proc/crypto lists for cra_name @name, or "". With @want:
 * @want if one of the instances of that name is it (the selftest also
 * leaves a synchronous suite 1 instance), else the first. Without (NULL):
 * the one of highest priority among those not internal, which is what an
 * instance built now takes.
 */
static void proc_driver(const char *name, const char *want, char *out,
			size_t outlen)
{
	FILE *f = fopen("/proc/crypto", "r");
	char line[256], cur[160] = "", drv[160] = "";
	long prio = -1, top = -1;
	const char *val;

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		val = strchr(line, ':') ? strchr(line, ':') + 2 : "";
		if (!strncmp(line, "name", 4)) {
			snprintf(cur, sizeof(cur), "%s", val);
			prio = -1;
		} else if (!strncmp(line, "driver", 6)) {
			snprintf(drv, sizeof(drv), "%s", val);
		} else if (!strncmp(line, "priority", 8)) {
			prio = strtol(val, NULL, 10);
		} else if (!strncmp(line, "internal", 8) && !strcmp(val, "yes")) {
			prio = -1;
		} else if (!line[0] && !strcmp(cur, name) &&
			   (want ? !out[0] || !strcmp(drv, want) : prio > top)) {
			snprintf(out, outlen, "%s", drv);
			top = prio;
		}
	}
	fclose(f);
}

/*
 * The driver name an instance must have: @want, or with "auto" the one
 * the module documents (Documentation/kernel-api.rst) from what
 * /proc/crypto holds: suite 1 named after the best ctr(aes) and ghash, or
 * the library code where /proc/crypto lists ctr-aes-lib (7.3), suite 2
 * after the library code it calls. (An instance built on the
 * synchronous inners, as the selftest leaves one, may sit beside it.)
 */
static void want_driver(unsigned int suite, const char *want, char *out,
			size_t outlen)
{
	char stream[160], hash[160];

	if (strcmp(want, "auto")) {
		snprintf(out, outlen, "%s", want);
	} else if (suite == DMD_SUITE_AES_GHASH) {
		/* From 7.3 G runs on the AES-CTR library (diamond_compat.h). */
		proc_driver("ctr(aes)", "ctr-aes-lib", stream, sizeof(stream));
		if (strcmp(stream, "ctr-aes-lib"))
			proc_driver("ctr(aes)", NULL, stream, sizeof(stream));
		proc_driver("ghash", NULL, hash, sizeof(hash));
		/* From 7.1 GHASH is only a library (diamond_compat.h). */
		snprintf(out, outlen, "diamond(%s,%s)", stream,
			 hash[0] ? hash : "ghash-lib");
	} else {
		snprintf(out, outlen, "diamond(chacha20-lib,poly1305-lib)");
	}
}

static void check_instance(unsigned int suite, const char *want)
{
	char driver[160], expect[400];
	/* Bind only: the module's type "diamond" accepts no unkeyed socket. */
	int fd = afalg_bind(names[suite]);

	tap_result(fd >= 0, "AF_ALG binds %s (%s)", names[suite],
		   fd < 0 ? strerror(-fd) : "ok");
	afalg_close(fd);
	want_driver(suite, want, expect, sizeof(expect));
	proc_driver(names[suite], expect, driver, sizeof(driver));
	tap_result(!strcmp(driver, expect), "/proc/crypto: %s driver %s",
		   names[suite], driver[0] ? driver : "(missing)");
	if (strcmp(driver, expect))
		tap_diag("expected %s", expect);
}

static int run_step(struct afalg_conn *open, struct afalg_conn *seal,
		    const struct vec_step *s, int open_only, char *why,
		    size_t whylen)
{
	size_t body = s->ct.len > DMD_TAG_SIZE ? s->ct.len - DMD_TAG_SIZE : 0;
	size_t in_max = s->ad.len + s->ct.len + s->pt.len;
	uint8_t iv[8], *in = malloc(in_max + 1), *out = malloc(in_max + 17);
	int want = vec_expect_errno(s->expect), rc = -1;
	ssize_t n;
	size_t i;

	for (i = 0; i < 8; i++)
		iv[i] = (uint8_t)(s->epoch >> (8 * i));
	if (!in || !out)
		goto out;
	memcpy(in, s->ad.p, s->ad.len);
	memcpy(in + s->ad.len, s->ct.p, s->ct.len);
	n = afalg_conn_op(open, 0, iv, 8, s->ad.len, in, s->ad.len + s->ct.len,
		     out, s->ad.len + body);
	if ((want ? n : (n >= 0 ? 0 : n)) != want) {
		snprintf(why, whylen, "open: got %zd want %d", n, want);
		goto out;
	}
	if (want) {
		rc = 0;
		goto out;
	}
	if ((size_t)n != s->ad.len + body || body != s->pt.len ||
	    memcmp(out + s->ad.len, s->pt.p, body)) {
		snprintf(why, whylen, "open: wrong plaintext");
		goto out;
	}
	memcpy(in + s->ad.len, s->pt.p, s->pt.len);
	n = afalg_conn_op(seal, 1, iv, 8, s->ad.len, in, s->ad.len + s->pt.len,
		     out, s->ad.len + s->ct.len);
	if (open_only) {	/* an open-only key never seals (spec 2) */
		if (n != -EPERM)
			snprintf(why, whylen, "seal: got %zd, want %d (open-only)",
				 n, -EPERM);
		rc = n == -EPERM ? 0 : -1;
		goto out;
	}
	if (n != (ssize_t)(s->ad.len + s->ct.len) ||
	    memcmp(out + s->ad.len, s->ct.p, s->ct.len)) {
		snprintf(why, whylen, "seal: got %zd or wrong ciphertext", n);
		goto out;
	}
	rc = 0;
out:
	free(in);
	free(out);
	return rc;
}

static void check_vector(const struct vec *v)
{
	unsigned int suite = v->key.len > 5 ? v->key.p[5] : 0, i;
	int open_only = v->key.len > DMD_BLOB_OFF_FLAGS &&
			(v->key.p[DMD_BLOB_OFF_FLAGS] & DMD_BLOB_FLAG_OPEN_ONLY);
	struct afalg_conn open = { -1, -1 }, seal = { -1, -1 };
	char why[128] = "";
	int err = -EINVAL;

	if (suite == DMD_SUITE_AES_GHASH || suite == DMD_SUITE_CHACHA_POLY)
		err = afalg_conn_open(&open, names[suite], v->key.p, v->key.len,
				 DMD_TAG_SIZE);
	if (!err)
		err = afalg_conn_open(&seal, names[suite], v->key.p, v->key.len,
				 DMD_TAG_SIZE);
	if (err)
		snprintf(why, sizeof(why), "setup: %s", strerror(-err));
	for (i = 0; !err && i < v->nsteps; i++)
		if (run_step(&open, &seal, &v->step[i], open_only, why,
			     sizeof(why)))
			err = 1;
	tap_result(!err, "vector %s%s%s", v->name, err ? ": " : "", why);
	afalg_conn_close(&open);
	afalg_conn_close(&seal);
}

/* finit_module(2) of @path: 0 or -errno. */
static int load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = (int)syscall(SYS_finit_module, fd, "", 0);
	rc = rc ? -errno : 0;
	close(fd);
	return rc;
}

static int unload(void)
{
	return syscall(SYS_delete_module, "diamond", O_NONBLOCK) ? -errno : 0;
}

static int loaded(void)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[256];
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		found |= !strncmp(line, "diamond ", 8);
	if (f)
		fclose(f);
	return found;
}

/* kernel.modprobe: "" reads it, else writes @set; 0 or -errno. */
static int modprobe_path(char *buf, size_t len, const char *set)
{
	FILE *f = fopen("/proc/sys/kernel/modprobe", set ? "w" : "r");
	int rc = 0;

	if (!f)
		return -errno;
	if (set)
		rc = fputs(set, f) < 0 ? -EIO : 0;
	else if (!fgets(buf, (int)len, f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!set)
		buf[strcspn(buf, "\n")] = 0;
	return rc;
}

static volatile sig_atomic_t binder_stop;

static void on_term(int sig)
{
	(void)sig;
	binder_stop = 1;
}

/*
 * Bind both instances over and over (each tfm held a millisecond) until
 * SIGTERM, and say how the binds ended: while the module's init runs they
 * get no tfm (-EAGAIN), after a failed init there is no algorithm.
 */
static void binder(void)
{
	unsigned long held = 0, again = 0, other = 0;
	struct timespec ms = { 0, 1000000 };
	int fd;

	while (!binder_stop) {
		fd = afalg_bind(names[1 + (held + again + other) % 2]);
		if (fd >= 0) {
			held++;
			nanosleep(&ms, NULL);
			afalg_close(fd);
		} else if (fd == -EAGAIN) {
			again++;
		} else {
			other++;
		}
	}
	printf("# binder: %lu binds got a tfm, %lu EAGAIN, %lu another errno\n",
	       held, again, other);
	fflush(stdout);
	_exit(0);
}

static void check_reload(const char *fail_ko, const char *ok_ko)
{
	char path[256] = "";
	int rc, have_path;
	pid_t pid;

	tap_result(!loaded(), "before the reload checks diamond is not loaded (modprobe diamond; rmmod diamond)");
	/* A bind would have the kernel load diamond.ko again: not now. */
	have_path = !modprobe_path(path, sizeof(path), NULL) &&
		    !modprobe_path(NULL, 0, "/nonexistent/modprobe");
	fflush(stdout);
	signal(SIGTERM, on_term);
	pid = fork();
	if (pid == 0)
		binder();
	signal(SIGTERM, SIG_DFL);
	rc = load(fail_ko);
	tap_result(rc == -EINVAL,
		   "a module whose selftest fails (DIAMOND_SELFTEST_FAIL=1) does not load, binds racing it: EINVAL (got %s)",
		   strerror(-rc));
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	tap_result(!loaded(), "nothing of it stays loaded");
	rc = unload();
	tap_result(rc == -ENOENT, "rmmod diamond after it: nothing to unload, ENOENT (got %s)",
		   strerror(-rc));
	if (have_path)
		modprobe_path(NULL, 0, path);
	rc = load(ok_ko);
	tap_result(!rc, "then the normal module loads (got %s)", strerror(-rc));
	rc = unload();
	tap_result(!rc, "unloads (got %s)", strerror(-rc));
	rc = load(ok_ko);
	tap_result(!rc, "and loads again (got %s)", strerror(-rc));
}

int main(int argc, char **argv)
{
	struct vec_file *vf;
	const struct vec *v;

	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: kat-probe VECFILE DRIVER1 DRIVER2 [FAILKO OKKO]\n");
		return 2;
	}
	tap_header();
	if (argc == 6)
		check_reload(argv[4], argv[5]);
	check_log();
	check_instance(DMD_SUITE_AES_GHASH, argv[2]);
	check_instance(DMD_SUITE_CHACHA_POLY, argv[3]);
	vf = vec_open(argv[1]);
	tap_result(vf != NULL, "vector file %s opens", argv[1]);
	while (vf && (v = vec_next(vf)))
		check_vector(v);
	vec_close(vf);
	tap_trailing_plan();
	return tap_failed ? 1 : 0;
}
