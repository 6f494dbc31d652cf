// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_wrap: keys by reference and wrapped states (Documentation/
 * spec.rst "Wrapped states", Documentation/kernel-api.rst "Keys by
 * reference"), through the module's AF_ALG type "diamond", both suites.
 * Run as root, in a session keyring of its own (diamond_keys checks the
 * key type itself):
 *
 *  1. The loader's keys, of the module's key type "diamond": "diamond:wrap"
 *     (32 random bytes) and "diamond:<id>", the vector's blob made
 *     open-only, possessor and user view|search only.
 *  2. A tfm keyed by reference (DMDR naming diamond:<id>) opens the
 *     vector's first epoch; getsockopt(DIAMOND_ALG_GET_WRAPPED) gives the
 *     DMDW blob whose header names device and next epoch; a second tfm
 *     keyed with it opens the vector's second epoch.
 *  3. Every byte of the DMDW altered: setkey refuses it with the documented
 *     errno (EINVAL for the header's own fields, EKEYREJECTED for the
 *     AEAD's) and the tfm stays keyless (accept is ENOKEY). A short buffer
 *     is ERANGE with the size; another option is ENOPROTOOPT.
 *  4. As uid/gid 65534 (afalg_gid lets it bind), the keys possessed
 *     through the session keyring: keyctl read of both keys fails, the
 *     tfm it keys by reference refuses encrypt (EPERM),
 *     opens, and nothing it gets out of its sockets (the DMDW, every
 *     getsockopt SOL_ALG option of both sockets) holds the bytes of E_e
 *     of any state of the vector: 0 hits.
 *  5. The wrap key unlinked: setkey of the DMDW is ENOKEY, and a tfm keyed
 *     in clear exports nothing (ENOKEY).
 *  6. An encrypted key "diamond:wrap" (which AF_ALG would hand to any
 *     algorithm by serial) is no wrap key: with only it, export is ENOKEY
 *     (a SKIP without encrypted keys).
 *  7. Custody (kernel-api.rst "Custody"), each as uid 65534 in a child of
 *     its own: a logon diamond:wrap of its own, in its thread keyring or in
 *     its user keyring, is never used: the tfm keyed by reference exports
 *     under the loader's wrap key (a fresh tfm keyed with the export opens
 *     the next epoch); a clear key of its own for the device exports
 *     EPERM, and so does the same key as a logon key diamond:<id> of its
 *     own keyed by serial (a SKIP before 6.2).
 * TAP 13; exit 4 when the type "diamond" or the algorithms are missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_alg.h>
#include <linux/keyctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <diamond/util.h>

#include "lib/vecfile.h"
#include "tap.h"
#include "afalg.h"
#include "dmd_keys.h"
#include "dmd_test.h"

#ifndef SOL_ALG
#define SOL_ALG			279
#endif
#define GIDPARAM	"/sys/module/diamond/parameters/afalg_gid"
#define NOBODY		65534
#define REF		(-2)	/* wtfm(): by reference */
#define keyctl		dmd_keyctl

static int by_serial;		/* AF_ALG keys by serial (6.2 and later) */

/* A key of the module's type in the session keyring, as the loader adds. */
static int add_dkey(const char *desc, const void *p, size_t len)
{
	return dmd_key_add(DMD_KEY_TYPE, desc, p, len,
			   KEY_SPEC_SESSION_KEYRING);
}

/* The vector's key made open-only, in its own version; its length. */
static size_t open_only(const struct vec *v, uint8_t *out)
{
	struct dmd_state st;

	if (dmd_blob_parse(&st, v->key.p, v->key.len) != DMD_OK)
		return 0;
	st.flags = DMD_BLOB_FLAG_OPEN_ONLY;
	if (v->key.p[DMD_BLOB_OFF_VERSION] == DMD_BLOB_VERSION)
		dmd_blob_write(out, &st);
	else
		dmd_blob2_write(out, &st);
	dmd_wipe(&st, sizeof(st));
	return v->key.len;
}

/*
 * The vector's key with E_e altered and @flags: a key of the ingest's own
 * for the same device, which it must not launder into a wrapped state
 * (open-only) nor pass off as the device's (flags 0: it seals with it).
 */
static size_t forged(const struct vec *v, uint8_t *out, uint8_t flags)
{
	struct dmd_state st;
	size_t n;

	if (dmd_blob_parse(&st, v->key.p, v->key.len) != DMD_OK)
		return 0;
	st.flags = flags;
	st.key[0] ^= 0x01;
	dmd_blob2_write(out, &st);
	n = DMD_BLOB2_SIZE(dmd_key_size(st.suite));
	dmd_wipe(&st, sizeof(st));
	return n;
}

/*
 * A tfm of type "diamond", keyed by the keyring key @serial (>= 0) or
 * with @blob (@serial -1), or by reference to device @len's key
 * (@serial -2, @blob NULL); fd/-errno.
 */
static int wtfm(unsigned int suite, int serial, const uint8_t *blob,
		size_t len)
{
	int32_t s = serial;
	int fd = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
	uint8_t ref[DMD_REF_SIZE];
	int err = 0;

	if (fd < 0)
		return fd;
	if (serial >= 0) {
		err = dmd_setkey_serial(fd, s);
	} else if (!blob) {
		dmd_key_ref(ref, suite, (uint32_t)len);
		err = afalg_setkey(fd, ref, sizeof(ref));
	} else {
		err = afalg_setkey(fd, blob, len);
	}
	if (!err)
		err = afalg_setauthsize(fd, DMD_TAG_SIZE);
	if (err) {
		afalg_close(fd);
		return err;
	}
	return fd;
}

/* getsockopt DIAMOND_ALG_GET_WRAPPED on @op into @w; its length/-errno. */
static int get_wrapped(int op, uint8_t *w, socklen_t len)
{
	if (getsockopt(op, SOL_ALG, DIAMOND_ALG_GET_WRAPPED, w, &len) < 0)
		return -errno;
	return (int)len;
}

/* Step @i of @v opened on operation socket @op: 0 when as the vector. */
static int open_step(int op, const struct vec *v, unsigned int i)
{
	const struct vec_step *s = &v->step[i];
	uint8_t *pt = calloc(1, s->ct.len + 1);
	int err = dmd_kopen(op, 0, s->epoch, s->ad.p, s->ad.len, s->ct.p,
			    s->ct.len, pt, NULL, NULL);

	if (!err && (s->pt.len != s->ct.len - DMD_TAG_SIZE ||
		     memcmp(pt, s->pt.p, s->pt.len)))
		err = -EPROTO;
	free(pt);
	return err;
}

/* Hits of E_e of @v's key and of every step's next state in @p. */
static unsigned int key_hits(const struct vec *v, unsigned int k,
			     const uint8_t *p, size_t n)
{
	const struct vec_buf *b;
	unsigned int i, hits = 0, off;
	size_t j;

	for (i = 0; i <= v->nsteps; i++) {
		b = i ? &v->step[i - 1].next : &v->key;
		if (b->len < DMD_BLOB_SIZE(k))
			continue;
		off = b->p[DMD_BLOB_OFF_VERSION] == DMD_BLOB2_VERSION ?
		      DMD_BLOB2_OFF_KEY : DMD_BLOB_OFF_KEY;
		for (j = 0; j + k <= n; j++)
			hits += !memcmp(p + j, b->p + off, k);
	}
	return hits;
}

/* The errno of a DMDW with byte @off altered (spec "Wrapped states"). */
static int tamper_want(unsigned int off, int cursor)
{
	if (off < DMD_WRAP_OFF_DEVICE ||
	    (off >= DMD_WRAP_OFF_RSVD1 && off < DMD_WRAP_OFF_EPOCH) ||
	    (off >= DMD_WRAP_OFF_LEN && off < DMD_WRAP_OFF_NONCE) ||
	    (!cursor && off >= DMD_WRAP_OFF_GROUP && off < DMD_WRAP_OFF_LEN))
		return -EINVAL;
	return -EKEYREJECTED;
}

/* 3: every byte of @w altered in turn, on fresh tfms. */
static void tamper(unsigned int suite, uint8_t *w, int n)
{
	int cursor = w[DMD_WRAP_OFF_FLAGS] & DMD_WRAP_FLAG_CURSOR;
	unsigned int bad = 0, off;
	int fd, op, want, err;

	for (off = 0; off < (unsigned int)n; off++) {
		want = tamper_want(off, cursor);
		w[off] ^= 0x80;
		fd = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
		err = afalg_setkey(fd, w, n);
		w[off] ^= 0x80;
		op = afalg_accept(fd);
		if (err != want || op != -ENOKEY) {
			if (!bad++)
				tap_diag("byte %u: setkey %s (want %s), accept %s (want ENOKEY)",
					 off, dmd_errname(err),
					 dmd_errname(want), dmd_errname(op));
		}
		afalg_close(op);
		afalg_close(fd);
	}
	tap_result(!bad, "suite%u: each of the %d bytes of the DMDW altered: refused as documented, tfm keyless (%u wrong)",
		   suite, n, bad);
}

/* What the checks as uid 65534 (4, 7) work on. */
struct wctx {
	const struct vec *v;
	unsigned int suite;
	int kid;			/* the loader's diamond:<id> */
	int wid;			/* the loader's diamond:wrap */
	const uint8_t *w;		/* the loader's export */
	int wn;
	uint32_t dev;
};

/* The device's tfm as the ingest keys it: by reference to diamond:<id>. */
static int device_tfm(const struct wctx *c)
{
	return wtfm(c->suite, REF, NULL, c->dev);
}

/* In a child as uid/gid 65534 with afalg_gid=65534: @fn's status, or -1. */
static int nobody_run(int (*fn)(const struct wctx *), const struct wctx *c)
{
	char was[32] = "", val[32];
	int status = -1;
	pid_t pid;

	if (dmd_read_str(GIDPARAM, was, sizeof(was)))
		return -1;
	snprintf(val, sizeof(val), "%d", NOBODY);
	if (dmd_write_str(GIDPARAM, val))
		return -1;
	pid = fork();
	if (!pid) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(100);
		_exit(fn(c));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		status = -1;
	else
		status = WEXITSTATUS(status);
	if (dmd_write_str(GIDPARAM, was))
		tap_diag("could not restore afalg_gid=%s", was);
	return status;
}

/* 4, in the child as uid 65534: 0 when every check holds. */
static int nobody_checks(const struct wctx *c)
{
	const struct vec *v = c->v;
	unsigned int suite = c->suite;
	int kid = c->kid, wid = c->wid, wn = c->wn;
	const uint8_t *w = c->w;
	unsigned int k = suite == 1 ? DMD_KEY1_SIZE : DMD_KEY2_SIZE;
	const struct vec_step *s = &v->step[0];
	uint8_t buf[4096], out[DMD_WRAP_MAX];
	unsigned int hits = 0, fail = 0, opt;
	socklen_t len;
	int tfm, op, fdi, fds[2];

	if (keyctl(KEYCTL_READ, kid, (unsigned long)buf, sizeof(buf)) >= 0 ||
	    keyctl(KEYCTL_READ, wid, (unsigned long)buf, sizeof(buf)) >= 0)
		fail |= 1;
	tfm = device_tfm(c);
	if (tfm < 0)
		return 2;
	if (dmd_kseal(tfm, 1, s->epoch, s->ad.p, s->ad.len, s->pt.p,
		      s->pt.len, buf) != -EPERM)
		fail |= 4;
	op = afalg_accept(tfm);
	if (op < 0 || open_step(op, v, 0))
		fail |= 8;
	fds[0] = tfm;
	fds[1] = op;
	for (fdi = 0; fdi < 2; fdi++) {
		/* Every small option, and the export's neighbours. */
		for (opt = 0; opt < 64 + 16; opt++) {
			int o = opt < 64 ? (int)opt :
				DIAMOND_ALG_GET_WRAPPED - 8 + (int)(opt - 64);

			len = sizeof(buf);
			memset(buf, 0, sizeof(buf));
			if (!getsockopt(fds[fdi], SOL_ALG, o, buf, &len))
				hits += key_hits(v, k, buf, len);
		}
	}
	len = sizeof(out);
	if (getsockopt(op, SOL_ALG, DIAMOND_ALG_GET_WRAPPED, out, &len))
		fail |= 16;
	else
		hits += key_hits(v, k, out, len);
	hits += key_hits(v, k, w, (size_t)wn);
	if (hits)
		fail |= 32;
	afalg_close(op);
	afalg_close(tfm);
	return (int)fail;
}

/* 4: in a child as uid 65534 (afalg_gid=65534 lets it bind). */
static void as_nobody(const struct wctx *c)
{
	int status = nobody_run(nobody_checks, c);

	tap_result(status == 0,
		   "suite%u: uid 65534 with the keys possessed: keyctl read of both fails, encrypt EPERM, opens, 0 hits of any E_e in what its sockets give (status %d: bits 1 read, 2 bind, 4 encrypt, 8 open, 16 export, 32 hits)",
		   c->suite, status);
}

/*
 * A tfm keyed as wtfm() keys it whose step @step opens (-1: none tried),
 * and its export: the export's -errno, or 0 when one came out and (after
 * an opened step) a fresh tfm keyed with it opens the next step, so it was
 * sealed under the wrap key setkey finds; 200 + the failing stage's
 * number when keying, opening or re-keying failed.
 */
static int key_open_export(const struct wctx *c, int serial,
			   const uint8_t *blob, size_t len, int step)
{
	uint8_t out[DMD_WRAP_MAX];
	int tfm = wtfm(c->suite, serial, blob, len), op, n, next = 0;

	if (tfm < 0)
		return 201;
	op = afalg_accept(tfm);
	if (op < 0 || (step >= 0 && open_step(op, c->v, (unsigned int)step))) {
		afalg_close(op);
		afalg_close(tfm);
		return 202;
	}
	n = get_wrapped(op, out, sizeof(out));
	afalg_close(op);
	afalg_close(tfm);
	if (n > 0 && step >= 0) {
		tfm = wtfm(c->suite, -1, out, (size_t)n);
		op = tfm >= 0 ? afalg_accept(tfm) : tfm;
		next = op < 0 || open_step(op, c->v, (unsigned int)step + 1);
		afalg_close(op);
		afalg_close(tfm);
	}
	return n > 0 ? (next ? 207 : 0) : -n;
}

/* Its own logon key @desc with @p in keyring @ring: 0, or 203. */
static int plant_key(const char *desc, const void *p, size_t len, long ring)
{
	long id = syscall(SYS_add_key, "logon", desc, p, len, ring);

	return id < 0 ? 203 : 0;
}

/*
 * 7a/b, as uid 65534: a logon diamond:wrap of its own (32 bytes it knows)
 * found before the loader's, in its thread keyring or in its user keyring
 * (linked into its thread keyring, searched first). It cannot add one of
 * the module's type (EPERM, diamond_keys), and the module takes no other:
 * the tfm it keys by reference opens, and its export is sealed under the
 * loader's wrap key (a fresh tfm keyed with it opens the next epoch).
 */
static int plant_wrap(const struct wctx *c, long ring)
{
	uint8_t known[DMD_WRAP_KEY_SIZE];
	int err;

	memset(known, 0x42, sizeof(known));
	if (ring == KEY_SPEC_USER_KEYRING &&
	    keyctl(KEYCTL_LINK, KEY_SPEC_USER_KEYRING,
		   KEY_SPEC_THREAD_KEYRING, 0) < 0)
		return 204;
	err = plant_key(DMD_WRAP_KEY_DESC, known, sizeof(known), ring);
	if (err)
		return err;
	return key_open_export(c, REF, NULL, c->dev, 0);
}

static int plant_thread(const struct wctx *c)
{
	return plant_wrap(c, KEY_SPEC_THREAD_KEYRING);
}

static int plant_user(const struct wctx *c)
{
	return plant_wrap(c, KEY_SPEC_USER_KEYRING);
}

/*
 * 7c, as uid 65534: a tfm keyed in clear with a key of its own for the
 * device (E_e altered) opens nothing of the vector's, but keys; its export
 * is EPERM, the loader's wrap key found or not.
 */
static int launder_clear(const struct wctx *c)
{
	uint8_t blob[DMD_BLOB2_MAX];
	size_t n = forged(c->v, blob, DMD_BLOB_FLAG_OPEN_ONLY);

	return n ? key_open_export(c, -1, blob, n, -1) : 206;
}

/*
 * 7d, as uid 65534: the same key of its own as a logon key diamond:<id>
 * it adds to its thread keyring (found before the loader's), keyed by its
 * serial: export EPERM.
 */
static int launder_serial(const struct wctx *c)
{
	uint8_t blob[DMD_BLOB2_MAX];
	size_t n = forged(c->v, blob, DMD_BLOB_FLAG_OPEN_ONLY);
	char desc[32];
	long id;

	snprintf(desc, sizeof(desc), "diamond:%u", c->dev);
	id = n ? syscall(SYS_add_key, "logon", desc, blob, n,
			 KEY_SPEC_THREAD_KEYRING) : -1;
	dmd_wipe(blob, sizeof(blob));
	if (id < 0)
		return 203;
	return key_open_export(c, (int)id, NULL, 0, -1);
}

/*
 * 8, as uid 65534: the epoch of the vector's step it opens next, sealed
 * with what the process can reach (the device's tfm: EPERM; so under a
 * key of its own for the device, on a tfm of its own) and fed to the
 * device's tfm, is EBADMSG; that tfm then opens the genuine epoch. 0 when
 * all three hold, else the bit of the first that failed.
 */
static int forge_epoch(const struct wctx *c)
{
	const struct vec *v = c->v;
	unsigned int i = 0;
	const struct vec_step *s = &v->step[i];
	uint8_t blob[DMD_BLOB2_MAX], *ct = malloc(s->ct.len + 1);
	uint8_t *pt = malloc(s->ct.len + 1);
	size_t n = forged(v, blob, 0);
	int dev = device_tfm(c);
	int own = n ? wtfm(c->suite, -1, blob, n) : -EINVAL;
	int op = dev >= 0 ? afalg_accept(dev) : -1;
	int fail = 0;

	dmd_wipe(blob, sizeof(blob));
	if (!ct || !pt || dev < 0 || own < 0 || op < 0)
		fail = 1;
	else if (dmd_kseal(dev, 1, s->epoch, s->ad.p, s->ad.len, s->pt.p,
			   s->pt.len, ct) != -EPERM)
		fail = 2;
	else if (dmd_kseal(own, 1, s->epoch, s->ad.p, s->ad.len, s->pt.p,
			   s->pt.len, ct))
		fail = 4;
	else if (dmd_kopen(op, 0, s->epoch, s->ad.p, s->ad.len, ct, s->ct.len,
			   pt, NULL, NULL) != -EBADMSG)
		fail = 8;
	else if (open_step(op, v, i))
		fail = 16;
	if (op >= 0)
		afalg_close(op);
	if (own >= 0)
		afalg_close(own);
	if (dev >= 0)
		afalg_close(dev);
	free(ct);
	free(pt);
	return fail;
}

/* 7: the custody checks, each in a child of its own as uid 65534. */
static void custody(const struct wctx *c)
{
	int st;

	st = nobody_run(plant_thread, c);
	tap_result(st == 0,
		   "suite%u: uid 65534, a logon diamond:wrap of its own in its thread keyring is not used: the export is sealed under the loader's (status %d, want 0)",
		   c->suite, st);
	st = nobody_run(plant_user, c);
	tap_result(st == 0,
		   "suite%u: uid 65534, a logon diamond:wrap of its own in its user keyring is not used: the export is sealed under the loader's (status %d, want 0)",
		   c->suite, st);
	st = nobody_run(forge_epoch, c);
	tap_result(st == 0,
		   "suite%u: uid 65534, device %u's epoch sealed under a key of its own: the device's tfm refuses to seal (EPERM), answers EBADMSG, then opens the genuine epoch (status %d: bits 1 setup, 2 seal, 4 own seal, 8 verdict, 16 genuine)",
		   c->suite, c->dev, st);
	st = nobody_run(launder_clear, c);
	tap_result(st == EPERM,
		   "suite%u: uid 65534, a clear key of its own for device %u: export EPERM (%d, want %d)",
		   c->suite, c->dev, st, EPERM);
	if (!by_serial) {
		tap_skip("no ALG_SET_KEY_BY_KEY_SERIAL (before 6.2)",
			 "a key of its own by serial");
		return;
	}
	st = nobody_run(launder_serial, c);
	tap_result(st == EPERM,
		   "suite%u: uid 65534, its own logon key diamond:%u keyed by serial: export EPERM (%d, want %d)",
		   c->suite, c->dev, st, EPERM);
}

/* 1, 2, 3, 5, 7 on vector @v (two opening steps, no groups). */
static void run_suite(const struct vec *v, unsigned int suite)
{
	uint8_t blob[DMD_BLOB2_MAX], wkey[DMD_WRAP_KEY_SIZE];
	uint8_t w[DMD_WRAP_MAX + 8], w2[DMD_WRAP_MAX];
	char desc[32];
	size_t blen = open_only(v, blob);
	int wid, kid, a, op, b, opb, n, err;
	uint32_t dev = dmd_load32_le(blob + DMD_BLOB_OFF_DEVICE);
	struct wctx c = { .v = v, .suite = suite, .dev = dev };
	socklen_t len;

	if (getrandom(wkey, sizeof(wkey), 0) != sizeof(wkey))
		memset(wkey, 0x5a, sizeof(wkey));
	snprintf(desc, sizeof(desc), "diamond:%u", dev);
	wid = add_dkey(DMD_WRAP_KEY_DESC, wkey, sizeof(wkey));
	kid = add_dkey(desc, blob, blen);
	c.kid = kid;
	c.wid = wid;
	if (!tap_result(wid > 0 && kid > 0 && blen,
			"suite%u: loader adds keys %s and %s of type %s",
			suite, DMD_WRAP_KEY_DESC, desc, DMD_KEY_TYPE))
		return;

	a = wtfm(suite, REF, NULL, dev);
	tap_result(a >= 0, "suite%u: tfm keyed by reference to %s: %s",
		   suite, desc, dmd_errname(a < 0 ? a : 0));
	op = a >= 0 ? afalg_accept(a) : a;
	err = op >= 0 ? open_step(op, v, 0) : op;
	tap_result(!err, "suite%u: %s step 0 opens: %s", suite, v->name,
		   dmd_errname(err));
	n = op >= 0 ? get_wrapped(op, w, sizeof(w)) : op;
	if (!tap_result(n == DMD_WRAP_SIZE(DMD_BLOB2_SIZE(suite == 1 ? 16 : 32)) &&
			!memcmp(w, DMD_WRAP_MAGIC, 4) &&
			dmd_load32_le(w + DMD_WRAP_OFF_DEVICE) == dev &&
			dmd_load64_le(w + DMD_WRAP_OFF_EPOCH) ==
			v->step[0].epoch + 1,
			"suite%u: export: DMDW of %d bytes, device %u, epoch %llu",
			suite, n, dev,
			(unsigned long long)v->step[0].epoch + 1))
		goto out;
	len = (socklen_t)n - 1;
	err = getsockopt(op, SOL_ALG, DIAMOND_ALG_GET_WRAPPED, w2, &len) ?
	      -errno : 0;
	tap_result(err == -ERANGE && len == (socklen_t)n,
		   "suite%u: short buffer: ERANGE with the size (%s, %u)",
		   suite, dmd_errname(err), (unsigned int)len);
	len = sizeof(w2);
	err = getsockopt(op, SOL_ALG, DIAMOND_ALG_GET_WRAPPED + 1, w2, &len) ?
	      -errno : 0;
	tap_result(err == -ENOPROTOOPT, "suite%u: another option: %s",
		   suite, dmd_errname(err));
	tap_result(get_wrapped(op, w2, sizeof(w2)) == n &&
		   memcmp(w + DMD_WRAP_OFF_NONCE, w2 + DMD_WRAP_OFF_NONCE,
			  DMD_WRAP_NONCE_SIZE),
		   "suite%u: a second export has a fresh nonce", suite);

	b = wtfm(suite, -1, w, n);
	opb = b >= 0 ? afalg_accept(b) : b;
	err = opb >= 0 ? open_step(opb, v, 1) : opb;
	tap_result(!err, "suite%u: a second tfm keyed with the DMDW opens step 1: %s",
		   suite, dmd_errname(err));
	afalg_close(opb);
	afalg_close(b);

	tamper(suite, w, n);
	/* The search below can find what it looks for: the clear blob. */
	tap_result(key_hits(v, suite == 1 ? DMD_KEY1_SIZE : DMD_KEY2_SIZE,
			    blob, blen) == 1,
		   "suite%u: control: E_e found once in the clear blob", suite);
	c.w = w;
	c.wn = n;
	as_nobody(&c);
	custody(&c);

	keyctl(KEYCTL_UNLINK, wid, KEY_SPEC_SESSION_KEYRING, 0);
	b = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
	err = afalg_setkey(b, w, n);
	tap_result(err == -ENOKEY, "suite%u: wrap key unlinked: setkey of the DMDW is ENOKEY (%s)",
		   suite, dmd_errname(err));
	afalg_close(b);
	b = wtfm(suite, -1, blob, blen);
	opb = b >= 0 ? afalg_accept(b) : b;
	err = opb >= 0 ? get_wrapped(opb, w2, sizeof(w2)) : opb;
	tap_result(err == -ENOKEY, "suite%u: keyed without a wrap key: export ENOKEY (%s)",
		   suite, dmd_errname(err < 0 ? err : 0));
	afalg_close(opb);
	afalg_close(b);
out:
	keyctl(KEYCTL_UNLINK, kid, KEY_SPEC_SESSION_KEYRING, 0);
	keyctl(KEYCTL_UNLINK, wid, KEY_SPEC_SESSION_KEYRING, 0);
	afalg_close(op);
	afalg_close(a);
	dmd_wipe(wkey, sizeof(wkey));
}

/*
 * 6: an encrypted key "diamond:wrap" (format default, 32 bytes) under a
 * user master key, root's and not writable, and no key of the module's
 * type: AF_ALG hands an encrypted key's payload to any algorithm by
 * serial, so it is no wrap key. A tfm keyed in clear as root exports
 * ENOKEY. A SKIP where the kernel has no encrypted keys.
 */
static void encrypted_wrap(const struct vec *v, unsigned int suite)
{
	uint8_t blob[DMD_BLOB2_MAX], kmk[32], w[DMD_WRAP_MAX];
	size_t blen = open_only(v, blob);
	const char *spec = "new default user:diamond-test:kmk 32";
	long mid, eid;
	int a, op, n;

	if (getrandom(kmk, sizeof(kmk), 0) != sizeof(kmk))
		memset(kmk, 0xa5, sizeof(kmk));
	mid = syscall(SYS_add_key, "user", "diamond-test:kmk", kmk,
		      sizeof(kmk), KEY_SPEC_SESSION_KEYRING);
	eid = mid < 0 ? -1 : syscall(SYS_add_key, "encrypted", DMD_WRAP_KEY_DESC,
				     spec, strlen(spec),
				     KEY_SPEC_SESSION_KEYRING);
	dmd_wipe(kmk, sizeof(kmk));
	/* Writable, the module would refuse it (kernel-api.rst "Custody"). */
	if (eid >= 0 && keyctl(KEYCTL_SETPERM, eid, DMD_LOADER_PERM, 0) < 0)
		tap_diag("setperm encrypted key: %s", dmd_errname(-errno));
	if (eid < 0) {
		tap_diag("add encrypted key: %s", dmd_errname(-errno));
		tap_skip("no encrypted keys in this kernel",
			 "encrypted diamond:wrap");
		goto out;
	}
	a = wtfm(suite, -1, blob, blen);
	op = a >= 0 ? afalg_accept(a) : a;
	n = op >= 0 ? get_wrapped(op, w, sizeof(w)) : op;
	tap_result(op >= 0 && n == -ENOKEY,
		   "suite%u: an encrypted key diamond:wrap is no wrap key: export ENOKEY (%s)",
		   suite, dmd_errname(n < 0 ? n : 0));
	afalg_close(op);
	afalg_close(a);
	keyctl(KEYCTL_UNLINK, eid, KEY_SPEC_SESSION_KEYRING, 0);
out:
	if (mid >= 0)
		keyctl(KEYCTL_UNLINK, mid, KEY_SPEC_SESSION_KEYRING, 0);
}

/* The first vector of @suite whose steps 0 and 1 open. */
static int usable(const struct vec *v, unsigned int suite)
{
	return v->key.len > DMD_BLOB_OFF_SUITE &&
	       v->key.p[DMD_BLOB_OFF_SUITE] == suite && v->nsteps >= 2 &&
	       !strcmp(v->step[0].expect, "ok") &&
	       !strcmp(v->step[1].expect, "ok");
}

int main(int argc, char **argv)
{
	const char *path = dmd_vectors_path(argc, argv);
	unsigned int suite, done = 0;
	struct vec_file *vf;
	const struct vec *v;
	int fd;

	tap_header();
	if (geteuid()) {
		tap_skip("needs root", "diamond_wrap");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	/* A session keyring of this test's own, inherited by the child. */
	if (keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0) < 0) {
		tap_result(0, "join a new session keyring: %s",
			   dmd_errname(-errno));
		tap_trailing_plan();
		return tap_finish();
	}
	by_serial = dmd_by_serial() > 0;
	for (suite = 1; suite <= 2; suite++) {
		fd = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
		afalg_close(fd);
		if (fd < 0) {
			tap_skip("no AF_ALG type diamond", dmd_alg_name(suite));
			continue;
		}
		vf = vec_open(path);
		if (!vf) {
			tap_result(0, "open %s", path);
			break;
		}
		while ((v = vec_next(vf)) && !usable(v, suite))
			;
		if (tap_result(v != NULL, "suite%u: a vector with two opening steps", suite)) {
			run_suite(v, suite);
			encrypted_wrap(v, suite);
			done++;
		}
		vec_close(vf);
	}
	tap_trailing_plan();
	return done ? tap_finish() : TAP_EXIT_SKIP;
}
