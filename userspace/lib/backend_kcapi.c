// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Kernel backend: AF_ALG AEAD "diamond(ctr(aes),ghash)" (suite 1) or
 * "diamond(chacha20,poly1305)" (suite 2) (Documentation/kernel-api.rst).
 * One tfm per active device, keyed once with the device's state blob; the
 * kernel evolves the key inside the tfm on every verified epoch and the
 * gateway mirrors that in the state file. A request is one epoch: IV
 * le64(epoch), assoclen |AD|, authsize 16; for a grouped device one unit,
 * behind a one-entry unit table in the AD.
 *
 * Two ways in, tried in this order for every tfm:
 *  - salg_type "aead" through libkcapi, as before 7.3;
 *  - where "aead" refuses a diamond name with ENOENT (7.3's default
 *    crypto.af_alg_restrict=1 allowlists no diamond name), diamond.ko's
 *    own salg_type "diamond", which binds nothing but Diamond instances
 *    and only for CAP_NET_ADMIN or the group of the module's afalg_gid
 *    (kernel-api.rst, "The diamond socket type"), through raw AF_ALG
 *    calls: libkcapi binds "aead" only. The probe says which one serves.
 */
#define _GNU_SOURCE	/* accept4() */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <kcapi.h>
#include <linux/if_alg.h>

#include "internal.h"
#include <diamond/chain.h>

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define KCAPI_NAME_SUITE1	"diamond(ctr(aes),ghash)"
#define KCAPI_NAME_SUITE2	"diamond(chacha20,poly1305)"
/* diamond.ko's own AF_ALG type. */
#define DIAMOND_ALG_TYPE	"diamond"

/* A device's tfm: a libkcapi handle, or the two "diamond" sockets. */
struct ktfm {
	struct kcapi_handle *kc;	/* type "aead", or NULL */
	int tfm, op;			/* type "diamond": bound, accepted */
};

static const char *alg_name(unsigned int suite)
{
	return suite == DMD_SUITE_AES_GHASH ? KCAPI_NAME_SUITE1 :
					      KCAPI_NAME_SUITE2;
}

/* A socket of type "diamond" bound to @name, or -errno. */
static int type_bind(const char *name)
{
	struct sockaddr_alg sa;
	int fd, rc;

	memset(&sa, 0, sizeof(sa));
	sa.salg_family = AF_ALG;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s",
		 DIAMOND_ALG_TYPE);
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
static const char *type_hint(int rc)
{
	if (rc == -EPERM)
		return "the gateway's user needs the group of diamond.ko's "
		       "afalg_gid parameter, or CAP_NET_ADMIN";
	if (rc == -ENOENT)
		return "the diamond module is not loaded, or older than this "
		       "type (modprobe diamond)";
	return "is the diamond module loaded? modprobe diamond";
}

int diamond_kernel_probe(char *msg, size_t size)
{
	struct kcapi_handle *h;
	int rc, rt;

	/* Our own message below says what is missing; libkcapi's would not. */
	kcapi_set_verbosity(KCAPI_LOG_NONE);
	rc = kcapi_aead_init(&h, KCAPI_NAME_SUITE1, 0);
	if (!rc) {
		kcapi_aead_destroy(h);
		return 0;
	}
	rt = rc == -ENOENT ? type_bind(KCAPI_NAME_SUITE1) : rc;
	if (rt >= 0) {
		close(rt);
		/* Not an error: the one line that says which way serves. */
		snprintf(msg, size, "kernel path: AF_ALG type \"aead\" "
			 "refuses %s (ENOENT: crypto.af_alg_restrict=1?), "
			 "using diamond.ko's type \"%s\"", KCAPI_NAME_SUITE1,
			 DIAMOND_ALG_TYPE);
		return 0;
	}
	if (rc == -EOPNOTSUPP || rc == -EAFNOSUPPORT)
		snprintf(msg, size, "the kernel has no AF_ALG AEAD interface "
			 "(modprobe af_alg algif_aead), and then the Diamond "
			 "module (modprobe diamond)");
	else if (rc == -ENOENT)
		snprintf(msg, size, "the kernel does not offer %s: AF_ALG "
			 "type \"aead\" refuses it (the module is not loaded, "
			 "or crypto.af_alg_restrict is 1, the default from "
			 "7.3), and type \"%s\" answers %s: %s",
			 KCAPI_NAME_SUITE1, DIAMOND_ALG_TYPE, strerror(-rt),
			 type_hint(rt));
	else
		snprintf(msg, size, "AF_ALG %s: %s (is the diamond module "
			 "loaded? modprobe diamond)", KCAPI_NAME_SUITE1,
			 strerror(-rc));
	return -ENOPKG;
}

static void ktfm_close(struct ktfm *k)
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
static int type_attach(struct ktfm *k, const char *name, const uint8_t *key,
		       size_t len)
{
	k->tfm = type_bind(name);
	if (k->tfm < 0)
		return k->tfm;
	if (setsockopt(k->tfm, SOL_ALG, ALG_SET_KEY, key, (socklen_t)len) ||
	    setsockopt(k->tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL,
		       DIAMOND_TAG_SIZE))
		return -errno;
	k->op = accept4(k->tfm, NULL, NULL, SOCK_CLOEXEC);
	return k->op < 0 ? -errno : 0;
}

/* Type "aead" through libkcapi, as before 7.3. */
static int kcapi_attach(struct ktfm *k, const char *name, const uint8_t *key,
			size_t len)
{
	int rc = kcapi_aead_init(&k->kc, name, 0);

	if (rc) {
		k->kc = NULL;
		return rc;
	}
	rc = kcapi_aead_setkey(k->kc, key, (uint32_t)len);
	return rc ? rc : kcapi_aead_settaglen(k->kc, DIAMOND_TAG_SIZE);
}

/*
 * One decryption on @k: @in = AD || ciphertext || tag, @out = AD ||
 * plaintext; bytes read or -errno. Type "diamond" takes the request in
 * one sendmsg without waiting (a request larger than the socket buffer is
 * -EIO, which closes the tfm) and answers it whole in one read.
 */
static ssize_t ktfm_decrypt(struct ktfm *k, const uint8_t *in, size_t inlen,
			    uint32_t assoclen, const uint8_t *iv,
			    uint8_t *out, size_t outlen)
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
	struct af_alg_iv *aiv;
	struct cmsghdr *c;
	uint32_t op = ALG_OP_DECRYPT;
	ssize_t n;

	if (k->kc) {
		kcapi_aead_setassoclen(k->kc, assoclen);
		return kcapi_aead_decrypt(k->kc, in, inlen, iv, out, outlen,
					  KCAPI_ACCESS_HEURISTIC);
	}
	memset(&cb, 0, sizeof(cb));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(op));
	memcpy(CMSG_DATA(c), &op, sizeof(op));
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
	n = sendmsg(k->op, &m, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	if ((size_t)n != inlen)
		return -EIO;
	n = read(k->op, out, outlen);
	return n < 0 ? -errno : n;
}

/*
 * The module's key for @d (kernel-api.rst): the version 1 blob, or for a
 * grouped device the version 2 blob of its cursor's state with g and,
 * while an epoch is open, the cursor le64(e) || le32(c) || R_{e,c*g}.
 */
static size_t kernel_key(const struct dlib_dev *d, uint8_t *key)
{
	size_t n, k = dmd_key_size(d->st.suite);
	struct dmd_state st;

	if (!d->rx) {
		dmd_blob_write(key, &d->st);
		return dmd_blob_size(d->st.suite);
	}
	dmd_receiver_state(d->rx, &st);
	st.group = (uint16_t)d->g;
	dmd_blob2_write(key, &st);
	dmd_wipe(&st, sizeof(st));
	n = dmd_blob2_size(d->st.suite);
	if (d->rx->open) {
		dmd_store64_le(key + n, d->rx->st.epoch);
		dmd_store32_le(key + n + 8, d->rx->group);
		memcpy(key + n + 12, d->rx->r, k);
		n += 12 + k;
	}
	return n;
}

static int attach(struct dlib_dev *d)
{
	uint8_t key[DMD_BLOB2_MAX + 12 + DMD_KEY_MAX];
	const char *name = alg_name(d->st.suite);
	struct ktfm *k = calloc(1, sizeof(*k));
	size_t len;
	int rc;

	if (!k)
		return -ENOMEM;
	k->tfm = k->op = -1;
	len = kernel_key(d, key);
	rc = kcapi_attach(k, name, key, len);
	/* "aead" refused the name: diamond.ko's own type, as the probe did. */
	if (rc == -ENOENT && !k->kc)
		rc = type_attach(k, name, key, len);
	dmd_wipe(key, sizeof(key));
	if (rc) {
		ktfm_close(k);
		return rc == -ENOENT || rc == -EOPNOTSUPP ? -ENOPKG : rc;
	}
	d->tfm = k;
	return 0;
}

static void kern_release(struct dlib_dev *d)
{
	if (d->tfm)
		ktfm_close(d->tfm);
	d->tfm = NULL;
}

/*
 * A request that did not release: its errno. The module leaves the tfm's
 * state alone on a rejection it names; anything else (a short read, an
 * I/O error) leaves the tfm in doubt, so it is re-keyed from the state
 * file.
 */
static int failed(struct dlib_dev *d, ssize_t got)
{
	int rc = got < 0 ? (int)got : -EIO;

	if (rc != -EBADMSG && rc != -EKEYEXPIRED && rc != -ERANGE &&
	    rc != -EINVAL && rc != -EMSGSIZE)
		kern_release(d);
	/* The module's -ENOSPC means only this (kernel-api.rst). */
	return rc == -ENOSPC ? -DIAMOND_EEXHAUSTED : rc;
}

/* Spec 9.2 step 1, the lengths, answered as the module answers them. */
static int check_lengths(const struct diamond_epoch_body *body)
{
	if (body->ct_len < DIAMOND_TAG_SIZE)
		return -EINVAL;
	return body->adlen > DMD_MAX_AD ? -EMSGSIZE : 0;
}

static int kern_open(struct dlib_dev *d,
		     const struct diamond_epoch_body *body, uint8_t *pt,
		     uint32_t max_skip)
{
	size_t inlen = body->adlen + body->ct_len;
	size_t outlen = body->adlen + body->ct_len - DIAMOND_TAG_SIZE;
	uint8_t iv[DMD_IV_SIZE], *in = NULL, *out;
	ssize_t n;
	int rc;

	/* Spec 9.2: the lengths, then the epoch, in the kernel's order. */
	rc = check_lengths(body);
	if (rc)
		return rc;
	/* The kernel's own default bound is 4096; a tighter one is ours. */
	rc = dlib_check_epoch(&d->st, body->epoch, max_skip);
	if (rc)
		return rc;
	if (!d->tfm) {
		rc = attach(d);
		if (rc)
			return rc;
	}
	if (body->ct != body->ad + body->adlen) {
		in = malloc(inlen);
		if (!in)
			return -ENOMEM;
		memcpy(in, body->ad, body->adlen);
		memcpy(in + body->adlen, body->ct, body->ct_len);
	}
	out = malloc(outlen ? outlen : 1);
	if (!out) {
		free(in);
		return -ENOMEM;
	}
	dmd_store64_le(iv, body->epoch);
	n = ktfm_decrypt(d->tfm, in ? in : body->ad, inlen,
			 (uint32_t)body->adlen, iv, out, outlen);
	if (n >= 0 && (size_t)n == outlen) {
		memcpy(pt, out + body->adlen, body->ct_len - DIAMOND_TAG_SIZE);
		rc = 0;
	} else {
		rc = failed(d, n);
	}
	dlib_free_secret(out, outlen ? outlen : 1);
	free(in);
	return rc;
}

/*
 * The cursor copy @rx moved past the unit the module released, as the
 * core's receiver moves it (spec 9.1): keys only, so the state file can
 * hold what the tfm holds. Nothing is verified here.
 */
static void rx_advance(struct dmd_receiver *rx, uint64_t epoch,
		       uint32_t group, int final)
{
	unsigned int suite = rx->st.suite;
	struct dmd_stream s;
	uint8_t hp[32];
	uint64_t e;
	uint32_t j;

	if (!(rx->open && rx->st.epoch == epoch)) {
		for (e = rx->open ? rx->st.epoch + 1 : rx->st.epoch; e <= epoch;
		     e++)
			dmd_epoch_update(suite, rx->st.key, rx->st.key, rx->r);
		rx->st.epoch = epoch;
		rx->group = 0;
		rx->open = 1;
	}
	if (final) {
		dmd_wipe(rx->r, sizeof(rx->r));
		rx->st.epoch++;
		rx->group = 0;
		rx->open = 0;
		return;
	}
	for (j = rx->group * rx->g; j < (group + 1) * rx->g; j++) {
		dmd_slot_open(&s, suite, rx->r, rx->r, hp);
		dmd_stream_wipe(&s);
	}
	dmd_wipe(hp, sizeof(hp));
	rx->group = group + 1;
}

/*
 * One unit as the module's grouped request (kernel-api.rst "Groups"),
 * u = 1: AAD = le16(1) || le32(field) || le32(len) || AD.
 */
static int kern_open_unit(struct dlib_dev *d, uint32_t group, uint32_t n,
			  const struct diamond_epoch_body *body, uint8_t *pt,
			  struct dmd_receiver *next)
{
	uint32_t b = next->st.b, g = next->g;
	uint32_t at = !n ? group : n < b ? n / g : (b - 1) / g;
	size_t assoc = 10 + body->adlen, inlen = assoc + body->ct_len;
	size_t outlen = inlen - DIAMOND_TAG_SIZE;
	uint8_t iv[DMD_IV_SIZE], *in, *out;
	ssize_t got;
	int rc;

	/* Spec 9.2: the lengths, then the position, in the kernel's order. */
	rc = check_lengths(body);
	if (rc)
		return rc;
	if (next->open && body->epoch == next->st.epoch && at < next->group)
		return -EKEYEXPIRED;
	rc = dlib_check_epoch(&next->st, body->epoch, next->max_skip);
	if (!rc && !d->tfm)
		rc = attach(d);
	if (rc)
		return rc;
	in = malloc(inlen);
	out = malloc(outlen);
	if (!in || !out) {
		free(in);
		free(out);
		return -ENOMEM;
	}
	in[0] = 1;
	in[1] = 0;
	dmd_store32_le(in + 2, n ? DMD_TRAILER_FLAG | n :
				   DMD_GROUP_FLAG | (group * g + g));
	dmd_store32_le(in + 6, (uint32_t)body->ct_len);
	memcpy(in + 10, body->ad, body->adlen);
	memcpy(in + assoc, body->ct, body->ct_len);
	dmd_store64_le(iv, body->epoch);
	got = ktfm_decrypt(d->tfm, in, inlen, (uint32_t)assoc, iv, out,
			   outlen);
	if (got >= 0 && (size_t)got == outlen && !dmd_load32_le(out + 2)) {
		memcpy(pt, out + assoc, body->ct_len - DIAMOND_TAG_SIZE);
		rx_advance(next, body->epoch, at, n != 0);
		rc = 0;
	} else {
		rc = failed(d, got);
	}
	dlib_free_secret(out, outlen);
	free(in);
	return rc;
}

const struct dlib_backend dlib_backend_kernel = {
	.name = "kernel",
	.open = kern_open,
	.open_unit = kern_open_unit,
	.release = kern_release,
};
