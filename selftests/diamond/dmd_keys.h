/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Keyring access for the diamond selftests that play the loader and the
 * ingest (diamond_wrap, diamond_keys): raw system calls, no libkeyutils,
 * every call returning a serial, 0 or -errno.
 */
#ifndef DMD_SELFTEST_KEYS_H
#define DMD_SELFTEST_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/spec.h>

#define DMD_KEY_POS_VIEW	0x01000000
#define DMD_KEY_POS_READ	0x02000000
#define DMD_KEY_POS_WRITE	0x04000000
#define DMD_KEY_POS_SEARCH	0x08000000
#define DMD_KEY_USR_VIEW	0x00010000
#define DMD_KEY_USR_SEARCH	0x00080000
/* What the loader grants: possessor and owner view and search only. */
#define DMD_LOADER_PERM	(DMD_KEY_POS_VIEW | DMD_KEY_POS_SEARCH | \
			 DMD_KEY_USR_VIEW | DMD_KEY_USR_SEARCH)

long dmd_keyctl(int op, unsigned long a, unsigned long b, unsigned long c);
/* A key of @type into @ring with DMD_LOADER_PERM: its serial or -errno. */
int dmd_key_add(const char *type, const char *desc, const void *p,
		size_t len, long ring);
/* AF_ALG ALG_SET_KEY_BY_KEY_SERIAL on the tfm @fd: 0 or -errno. */
int dmd_setkey_serial(int fd, int32_t serial);
/* The setkey input naming device @id's key "diamond:<id>" (DMDR). */
void dmd_key_ref(uint8_t ref[DMD_REF_SIZE], unsigned int suite, uint32_t id);
/*
 * Whether AF_ALG keys by serial here (6.2 and later): a user key of this
 * process's own keys ecb(aes) by serial. 1, 0 (ENOPROTOOPT: 6.1), or
 * -errno when the probe itself could not run.
 */
int dmd_by_serial(void);

#endif
