/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A tfm and one operation socket reused for every request, for the kernel
 * module's guest programs (tools/kernel/kat-probe.c,
 * tools/bench/kernel-bench.c). Built on the selftests' raw AF_ALG calls
 * (selftests/diamond/afalg.c), which every program links. Functions
 * return 0 or -errno.
 */
#ifndef DIAMOND_TOOLS_AFALG_H
#define DIAMOND_TOOLS_AFALG_H

#include "afalg.h"

struct afalg_conn {
	int tfm;	/* bound socket: setkey */
	int op;		/* accepted socket: requests */
};

static inline void afalg_conn_close(struct afalg_conn *a)
{
	afalg_close(a->op);
	afalg_close(a->tfm);
	a->op = a->tfm = -1;
}

/* Bind an aead by name, set key (if any) and authsize, accept a socket. */
static inline int afalg_conn_open(struct afalg_conn *a, const char *name,
				  const void *key, size_t keylen,
				  unsigned int authsize)
{
	int err = 0;

	a->op = -1;
	a->tfm = afalg_bind(name);
	if (a->tfm < 0)
		return a->tfm;
	if (key)
		err = afalg_setkey(a->tfm, key, keylen);
	if (!err)
		err = afalg_setauthsize(a->tfm, authsize);
	if (!err) {
		a->op = afalg_accept(a->tfm);
		err = a->op < 0 ? a->op : 0;
	}
	if (err)
		afalg_conn_close(a);
	return err;
}

/*
 * New key on an open tfm. AF_ALG refuses ALG_SET_KEY (-EBUSY) while an
 * accepted socket exists, so the operation socket is closed and accepted
 * again.
 */
static inline int afalg_conn_rekey(struct afalg_conn *a, const void *key,
				   size_t len)
{
	int err;

	afalg_close(a->op);
	a->op = -1;
	err = afalg_setkey(a->tfm, key, len);
	if (err)
		return err;
	a->op = afalg_accept(a->tfm);
	return a->op < 0 ? a->op : 0;
}

/* One request: in = AD || input, out = AD || output; bytes read or -errno. */
static inline ssize_t afalg_conn_op(struct afalg_conn *a, int encrypt,
				    const void *iv, size_t ivlen,
				    size_t adlen, const void *in, size_t inlen,
				    void *out, size_t outlen)
{
	return afalg_aead_op(a->op, encrypt, iv, ivlen, (uint32_t)adlen, in,
			     inlen, out, outlen);
}

#endif
