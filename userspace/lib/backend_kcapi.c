// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Kernel backend: AF_ALG AEAD "diamond(ctr(aes),ghash)" (suite 1) or
 * "diamond(chacha20,poly1305)" (suite 2) (Documentation/kernel-api.rst),
 * through type "aead" or diamond.ko's own type (ktfm.c). One tfm per active device, keyed once
 * with the device's state blob; the kernel evolves the key inside the tfm
 * on every verified epoch and the gateway mirrors that in the state file.
 * A request is one epoch: IV le64(epoch), assoclen |AD|, authsize 16; for
 * a grouped device one unit, behind a one-entry unit table in the AD.
 *
 * The module walks a grouped request's record chain from the cursor its
 * tfm is keyed with, and keeps no checkpoints: a unit at group i of the
 * open epoch costs it i - c groups of chain steps every time it is tried,
 * so forged units far ahead would cost it what libdiamond's checkpoints
 * (checkpoint.c) save. So a unit more than KERN_SPAN steps past where the
 * tfm stands is opened by a tfm keyed at the cursor libdiamond sought to
 * it (the state file's cursor format, kernel-api.rst "Restoring a
 * cursor"): the module walks nothing but the unit's own records. That key
 * holds only future keys (the unit's group start and E_{e+1}).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kcapi_opt.h"

#include "internal.h"
#include <diamond/chain.h>

#define KCAPI_NAME_SUITE1	"diamond(ctr(aes),ghash)"
#define KCAPI_NAME_SUITE2	"diamond(chacha20,poly1305)"
/* The longest walk the module is asked to make for a unit (checkpoint.c). */
#define KERN_SPAN		256u

static const char *alg_name(unsigned int suite)
{
	return suite == DMD_SUITE_AES_GHASH ? KCAPI_NAME_SUITE1 :
					      KCAPI_NAME_SUITE2;
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
	rt = rc == -ENOENT ? dlib_ktfm_type_bind(KCAPI_NAME_SUITE1) : rc;
	if (rt >= 0) {
		close(rt);
		/* Not an error: the one line that says which way serves. */
		snprintf(msg, size, "kernel path: AF_ALG type \"aead\" "
			 "refuses %s (ENOENT: crypto.af_alg_restrict=1?), "
			 "using diamond.ko's type \"%s\"", KCAPI_NAME_SUITE1,
			 DLIB_ALG_TYPE);
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
			 KCAPI_NAME_SUITE1, DLIB_ALG_TYPE, strerror(-rt),
			 dlib_ktfm_type_hint(rt));
	else
		snprintf(msg, size, "AF_ALG %s: %s (is the diamond module "
			 "loaded? modprobe diamond)", KCAPI_NAME_SUITE1,
			 strerror(-rc));
	return -ENOPKG;
}

/* Where a grouped tfm's state stands: closed at (@epoch, E_@epoch), or open. */
struct kern_pos {
	uint64_t epoch;
	uint32_t group;
	uint8_t open;
};

/* d->tfm: the AF_ALG tfm and, for a grouped device, where it stands. */
struct kern_tfm {
	struct dlib_ktfm *k;
	struct kern_pos at;
};

static struct kern_pos pos_of(const struct dmd_receiver *rx)
{
	struct kern_pos p = { rx->st.epoch, rx->open ? rx->group : 0,
			      rx->open };

	return p;
}

/*
 * The module's key for @d (kernel-api.rst): the version 1 blob, or for a
 * grouped device the version 2 blob of the cursor @rx's state with g and,
 * while an epoch is open, the cursor le64(e) || le32(c) || R_{e,c*g}.
 * Always open-only (spec section 2): a gateway's tfm never seals, so a
 * process holding it cannot make a device's epochs (issue 20 item 1).
 */
size_t dlib_kernel_key(const struct dlib_dev *d, const struct dmd_receiver *rx,
		       uint8_t *key)
{
	struct dmd_state st;
	size_t n;

	if (!rx) {
		st = d->st;
		st.flags |= DMD_BLOB_FLAG_OPEN_ONLY;
		dmd_blob_write(key, &st);
		dmd_wipe(&st, sizeof(st));
		return dmd_blob_size(d->st.suite);
	}
	dmd_receiver_state(rx, &st);
	st.group = (uint16_t)d->g;
	st.flags |= DMD_BLOB_FLAG_OPEN_ONLY;
	dmd_blob2_write(key, &st);
	dmd_wipe(&st, sizeof(st));
	n = dmd_blob2_size(d->st.suite);
	return n + dlib_kernel_cursor(rx, key + n);
}

/* @rx's cursor as setkey takes it after the blob (none if closed). */
size_t dlib_kernel_cursor(const struct dmd_receiver *rx, uint8_t *out)
{
	size_t k = dmd_key_size(rx->st.suite);

	if (!rx->open)
		return 0;
	dmd_store64_le(out, rx->st.epoch);
	dmd_store32_le(out + 8, rx->group);
	memcpy(out + 12, rx->r, k);
	return 12 + k;
}

/* A new tfm *@out keyed with @rx's state (NULL: @d's blob), standing there. */
static int tfm_new(const struct dlib_dev *d, const struct dmd_receiver *rx,
		   struct kern_tfm **out)
{
	struct kern_tfm *t = calloc(1, sizeof(*t));
	uint8_t key[DLIB_KERNEL_KEY_MAX];
	size_t len;
	int rc;

	if (!t)
		return -ENOMEM;
	len = dlib_kernel_key(d, rx, key);
	rc = dlib_ktfm_open(alg_name(d->st.suite), key, len, &t->k);
	dmd_wipe(key, sizeof(key));
	if (rc) {
		free(t);
		return rc;
	}
	if (rx)
		t->at = pos_of(rx);
	*out = t;
	return 0;
}

/*
 * Custody: a tfm of diamond.ko's type keyed with @d's wrapped state, or
 * before it has one, by reference to its key diamond:<id> (the loader's):
 * the process hands the module a blob it cannot open or a name, never a
 * key.
 */
static int custody_new(const struct dlib_dev *d, struct kern_tfm **out)
{
	struct kern_tfm *t = calloc(1, sizeof(*t));
	uint8_t ref[DMD_REF_SIZE];
	int rc;

	if (!t)
		return -ENOMEM;
	dlib_key_ref(ref, d->st.suite, d->id);
	rc = dlib_ktfm_open_custody(alg_name(d->st.suite),
				    d->w->len ? d->w->blob : ref,
				    d->w->len ? d->w->len : sizeof(ref), &t->k);
	if (rc) {
		free(t);
		return rc;
	}
	if (d->rx)
		t->at = pos_of(d->rx);
	*out = t;
	return 0;
}

static int attach(struct dlib_dev *d)
{
	struct kern_tfm *t;
	int rc = d->w ? custody_new(d, &t) : tfm_new(d, d->rx, &t);

	if (!rc)
		d->tfm = t;
	return rc;
}

/*
 * The chain steps the module walks from where @t stands to the start of
 * @p's group (epoch updates and record slots), UINT64_MAX if it is behind.
 */
static uint64_t walk(const struct kern_pos *t, const struct kern_pos *p,
		     uint32_t g)
{
	if (p->epoch < t->epoch ||
	    (t->open && p->epoch == t->epoch && p->group < t->group))
		return UINT64_MAX;
	if (t->open && p->epoch == t->epoch)
		return (uint64_t)(p->group - t->group) * g;
	return p->epoch - t->epoch + !t->open + (uint64_t)p->group * g;
}

static void kern_release(struct dlib_dev *d)
{
	struct kern_tfm *t = d->tfm;

	if (t) {
		dlib_ktfm_close(t->k);
		free(t);
	}
	d->tfm = NULL;
}

/*
 * Before a grouped request for the unit @next was sought to: a module walk
 * of more than KERN_SPAN steps from where the tfm stands (or a unit behind
 * it, after a failed try far ahead) is replaced by a fresh tfm keyed at
 * @next. AF_ALG refuses a setkey while the tfm has an operation socket
 * (-EBUSY), hence a new tfm, not a new key. A module that refuses the
 * cursor (one from before group-0 cursors) gets a tfm keyed at the
 * device's own cursor, and walks from there as it always did.
 */
static int stand_at(struct dlib_dev *d, const struct dmd_receiver *next)
{
	struct kern_tfm *t = d->tfm;
	struct kern_pos p = pos_of(next);
	int rc;

	/* Custody: no key to seek with; the module walks (section 1). */
	if (d->w || walk(&t->at, &p, d->g) <= KERN_SPAN)
		return 0;
	kern_release(d);
	rc = tfm_new(d, next, &t);
	if (rc && rc != -ENOMEM && rc != -ENOPKG)
		rc = tfm_new(d, d->rx, &t);
	if (!rc)
		d->tfm = t;
	return rc;
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
	n = dlib_ktfm_decrypt(((struct kern_tfm *)d->tfm)->k,
			      in ? in : body->ad, inlen,
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
 * hold what the tfm holds; in custody (@keys 0) the position alone, the
 * state file gets the module's export. Nothing is verified here.
 */
static void rx_advance(struct dmd_receiver *rx, uint64_t epoch,
		       uint32_t group, int final, int keys)
{
	unsigned int suite = rx->st.suite;
	struct dmd_stream s;
	uint8_t hp[32];
	uint64_t e;
	uint32_t j;

	if (!(rx->open && rx->st.epoch == epoch)) {
		for (e = rx->open ? rx->st.epoch + 1 : rx->st.epoch;
		     keys && e <= epoch; e++)
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
	for (j = rx->group * rx->g; keys && j < (group + 1) * rx->g; j++) {
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
	struct kern_tfm *t;
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
	rc = stand_at(d, next);
	if (rc)
		return rc;
	t = d->tfm;
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
	got = dlib_ktfm_decrypt(t->k, in, inlen, (uint32_t)assoc, iv, out,
				outlen);
	if (got >= 0 && (size_t)got == outlen && !dmd_load32_le(out + 2)) {
		memcpy(pt, out + assoc, body->ct_len - DIAMOND_TAG_SIZE);
		rx_advance(next, body->epoch, at, n != 0, !d->w);
		t->at = pos_of(next);	/* the module moved as @next did */
		rc = 0;
	} else {
		rc = failed(d, got);
	}
	dlib_free_secret(out, outlen);
	free(in);
	return rc;
}

/* Custody: the tfm's state as the module exports it, into @w. */
static int kern_wrapped(struct dlib_dev *d, struct dlib_wstate *w)
{
	struct kern_tfm *t = d->tfm;
	uint8_t buf[DLIB_DMDW_MAX];
	ssize_t n;

	if (!t)
		return -ENOKEY;
	n = dlib_ktfm_export(t->k, buf, sizeof(buf));
	return n < 0 ? (int)n : dlib_wst_adopt(w, buf, (size_t)n);
}

/* Packet mode: kgrid.c, on a tfm of the device's suite. */
static int kern_grid_attach(void **gh, const struct dlib_pstate *ps)
{
	return dlib_kgrid_attach(gh, ps, alg_name(ps->st.suite));
}

const struct dlib_backend dlib_backend_kernel = {
	.name = "kernel",
	.open = kern_open,
	.open_unit = kern_open_unit,
	.release = kern_release,
	.wrapped = kern_wrapped,
	.open_grid = dlib_kgrid_open,
	.grid_attach = kern_grid_attach,
	.grid_decide = dlib_kgrid_decide,
	.grid_cursor = dlib_kgrid_cursor,
	.grid_drop = dlib_kgrid_drop,
};
