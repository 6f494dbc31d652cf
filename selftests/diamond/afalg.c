// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Raw AF_ALG calls for the diamond selftests (see afalg.h). */
#define _GNU_SOURCE
#include "afalg.h"

#include <errno.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif
#ifndef AF_ALG
#define AF_ALG 38
#endif

/* Longest IV a test sends: 8 is right, the rest probe the size check. */
#define AFALG_MAX_IV 64

int afalg_bind_type(const char *type, const char *name)
{
	struct sockaddr_alg sa;
	int fd, err;

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", type);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * algif_aead's "aead" first, as before 7.3; where it refuses a diamond
 * name with ENOENT (7.3's default crypto.af_alg_restrict=1), the module's
 * own type "diamond" (Documentation/kernel-api.rst, "The diamond socket
 * type"), said once on stderr so that a log shows which one ran.
 */
int afalg_bind(const char *name)
{
	static int said;
	int fd = afalg_bind_type("aead", name), fd2;

	if (fd != -ENOENT || strncmp(name, "diamond(", 8))
		return fd;
	fd2 = afalg_bind_type(AFALG_DIAMOND_TYPE, name);
	if (fd2 >= 0 && !said++)
		fprintf(stderr, "# AF_ALG type \"aead\" refused %s (ENOENT, "
			"crypto.af_alg_restrict?): using type \"%s\"\n",
			name, AFALG_DIAMOND_TYPE);
	return fd2 >= 0 ? fd2 : fd;
}

int afalg_setkey(int tfm, const void *key, size_t len)
{
	return setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, (socklen_t)len) ?
		-errno : 0;
}

int afalg_setauthsize(int tfm, unsigned int authsize)
{
	return setsockopt(tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL,
			  authsize) ? -errno : 0;
}

int afalg_accept(int tfm)
{
	int fd = accept4(tfm, NULL, 0, SOCK_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

void afalg_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

ssize_t afalg_aead_op_split(int op, int enc, const void *iv, size_t ivlen,
			    uint32_t assoclen, const void *in, size_t inlen,
			    const size_t *cut, unsigned int ncut, void *out,
			    size_t outlen)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) * 2 +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + AFALG_MAX_IV)];
		struct cmsghdr align;
	} cb;
	struct iovec iov = { .iov_base = (void *)in, .iov_len = inlen };
	struct msghdr msg;
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	unsigned int i;
	uint32_t v;
	ssize_t n;

	if (ivlen > AFALG_MAX_IV)
		return -E2BIG;
	memset(&cb, 0, sizeof(cb));
	memset(&msg, 0, sizeof(msg));
	msg.msg_control = cb.buf;
	msg.msg_controllen = CMSG_SPACE(sizeof(uint32_t)) * 2 +
			     (iv ? CMSG_SPACE(sizeof(*aiv) + ivlen) : 0);
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;

	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	memcpy(CMSG_DATA(c), &v, sizeof(v));

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	memcpy(CMSG_DATA(c), &assoclen, sizeof(assoclen));

	if (iv) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(*aiv) + ivlen);
		aiv = (struct af_alg_iv *)CMSG_DATA(c);
		aiv->ivlen = (uint32_t)ivlen;
		memcpy(aiv->iv, iv, ivlen);
	}

	for (i = 0; i <= ncut; i++) {
		size_t from = i ? cut[i - 1] : 0, to = i < ncut ? cut[i] : inlen;

		if (from > to || to > inlen)
			return -EDOM;
		iov.iov_base = (uint8_t *)in + from;
		iov.iov_len = to - from;
		if (i) {	/* the control data goes with the first piece */
			msg.msg_control = NULL;
			msg.msg_controllen = 0;
		}
		n = sendmsg(op, &msg, i < ncut ? MSG_MORE : 0);
		if (n < 0)
			return -errno;
		if ((size_t)n != to - from)
			return -EIO;	/* a short send would split it */
	}
	/*
	 * algif_aead keeps serving requests while the buffer has room, and
	 * would block waiting for the next one: MSG_DONTWAIT ends the call
	 * after this request whatever @outlen is.
	 */
	n = recv(op, out, outlen, MSG_DONTWAIT);
	return n < 0 ? -errno : n;
}

ssize_t afalg_aead_op(int op, int enc, const void *iv, size_t ivlen,
		      uint32_t assoclen, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	return afalg_aead_op_split(op, enc, iv, ivlen, assoclen, in, inlen,
				   NULL, 0, out, outlen);
}

ssize_t afalg_aead_once(int tfm, int enc, const void *iv, size_t ivlen,
			uint32_t assoclen, const void *in, size_t inlen,
			void *out, size_t outlen)
{
	int op = afalg_accept(tfm);
	ssize_t n;

	if (op < 0)
		return op;
	n = afalg_aead_op(op, enc, iv, ivlen, assoclen, in, inlen, out,
			  outlen);
	afalg_close(op);
	return n;
}
