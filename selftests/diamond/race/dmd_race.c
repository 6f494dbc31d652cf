// SPDX-License-Identifier: GPL-2.0
/*
 * dmd_race: race setkey against requests on one diamond tfm, from inside
 * the kernel (AF_ALG refuses setkey while an op socket is open, so only an
 * in-kernel caller can do this; Documentation/kernel-api.rst, Concurrency).
 *
 * For each suite, a keyer thread swaps the tfm's key DMD_RACE_SWAPS times
 * between a grouped key (b = 8192, g = 1: an AD limit of 66,562 bytes, the
 * unit table's) and an ungrouped one (b = 1: an AD limit of 1,024 bytes and
 * a 5,138-byte bounce buffer), while this module's init issues decrypts
 * with a 6,000-byte AD and one 16-byte record until the keyer is done.
 * Every limit that depends on the key must be checked against the key the
 * request runs under, so each request may end only as:
 *   -EINVAL    the grouped key: its (zero) unit table is refused;
 *   -EMSGSIZE  the ungrouped key: the AD is over its limit.
 * Anything else, in particular -EBADMSG (the request was hashed under the
 * ungrouped key, its AD copied past that key's buffers), counts as
 * "processed" or "other", and diamond_race.sh fails. The AD is sized so a
 * request that overruns stays inside the pages (vmalloc) and slab object
 * (kmalloc-8k) of the buffers it overruns: the old code fails the test
 * instead of oopsing. The tfms are diamond-prealloc instances (looked up
 * with CRYPTO_ALG_ALLOCATES_MEMORY in the mask), whose buffer setkey
 * sizes. The counts are read-only module parameters.
 */
#include <crypto/aead.h>
#include <linux/completion.h>
#include <linux/crc32.h>
#include <linux/crypto.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "diamond_compat.h"

#include <diamond/spec.h>

#define DMD_RACE_SWAPS		200
#define DMD_RACE_B_GROUPED	8192
#define DMD_RACE_AD		6000
#define DMD_RACE_REC		16
#define DMD_RACE_CT		(DMD_BODY_LEN_SIZE + DMD_RACE_REC + DMD_TAG_SIZE)

/* Per suite (index 1 and 2): read-only parameters. */
static int requests[3], einval[3], emsgsize[3], processed[3], other[3];
static int swaps[3], setkey_err[3];
module_param_array(requests, int, NULL, 0444);
module_param_array(einval, int, NULL, 0444);
module_param_array(emsgsize, int, NULL, 0444);
module_param_array(processed, int, NULL, 0444);
module_param_array(other, int, NULL, 0444);
module_param_array(swaps, int, NULL, 0444);
module_param_array(setkey_err, int, NULL, 0444);

struct race {
	struct crypto_aead *tfm;
	unsigned int suite;
	struct completion keyer_done;
	bool stop;
	u8 grouped[DMD_BLOB2_MAX];
	u8 plain[DMD_BLOB_MAX];
	unsigned int grouped_len, plain_len;
};

static void blob_header(u8 *blob, unsigned int suite, u8 version, u32 b)
{
	memcpy(blob, DMD_BLOB_MAGIC, 4);
	blob[DMD_BLOB_OFF_VERSION] = version;
	blob[DMD_BLOB_OFF_SUITE] = suite;
	blob[DMD_BLOB_OFF_AGG] = DMD_AGG_XOR;
	put_unaligned_le32(b, blob + DMD_BLOB_OFF_B);
}

/* The two keys: version 2 with g = 1 < b, and version 1 with b = 1. */
static void make_keys(struct race *r)
{
	unsigned int k = r->suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
							   DMD_KEY2_SIZE;
	unsigned int crc_off = DMD_BLOB2_OFF_KEY + k;

	blob_header(r->grouped, r->suite, DMD_BLOB2_VERSION,
		    DMD_RACE_B_GROUPED);
	put_unaligned_le16(1, r->grouped + DMD_BLOB2_OFF_GROUP);
	get_random_bytes(r->grouped + DMD_BLOB2_OFF_KEY, k);
	/* Spec section 2's CRC-32 (the key is a test's: no need to be blind). */
	put_unaligned_le32(~crc32_le(~0u, r->grouped, crc_off),
			   r->grouped + crc_off);
	r->grouped_len = DMD_BLOB2_SIZE(k);

	blob_header(r->plain, r->suite, DMD_BLOB_VERSION, 1);
	get_random_bytes(r->plain + DMD_BLOB_OFF_KEY, k);
	r->plain_len = DMD_BLOB_SIZE(k);
}

/*
 * The keyer: grouped, ungrouped, grouped... Each setkey schedules the
 * precompute worker, which holds the tfm lock while it runs, so requests
 * and the next setkey queue up behind it and race for the lock.
 */
static int keyer(void *data)
{
	struct race *r = data;
	unsigned int i;

	for (i = 0; i < DMD_RACE_SWAPS; i++) {
		bool grouped = !(i & 1);

		if (crypto_aead_setkey(r->tfm, grouped ? r->grouped : r->plain,
				       grouped ? r->grouped_len : r->plain_len))
			setkey_err[r->suite]++;
		swaps[r->suite]++;
		usleep_range(50, 200);
	}
	WRITE_ONCE(r->stop, true);
	complete(&r->keyer_done);
	return 0;
}

/* One decrypt: zero AD (an empty unit table), one record, a zero tag. */
static int open_once(struct race *r, struct aead_request *req, u8 *buf)
{
	DECLARE_CRYPTO_WAIT(wait);
	struct scatterlist sg;
	u8 iv[DMD_IV_SIZE] = { };

	memset(buf, 0, DMD_RACE_AD + DMD_RACE_CT);
	put_unaligned_le16(DMD_RACE_REC, buf + DMD_RACE_AD);
	sg_init_one(&sg, buf, DMD_RACE_AD + DMD_RACE_CT);
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &wait);
	aead_request_set_ad(req, DMD_RACE_AD);
	aead_request_set_crypt(req, &sg, &sg, DMD_RACE_CT, iv);
	return crypto_wait_req(crypto_aead_decrypt(req), &wait);
}

static void count(unsigned int suite, int err)
{
	requests[suite]++;
	if (err == -EINVAL)
		einval[suite]++;
	else if (err == -EMSGSIZE)
		emsgsize[suite]++;
	else if (err == -EBADMSG || !err)
		processed[suite]++;
	else
		other[suite]++;
}

static void race(unsigned int suite, const char *name)
{
	struct aead_request *req = NULL;
	struct task_struct *t;
	struct race *r;
	u8 *buf = NULL;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		goto fail;
	r->suite = suite;
	init_completion(&r->keyer_done);
	/*
	 * The preallocating instance: its bounce buffer is the key's, sized
	 * by setkey, so a limit checked against the wrong key overruns it.
	 * The other instance's requests allocate their own, of their own size.
	 */
	r->tfm = crypto_alloc_aead(name, 0, CRYPTO_ALG_ALLOCATES_MEMORY);
	if (IS_ERR(r->tfm)) {
		pr_err("dmd_race: %s: %ld\n", name, PTR_ERR(r->tfm));
		r->tfm = NULL;
		goto fail;
	}
	make_keys(r);
	req = aead_request_alloc(r->tfm, GFP_KERNEL);
	buf = kmalloc(DMD_RACE_AD + DMD_RACE_CT, GFP_KERNEL);
	if (!req || !buf || crypto_aead_setauthsize(r->tfm, DMD_TAG_SIZE) ||
	    crypto_aead_setkey(r->tfm, r->grouped, r->grouped_len))
		goto fail;
	pr_info("dmd_race: racing setkey against requests on %s\n",
		crypto_tfm_alg_driver_name(crypto_aead_tfm(r->tfm)));
	t = kthread_run(keyer, r, "dmd_race_keyer");
	if (IS_ERR(t))
		goto fail;
	while (!READ_ONCE(r->stop)) {
		count(suite, open_once(r, req, buf));
		cond_resched();
	}
	wait_for_completion(&r->keyer_done);
	goto out;
fail:
	other[suite]++;
out:
	kfree(buf);
	aead_request_free(req);
	if (r && r->tfm)
		crypto_free_aead(r->tfm);
	kfree_sensitive(r);
}

static int __init dmd_race_init(void)
{
	race(DMD_SUITE_AES_GHASH, "diamond(ctr(aes),ghash)");
	race(DMD_SUITE_CHACHA_POLY, "diamond(chacha20,poly1305)");
	return 0;
}

static void __exit dmd_race_exit(void)
{
}

module_init(dmd_race_init);
module_exit(dmd_race_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Race setkey against requests on a diamond tfm (kselftest)");
