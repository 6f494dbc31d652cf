// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host-only stand-in for AF_ALG: the afalg.h calls served by the portable
 * core with the documented semantics of diamond.ko, so the selftests' own
 * logic can be exercised where there is no AF_ALG (the host kernel) or no
 * module yet. Never linked into the programs that run in the VM.
 */
#define _GNU_SOURCE
#include "afalg.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/util.h>
#include <diamond/core.h>
#include <diamond/epoch.h>
#include <diamond/packet.h>

#define MOCK_BASE	100000
#define MOCK_MAX	4096

struct mock_fd {
	int used;
	int tfm;		/* for an op socket: its tfm's slot, else -1 */
	unsigned int suite;
	int keyed;
	int grid;		/* authsize 12: the packet radio's tag grid */
	struct dmd_state st;
};

static struct mock_fd tab[MOCK_MAX];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct mock_fd *get(int fd)
{
	int i = fd - MOCK_BASE;

	return i >= 0 && i < MOCK_MAX && tab[i].used ? &tab[i] : NULL;
}

static int alloc_fd(void)
{
	int i;

	for (i = 0; i < MOCK_MAX; i++)
		if (!tab[i].used) {
			memset(&tab[i], 0, sizeof(tab[i]));
			tab[i].used = 1;
			tab[i].tfm = -1;
			return MOCK_BASE + i;
		}
	return -EMFILE;
}

int afalg_bind_type(const char *type, const char *name)
{
	unsigned int suite;
	int fd;

	if (strcmp(type, "aead"))
		return -ENOENT;
	if (!strcmp(name, DMD_ALG_SUITE1))
		suite = 1;
	else if (!strcmp(name, DMD_ALG_SUITE2))
		suite = 2;
	else
		return -ENOENT;
	pthread_mutex_lock(&lock);
	fd = alloc_fd();
	if (fd >= 0)
		get(fd)->suite = suite;
	pthread_mutex_unlock(&lock);
	return fd;
}

int afalg_bind(const char *name)
{
	return afalg_bind_type("aead", name);
}

int afalg_setkey(int tfm, const void *key, size_t len)
{
	struct mock_fd *t;
	struct dmd_state st;
	int err = 0;

	pthread_mutex_lock(&lock);
	t = get(tfm);
	if (!t || t->tfm >= 0)
		err = -EBADF;
	else if (dmd_blob_parse(&st, key, len) || st.suite != t->suite) {
		err = -EINVAL;
		t->keyed = 0;	/* kernel-api.rst: a refused key ends the old */
	} else if (t->grid && dmd_packet_key_check(&st)) {
		err = -EKEYREJECTED;	/* grid mode takes packet keys only */
		t->keyed = 0;
	} else {
		t->st = st;
		t->keyed = 1;
	}
	pthread_mutex_unlock(&lock);
	return err;
}

/*
 * 16, or 12 for the grid on a packet key (kernel-api.rst); the mock keeps
 * no grid state, so authsize 16 is never -EBUSY here.
 */
int afalg_setauthsize(int tfm, unsigned int authsize)
{
	struct mock_fd *t;
	int err = 0;

	pthread_mutex_lock(&lock);
	t = get(tfm);
	if (!t)
		err = -EBADF;
	else if (authsize != DMD_TAG_SIZE && authsize != DMD_PKT_TAG_SIZE)
		err = -EINVAL;
	else if (authsize == DMD_PKT_TAG_SIZE && t->keyed &&
		 dmd_packet_key_check(&t->st))
		err = -EKEYREJECTED;
	else
		t->grid = authsize == DMD_PKT_TAG_SIZE;
	pthread_mutex_unlock(&lock);
	return err;
}

int afalg_accept(int tfm)
{
	int fd;

	pthread_mutex_lock(&lock);
	fd = get(tfm) ? alloc_fd() : -EBADF;
	if (fd >= 0)
		get(fd)->tfm = tfm;
	pthread_mutex_unlock(&lock);
	return fd;
}

void afalg_close(int fd)
{
	pthread_mutex_lock(&lock);
	if (get(fd))
		get(fd)->used = 0;
	pthread_mutex_unlock(&lock);
}

static int mock_crypt(struct mock_fd *t, int enc, uint64_t epoch,
		      const uint8_t *in, size_t inlen, uint32_t assoclen,
		      uint8_t *out, size_t outlen)
{
	const uint8_t *body = in + assoclen;
	size_t blen = inlen - assoclen, need;
	struct dmd_state st = t->st;
	uint32_t n;
	int rc;

	need = enc ? inlen + DMD_TAG_SIZE : inlen - DMD_TAG_SIZE;
	if (outlen < need)
		return -EINVAL;
	memcpy(out, in, assoclen);
	if (assoclen > DMD_MAX_AD)
		return -EMSGSIZE;
	/* The kernel's own bound: setkey sized its buffer for b records. */
	if ((enc ? blen : blen - DMD_TAG_SIZE) >
	    (size_t)st.b * (2 + DMD_MAX_RECORD))
		return -EMSGSIZE;
	if (enc) {
		/* The kernel's order (spec 9.2): epoch, then body. */
		rc = dmd_check_epoch(st.epoch, epoch, DMD_DEFAULT_MAX_SKIP);
		if (!rc)
			rc = dmd_body_count(body, blen, st.b, &n);
		if (!rc) {
			uint8_t r[DMD_KEY_MAX];

			while (st.epoch < epoch) {
				dmd_epoch_update(st.suite, st.key, st.key, r);
				st.epoch++;
			}
			rc = dmd_seal_body(&st, in, assoclen, body, blen,
					   out + assoclen);
		}
	} else {
		rc = dmd_open(&st, epoch, in, assoclen, body, blen,
			      out + assoclen, DMD_DEFAULT_MAX_SKIP);
	}
	if (rc) {
		switch (rc) {
		case DMD_ESIZE: return -EMSGSIZE;
		case DMD_EBADMSG: return -EBADMSG;
		case DMD_EEXPIRED: return -EKEYEXPIRED;
		case DMD_ESKIP: return -ERANGE;
		case DMD_EFULL: return -ENOSPC;
		default: return -EINVAL;
		}
	}
	t->st = st;
	return (int)need;
}

ssize_t afalg_aead_op(int op, int enc, const void *iv, size_t ivlen,
		      uint32_t assoclen, const void *in, size_t inlen,
		      void *out, size_t outlen)
{
	struct mock_fd *o, *t;
	uint64_t epoch = 0;
	int err;

	if (iv && ivlen != DMD_IV_SIZE)
		return -EINVAL;
	if (iv)
		epoch = dmd_load64_le(iv);
	pthread_mutex_lock(&lock);
	o = get(op);
	t = o && o->tfm >= 0 ? get(o->tfm) : NULL;
	if (!t)
		err = -EBADF;
	else if (!t->keyed)
		err = -ENOKEY;
	/* AF_ALG's own checks come before the module's (type "diamond"). */
	else if (assoclen + (enc ? 0 : DMD_TAG_SIZE) > inlen ||
		 outlen < (enc ? inlen + DMD_TAG_SIZE : inlen - DMD_TAG_SIZE))
		err = -EINVAL;
	else if (enc && (t->st.flags & DMD_BLOB_FLAG_OPEN_ONLY))
		err = -EPERM;	/* kernel-api.rst: before any other check */
	/*
	 * Grid requests are not modelled (diamond_grid runs on the module
	 * only): encrypt is the kernel's -EOPNOTSUPP, and so is decrypt here.
	 */
	else if (t->grid)
		err = -EOPNOTSUPP;
	else
		err = mock_crypt(t, enc, epoch, in, inlen, assoclen, out,
				 outlen);
	pthread_mutex_unlock(&lock);
	return err;
}

ssize_t afalg_aead_op_split(int op, int enc, const void *iv, size_t ivlen,
			    uint32_t assoclen, const void *in, size_t inlen,
			    const size_t *cut, unsigned int ncut, void *out,
			    size_t outlen)
{
	(void)cut;
	(void)ncut;
	return afalg_aead_op(op, enc, iv, ivlen, assoclen, in, inlen, out,
			     outlen);
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
