// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * LD_PRELOAD shim for Debian's kcapi-enc (libkcapi 1.4.0). kcapi-enc reads
 * --keyfd into a 32-byte buffer, so a 40- or 56-byte Diamond key blob
 * reaches kcapi_aead_setkey cut to 32 bytes. This interposer checks that
 * what kcapi-enc read is a prefix of the blob named by $DMD_KEYSHIM_BLOB
 * and hands libkcapi the whole blob instead; everything else (handle,
 * IV, AAD, tag, data path) stays kcapi-enc's own. Test use only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kcapi_handle;

typedef int (*setkey_fn)(struct kcapi_handle *, const uint8_t *, uint32_t);

int kcapi_aead_setkey(struct kcapi_handle *h, const uint8_t *key,
		      uint32_t keylen);

int kcapi_aead_setkey(struct kcapi_handle *h, const uint8_t *key,
		      uint32_t keylen)
{
	setkey_fn real = (setkey_fn)dlsym(RTLD_NEXT, "kcapi_aead_setkey");
	const char *path = getenv("DMD_KEYSHIM_BLOB");
	uint8_t blob[256];
	ssize_t n = -1;
	int fd, err;

	if (!real)
		return -38;	/* -ENOSYS */
	if (path && (fd = open(path, O_RDONLY)) >= 0) {
		n = read(fd, blob, sizeof(blob));
		close(fd);
	}
	if (n > (ssize_t)keylen && !memcmp(blob, key, keylen)) {
		fprintf(stderr,
			"dmd-keyshim: kcapi-enc passed %u of the %zd blob bytes; setting the whole blob\n",
			keylen, n);
		err = real(h, blob, (uint32_t)n);
		memset(blob, 0, sizeof(blob));
		return err;
	}
	fprintf(stderr, "dmd-keyshim: key not a prefix of $DMD_KEYSHIM_BLOB, passing it as is\n");
	return real(h, key, keylen);
}
