// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The AF_ALG transport of the kernel backend: a keyed Diamond tfm and its
 * decryptions, whichever way the kernel lets the gateway in.
 *  - salg_type "aead" through libkcapi, as before 7.3;
 *  - where "aead" refuses a diamond name with ENOENT (7.3's default
 *    crypto.af_alg_restrict=1 allowlists no diamond name), diamond.ko's
 *    own salg_type "diamond", which binds nothing but Diamond instances
 *    and only for CAP_NET_ADMIN or the group of the module's afalg_gid
 *    (kernel-api.rst, "The diamond socket type"), through raw AF_ALG
 *    calls: libkcapi binds "aead" only.
 */
#define _GNU_SOURCE	/* accept4() */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kcapi_opt.h"
#include <linux/if_alg.h>

#include "internal.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/* A device's tfm: a libkcapi handle, or the two "diamond" sockets. */
struct dlib_ktfm {
	struct kcapi_handle *kc;	/* type "aead", or NULL */
	int tfm, op;			/* type "diamond": bound, accepted */
};

/* A socket of type "diamond" bound to @name, or -errno. */
int dlib_ktfm_type_bind(const char *name)
{
	struct sockaddr_alg sa;
	int fd, rc;

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s",
		 DLIB_ALG_TYPE);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		rc = -errno;
		close(fd);
		return rc;
	}
	return fd;
}


/* What type "diamond" answering @rc means, for the probe's message. */
const char *dlib_ktfm_type_hint(int rc)
{
	if (rc == -EPERM)
		return "the gateway's user needs the group of diamond.ko's "
		       "afalg_gid parameter, or CAP_NET_ADMIN";
	if (rc == -ENOENT)
		return "the diamond module is not loaded, or older than this "
		       "type (modprobe diamond)";
	return "is the diamond module loaded? modprobe diamond";
}

void dlib_ktfm_close(struct dlib_ktfm *k)
{
	if (k->kc)
		kcapi_aead_destroy(k->kc);
	if (k->op >= 0)
		close(k->op);
	if (k->tfm >= 0)
		close(k->tfm);
	free(k);
}

/* Type "diamond": bind, key, authsize and the one operation socket. */
static int type_attach(struct dlib_ktfm *k, const char *name,
		       const uint8_t *key, size_t len, unsigned int authsize)
{
	k->tfm = dlib_ktfm_type_bind(name);
	if (k->tfm < 0)
		return k->tfm;
	if (setsockopt(k->tfm, SOL_ALG, ALG_SET_KEY, key, (socklen_t)len) ||
	    setsockopt(k->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL,
		       authsize))
		return -errno;
	k->op = accept4(k->tfm, NULL, NULL, SOCK_CLOEXEC);
	return k->op < 0 ? -errno : 0;
}

/* Type "aead" through libkcapi, as before 7.3. */
static int kcapi_attach(struct dlib_ktfm *k, const char *name,
			const uint8_t *key, size_t len, unsigned int authsize)
{
	int rc = kcapi_aead_init(&k->kc, name, 0);

	if (rc) {
		k->kc = NULL;
		return rc;
	}
	rc = kcapi_aead_setkey(k->kc, key, (uint32_t)len);
	return rc ? rc : kcapi_aead_settaglen(k->kc, authsize);
}

/*
 * One request on the operation socket @op of type "diamond" (@enc:
 * ALG_OP_ENCRYPT, else decrypt): @in = AD || text, @out = AD || result;
 * bytes read or -errno. The request goes in one sendmsg without waiting
 * (a request larger than the socket buffer is -EIO, which closes the tfm)
 * and is answered whole in one read.
 */
ssize_t dlib_alg_request(int op, int enc, const uint8_t *in, size_t inlen,
			 uint32_t assoclen, const uint8_t *iv, uint8_t *out,
			 size_t outlen)
{
	union {
		char buf[CMSG_SPACE(sizeof(uint32_t)) * 2 +
			 CMSG_SPACE(sizeof(struct af_alg_iv) + DMD_IV_SIZE)];
		struct cmsghdr align;
	} cb;
	struct iovec iov = { .iov_base = (void *)in, .iov_len = inlen };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cb.buf,
			    .msg_controllen = sizeof(cb.buf) };
	uint32_t dir = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	struct af_alg_iv *aiv;
	struct cmsghdr *c;
	ssize_t n;

	memset(&cb, 0, sizeof(cb));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(dir));
	memcpy(CMSG_DATA(c), &dir, sizeof(dir));
	c = CMSG_NXTHDR(&m, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(assoclen));
	memcpy(CMSG_DATA(c), &assoclen, sizeof(assoclen));
	c = CMSG_NXTHDR(&m, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(*aiv) + DMD_IV_SIZE);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = DMD_IV_SIZE;
	memcpy(aiv->iv, iv, DMD_IV_SIZE);
	n = sendmsg(op, &m, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	if ((size_t)n != inlen)
		return -EIO;
	n = read(op, out, outlen);
	return n < 0 ? -errno : n;
}

/*
 * One decryption on @k: @in = AD || ciphertext || tag, @out = AD ||
 * plaintext; bytes read or -errno (dlib_alg_request() for type
 * "diamond").
 */
ssize_t dlib_ktfm_decrypt(struct dlib_ktfm *k, const uint8_t *in,
			  size_t inlen, uint32_t assoclen, const uint8_t *iv,
			  uint8_t *out, size_t outlen)
{
	if (k->kc) {
		kcapi_aead_setassoclen(k->kc, assoclen);
		return kcapi_aead_decrypt(k->kc, in, inlen, iv, out, outlen,
					  KCAPI_ACCESS_HEURISTIC);
	}
	return dlib_alg_request(k->op, 0, in, inlen, assoclen, iv, out, outlen);
}

/*
 * A tfm of @name keyed with @key, of @authsize (16: epochs and groups; 12:
 * the packet radio's grid, set after the key as kernel-api.rst allows):
 * "aead" first, then, where "aead" refuses the name, diamond.ko's own
 * type, as the probe did. -ENOPKG when neither offers @name.
 */
int dlib_ktfm_open_as(const char *name, const uint8_t *key, size_t len,
		      unsigned int authsize, struct dlib_ktfm **out)
{
	struct dlib_ktfm *k = calloc(1, sizeof(*k));
	int rc;

	if (!k)
		return -ENOMEM;
	k->tfm = k->op = -1;
	rc = kcapi_attach(k, name, key, len, authsize);
	if (rc == -ENOENT && !k->kc)
		rc = type_attach(k, name, key, len, authsize);
	if (rc) {
		dlib_ktfm_close(k);
		return rc == -ENOENT || rc == -EOPNOTSUPP ? -ENOPKG : rc;
	}
	*out = k;
	return 0;
}

int dlib_ktfm_open(const char *name, const uint8_t *key, size_t len,
		   struct dlib_ktfm **out)
{
	return dlib_ktfm_open_as(name, key, len, DIAMOND_TAG_SIZE, out);
}

/*
 * Custody (userspace.rst section 1): a tfm of diamond.ko's own type, the
 * only one that exports, keyed with a wrapped state (@key, a DMDW blob)
 * or a reference to a device key (DMDR, dlib_key_ref()): the process
 * never holds a key. -ENOPKG: no such type.
 */
int dlib_ktfm_open_custody(const char *name, const uint8_t *key, size_t len,
			   struct dlib_ktfm **out)
{
	struct dlib_ktfm *k = calloc(1, sizeof(*k));
	int rc;

	if (!k)
		return -ENOMEM;
	k->tfm = k->op = -1;
	rc = type_attach(k, name, key, len, DIAMOND_TAG_SIZE);
	if (rc) {
		dlib_ktfm_close(k);
		return rc == -ENOENT || rc == -EAFNOSUPPORT ? -ENOPKG : rc;
	}
	*out = k;
	return 0;
}

/* The tfm's state as the module wraps it, into @buf: its length or -errno. */
ssize_t dlib_ktfm_export(struct dlib_ktfm *k, uint8_t *buf, size_t size)
{
	socklen_t len = (socklen_t)size;

	if (k->op < 0)
		return -ENOKEY;		/* an "aead" tfm cannot export */
	if (getsockopt(k->op, SOL_ALG, DIAMOND_ALG_GET_WRAPPED, buf, &len))
		/*
		 * EPERM here is the module's "key not from custody"
		 * (kernel-api.rst), not an open-only seal: say which.
		 */
		return errno == EPERM ? -EKEYREJECTED : -errno;
	return len;
}
