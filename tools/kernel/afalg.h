/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Raw AF_ALG AEAD helpers for the kernel module's guest programs
 * (tools/kernel/kat-probe.c, tools/bench/kernel-bench.c): bind, key, one
 * operation socket per tfm reused for every request. Header-only so each
 * program builds statically from one file. Functions return -errno.
 */
#ifndef DIAMOND_TOOLS_AFALG_H
#define DIAMOND_TOOLS_AFALG_H

#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define AFALG_MAX_IV 16

struct afalg {
	int tfm;	/* bound socket: setkey */
	int op;		/* accepted socket: requests */
};

static inline void afalg_close(struct afalg *a)
{
	if (a->op >= 0)
		close(a->op);
	if (a->tfm >= 0)
		close(a->tfm);
	a->op = a->tfm = -1;
}

/* Bind an aead by name, set key and authsize, accept an op socket. */
static inline int afalg_open(struct afalg *a, const char *name,
			     const void *key, size_t keylen,
			     unsigned int authsize)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int err;

	a->tfm = a->op = -1;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "aead");
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	a->tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (a->tfm < 0)
		return -errno;
	if (bind(a->tfm, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (key && setsockopt(a->tfm, SOL_ALG, ALG_SET_KEY, key,
			       (socklen_t)keylen) < 0) ||
	    setsockopt(a->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL,
		       authsize) < 0) {
		err = -errno;
		afalg_close(a);
		return err;
	}
	a->op = accept(a->tfm, NULL, 0);
	if (a->op < 0) {
		err = -errno;
		afalg_close(a);
		return err;
	}
	return 0;
}

/*
 * New key on an open tfm. AF_ALG refuses ALG_SET_KEY (-EBUSY) while an
 * accepted socket exists, so the op socket is closed and accepted again.
 */
static inline int afalg_rekey(struct afalg *a, const void *key, size_t len)
{
	if (a->op >= 0)
		close(a->op);
	a->op = -1;
	if (setsockopt(a->tfm, SOL_ALG, ALG_SET_KEY, key, (socklen_t)len) < 0)
		return -errno;
	a->op = accept(a->tfm, NULL, 0);
	return a->op < 0 ? -errno : 0;
}

/*
 * One request: in = AD || input, out receives AD || output (@outlen bytes
 * in all). Returns the bytes read or -errno (e.g. -EBADMSG).
 */
static inline ssize_t afalg_op(struct afalg *a, int encrypt, const void *iv,
			       size_t ivlen, size_t adlen, const void *in,
			       size_t inlen, void *out, size_t outlen)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + AFALG_MAX_IV) +
		  CMSG_SPACE(sizeof(uint32_t))];
	struct iovec iov = { .iov_base = (void *)in, .iov_len = inlen };
	struct msghdr msg = {
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	uint32_t v;
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	ssize_t n;

	if (ivlen > AFALG_MAX_IV)
		return -EINVAL;
	memset(cbuf, 0, sizeof(cbuf));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	memcpy(CMSG_DATA(c), &v, sizeof(v));

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + AFALG_MAX_IV);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = (uint32_t)ivlen;
	memcpy(aiv->iv, iv, ivlen);

	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	v = (uint32_t)adlen;
	memcpy(CMSG_DATA(c), &v, sizeof(v));

	if (sendmsg(a->op, &msg, 0) < 0)
		return -errno;
	n = read(a->op, out, outlen);
	return n < 0 ? -errno : n;
}

#endif
