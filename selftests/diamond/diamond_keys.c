// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_keys: the module's key type "diamond" (Documentation/
 * kernel-api.rst, "The key type diamond") and device keys by reference
 * ("Setkey forms"). Run as root, in a session keyring of its own:
 *
 *  1. Who may add what: root adds "diamond:wrap" (32 bytes) and
 *     "diamond:<id>"; a wrong size, a description with a zero ahead, no
 *     number or another prefix is EINVAL; uid 65534 adding either is
 *     EPERM, so no process can plant a key that shadows the loader's.
 *  2. No way out: keyctl read and keyctl update of a key of the type are
 *     EOPNOTSUPP, even for a possessor granted read and write.
 *  3. Usable by nothing else (6.2 and later, a SKIP on 6.1): each key by
 *     serial (ALG_SET_KEY_BY_KEY_SERIAL) on skcipher chacha20 and
 *     ecb(aes), hash hmac(sha256), aead rfc7539(chacha20,poly1305) and the
 *     module's own type is ENOPROTOOPT, while a user key with the same
 *     bytes keys chacha20, or ecb(aes) where af_alg_restrict refuses
 *     chacha20 (the control: the check can fail).
 *  4. References: one naming the loader's key keys a tfm that opens what
 *     the key opens and refuses encrypt (EPERM); one naming no key is
 *     ENOKEY, a revoked key ENOKEY or EKEYREVOKED, a malformed reference, another
 *     suite, a payload that may seal or names another device EINVAL; each
 *     refusal leaves the tfm keyless (accept ENOKEY).
 * TAP 13; exit 4 when the type "diamond" (AF_ALG or key) is missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <diamond/core.h>
#include <diamond/util.h>

#include "tap.h"
#include "afalg.h"
#include "dmd_keys.h"
#include "dmd_test.h"

#define NOBODY		65534
#define DEV		4242u
#define SESSION		KEY_SPEC_SESSION_KEYRING

/* A version 1 blob of @suite for device @dev with @flags; its length. */
static size_t blob_of(unsigned int suite, uint32_t dev, uint8_t flags,
		      uint8_t *out)
{
	struct dmd_state st;

	memset(&st, 0, sizeof(st));
	st.suite = (uint8_t)suite;
	st.b = 4;
	st.device_id = dev;
	st.epoch = 7;
	st.flags = flags;
	memset(st.key, 0x3c, sizeof(st.key));
	dmd_blob_write(out, &st);
	dmd_wipe(&st, sizeof(st));
	return dmd_blob_size(suite);
}

static int add(const char *desc, const void *p, size_t len)
{
	return dmd_key_add(DMD_KEY_TYPE, desc, p, len, SESSION);
}

/* 1: descriptions and sizes, as root. */
static void vetting(void)
{
	static const char *const bad_desc[] = {
		"diamond:07", "diamond:", "diamond:x1", "diamond:4294967296",
		"other:5", "diamond:wrapper",
	};
	uint8_t blob[DMD_BLOB_MAX], wkey[DMD_WRAP_KEY_SIZE] = { 0 };
	size_t n = blob_of(1, 5, DMD_BLOB_FLAG_OPEN_ONLY, blob), i;
	unsigned int wrong = 0;
	int err;

	for (i = 0; i < sizeof(bad_desc) / sizeof(bad_desc[0]); i++) {
		err = add(bad_desc[i], blob, n);
		if (err != -EINVAL && !wrong++)
			tap_diag("add %s: %s, want EINVAL", bad_desc[i],
				 dmd_errname(err < 0 ? err : 0));
	}
	tap_result(!wrong, "a description other than diamond:wrap or diamond:<decimal id> is EINVAL (%u wrong)",
		   wrong);
	err = add(DMD_WRAP_KEY_DESC, wkey, sizeof(wkey) - 1);
	tap_result(err == -EINVAL, "diamond:wrap of 31 bytes: %s (want EINVAL)",
		   dmd_errname(err < 0 ? err : 0));
	err = add("diamond:5", blob, 8);
	tap_result(err == -EINVAL, "diamond:5 of 8 bytes: %s (want EINVAL)",
		   dmd_errname(err < 0 ? err : 0));
}

/* 1, in a child as uid 65534: both adds refused, the errnos folded. */
static int nobody_adds(void)
{
	uint8_t blob[DMD_BLOB_MAX], wkey[DMD_WRAP_KEY_SIZE] = { 0 };
	size_t n = blob_of(1, DEV, DMD_BLOB_FLAG_OPEN_ONLY, blob);
	long a, b;

	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return 100;
	a = syscall(SYS_add_key, DMD_KEY_TYPE, DMD_WRAP_KEY_DESC, wkey,
		    sizeof(wkey), KEY_SPEC_THREAD_KEYRING);
	if (a >= 0 || errno != EPERM)
		return 1;
	b = syscall(SYS_add_key, DMD_KEY_TYPE, "diamond:4242", blob, n,
		    KEY_SPEC_THREAD_KEYRING);
	return b >= 0 || errno != EPERM ? 2 : 0;
}

static void unprivileged(void)
{
	int status = -1;
	pid_t pid = fork();

	if (!pid)
		_exit(nobody_adds());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		status = -1;
	else
		status = WEXITSTATUS(status);
	tap_result(status == 0,
		   "uid 65534 cannot add a key of type diamond: diamond:wrap and diamond:<id> are EPERM (status %d: 1 wrap, 2 device)",
		   status);
}

/*
 * 2: a key of @desc can be neither read nor rewritten, by the type itself.
 * With no update method the kernel grants no write at add_key, so the
 * possessor is given write (and had read, search, setattr) first: the
 * loader's permissions alone would refuse both before the type is asked.
 */
static void no_way_out(const char *desc, const void *p, size_t len)
{
	long id = syscall(SYS_add_key, DMD_KEY_TYPE, desc, p, len,
			  KEY_SPEC_THREAD_KEYRING);
	int rerr = -EBADF, uerr = -EBADF;
	uint8_t buf[256];

	if (id >= 0) {
		dmd_keyctl(KEYCTL_SETPERM, (unsigned long)id,
			   DMD_LOADER_PERM | DMD_KEY_POS_READ |
			   DMD_KEY_POS_WRITE, 0);
		rerr = dmd_keyctl(KEYCTL_READ, (unsigned long)id,
				  (unsigned long)buf, sizeof(buf)) < 0 ?
		       -errno : 0;
		uerr = syscall(SYS_keyctl, KEYCTL_UPDATE, id, p, len, 0UL) < 0 ?
		       -errno : 0;
		dmd_keyctl(KEYCTL_UNLINK, (unsigned long)id,
			   KEY_SPEC_THREAD_KEYRING, 0);
	}
	tap_result(rerr == -EOPNOTSUPP && uerr == -EOPNOTSUPP,
		   "%s, possessor with read and write: keyctl read %s, keyctl update %s (want EOPNOTSUPP)",
		   desc, dmd_errname(rerr), dmd_errname(uerr));
}

/* @serial by serial on @type/@name: the setsockopt's errno, 0, or bind's. */
static int by_serial_on(const char *type, const char *name, int serial)
{
	int fd = afalg_bind_type(type, name), err;

	if (fd < 0)
		return fd;
	err = dmd_setkey_serial(fd, serial);
	afalg_close(fd);
	return err;
}

/* 3: the keys @ids[] by serial on every algorithm of the list. */
static void nothing_else(const int *ids, unsigned int nids)
{
	static const char *const algs[][2] = {
		{ "skcipher", "chacha20" },
		{ "skcipher", "ecb(aes)" },
		{ "hash", "hmac(sha256)" },
		{ "aead", "rfc7539(chacha20,poly1305)" },
		{ AFALG_DIAMOND_TYPE, DMD_ALG_SUITE1 },
		{ AFALG_DIAMOND_TYPE, DMD_ALG_SUITE2 },
	};
	uint8_t same[DMD_WRAP_KEY_SIZE] = { 0 };
	unsigned int i, k, tried = 0, wrong = 0;
	int user, err;

	if (dmd_by_serial() <= 0) {
		tap_skip("no ALG_SET_KEY_BY_KEY_SERIAL (before 6.2)",
			 "keys by serial");
		return;
	}
	user = dmd_key_add("user", "diamond-test:same", same, sizeof(same),
			   SESSION);
	/* 7.x's af_alg_restrict=1 refuses chacha20's bind: then ecb(aes). */
	err = user < 0 ? user : by_serial_on("skcipher", "chacha20", user);
	i = err == -ENOENT;
	if (i)
		err = by_serial_on("skcipher", "ecb(aes)", user);
	tap_result(!err, "control: a user key of 32 bytes keys %s by serial (%s)",
		   i ? "ecb(aes)" : "chacha20", dmd_errname(err));
	if (user >= 0)
		dmd_keyctl(KEYCTL_UNLINK, (unsigned long)user, SESSION, 0);
	for (k = 0; k < nids; k++)
		for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
			err = by_serial_on(algs[i][0], algs[i][1], ids[k]);
			if (err == -ENOENT || err == -EAFNOSUPPORT)
				continue;	/* no such algorithm here */
			tried++;
			if (err != -ENOPROTOOPT && !wrong++)
				tap_diag("key %d on %s %s: %s", ids[k],
					 algs[i][0], algs[i][1],
					 dmd_errname(err));
		}
	tap_result(tried && !wrong,
		   "the diamond keys by serial on skcipher, hash, aead and the diamond type: ENOPROTOOPT (%u tried, %u wrong)",
		   tried, wrong);
}

/*
 * A tfm of @suite given @in: the setkey's errno (0 when keyed) and, when
 * refused, whether accept then says ENOKEY (*@keyless).
 */
static int key_with(unsigned int suite, const void *in, size_t len,
		    int *keyless)
{
	int fd = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
	uint8_t clear[DMD_BLOB_MAX];
	int err, op;

	if (fd < 0)
		return fd;
	/* Keyed first, so a refusal has an old key to end. */
	err = afalg_setkey(fd, clear, blob_of(suite, 1, 0, clear));
	if (!err)
		err = afalg_setkey(fd, in, len);
	else
		tap_diag("clear setkey: %s", dmd_errname(err));
	op = afalg_accept(fd);
	*keyless = op == -ENOKEY;
	afalg_close(op);
	afalg_close(fd);
	return err;
}

/* 4: what a reference keys, and each refusal. */
static void references(void)
{
	uint8_t ref[DMD_REF_SIZE], blob[DMD_BLOB_MAX], mine[DMD_BLOB_MAX];
	size_t n = blob_of(1, DEV, DMD_BLOB_FLAG_OPEN_ONLY, blob);
	uint8_t ct[64];
	int id, err, keyless, fd;

	/* Default permissions: the owner may revoke it below. */
	id = (int)syscall(SYS_add_key, DMD_KEY_TYPE, "diamond:4242", blob, n,
			  SESSION);
	dmd_key_ref(ref, 1, DEV);
	fd = afalg_bind_type(AFALG_DIAMOND_TYPE, DMD_ALG_SUITE1);
	err = fd < 0 ? fd : afalg_setkey(fd, ref, sizeof(ref));
	if (!err)
		err = afalg_setauthsize(fd, DMD_TAG_SIZE);
	tap_result(id > 0 && !err, "a reference to diamond:4242 keys a tfm (%s)",
		   dmd_errname(err));
	err = fd < 0 ? fd : dmd_kseal(fd, 1, 7, NULL, 0,
				      (const uint8_t *)"\x01\x00x", 3, ct);
	tap_result(err == -EPERM, "its key is open-only: encrypt %s (want EPERM)",
		   dmd_errname(err));
	afalg_close(fd);

	dmd_key_ref(ref, 1, DEV + 1);
	err = key_with(1, ref, sizeof(ref), &keyless);
	tap_result(err == -ENOKEY && keyless,
		   "a reference to a device with no key: %s (want ENOKEY), tfm keyless",
		   dmd_errname(err));
	dmd_key_ref(ref, 2, DEV);
	err = key_with(1, ref, sizeof(ref), &keyless);
	tap_result(err == -EINVAL && keyless,
		   "a reference naming suite 2 on a suite 1 tfm: %s (want EINVAL), keyless",
		   dmd_errname(err));
	dmd_key_ref(ref, 1, DEV);
	ref[DMD_REF_OFF_VERSION] = 2;
	err = key_with(1, ref, sizeof(ref), &keyless);
	tap_result(err == -EINVAL && keyless,
		   "a reference of version 2: %s (want EINVAL), keyless",
		   dmd_errname(err));
	dmd_key_ref(ref, 1, DEV);
	err = key_with(1, ref, sizeof(ref) - 1, &keyless);
	tap_result(err == -EINVAL && keyless,
		   "a reference of 11 bytes: %s (want EINVAL), keyless",
		   dmd_errname(err));

	n = blob_of(1, 4243, 0, mine);
	add("diamond:4243", mine, n);
	dmd_key_ref(ref, 1, 4243);
	err = key_with(1, ref, sizeof(ref), &keyless);
	tap_result(err == -EINVAL && keyless,
		   "a key diamond:4243 that may seal (not open-only): %s (want EINVAL), keyless",
		   dmd_errname(err));
	n = blob_of(1, 9, DMD_BLOB_FLAG_OPEN_ONLY, mine);
	add("diamond:4244", mine, n);
	dmd_key_ref(ref, 1, 4244);
	err = key_with(1, ref, sizeof(ref), &keyless);
	tap_result(err == -EINVAL && keyless,
		   "a key diamond:4244 whose blob names device 9: %s (want EINVAL), keyless",
		   dmd_errname(err));

	err = dmd_keyctl(KEYCTL_REVOKE, (unsigned long)id, 0, 0) ? -errno : 0;
	if (err)
		tap_diag("revoke: %s", dmd_errname(err));
	dmd_key_ref(ref, 1, DEV);
	err = key_with(1, ref, sizeof(ref), &keyless);
	/* The search passes over a revoked key: as none, or said so. */
	tap_result((err == -ENOKEY || err == -EKEYREVOKED) && keyless,
		   "a reference to a revoked key: %s (want ENOKEY or EKEYREVOKED), keyless",
		   dmd_errname(err));
}

int main(void)
{
	uint8_t wkey[DMD_WRAP_KEY_SIZE], blob[DMD_BLOB_MAX];
	size_t n = blob_of(2, 77, DMD_BLOB_FLAG_OPEN_ONLY, blob);
	int ids[2], fd;

	tap_header();
	if (geteuid()) {
		tap_skip("needs root", "diamond_keys");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	fd = afalg_bind_type(AFALG_DIAMOND_TYPE, DMD_ALG_SUITE1);
	afalg_close(fd);
	if (fd < 0 || dmd_keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0) < 0) {
		tap_skip("no AF_ALG type diamond, or no keyrings", "diamond_keys");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	memset(wkey, 0x5a, sizeof(wkey));
	ids[0] = add(DMD_WRAP_KEY_DESC, wkey, sizeof(wkey));
	ids[1] = add("diamond:77", blob, n);
	if (!tap_result(ids[0] > 0 && ids[1] > 0,
			"root adds diamond:wrap and diamond:77 (%s, %s)",
			dmd_errname(ids[0] < 0 ? ids[0] : 0),
			dmd_errname(ids[1] < 0 ? ids[1] : 0))) {
		tap_trailing_plan();
		return ids[0] == -ENODEV ? TAP_EXIT_SKIP : tap_finish();
	}
	vetting();
	unprivileged();
	no_way_out(DMD_WRAP_KEY_DESC, wkey, sizeof(wkey));
	no_way_out("diamond:78", blob, n);
	nothing_else(ids, 2);
	references();
	tap_trailing_plan();
	return tap_finish();
}
