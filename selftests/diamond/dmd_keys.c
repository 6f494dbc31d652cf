// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Keyring access for the selftests (dmd_keys.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <linux/if_alg.h>
#include <linux/keyctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <diamond/util.h>

#include "afalg.h"
#include "dmd_keys.h"

#ifndef SOL_ALG
#define SOL_ALG				279
#endif
#ifndef ALG_SET_KEY_BY_KEY_SERIAL
#define ALG_SET_KEY_BY_KEY_SERIAL	7
#endif

long dmd_keyctl(int op, unsigned long a, unsigned long b, unsigned long c)
{
	return syscall(SYS_keyctl, op, a, b, c, 0UL);
}

int dmd_key_add(const char *type, const char *desc, const void *p,
		size_t len, long ring)
{
	long id = syscall(SYS_add_key, type, desc, p, len, ring);

	if (id < 0)
		return -errno;
	if (dmd_keyctl(KEYCTL_SETPERM, id, DMD_LOADER_PERM, 0) < 0)
		return -errno;
	return (int)id;
}

int dmd_setkey_serial(int fd, int32_t serial)
{
	return setsockopt(fd, SOL_ALG, ALG_SET_KEY_BY_KEY_SERIAL, &serial,
			  sizeof(serial)) ? -errno : 0;
}

void dmd_key_ref(uint8_t ref[DMD_REF_SIZE], unsigned int suite, uint32_t id)
{
	memset(ref, 0, DMD_REF_SIZE);
	memcpy(ref, DMD_REF_MAGIC, 4);
	ref[DMD_REF_OFF_VERSION] = DMD_REF_VERSION;
	ref[DMD_REF_OFF_SUITE] = (uint8_t)suite;
	dmd_store32_le(ref + DMD_REF_OFF_DEVICE, id);
}

int dmd_by_serial(void)
{
	static const uint8_t aes_key[16] = { 1, 2, 3 };
	int id = dmd_key_add("user", "diamond-test:serial-probe", aes_key,
			     sizeof(aes_key), KEY_SPEC_THREAD_KEYRING);
	int fd, err;

	if (id < 0)
		return id;
	fd = afalg_bind_type("skcipher", "ecb(aes)");
	err = fd < 0 ? fd : dmd_setkey_serial(fd, id);
	afalg_close(fd);
	dmd_keyctl(KEYCTL_UNLINK, (unsigned long)id, KEY_SPEC_THREAD_KEYRING, 0);
	if (err == -ENOPROTOOPT)
		return 0;
	return err ? err : 1;
}
