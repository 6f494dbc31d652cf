/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * libkcapi, or a build without it. Debian ships libkcapi for the host's
 * architecture only, so the static diamondctl that make bench-userspace
 * boots in an arm64 guest is built with DLIB_NO_KCAPI. AF_ALG type "aead"
 * is then absent to the library, as it is at af_alg_restrict=1 from 7.3:
 * every tfm is of diamond.ko's own type "diamond", which custody uses
 * anyway. The library and diamondctl built for the host always link
 * libkcapi.
 */
#ifndef DLIB_KCAPI_OPT_H
#define DLIB_KCAPI_OPT_H

#ifndef DLIB_NO_KCAPI
#include <kcapi.h>
#else
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct kcapi_handle;

#define KCAPI_LOG_NONE		0
#define KCAPI_ACCESS_HEURISTIC	0

static inline void kcapi_set_verbosity(int level)
{
	(void)level;
}

/* Type "aead" is never there: callers go on to type "diamond". */
static inline int kcapi_aead_init(struct kcapi_handle **h, const char *name,
				  uint32_t flags)
{
	(void)name;
	(void)flags;
	*h = NULL;
	return -ENOENT;
}

/* Unreachable without a handle; each answers as for a closed one. */
static inline void kcapi_aead_destroy(struct kcapi_handle *h)
{
	(void)h;
}

static inline int kcapi_aead_setkey(struct kcapi_handle *h,
				    const uint8_t *key, uint32_t len)
{
	(void)h, (void)key, (void)len;
	return -EBADF;
}

static inline int kcapi_aead_settaglen(struct kcapi_handle *h, uint32_t len)
{
	(void)h, (void)len;
	return -EBADF;
}

static inline void kcapi_aead_setassoclen(struct kcapi_handle *h, size_t len)
{
	(void)h, (void)len;
}

static inline ssize_t kcapi_aead_decrypt(struct kcapi_handle *h,
					 const uint8_t *in, size_t inlen,
					 const uint8_t *iv, uint8_t *out,
					 size_t outlen, int access)
{
	(void)h, (void)in, (void)inlen, (void)iv, (void)out, (void)outlen,
	(void)access;
	return -EBADF;
}
#endif

#endif
