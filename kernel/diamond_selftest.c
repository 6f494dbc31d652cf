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
 * are checked as well. Suite 1 runs twice: on the best inner drivers, and on
 * synchronous ones (CRYPTO_ALG_ASYNC in the mask), which on x86 and on arm64
 * means ghash-generic and so the lib/crypto GHASH. Every failing case prints
 * a numbered pr_err; a pass prints one pr_info.
 */
#include <crypto/aead.h>
#include <linux/crypto.h>
#include <linux/kernel.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "diamond.h"
#include "diamond_kat.h"

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
