/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Raw AF_ALG access for the diamond selftests: no library, every call
 * returns a descriptor, a length or -errno. A tfm descriptor is the bound
 * socket (one Diamond device stream); every request runs on a socket
 * accept()ed from it, and all such sockets share the tfm and its key state.
 *
 * Built with -DDMD_AFALG_MOCK the same calls are served in-process by the
 * portable core (afalg_mock.c), so the test logic can be checked on a host
 * without AF_ALG; the kernel build never contains the mock.
 */
#ifndef DMD_SELFTEST_AFALG_H
#define DMD_SELFTEST_AFALG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DMD_ALG_SUITE1	"diamond(ctr(aes),ghash)"
#define DMD_ALG_SUITE2	"diamond(chacha20,poly1305)"

/* The module's own AF_ALG type: diamond instances, privileged callers. */
#define AFALG_DIAMOND_TYPE	"diamond"

/*
 * Bind an "aead" socket to @name, or where "aead" refuses a diamond name
 * (7.3's crypto.af_alg_restrict=1) a "diamond" socket; tfm fd or -errno.
 */
int afalg_bind(const char *name);
/* Bind with an explicit type ("aead", "skcipher", ...); fd or -errno. */
int afalg_bind_type(const char *type, const char *name);
int afalg_setkey(int tfm, const void *key, size_t len);
int afalg_setauthsize(int tfm, unsigned int authsize);
/* An operation socket on @tfm, or -errno. */
int afalg_accept(int tfm);
void afalg_close(int fd);

/*
 * One AEAD request on operation socket @op: send @in (AD || body) with the
 * IV (@iv may be NULL to send none) and assoclen, then read up to @outlen
 * bytes. Returns the bytes read or -errno from whichever call failed.
 */
ssize_t afalg_aead_op(int op, int enc, const void *iv, size_t ivlen,
		      uint32_t assoclen, const void *in, size_t inlen,
		      void *out, size_t outlen);

/*
 * The same request sent in pieces: @ncut cut points (ascending offsets into
 * @in) split it into ncut + 1 sendmsg calls, all but the last with
 * MSG_MORE, so the kernel sees the data in several scatterlist pieces.
 */
ssize_t afalg_aead_op_split(int op, int enc, const void *iv, size_t ivlen,
			    uint32_t assoclen, const void *in, size_t inlen,
			    const size_t *cut, unsigned int ncut, void *out,
			    size_t outlen);

/* afalg_aead_op on a fresh socket accepted from @tfm, closed afterwards. */
ssize_t afalg_aead_once(int tfm, int enc, const void *iv, size_t ivlen,
			uint32_t assoclen, const void *in, size_t inlen,
			void *out, size_t outlen);

#endif
