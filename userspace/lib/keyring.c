// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel keyring, through its raw system calls (no libkeyutils): the
 * custody mode's keys (userspace.rst section 1, "Custody"). The loader
 * adds keys of diamond.ko's own type "diamond", which no process can read
 * back and nothing but the module can use (not AF_ALG by serial, not
 * dm-crypt: they take user, logon, encrypted and trusted keys only); the
 * ingest only finds the wrap key (request_key without a callout) and names
 * a device's key to the module by reference (DMDR).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

#define KEYCTL_JOIN_SESSION_KEYRING	1
#define KEYCTL_SETPERM			5
#define KEYCTL_LINK			8
#define KEY_SPEC_USER_KEYRING		(-4)

int32_t dlib_key_find(const char *desc)
{
	long r = syscall(SYS_request_key, DMD_KEY_TYPE, desc, NULL, 0);

	return r < 0 ? -errno : (int32_t)r;
}

void dlib_key_ref(uint8_t ref[DMD_REF_SIZE], uint8_t suite, uint32_t id)
{
	memcpy(ref, DMD_REF_MAGIC, 4);
	ref[DMD_REF_OFF_VERSION] = DMD_REF_VERSION;
	ref[DMD_REF_OFF_SUITE] = suite;
	ref[DMD_REF_OFF_RSVD] = ref[DMD_REF_OFF_RSVD + 1] = 0;
	dmd_store32_le(ref + DMD_REF_OFF_DEVICE, id);
}

int32_t dlib_key_add(const char *desc, const uint8_t *payload, size_t len,
		     int32_t keyring)
{
	long r = syscall(SYS_add_key, DMD_KEY_TYPE, desc, payload, len, keyring);

	/* ENODEV: no such key type, diamond.ko is not loaded (or too old). */
	if (r < 0)
		return errno == ENODEV ? -ENOPKG : -errno;
	/* Possessor and owner may find it, nothing else: no setattr, write. */
	if (syscall(SYS_keyctl, KEYCTL_SETPERM, (int32_t)r, DLIB_KEY_PERM) < 0)
		return -errno;
	return (int32_t)r;
}

int32_t dlib_key_new_session(void)
{
	long r = syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL);

	return r < 0 ? -errno : (int32_t)r;
}

int dlib_key_setperm(int32_t key, uint32_t perm)
{
	return syscall(SYS_keyctl, KEYCTL_SETPERM, key, perm) < 0 ? -errno : 0;
}

int32_t dlib_key_ring(void)
{
	long r = syscall(SYS_add_key, "keyring", DLIB_RING_DESC, NULL, 0,
			 DLIB_KEY_SESSION);

	return r < 0 ? -errno : (int32_t)r;
}

int dlib_key_link_user(int32_t ring, uid_t uid)
{
	uid_t r, e, s;
	int rc;

	if (getresuid(&r, &e, &s) || setresuid(uid, (uid_t)-1, (uid_t)-1))
		return -errno;
	/*
	 * With the real uid @uid, KEY_SPEC_USER_KEYRING is that user's
	 * keyring, and possessed, so root may link into it; @ring (and
	 * every key in it) stays root's, in root's quota. A keyring of the
	 * same name linked there before is replaced.
	 */
	rc = syscall(SYS_keyctl, KEYCTL_LINK, ring, KEY_SPEC_USER_KEYRING) < 0 ?
	     -errno : 0;
	if (setresuid(r, (uid_t)-1, (uid_t)-1))
		return -errno;
	return rc;
}
