// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_kcapi_enc: Debian's kcapi-enc (kcapi-tools 1.4.0, a real AF_ALG
 * client) against the diamond module, with known-answer vectors of both
 * suites. kcapi-enc and the shared objects it needs are copied into the
 * guest under $KCAPI_ENC_DIR (default /opt/kcapi: bin/kcapi-enc, lib/ with
 * ld-linux, libc, libkcapi and dmd_keyshim.so) and started through that
 * dynamic loader.
 *  1. Stock kcapi-enc with --keyfd: it reads at most 32 key bytes, so the
 *     blob arrives cut and the module must refuse it; kcapi-enc must fail
 *     and emit no ciphertext.
 *  2. The same command with dmd_keyshim.so preloaded (it swaps the cut key
 *     for the whole blob at kcapi_aead_setkey, nothing else): encrypt
 *     (--iv le64 epoch, --aad, --taglen 16) must give AD || ct || tag of the
 *     vector; decrypt (--tag) must give AD || pt; a flipped tag must make
 *     kcapi-enc fail with EBADMSG and write no plaintext.
 * TAP 13; exit 4 when kcapi-enc or the diamond algorithms are missing.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/vecfile.h"
#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

/* Vector, step: one epoch with AD (kcapi-enc cannot send an empty AAD). */
static const struct {
	const char *name;
	unsigned int step;
} picks[] = {
	{ "d1-xor-b1-len64-ad", 0 },
	{ "d1-add-b16-all-sizes", 0 },
	{ "d1-xor-b1024-len16", 0 },
	{ "d2-add-b1-len1500-ad", 0 },
	{ "d2-xor-b16-all-sizes", 1 },
};

static char dir[256], tmpd[] = "/tmp/dmd-kcapi-enc.XXXXXX";
/* The dynamic loader in dir/lib, whatever the architecture calls it. */
static char loader[300 + 256];

static void hex(char *dst, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(dst + 2 * i, "%02x", p[i]);
	dst[2 * n] = 0;
}

static int write_file(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t w = fd < 0 ? -1 : write(fd, p, n);

	if (fd >= 0)
		close(fd);
	return w == (ssize_t)n ? 0 : -1;
}

static uint8_t *read_file(const char *path, size_t *n)
{
	struct stat sb;
	uint8_t *p;
	int fd = open(path, O_RDONLY);

	*n = 0;
	if (fd < 0 || fstat(fd, &sb)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	p = malloc((size_t)sb.st_size + 1);
	*n = (size_t)read(fd, p, (size_t)sb.st_size);
	close(fd);
	return p;
}

/*
 * Find dir/lib/ld-linux*.so* (ld-linux-x86-64.so.2, ld-linux-aarch64.so.1):
 * the guest carries the loader of the architecture kcapi-enc was built for.
 */
static int find_loader(void)
{
	char libdir[300];
	struct dirent *e;
	DIR *d;

	snprintf(libdir, sizeof(libdir), "%s/lib", dir);
	d = opendir(libdir);
	loader[0] = 0;
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "ld-linux", 8) && strstr(e->d_name, ".so")) {
			snprintf(loader, sizeof(loader), "%s/%s", libdir, e->d_name);
			break;
		}
	if (d)
		closedir(d);
	return loader[0] ? 0 : -1;
}

/*
 * Run kcapi-enc with @args (NULL-terminated) and the blob on fd 3. Returns
 * the exit status as a signed byte (kcapi-enc exits with -errno), or -1000
 * when it could not run: no fork, a signal, or exit status 127, which is
 * the exec failing or the loader missing a library. -1000 never counts as
 * a result, so a kcapi-enc that cannot run fails its checks instead of
 * passing those that expect a refusal. stderr goes to @errfile.
 */
static int run(const uint8_t *blob, size_t bloblen, int shim,
	       const char *errfile, char *const *args)
{
	char libs[300], pre[300], prog[300], shimenv[300];
	char *argv[40];
	int p[2], status, n = 0, i;
	pid_t pid;

	snprintf(libs, sizeof(libs), "%s/lib", dir);
	snprintf(pre, sizeof(pre), "%s/lib/dmd_keyshim.so", dir);
	snprintf(prog, sizeof(prog), "%s/bin/kcapi-enc", dir);
	snprintf(shimenv, sizeof(shimenv), "DMD_KEYSHIM_BLOB=%s/blob", tmpd);
	argv[n++] = loader;
	argv[n++] = "--library-path";
	argv[n++] = libs;
	if (shim) {
		argv[n++] = "--preload";
		argv[n++] = pre;
	}
	argv[n++] = prog;
	for (i = 0; args[i] && n < 38; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	if (pipe(p))
		return -1000;
	if (write(p[1], blob, bloblen) != (ssize_t)bloblen)
		return -1000;
	close(p[1]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int e = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600),
		    nul = open("/dev/null", O_RDWR);

		dup2(nul, 0);
		dup2(nul, 1);
		dup2(e, 2);
		dup2(p[0], 3);
		if (shim)
			putenv(shimenv);
		execv(loader, argv);
		_exit(127);
	}
	close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1000;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return -1000;
	return (signed char)WEXITSTATUS(status);
}

static void show_stderr(const char *errfile)
{
	size_t n, i, start = 0;
	uint8_t *p = read_file(errfile, &n);

	for (i = 0; p && i < n; i++)
		if (p[i] == '\n') {
			tap_diag("kcapi-enc: %.*s", (int)(i - start),
				 (char *)p + start);
			start = i + 1;
		}
	free(p);
}

/* @out (n bytes) is @want followed only by zeros (kcapi-enc pads files). */
static int matches(const uint8_t *out, size_t n, const uint8_t *want,
		   size_t wlen)
{
	size_t i;

	if (n < wlen || memcmp(out, want, wlen))
		return 0;
	for (i = wlen; i < n; i++)
		if (out[i])
			return 0;
	return 1;
}

static void one(const struct vec *v, const struct vec_step *s)
{
	char name[64], ivh[17], *adh = malloc(2 * s->ad.len + 1),
	     tagh[33], in[300], out[300], blobf[300], errf[300];
	size_t bodylen = s->pt.len, n, wlen;
	uint8_t iv[8], *got, *want = malloc(s->ad.len + s->ct.len), tag[16];
	unsigned int i;
	int rc;

	if (!s->ad.len) {	/* kcapi-enc refuses --aad "" (hex2bin_alloc) */
		tap_skip("kcapi-enc cannot send an empty AAD", v->name);
		free(adh);
		free(want);
		return;
	}
	snprintf(name, sizeof(name), "%s", dmd_alg_name(v->key.p[5]));
	for (i = 0; i < 8; i++)
		iv[i] = (uint8_t)(s->epoch >> (8 * i));
	hex(ivh, iv, 8);
	hex(adh, s->ad.p, s->ad.len);
	snprintf(in, sizeof(in), "%s/in", tmpd);
	snprintf(out, sizeof(out), "%s/out", tmpd);
	snprintf(blobf, sizeof(blobf), "%s/blob", tmpd);
	snprintf(errf, sizeof(errf), "%s/stderr", tmpd);
	write_file(blobf, v->key.p, v->key.len);

	/* 1. stock kcapi-enc: the blob arrives cut to 32 bytes */
	write_file(in, s->pt.p, s->pt.len);
	unlink(out);
	{
		char *args[] = { "-c", name, "--keyfd", "3", "--iv", ivh,
				 "--aad", adh, "--taglen", "16", "-i", in,
				 "-o", out, "--nounpad", NULL };

		rc = run(v->key.p, v->key.len, 0, errf, args);
		got = read_file(out, &n);
		if (!tap_result(rc != 0 && rc != -1000 &&
				!(got && n >= s->ct.len && memmem(got, n, s->ct.p, 16)),
				"%s: stock kcapi-enc --keyfd reads 32 of %zu blob bytes; the module refuses the cut blob",
				v->name, v->key.len)) {
			tap_diag("expected a failure without ciphertext, got exit %d, %zu output bytes",
				 rc, n);
			show_stderr(errf);
		}
		free(got);
	}

	/* 2. encrypt with the key shim */
	unlink(out);
	{
		char *args[] = { "-c", name, "--keyfd", "3", "--iv", ivh,
				 "--aad", adh, "--taglen", "16", "-i", in,
				 "-o", out, "--nounpad", NULL };

		memcpy(want, s->ad.p, s->ad.len);
		memcpy(want + s->ad.len, s->ct.p, s->ct.len);
		wlen = s->ad.len + s->ct.len;
		rc = run(v->key.p, v->key.len, 1, errf, args);
		got = read_file(out, &n);
		if (!tap_result(rc == 0 && got && matches(got, n, want, wlen),
				"%s step %u: kcapi-enc encrypt = AD || ct || tag of the vector",
				v->name, s - v->step)) {
			tap_diag("expected exit 0 and %zu bytes, got exit %d and %zu bytes%s",
				 wlen, rc, n,
				 got && n >= s->ct.len &&
				 !memcmp(got, s->ct.p, s->ct.len) ?
				 " (ct || tag without the AD)" : "");
			show_stderr(errf);
		}
		free(got);
	}

	/* 3. decrypt with the key shim */
	write_file(in, s->ct.p, bodylen);
	memcpy(tag, s->ct.p + bodylen, 16);
	hex(tagh, tag, 16);
	unlink(out);
	{
		char *args[] = { "-c", name, "-d", "--keyfd", "3", "--iv", ivh,
				 "--aad", adh, "--tag", tagh, "-i", in,
				 "-o", out, "--nounpad", NULL };

		memcpy(want, s->ad.p, s->ad.len);
		memcpy(want + s->ad.len, s->pt.p, s->pt.len);
		wlen = s->ad.len + s->pt.len;
		rc = run(v->key.p, v->key.len, 1, errf, args);
		got = read_file(out, &n);
		if (!tap_result(rc == 0 && got && matches(got, n, want, wlen),
				"%s step %u: kcapi-enc decrypt = AD || pt of the vector",
				v->name, s - v->step)) {
			tap_diag("expected exit 0 and %zu bytes, got exit %d and %zu bytes",
				 wlen, rc, n);
			show_stderr(errf);
		}
		free(got);
	}

	/* 4. decrypt with a flipped tag bit */
	tag[7] ^= 0x10;
	hex(tagh, tag, 16);
	unlink(out);
	{
		char *args[] = { "-c", name, "-d", "--keyfd", "3", "--iv", ivh,
				 "--aad", adh, "--tag", tagh, "-i", in,
				 "-o", out, "--nounpad", NULL };

		rc = run(v->key.p, v->key.len, 1, errf, args);
		got = read_file(out, &n);
		if (!tap_result(rc == -EBADMSG &&
				!(got && s->pt.len >= 8 &&
				  memmem(got, n, s->pt.p + s->pt.len - 8, 8)),
				"%s step %u: kcapi-enc decrypt with a flipped tag -> EBADMSG, no plaintext",
				v->name, s - v->step)) {
			tap_diag("expected exit -EBADMSG (%d), got %d", -EBADMSG, rc);
			show_stderr(errf);
		}
		free(got);
	}
	free(adh);
	free(want);
}

int main(int argc, char **argv)
{
	const char *path = dmd_vectors_path(argc, argv), *d = getenv("KCAPI_ENC_DIR");
	char prog[300];
	struct vec_file *vf;
	const struct vec *v;
	size_t i;
	int fd;

	tap_header();
	snprintf(dir, sizeof(dir), "%s", d && *d ? d : "/opt/kcapi");
	snprintf(prog, sizeof(prog), "%s/bin/kcapi-enc", dir);
	if (access(prog, X_OK)) {
		tap_skip("kcapi-enc not installed in the guest", "diamond_kcapi_enc");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	if (find_loader()) {
		tap_skip("no ld-linux*.so* beside kcapi-enc", "diamond_kcapi_enc");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	/* kcapi-enc binds type "aead" only, never the module's "diamond". */
	fd = afalg_bind_type("aead", DMD_ALG_SUITE1);
	if (fd < 0) {
		tap_diag("bind aead %s: %s", DMD_ALG_SUITE1, dmd_errname(fd));
		if (fd == -ENOENT) {
			fd = afalg_bind(DMD_ALG_SUITE1);
			afalg_close(fd);
		}
		tap_skip(fd >= 0 ?
			 "type aead refuses the instances (crypto.af_alg_restrict=1), and kcapi-enc binds no other type" :
			 "diamond AEAD not available", "diamond_kcapi_enc");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	afalg_close(fd);
	if (!mkdtemp(tmpd) || !(vf = vec_open(path))) {
		tap_result(0, "temporary directory and %s", path);
		tap_trailing_plan();
		return TAP_EXIT_FAIL;
	}
	while ((v = vec_next(vf)))
		for (i = 0; i < sizeof(picks) / sizeof(picks[0]); i++)
			if (!strcmp(v->name, picks[i].name) &&
			    picks[i].step < v->nsteps &&
			    !strcmp(v->step[picks[i].step].expect, "ok"))
				one(v, &v->step[picks[i].step]);
	vec_close(vf);
	tap_result(tap_count >= 4 * sizeof(picks) / sizeof(picks[0]),
		   "all %zu picked vectors found", sizeof(picks) / sizeof(picks[0]));
	tap_trailing_plan();
	return tap_finish();
}
