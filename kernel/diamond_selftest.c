// SPDX-License-Identifier: GPL-2.0
/*
 * Init-time known-answer tests of both template instances, run through the
 * crypto API by name after the template is registered (testmgr has no
 * entry for an out-of-tree algorithm, so nothing else tests it).
 *
 * For each vector of kernel/diamond_kat.h (generated from
 * vectors/diamond.txt) one tfm opens every step and must return the
 * expected errno, the plaintext and the next state; a second tfm seals every
 * positive step and must produce the ciphertext and the same state. The
 * opening tfm waits for its precompute before each step so the table path
 * runs; the sealing tfm races its precompute like a normal user. A few API
 * rules (authsize, blob/suite mismatch, a refused key ends the old state)
 * are checked as well, and the wrapped state (export, setkey of it, every
 * byte of it altered, header and inner blob at odds) under a wrap key of
 * its own, and every record of vectors/wrap.txt (kernel/diamond_wrap_kat.h),
 * accepted or refused with its errno, and receiver vectors of
 * vectors/packet.txt (kernel/diamond_grid_kat.h) as grid requests at
 * authsize 12, the whole output compared. Suite 1 runs twice: on the best inner drivers, and on
 * synchronous ones (CRYPTO_ALG_ASYNC in the mask), which on x86 and on arm64
 * means ghash-generic and so the lib/crypto GHASH. Every failing case prints
 * a numbered pr_err; a pass prints one pr_info.
 */
#include <crypto/aead.h>
#include <crypto/chacha20poly1305.h>
#include <linux/crypto.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "diamond.h"
#include "diamond_grid_kat.h"
#include "diamond_kat.h"
#include "diamond_wrap_kat.h"

/* The tfm slots: 0 is suite 1 on synchronous inner algorithms. */
#define DMD_ST_SYNC1	0
#define DMD_ST_SLOTS	3

static const char *const suite_names[] = {
	[DMD_ST_SYNC1] = "diamond(ctr(aes),ghash)",
	[DMD_SUITE_AES_GHASH] = "diamond(ctr(aes),ghash)",
	[DMD_SUITE_CHACHA_POLY] = "diamond(chacha20,poly1305)",
};

struct selftest {
	unsigned int cases, failed;
	struct crypto_aead *open[3], *seal[3];
};

static bool check(struct selftest *t, bool ok, const char *what,
		  const char *name, unsigned int step, int got, int want)
{
	t->cases++;
#ifdef DIAMOND_SELFTEST_FAIL
	/* A test build (kernel/Kbuild): the first known answer is wrong. */
	if (t->cases == 1)
		ok = false;
#endif
	if (ok)
		return true;
	t->failed++;
	pr_err("diamond: selftest case %u failed: %s %s step %u (got %d, want %d)\n",
	       t->cases, name, what, step, got, want);
	return false;
}

/* One synchronous request: src = AD || in, dst = AD || out. */
static int __must_check run(struct crypto_aead *tfm, bool enc, u64 epoch,
			    const u8 *ad, unsigned int adlen, const u8 *in,
			    unsigned int inlen, u8 *out, unsigned int outlen)
{
	DECLARE_CRYPTO_WAIT(wait);
	struct aead_request *req;
	struct scatterlist sg_src, sg_dst;
	u8 *src, iv[DMD_IV_SIZE];
	int err = -ENOMEM;

	src = kmalloc(adlen + inlen + 1, GFP_KERNEL);
	req = aead_request_alloc(tfm, GFP_KERNEL);
	if (!src || !req)
		goto out;
	if (adlen)
		memcpy(src, ad, adlen);
	if (inlen)
		memcpy(src + adlen, in, inlen);
	memset(out, 0xa5, adlen + outlen);
	put_unaligned_le64(epoch, iv);
	sg_init_one(&sg_src, src, adlen + inlen);
	sg_init_one(&sg_dst, out, adlen + outlen);
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &wait);
	aead_request_set_ad(req, adlen);
	aead_request_set_crypt(req, &sg_src, &sg_dst, inlen, iv);
	err = crypto_wait_req(enc ? crypto_aead_encrypt(req) :
				    crypto_aead_decrypt(req), &wait);
out:
	aead_request_free(req);
	kfree(src);
	return err;
}

static bool state_is(struct crypto_aead *tfm, const u8 *blob,
		     unsigned int len)
{
	u8 have[DMD_BLOB_MAX];

	if (len > sizeof(have) || diamond_export_state(tfm, have, len))
		return false;
	return !memcmp(have, blob, len);
}

static void run_step(struct selftest *t, const struct diamond_kat *kat,
		     unsigned int i, u8 *buf, unsigned int suite)
{
	const struct diamond_kat_step *s = &kat->steps[i];
	struct crypto_aead *open = t->open[suite], *seal = t->seal[suite];
	unsigned int body = s->ctlen > DMD_TAG_SIZE ? s->ctlen - DMD_TAG_SIZE : 0;
	int err;

	diamond_wait_precompute(open);
	err = run(open, false, s->epoch, s->ad, s->adlen, s->ct, s->ctlen,
		  buf, body);
	if (!check(t, err == s->expect, "open", kat->name, i, err, s->expect) ||
	    s->expect)
		return;
	check(t, body == s->ptlen && !memcmp(buf + s->adlen, s->pt, body),
	      "plaintext", kat->name, i, 0, 0);
	check(t, state_is(open, s->next, s->nextlen), "open state", kat->name,
	      i, 0, 0);

	err = run(seal, true, s->epoch, s->ad, s->adlen, s->pt, s->ptlen, buf,
		  s->ctlen);
	/* An open-only key seals nothing (spec section 2). */
	if (kat->key[DMD_BLOB_OFF_FLAGS] & DMD_BLOB_FLAG_OPEN_ONLY) {
		check(t, err == -EPERM, "seal refused (open-only)", kat->name,
		      i, err, -EPERM);
		return;
	}
	if (!check(t, !err, "seal", kat->name, i, err, 0))
		return;
	check(t, !memcmp(buf + s->adlen, s->ct, s->ctlen), "ciphertext",
	      kat->name, i, 0, 0);
	check(t, state_is(seal, s->next, s->nextlen), "seal state", kat->name,
	      i, 0, 0);
}

static void run_kat(struct selftest *t, const struct diamond_kat *kat)
{
	unsigned int suite = kat->keylen > DMD_BLOB_OFF_SUITE ?
			     kat->key[DMD_BLOB_OFF_SUITE] : 0;
	bool known = suite == DMD_SUITE_AES_GHASH ||
		     suite == DMD_SUITE_CHACHA_POLY;
	unsigned int i, max = 0;
	int err;
	u8 *buf;

	if (!check(t, known, "suite", kat->name, 0, suite, 0))
		return;
	err = crypto_aead_setkey(t->open[suite], kat->key, kat->keylen) ?:
	      crypto_aead_setkey(t->seal[suite], kat->key, kat->keylen);
	if (!check(t, !err, "setkey", kat->name, 0, err, 0))
		return;

	for (i = 0; i < kat->nsteps; i++)
		max = max(max, kat->steps[i].adlen + kat->steps[i].ctlen);
	buf = kmalloc(max, GFP_KERNEL);
	if (!check(t, buf, "allocation", kat->name, 0, -ENOMEM, 0))
		return;
	for (i = 0; i < kat->nsteps; i++)
		run_step(t, kat, i, buf, suite);
	if (suite == DMD_SUITE_AES_GHASH) {
		err = crypto_aead_setkey(t->open[DMD_ST_SYNC1], kat->key,
					 kat->keylen) ?:
		      crypto_aead_setkey(t->seal[DMD_ST_SYNC1], kat->key,
					 kat->keylen);
		if (check(t, !err, "sync setkey", kat->name, 0, err, 0))
			for (i = 0; i < kat->nsteps; i++)
				run_step(t, kat, i, buf, DMD_ST_SYNC1);
	}
	kfree(buf);
}

/* Interface rules that no vector covers. */
static void run_api(struct selftest *t, unsigned int suite)
{
	struct crypto_aead *tfm = t->open[suite];
	const struct diamond_kat *other = NULL;
	unsigned int i, k = suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
							  DMD_KEY2_SIZE;
	u8 have[DMD_BLOB_MAX];
	int err;

	err = crypto_aead_setauthsize(tfm, 8);
	check(t, err == -EINVAL, "setauthsize(8)", suite_names[suite], 0, err,
	      -EINVAL);
	/* A blob of the other suite. */
	for (i = 0; i < ARRAY_SIZE(diamond_kats); i++)
		if (diamond_kats[i].key[DMD_BLOB_OFF_SUITE] != suite)
			other = &diamond_kats[i];
	if (other) {
		err = crypto_aead_setkey(tfm, other->key, other->keylen);
		check(t, err == -EINVAL, "foreign blob", suite_names[suite], 0,
		      err, -EINVAL);
		/* The refused key erased the old state, not just hid it. */
		err = diamond_export_state(tfm, have, DMD_BLOB_SIZE(k));
		check(t, err == -ENOKEY, "state after a refused key",
		      suite_names[suite], 0, err, -ENOKEY);
	}
}

/* The selftest's wrap key: not the caller's, whatever its keyrings hold. */
static const u8 st_wkey[DMD_WRAP_KEY_SIZE] = {
	0x77, 0x72, 0x61, 0x70, 0x2d, 0x73, 0x65, 0x6c,
	0x66, 0x74, 0x65, 0x73, 0x74, 0x2d, 0x6b, 0x65,
	0x79, 0x2d, 0x6e, 0x6f, 0x74, 0x2d, 0x73, 0x65,
	0x63, 0x72, 0x65, 0x74, 0x00, 0x01, 0x02, 0x03,
};

/*
 * What setkey answers for a DMDW blob with byte @off altered: the header's
 * own rules are checked first (-EINVAL), every other byte is the AEAD's.
 */
static int wrap_tamper_want(unsigned int off, bool cursor)
{
	if (off < DMD_WRAP_OFF_DEVICE ||
	    (off >= DMD_WRAP_OFF_RSVD1 && off < DMD_WRAP_OFF_EPOCH) ||
	    (off >= DMD_WRAP_OFF_LEN && off < DMD_WRAP_OFF_NONCE) ||
	    (!cursor && off >= DMD_WRAP_OFF_GROUP && off < DMD_WRAP_OFF_LEN))
		return -EINVAL;
	return -EKEYREJECTED;
}

/* Every byte of @w altered in turn: refused as documented, tfm keyless. */
static void wrap_tamper(struct selftest *t, struct crypto_aead *tfm, u8 *w,
			unsigned int n, const char *name)
{
	bool cursor = w[DMD_WRAP_OFF_FLAGS] & DMD_WRAP_FLAG_CURSOR;
	u8 have[DMD_BLOB_MAX];
	unsigned int off;
	int err, want;

	for (off = 0; off < n; off++) {
		want = wrap_tamper_want(off, cursor);
		w[off] ^= 0x80;
		err = diamond_key_set(tfm, w, n, st_wkey, false);
		w[off] ^= 0x80;
		check(t, err == want, "altered wrapped state", name, off, err,
		      want);
		err = diamond_export_state(tfm, have, sizeof(have));
		check(t, err == -ENOKEY, "keyless after it", name, off, err,
		      -ENOKEY);
	}
}

/*
 * A DMDW blob whose tag verifies but whose header and inner blob disagree
 * (the header's device, or an inner blob that is not open-only): -EINVAL.
 */
static void wrap_mismatch(struct selftest *t, struct crypto_aead *tfm,
			  const u8 *w, unsigned int n, const char *name)
{
	u8 inner[DMD_WRAP_INNER_MAX], bad[DMD_WRAP_MAX];
	int len = diamond_wrap_open(st_wkey, w, n, inner);
	unsigned int i;
	int err;

	if (!check(t, len > 0, "open own export", name, 0, len, 0))
		return;
	for (i = 0; i < 2; i++) {
		memcpy(bad, w, DMD_WRAP_HDR);
		if (i == 0)
			bad[DMD_WRAP_OFF_DEVICE] ^= 1;
		else
			inner[DMD_BLOB_OFF_FLAGS] &= ~DMD_BLOB_FLAG_OPEN_ONLY;
		xchacha20poly1305_encrypt(bad + DMD_WRAP_HDR, inner, len, bad,
					  DMD_WRAP_AD_SIZE,
					  bad + DMD_WRAP_OFF_NONCE, st_wkey);
		err = diamond_key_set(tfm, bad, n, st_wkey, false);
		check(t, err == -EINVAL, "header and inner at odds", name, i,
		      err, -EINVAL);
	}
	memzero_explicit(inner, sizeof(inner));
}

/*
 * The wrapped state of @kat's state after its first step: exported from
 * one tfm, keyed into the other, the same state (open-only there); a
 * second export has a fresh nonce (a wrapped key is in custody whatever
 * the caller says); no wrap key is -ENOKEY, another one -EKEYREJECTED, a
 * short buffer -ERANGE with the size, a clear key not from custody -EPERM.
 */
static void wrap_round_trip(struct selftest *t, const struct diamond_kat *kat,
			    unsigned int suite, u8 *buf)
{
	const struct diamond_kat_step *s = &kat->steps[0];
	struct crypto_aead *a = t->open[suite], *b = t->seal[suite];
	u8 w[DMD_WRAP_MAX], w2[DMD_WRAP_MAX], other[DMD_WRAP_KEY_SIZE];
	u8 sa[DMD_BLOB_MAX], sb[DMD_BLOB_MAX];
	unsigned int n = sizeof(w), n2 = sizeof(w2), bl;
	int err;

	bl = DMD_BLOB_SIZE(suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
							  DMD_KEY2_SIZE);
	/*
	 * Through the crypto API first, which clears the tfm's NEED_KEY
	 * flag (the refused keys of run_api() set it), then with the
	 * selftest's wrap key.
	 */
	err = crypto_aead_setkey(a, kat->key, kat->keylen) ?:
	      diamond_key_set(a, kat->key, kat->keylen, st_wkey, true) ?:
	      run(a, false, s->epoch, s->ad, s->adlen, s->ct, s->ctlen, buf,
		  s->ptlen);
	if (!check(t, !err, "wrap: key and open", kat->name, 0, err, 0))
		return;
	err = diamond_export_wrapped(a, w, &n) ?:
	      diamond_export_wrapped(a, w2, &n2);
	if (!check(t, !err, "wrap: export", kat->name, 0, err, 0))
		return;
	err = diamond_key_set(b, w, n, st_wkey, false);
	if (!check(t, !err, "wrap: setkey of the export", kat->name, 0, err,
		   0))
		return;
	err = diamond_export_state(a, sa, bl) ?:
	      diamond_export_state(b, sb, bl);
	if (!check(t, !err, "wrap: states", kat->name, 0, err, 0))
		return;
	sa[DMD_BLOB_OFF_FLAGS] |= DMD_BLOB_FLAG_OPEN_ONLY;
	check(t, !memcmp(sa, sb, bl), "state after wrap", kat->name, 0, 0, 0);
	check(t, n == n2 && memcmp(w + DMD_WRAP_OFF_NONCE,
				   w2 + DMD_WRAP_OFF_NONCE,
				   DMD_WRAP_NONCE_SIZE), "fresh nonce",
	      kat->name, 0, n2, n);
	n2 = n - 1;
	err = diamond_export_wrapped(b, w2, &n2);
	check(t, err == -ERANGE && n2 == n, "short buffer", kat->name, 0, err,
	      -ERANGE);
	err = diamond_key_set(b, w, n, NULL, false);
	check(t, err == -ENOKEY, "no wrap key", kat->name, 0, err, -ENOKEY);
	memcpy(other, st_wkey, sizeof(other));
	other[0] ^= 1;
	err = diamond_key_set(b, w, n, other, false);
	check(t, err == -EKEYREJECTED, "other wrap key", kat->name, 0, err,
	      -EKEYREJECTED);
	err = diamond_key_set(b, kat->key, kat->keylen, NULL, true) ?:
	      diamond_export_wrapped(b, w2, &n2);
	check(t, err == -ENOKEY, "export without wrap key", kat->name, 0, err,
	      -ENOKEY);
	/* A clear key not from custody never leaves the tfm, wrap key or not. */
	n2 = sizeof(w2);
	err = diamond_key_set(b, kat->key, kat->keylen, st_wkey, false) ?:
	      diamond_export_wrapped(b, w2, &n2);
	check(t, err == -EPERM, "export of a key not in custody", kat->name, 0,
	      err, -EPERM);
	wrap_tamper(t, b, w, n, kat->name);
	wrap_mismatch(t, b, w, n, kat->name);
}

/*
 * An accepted wrapped state of vectors/wrap.txt: it opens under its key to
 * its inner bytes, keys @tfm, and @tfm's export has the same header and
 * opens to the same inner bytes (cursor and group-size field included).
 */
static void wrap_kat_ok(struct selftest *t, struct crypto_aead *tfm,
			const struct diamond_wrap_kat *v)
{
	unsigned int len = v->dmdwlen, ilen = v->innerlen;
	u8 got[DMD_WRAP_INNER_MAX], w[DMD_WRAP_MAX];
	unsigned int n = sizeof(w);
	int err;

	err = diamond_wrap_open(v->key, v->dmdw, len, got);
	check(t, err == ilen && !memcmp(got, v->inner, ilen),
	      "wrap vector opens", v->name, 0, err, ilen);
	err = diamond_key_set(tfm, v->dmdw, len, v->key, false) ?:
	      diamond_export_wrapped(tfm, w, &n);
	if (check(t, !err && n == len, "wrap vector keys and exports", v->name,
		  0, err, 0)) {
		err = diamond_wrap_open(v->key, w, n, got);
		check(t, err == ilen && !memcmp(got, v->inner, ilen) &&
		      !memcmp(w, v->dmdw, DMD_WRAP_OFF_NONCE),
		      "wrap vector's export", v->name, 0, err, ilen);
	}
	memzero_explicit(got, sizeof(got));
}

/*
 * A record of vectors/wrap.txt on the tfm of its header's suite: accepted
 * as wrap_kat_ok() checks, or refused with its errno (spec section 2.1,
 * the first step that refuses it), leaving the tfm keyless.
 */
static void wrap_kat(struct selftest *t, const struct diamond_wrap_kat *v)
{
	unsigned int suite = v->dmdw[DMD_WRAP_OFF_SUITE];
	u8 have[DMD_BLOB_MAX];
	int err;

	if (!check(t, suite == DMD_SUITE_AES_GHASH ||
		   suite == DMD_SUITE_CHACHA_POLY, "wrap vector suite",
		   v->name, 0, suite, 0))
		return;
	if (!v->expect) {
		wrap_kat_ok(t, t->seal[suite], v);
		return;
	}
	err = diamond_key_set(t->seal[suite], v->dmdw, v->dmdwlen, v->key,
			      false);
	check(t, err == v->expect, "wrap vector refused", v->name, 0, err,
	      v->expect);
	err = diamond_export_state(t->seal[suite], have, sizeof(have));
	check(t, err == -ENOKEY, "keyless after it", v->name, 0, err, -ENOKEY);
}

/* The first vector of @suite whose first step opens. */
static void run_wrap(struct selftest *t, unsigned int suite)
{
	const struct diamond_kat *kat;
	unsigned int i;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(diamond_kats); i++) {
		kat = &diamond_kats[i];
		if (kat->key[DMD_BLOB_OFF_SUITE] == suite && kat->nsteps &&
		    !kat->steps[0].expect)
			break;
	}
	if (!check(t, i < ARRAY_SIZE(diamond_kats), "a vector to wrap",
		   suite_names[suite], 0, 0, 0))
		return;
	buf = kmalloc(kat->steps[0].adlen + kat->steps[0].ctlen, GFP_KERNEL);
	if (check(t, buf, "allocation", kat->name, 0, -ENOMEM, 0))
		wrap_round_trip(t, kat, suite, buf);
	kfree(buf);
}

/*
 * A receiver vector of the packet grid (spec section 14) as one request
 * at authsize 12, on each sealing tfm of its suite (their last use): its
 * errno and, on success, the whole output, control table included.
 */
static void grid_kat(struct selftest *t, const struct diamond_grid_kat *kat)
{
	unsigned int slot, suite = kat->key[DMD_BLOB_OFF_SUITE];
	unsigned int body = kat->inlen - DMD_GRID_TABLE_SIZE;
	u8 *out = kmalloc(kat->inlen, GFP_KERNEL);
	struct crypto_aead *tfm;
	bool same;
	int err;

	for (slot = 0; slot < DMD_ST_SLOTS; slot++) {
		if ((slot == DMD_ST_SYNC1 ? DMD_SUITE_AES_GHASH : slot) != suite)
			continue;
		tfm = t->seal[slot];
		err = !out ? -ENOMEM :
		      crypto_aead_setkey(tfm, kat->key, kat->keylen) ?:
		      crypto_aead_setauthsize(tfm, DMD_PKT_TAG_SIZE) ?:
		      run(tfm, false, kat->epoch, kat->in, DMD_GRID_TABLE_SIZE,
			  kat->in + DMD_GRID_TABLE_SIZE, body, out,
			  body - DMD_PKT_TAG_SIZE);
		same = !err && !memcmp(out, kat->out,
				       kat->inlen - DMD_PKT_TAG_SIZE);
		check(t, err == kat->expect && (err || same), "grid",
		      kat->name, 0, err, kat->expect);
	}
	kfree(out);
}

int diamond_selftest(void)
{
	struct selftest t = { };
	char drivers[DMD_ST_SLOTS * (CRYPTO_MAX_ALG_NAME + 2)] = "";
	unsigned int suite, i;
	int err = 0;

	/* Slot 0 last: asked for first, its instance would serve them all. */
	for (i = 1; i <= DMD_ST_SLOTS; i++) {
		u32 mask = 0;

		suite = i % DMD_ST_SLOTS;
		if (suite == DMD_ST_SYNC1)
			mask = CRYPTO_ALG_ASYNC;

		t.open[suite] = crypto_alloc_aead(suite_names[suite], 0, mask);
		t.seal[suite] = crypto_alloc_aead(suite_names[suite], 0, mask);
		if (IS_ERR(t.open[suite]) || IS_ERR(t.seal[suite])) {
			err = PTR_ERR(IS_ERR(t.open[suite]) ? t.open[suite] :
							      t.seal[suite]);
			pr_err("diamond: selftest cannot allocate %s: %d\n",
			       suite_names[suite], err);
			goto out;
		}
		err = crypto_aead_setauthsize(t.open[suite], DMD_TAG_SIZE) ?:
		      crypto_aead_setauthsize(t.seal[suite], DMD_TAG_SIZE);
		if (err)
			goto out;
		strlcat(drivers, drivers[0] ? ", " : "", sizeof(drivers));
		strlcat(drivers,
			crypto_tfm_alg_driver_name(crypto_aead_tfm(t.open[suite])),
			sizeof(drivers));
	}

	for (i = 0; i < ARRAY_SIZE(diamond_kats); i++)
		run_kat(&t, &diamond_kats[i]);
	run_api(&t, DMD_SUITE_AES_GHASH);
	run_api(&t, DMD_SUITE_CHACHA_POLY);
	run_wrap(&t, DMD_SUITE_AES_GHASH);
	run_wrap(&t, DMD_SUITE_CHACHA_POLY);
	for (i = 0; i < ARRAY_SIZE(diamond_wrap_kats); i++)
		wrap_kat(&t, &diamond_wrap_kats[i]);
	for (i = 0; i < ARRAY_SIZE(diamond_grid_kats); i++)
		grid_kat(&t, &diamond_grid_kats[i]);

	if (t.failed) {
		pr_err("diamond: selftest FAILED: %u of %u cases\n", t.failed,
		       t.cases);
		err = -EINVAL;
	} else {
		pr_info("diamond: selftest passed: %u cases, %zu vectors; %s\n",
			t.cases, ARRAY_SIZE(diamond_kats), drivers);
	}
out:
	for (suite = 0; suite < DMD_ST_SLOTS; suite++) {
		if (!IS_ERR_OR_NULL(t.seal[suite]))
			crypto_free_aead(t.seal[suite]);
		if (!IS_ERR_OR_NULL(t.open[suite]))
			crypto_free_aead(t.open[suite]);
	}
	return err;
}
