// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Kernel backend: AF_ALG AEAD "diamond(ctr(aes),ghash)" (suite 1) or
 * "diamond(chacha20,poly1305)" (suite 2) through libkcapi
 * (Documentation/kernel-api.rst). One tfm per active device, keyed once
 * with the device's state blob; the kernel evolves the key inside the tfm
 * on every verified epoch and the gateway mirrors that in the state file.
 * A request is one epoch: IV le64(epoch), assoclen |AD|, authsize 16.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kcapi.h>

#include "internal.h"

#define KCAPI_NAME_SUITE1	"diamond(ctr(aes),ghash)"
#define KCAPI_NAME_SUITE2	"diamond(chacha20,poly1305)"

static const char *alg_name(unsigned int suite)
{
	return suite == DMD_SUITE_AES_GHASH ? KCAPI_NAME_SUITE1 :
					      KCAPI_NAME_SUITE2;
}

int diamond_kernel_probe(char *msg, size_t size)
{
	struct kcapi_handle *h;
	int rc;

	/* Our own message below says what is missing; libkcapi's would not. */
	kcapi_set_verbosity(KCAPI_LOG_NONE);
	rc = kcapi_aead_init(&h, KCAPI_NAME_SUITE1, 0);
	if (!rc) {
		kcapi_aead_destroy(h);
		return 0;
	}
	if (rc == -EOPNOTSUPP || rc == -EAFNOSUPPORT)
		snprintf(msg, size, "the kernel has no AF_ALG AEAD interface "
			 "(modprobe af_alg algif_aead), and then the Diamond "
			 "module (modprobe diamond)");
	else if (rc == -ENOENT)
		snprintf(msg, size, "the kernel does not offer %s: the diamond "
			 "module is not loaded (modprobe diamond)",
			 KCAPI_NAME_SUITE1);
	else
		snprintf(msg, size, "AF_ALG %s: %s (is the diamond module "
			 "loaded? modprobe diamond)", KCAPI_NAME_SUITE1,
			 strerror(-rc));
	return -ENOPKG;
}

static int attach(struct dlib_dev *d)
{
	struct kcapi_handle *h;
	uint8_t blob[DMD_BLOB_MAX];
	int rc;

	rc = kcapi_aead_init(&h, alg_name(d->st.suite), 0);
	if (rc)
		return rc == -ENOENT || rc == -EOPNOTSUPP ? -ENOPKG : rc;
	dmd_blob_write(blob, &d->st);
	rc = kcapi_aead_setkey(h, blob, (uint32_t)dmd_blob_size(d->st.suite));
	dmd_wipe(blob, sizeof(blob));
	if (!rc)
		rc = kcapi_aead_settaglen(h, DIAMOND_TAG_SIZE);
	if (rc) {
		kcapi_aead_destroy(h);
		return rc;
	}
	d->tfm = h;
	return 0;
}

static void kern_release(struct dlib_dev *d)
{
	if (d->tfm)
		kcapi_aead_destroy(d->tfm);
	d->tfm = NULL;
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
	if (body->ct_len < DIAMOND_TAG_SIZE)
		return -EINVAL;
	if (body->adlen > DMD_MAX_AD)
		return -EMSGSIZE;
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
	kcapi_aead_setassoclen(d->tfm, body->adlen);
	n = kcapi_aead_decrypt(d->tfm, in ? in : body->ad, inlen, iv, out,
			       outlen, KCAPI_ACCESS_HEURISTIC);
	if (n >= 0 && (size_t)n == outlen) {
		memcpy(pt, out + body->adlen, body->ct_len - DIAMOND_TAG_SIZE);
		rc = 0;
	} else {
		rc = n < 0 ? (int)n : -EIO;
		/*
		 * The module leaves the tfm's state alone on a rejection it
		 * names; anything else (a short read, an I/O error) leaves
		 * the tfm in doubt, so it is re-keyed from the state file.
		 */
		if (rc != -EBADMSG && rc != -EKEYEXPIRED && rc != -ERANGE &&
		    rc != -EINVAL && rc != -EMSGSIZE)
			kern_release(d);
		/* The module's -ENOSPC means only this (kernel-api.rst). */
		if (rc == -ENOSPC)
			rc = -DIAMOND_EEXHAUSTED;
	}
	dlib_free_secret(out, outlen ? outlen : 1);
	free(in);
	return rc;
}

const struct dlib_backend dlib_backend_kernel = {
	.name = "kernel",
	.open = kern_open,
	.release = kern_release,
};
