// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_afalgtype: the module's own AF_ALG type "diamond"
 * (Documentation/kernel-api.rst, "The diamond socket type"), the gateway's
 * path at 7.3's default crypto.af_alg_restrict=1. Run as root; the sysctl
 * is read, never written.
 *
 *  1. Where the sysctl is 1, type "aead" refuses both instances (ENOENT,
 *     root included): the standard path is closed (a SKIP before 7.x).
 *  2. Type "diamond" binds both instances as root, and an epoch the
 *     portable core sealed opens through it to the core's plaintext; one
 *     it seals is the core's ciphertext byte for byte; a flipped tag bit
 *     is EBADMSG and copies nothing out.
 *  3. An output buffer one byte short is EINVAL and leaves the request
 *     queued: a full-sized read then opens it.
 *  4. Names that are not Diamond instances are ENOENT on type "diamond":
 *     ccm(aes), the one name algif_aead's allowlist holds, gcm(aes) and
 *     authencesn(hmac(sha256),cbc(aes)).
 *  5. uid/gid 65534 without capabilities: bind is EPERM. With the module
 *     parameter afalg_gid set to 65534 the same process binds and opens;
 *     the parameter is restored afterwards.
 * TAP 13; exit 4 when the type or the diamond algorithms are missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

#define RESTRICT	"/proc/sys/crypto/af_alg_restrict"
#define GIDPARAM	"/sys/module/diamond/parameters/afalg_gid"
#define NOBODY		65534
#define PTLEN		64
#define ADLEN		13

struct epoch {
	uint8_t blob[DMD_BLOB_MAX];
	size_t bloblen;
	uint8_t ad[ADLEN], pt[PTLEN], ct[PTLEN + 64];
	size_t ctlen;
};

static int read_int(const char *path, long *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* A random key for @suite and one epoch 0 the core sealed under it. */
static int make_epoch(struct dmd_rng *r, unsigned int suite, struct epoch *ep)
{
	struct dmd_state st;
	size_t n;

	ep->bloblen = dmd_make_blob(r, ep->blob, suite, 0, 4, 0);
	if (dmd_blob_parse(&st, ep->blob, ep->bloblen))
		return -EINVAL;
	dmd_rand_bytes(r, ep->ad, sizeof(ep->ad));
	n = dmd_rand_body(r, ep->pt, 2, 16);
	if (n > sizeof(ep->pt))
		return -EOVERFLOW;
	if (dmd_core_seal_at(&st, 0, ep->ad, sizeof(ep->ad), ep->pt, n,
			     ep->ct))
		return -EINVAL;
	ep->ctlen = n + DMD_TAG_SIZE;
	return (int)n;
}

/* A "diamond" tfm keyed with @ep's blob, authsize 16; fd or -errno. */
static int type_tfm(unsigned int suite, const struct epoch *ep)
{
	int fd = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
	int err;

	if (fd < 0)
		return fd;
	err = dmd_rekey(fd, ep->blob, ep->bloblen);
	if (err) {
		afalg_close(fd);
		return err;
	}
	return fd;
}

static void check_standard_closed(unsigned int suite)
{
	long v;
	int fd;

	if (read_int(RESTRICT, &v)) {
		tap_skip("no af_alg_restrict sysctl (before 7.x)",
			 "type aead refuses the instance at af_alg_restrict=1");
		return;
	}
	if (v != 1) {
		tap_skip("af_alg_restrict is not 1 here",
			 "type aead refuses the instance at af_alg_restrict=1");
		return;
	}
	fd = afalg_bind_type("aead", dmd_alg_name(suite));
	afalg_close(fd);
	tap_result(fd == -ENOENT,
		   "suite%u: af_alg_restrict=1: type aead refuses %s for root: %s",
		   suite, dmd_alg_name(suite), dmd_errname(fd < 0 ? fd : 0));
}

/* 2: the known answers both ways and a forged tag. */
static void check_roundtrip(unsigned int suite, struct epoch *ep, int ptlen)
{
	uint8_t out[PTLEN + 64], bad[PTLEN + 64];
	int fd = type_tfm(suite, ep), leak = 0, err;

	if (!tap_result(fd >= 0, "suite%u: type diamond binds %s as root: %s",
			suite, dmd_alg_name(suite),
			dmd_errname(fd < 0 ? fd : 0)))
		return;
	err = dmd_kopen(fd, 1, 0, ep->ad, ADLEN, ep->ct, ep->ctlen, out,
			ep->pt, &leak);
	tap_result(!err && !memcmp(out, ep->pt, (size_t)ptlen),
		   "suite%u: type diamond opens the core's epoch: %s", suite,
		   dmd_errname(err));
	afalg_close(fd);

	fd = type_tfm(suite, ep);
	err = fd < 0 ? fd : dmd_kseal(fd, 1, 0, ep->ad, ADLEN, ep->pt,
				      (size_t)ptlen, out);
	tap_result(!err && !memcmp(out, ep->ct, ep->ctlen),
		   "suite%u: type diamond seals the core's ciphertext: %s",
		   suite, dmd_errname(err));
	afalg_close(fd);

	fd = type_tfm(suite, ep);
	memcpy(bad, ep->ct, ep->ctlen);
	bad[ep->ctlen - 1] ^= 1;
	err = fd < 0 ? fd : dmd_kopen(fd, 1, 0, ep->ad, ADLEN, bad, ep->ctlen,
				      out, ep->pt, &leak);
	tap_result(err == -EBADMSG && !leak,
		   "suite%u: type diamond: a flipped tag bit is EBADMSG, no plaintext out: %s",
		   suite, dmd_errname(err));
	afalg_close(fd);
}

/* 3: a short output buffer is refused and the request stays queued. */
static void check_short_read(unsigned int suite, struct epoch *ep, int ptlen)
{
	uint8_t in[ADLEN + PTLEN + 64], out[ADLEN + PTLEN + 64], iv[8];
	size_t inlen = ADLEN + ep->ctlen, outlen = ADLEN + (size_t)ptlen;
	int fd = type_tfm(suite, ep), op;
	ssize_t n1 = -EBADF, n2 = -EBADF;

	memcpy(in, ep->ad, ADLEN);
	memcpy(in + ADLEN, ep->ct, ep->ctlen);
	memset(iv, 0, sizeof(iv));	/* le64(epoch 0) */
	op = fd < 0 ? fd : afalg_accept(fd);
	if (op >= 0) {
		n1 = afalg_aead_op(op, 0, iv, sizeof(iv), ADLEN, in, inlen,
				   out, outlen - 1);
		n2 = recv(op, out, outlen, MSG_DONTWAIT);
		n2 = n2 < 0 ? -errno : n2;
	}
	tap_result(n1 == -EINVAL && n2 == (ssize_t)outlen &&
		   !memcmp(out + ADLEN, ep->pt, (size_t)ptlen),
		   "suite%u: type diamond: a read 1 byte short is EINVAL (%s), the full read then opens (%zd of %zu)",
		   suite, dmd_errname(n1 < 0 ? (int)n1 : 0), n2, outlen);
	afalg_close(op);
	afalg_close(fd);
}

/* 4: nothing but diamond instances. */
static void check_foreign_names(void)
{
	static const char *const names[] = {
		"ccm(aes)", "gcm(aes)", "authencesn(hmac(sha256),cbc(aes))",
		"diamondx(ctr(aes),ghash)",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int fd = afalg_bind_type(AFALG_DIAMOND_TYPE, names[i]);

		afalg_close(fd);
		tap_result(fd == -ENOENT, "type diamond refuses %s: %s",
			   names[i], dmd_errname(fd < 0 ? fd : 0));
	}
}

/* In a child as uid/gid 65534: bind (and open) status, 0 for success. */
static int as_nobody(unsigned int suite, struct epoch *ep, int ptlen)
{
	uint8_t out[PTLEN + 64];
	pid_t pid = fork();
	int status, fd, err;

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		fd = type_tfm(suite, ep);
		if (fd < 0)
			_exit(fd == -EPERM ? 1 : fd == -EACCES ? 2 : 3);
		err = dmd_kopen(fd, 1, 0, ep->ad, ADLEN, ep->ct, ep->ctlen,
				out, NULL, NULL);
		_exit(!err && !memcmp(out, ep->pt, (size_t)ptlen) ? 0 : 4);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -ECHILD;
	return WEXITSTATUS(status);
}

/* 5: privilege, by capability or by the group of afalg_gid. */
static void check_privilege(unsigned int suite, struct epoch *ep, int ptlen)
{
	char was[32] = "", val[32];
	FILE *f = fopen(GIDPARAM, "r");
	int st;

	st = as_nobody(suite, ep, ptlen);
	tap_result(st == 1,
		   "suite%u: uid/gid %d without CAP_NET_ADMIN: bind is EPERM (child status %d)",
		   suite, NOBODY, st);
	if (!f || !fgets(was, sizeof(was), f)) {
		if (f)
			fclose(f);
		tap_skip("no " GIDPARAM, "afalg_gid lets its group bind");
		return;
	}
	fclose(f);
	snprintf(val, sizeof(val), "%d", NOBODY);
	if (dmd_write_str(GIDPARAM, val)) {
		tap_result(0, "suite%u: set afalg_gid=%d", suite, NOBODY);
		return;
	}
	st = as_nobody(suite, ep, ptlen);
	if (dmd_write_str(GIDPARAM, was))
		tap_diag("could not restore afalg_gid=%s", was);
	tap_result(st == 0,
		   "suite%u: afalg_gid=%d: gid %d binds and opens (child status %d)",
		   suite, NOBODY, NOBODY, st);
}

int main(void)
{
	struct dmd_rng r = { dmd_seed() };
	unsigned int suite, any = 0;
	struct epoch ep;
	int fd, n;

	tap_header();
	tap_diag("seed %llu", (unsigned long long)r.s);
	if (geteuid()) {
		tap_skip("needs root", "diamond_afalgtype");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	for (suite = 1; suite <= 2; suite++) {
		fd = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
		if (fd == -ENOENT || fd == -EAFNOSUPPORT) {
			tap_diag("type diamond %s: %s", dmd_alg_name(suite),
				 dmd_errname(fd));
			tap_skip("no AF_ALG type diamond", dmd_alg_name(suite));
			continue;
		}
		afalg_close(fd);
		n = make_epoch(&r, suite, &ep);
		if (!tap_result(n > 0, "suite%u: core seals a reference epoch",
				suite))
			continue;
		any = 1;
		check_standard_closed(suite);
		check_roundtrip(suite, &ep, n);
		check_short_read(suite, &ep, n);
		check_privilege(suite, &ep, n);
	}
	if (any)
		check_foreign_names();
	tap_trailing_plan();
	return any ? tap_finish() : TAP_EXIT_SKIP;
}
