// SPDX-License-Identifier: GPL-2.0
/*
 * Diamond: forward-secure aggregate authenticated encryption, after the
 * Diamond paper, as the AEAD template "diamond" (Documentation/spec.rst,
 * Documentation/kernel-api.rst). This file is its registration: the
 * template, its instances and their children, a tfm's buffers, and the
 * module's init with its known-answer selftest.
 *
 *	diamond(ctr(aes),ghash)		suite 1, Diamond1
 *	diamond(chacha20,poly1305)	suite 2, Diamond2
 *
 * Each record of an epoch is encrypted and tagged under keys of its own that
 * evolve through a forward-secure PRG built from the stream cipher, and the
 * record tags are aggregated into one 16-byte tag per epoch. The stream and
 * the universal hash are fixed per suite by the byte-exact specification,
 * so these are the only two pairs accepted: any other inner algorithm, or
 * the two suites' algorithms mixed, is -EINVAL.
 *
 * The key is the spec's key blob (section 2): the state at the start of an
 * epoch. A tfm is one device stream and holds only that state, advancing it
 * once per accepted epoch; keys of past epochs are erased as they are
 * consumed. Requests of one tfm are serialized by a bit lock held across the
 * epoch (diamond.h), and child requests live in the tfm context (reqsize 0)
 * for the same reason. Suite 1 runs on its ctr(aes) and ghash spawns (from
 * 7.3 on the AES-CTR and GHASH libraries); suite 2 calls lib/crypto
 * ChaCha20 and Poly1305 directly, which needs no request, setkey or
 * scatterlist per record, and holds its spawns only to check the names it
 * was instantiated with. The next epoch's slot material is precomputed by a
 * work item after setkey and after each accepted epoch, the latter while
 * tfms live to their next epochs (diamond_chain.c).
 *
 * The files call one way only, each into files below it in this list and
 * never back (Documentation/kernel-api.rst, "Source layout"):
 *
 *	diamond_main.c		registration (this file)
 *	diamond_afalg.c		the AF_ALG socket type "diamond"
 *	diamond_selftest.c	known-answer tests at module init
 *	diamond_key.c		key lifecycle: setkey, export, init, exit
 *	diamond_wrap.c		the wrapped state DMDW (spec "Wrapped states")
 *	diamond_wrapkey.c	the wrap key, from the caller's keyrings
 *	diamond_custody.c	custody: keys by reference, the loader's keys
 *	diamond_keytype.c	the key type "diamond" (custody's keyring keys)
 *	diamond_request.c	one AEAD request: limits, lock, bounce buffer
 *	diamond_epoch.c		epoch verification (ungrouped)
 *	diamond_group.c		group verification (spec 5.1, 9.1)
 *	diamond_parse.c		request parsing: epoch, body, unit table
 *	diamond_chain.c		key chains, slots, the precompute work
 *	diamond_tag.c		UH tags and their aggregation
 *	diamond_poly.h		suite 2's Poly1305 tag, inline (tag and epoch)
 */
#include <crypto/internal/aead.h>
#include <crypto/internal/hash.h>
#include <crypto/internal/skcipher.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "diamond.h"

/* The AEAD tag is the epoch tag: exactly 16 bytes, nothing truncated. */
#define DMD_AUTHSIZE		DMD_TAG_SIZE
/* ctr(aes) and chacha20 both take a 16-byte counter block. */
#define DMD_STREAM_IVSIZE	16
/* Suite 2: lib/crypto chacha_crypt() and Poly1305 (diamond_tag.c). */
#define DMD_SUITE2_STREAM	"chacha20-lib"
/* Suite 1 from 7.3: lib/crypto aes_ctr(), the code of this ctr(aes) driver. */
#define DMD_AES_LIB_DRIVER	"ctr-aes-lib"
/* The one GHASH whose setkey allocates (a 4 KiB table): run lib gf128mul. */
#define DMD_GHASH_LIB_DRIVER	"ghash-generic"
/*
 * The driver name of an instance looked up with CRYPTO_ALG_ALLOCATES_MEMORY
 * in the mask, which preallocates the bounce buffer at setkey: one name
 * per variant, as the crypto API requires of two instances of one cra_name.
 */
#define DMD_PREALLOC_PREFIX	"diamond-prealloc("

struct diamond_instance_ctx {
	struct crypto_skcipher_spawn stream;
	struct crypto_ahash_spawn ghash;	/* suite 1 */
	u8 suite;
	bool ghash_lib;		/* suite 1: GHASH on lib gf128mul_lle() */
	bool prealloc;		/* no allocation in requests (see create) */
	bool listed;		/* registered, on diamond_instances */
	bool unlisting;		/* a failed init unregisters it */
	struct list_head node;
	struct aead_instance *inst;
};

/*
 * A failed init (the selftest) and other tasks. The template is found
 * from its registration on, and so are its instances (a module being
 * loaded is live to try_module_get()). crypto_unregister_template() BUGs
 * on an instance another task holds, even for the moment between its
 * lookup and its tfm's init, and a failed init frees the module under
 * any holder. So while the init runs only its own task gets a tfm (any
 * other -ENOENT; -EAGAIN would make crypto_alloc_tfm() retry at once),
 * and a failed init stops new instances, unregisters each one (which
 * waits for no holder), waits until the last holder let go of them all,
 * and only then unregisters the empty template.
 */
static struct task_struct *diamond_init_task;
static DEFINE_MUTEX(diamond_inst_mutex);	/* registrations, closing */
static DEFINE_SPINLOCK(diamond_inst_lock);	/* diamond_instances */
static LIST_HEAD(diamond_instances);
static unsigned int diamond_ninst;		/* on the list */
static bool diamond_closing;
static DECLARE_WAIT_QUEUE_HEAD(diamond_inst_wq);

static int diamond_init_tfm(struct crypto_aead *tfm)
{
	struct task_struct *init_task = READ_ONCE(diamond_init_task);
	struct aead_instance *inst = aead_alg_instance(tfm);
	struct diamond_instance_ctx *ictx = aead_instance_ctx(inst);
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);
	int err;

	if (unlikely(init_task) && init_task != current)
		return -ENOENT;
	ctx->suite = ictx->suite;
	ctx->k = ictx->suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
						      DMD_KEY2_SIZE;
	ctx->async_children = crypto_aead_alg(tfm)->base.cra_flags &
			      CRYPTO_ALG_ASYNC;
	ctx->prealloc = ictx->prealloc;
	crypto_init_wait(&ctx->wait);
	diamond_key_init(ctx);

	err = -ENOMEM;
	ctx->sbuf = kzalloc(DMD_STREAM_BUF, DMD_GFP);
	/* hbuf: the GHASH input, the IV, the digest, a group trailer key. */
	ctx->hbuf = kzalloc(DMD_HASH_BUF + 64, DMD_GFP);
	if (!ctx->sbuf || !ctx->hbuf)
		goto err_free_bufs;
	ctx->iv = ctx->hbuf + DMD_HASH_BUF;
	ctx->digest = ctx->iv + 16;
	ctx->gkey = ctx->digest + 16;
	ctx->zero = page_address(ZERO_PAGE(0));
	diamond_stream_sg_init(ctx);
	/* Suite 2, and suite 1 from 7.3, run on lib/crypto: no children. */
	BUILD_BUG_ON(DMD_AES_CTR_IS_LIB && !DMD_GHASH_IS_LIB);
	if (ctx->suite != DMD_SUITE_AES_GHASH || DMD_AES_CTR_IS_LIB)
		return 0;

	ctx->stream = crypto_spawn_skcipher(&ictx->stream);
	if (IS_ERR(ctx->stream)) {
		err = PTR_ERR(ctx->stream);
		ctx->stream = NULL;
		goto err_free_bufs;
	}
	err = -ENOMEM;
	ctx->sreq = kzalloc(sizeof(*ctx->sreq) +
			    crypto_skcipher_reqsize(ctx->stream), DMD_GFP);
	if (!ctx->sreq)
		goto err_free_stream;
	skcipher_request_set_tfm(ctx->sreq, ctx->stream);
	/* GHASH on lib/crypto gf128mul: no child (see diamond_tag.c). */
	if (ictx->ghash_lib)
		return 0;

	ctx->ghash = crypto_spawn_ahash(&ictx->ghash);
	if (IS_ERR(ctx->ghash)) {
		err = PTR_ERR(ctx->ghash);
		ctx->ghash = NULL;
		goto err_free_stream;
	}
	err = -ENOMEM;
	ctx->hreq = kzalloc(sizeof(*ctx->hreq) +
			    crypto_ahash_reqsize(ctx->ghash), DMD_GFP);
	if (!ctx->hreq)
		goto err_free_hash;
	ahash_request_set_tfm(ctx->hreq, ctx->ghash);
	return 0;

err_free_hash:
	crypto_free_ahash(ctx->ghash);
	ctx->ghash = NULL;
err_free_stream:
	kfree(ctx->sreq);
	crypto_free_skcipher(ctx->stream);
	ctx->stream = NULL;
err_free_bufs:
	kfree(ctx->hbuf);
	kfree(ctx->sbuf);
	return err;
}

static void diamond_exit_tfm(struct crypto_aead *tfm)
{
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);

	diamond_key_exit(ctx);

	if (ctx->ghash) {
		kfree_sensitive(ctx->hreq);
		crypto_free_ahash(ctx->ghash);
	}
	if (ctx->stream) {
		kfree_sensitive(ctx->sreq);
		crypto_free_skcipher(ctx->stream);
	}
	kfree_sensitive(ctx->hbuf);
	kfree_sensitive(ctx->sbuf);
}

static void diamond_free_instance(struct aead_instance *inst)
{
	struct diamond_instance_ctx *ictx = aead_instance_ctx(inst);
	unsigned long flags;

	if (ictx->listed) {
		spin_lock_irqsave(&diamond_inst_lock, flags);
		list_del(&ictx->node);
		diamond_ninst--;
		spin_unlock_irqrestore(&diamond_inst_lock, flags);
		wake_up(&diamond_inst_wq);
	}
	crypto_drop_skcipher(&ictx->stream);
	crypto_drop_ahash(&ictx->ghash);
	kfree(inst);
}

/* Register @inst unless a failed init is closing; list it. */
static int diamond_register_instance(struct crypto_template *tmpl,
				     struct aead_instance *inst)
{
	struct diamond_instance_ctx *ictx = aead_instance_ctx(inst);
	int err = -ENOENT;

	mutex_lock(&diamond_inst_mutex);
	if (!diamond_closing)
		err = aead_register_instance(tmpl, inst);
	if (!err) {
		spin_lock_irq(&diamond_inst_lock);
		list_add(&ictx->node, &diamond_instances);
		diamond_ninst++;
		ictx->inst = inst;
		ictx->listed = true;
		spin_unlock_irq(&diamond_inst_lock);
	}
	mutex_unlock(&diamond_inst_mutex);
	return err;
}

static bool diamond_no_instances(void)
{
	bool none;

	spin_lock_irq(&diamond_inst_lock);
	none = !diamond_ninst;
	spin_unlock_irq(&diamond_inst_lock);
	return none;
}

/* A failed init: see diamond_init_task. */
static void diamond_unregister_all(struct crypto_template *tmpl)
{
	struct diamond_instance_ctx *ictx;
	struct aead_instance *inst;

	mutex_lock(&diamond_inst_mutex);
	diamond_closing = true;
	mutex_unlock(&diamond_inst_mutex);
	for (;;) {
		inst = NULL;
		spin_lock_irq(&diamond_inst_lock);
		list_for_each_entry(ictx, &diamond_instances, node) {
			if (ictx->unlisting)
				continue;
			ictx->unlisting = true;	/* unregistered once */
			inst = ictx->inst;
			break;
		}
		spin_unlock_irq(&diamond_inst_lock);
		if (!inst)
			break;
		crypto_unregister_instance(aead_crypto_instance(inst));
	}
	wait_event(diamond_inst_wq, diamond_no_instances());
	crypto_unregister_template(tmpl);
}

/* ctr(aes) as suite 1's G: a stream cipher over AES-128. */
static bool stream_is_suite1(struct skcipher_alg_common *alg)
{
	return !strcmp(alg->base.cra_name, "ctr(aes)") &&
	       alg->base.cra_blocksize == 1 &&
	       alg->ivsize == DMD_STREAM_IVSIZE &&
	       alg->min_keysize <= DMD_KEY1_SIZE &&
	       alg->max_keysize >= DMD_KEY1_SIZE;
}

static bool stream_is_suite2(struct skcipher_alg_common *alg)
{
	return !strcmp(alg->base.cra_name, "chacha20") &&
	       alg->ivsize == DMD_STREAM_IVSIZE &&
	       alg->min_keysize <= DMD_KEY2_SIZE &&
	       alg->max_keysize >= DMD_KEY2_SIZE;
}

/*
 * One instance per algorithm. The crypto API finds an instance only by its
 * cra_name or its cra_driver_name; asked for by any other name it calls
 * create() again, and every instance registered then would be one more
 * duplicate (with its testmgr "No test for" line). So an instance is built
 * only for a request that is exactly one of its two names: any other
 * spelling (an extra parameter, inner driver names that are not the ones
 * in the driver name) is -ENOENT, the errno 6.1 reports for any failed
 * create, before anything is registered.
 */
static int check_request(struct rtattr **tb, const struct crypto_alg *base)
{
	const char *stream = crypto_attr_alg_name(tb[1]);
	const char *hash = crypto_attr_alg_name(tb[2]);
	char req[CRYPTO_MAX_ALG_NAME];

	if (tb[3] || IS_ERR(stream) || IS_ERR(hash) ||
	    snprintf(req, sizeof(req), "diamond(%s,%s)", stream, hash) >=
	    sizeof(req))
		return -ENOENT;
	if (strcmp(req, base->cra_name) && strcmp(req, base->cra_driver_name))
		return -ENOENT;
	return 0;
}

/*
 * The stream to grab: suite 2 asked for by its driver name by its cra_name;
 * from 7.3, suite 1's ctr(aes) as the library driver, the code that runs.
 */
static const char *stream_request(struct rtattr **tb)
{
	const char *name = crypto_attr_alg_name(tb[1]);

	if (IS_ERR(name))
		return name;
	if (!strcmp(name, DMD_SUITE2_STREAM))
		return "chacha20";
	if (DMD_AES_CTR_IS_LIB && !strcmp(name, "ctr(aes)"))
		return DMD_AES_LIB_DRIVER;
	return name;
}

/*
 * diamond(stream,hash): grab the stream, decide the suite from it, grab the
 * matching hash, check it, and name the instance after both.
 */
static int diamond_create(struct crypto_template *tmpl, struct rtattr **tb)
{
	struct diamond_instance_ctx *ictx;
	struct crypto_alg *hash_base;
	struct skcipher_alg_common *stream;
	struct aead_instance *inst;
	const char *hash_name, *hash_cra_name, *hash_driver;
	unsigned int digestsize;
	int hash_priority;
	u32 mask;
	int err;

	err = crypto_check_attr_type(tb, CRYPTO_ALG_TYPE_AEAD, &mask);
	if (err)
		return err;

	inst = kzalloc(sizeof(*inst) + sizeof(*ictx), GFP_KERNEL);
	if (!inst)
		return -ENOMEM;
	ictx = aead_instance_ctx(inst);
	ictx->prealloc = mask & CRYPTO_ALG_ALLOCATES_MEMORY;

	err = crypto_grab_skcipher(&ictx->stream, aead_crypto_instance(inst),
				   stream_request(tb), 0, mask);
	if (err)
		goto err_free_inst;
	stream = crypto_spawn_skcipher_alg_common(&ictx->stream);

	hash_name = crypto_attr_alg_name(tb[2]);
	err = -ENOENT;
	if (stream_is_suite1(stream)) {
		struct hash_alg_common *ghash;

		ictx->suite = DMD_SUITE_AES_GHASH;
		/* Any other ctr(aes) would be named but not run. */
		if (DMD_AES_CTR_IS_LIB &&
		    strcmp(stream->base.cra_driver_name, DMD_AES_LIB_DRIVER))
			goto err_free_inst;
		if (DMD_GHASH_IS_LIB) {
			/* No "ghash" algorithm to spawn (diamond_compat.h). */
			err = PTR_ERR_OR_ZERO(hash_name);
			if (err)
				goto err_free_inst;
			ictx->ghash_lib = true;
			hash_base = NULL;
			hash_cra_name = "ghash";
			hash_driver = "ghash-lib";
			hash_priority = stream->base.cra_priority;
			digestsize = GHASH_DIGEST_SIZE;
			goto named;
		}
		err = crypto_grab_ahash(&ictx->ghash,
					aead_crypto_instance(inst),
					hash_name, 0, mask);
		if (err)
			goto err_free_inst;
		ghash = crypto_spawn_ahash_alg(&ictx->ghash);
		hash_base = &ghash->base;
		hash_cra_name = hash_base->cra_name;
		hash_driver = hash_base->cra_driver_name;
		hash_priority = hash_base->cra_priority;
		digestsize = ghash->digestsize;
		err = -ENOENT;
		if (strcmp(hash_base->cra_name, "ghash"))
			goto err_free_inst;
		ictx->ghash_lib = !strcmp(hash_base->cra_driver_name,
					  DMD_GHASH_LIB_DRIVER);
	} else if (stream_is_suite2(stream)) {
		/*
		 * lib/crypto Poly1305, as rfc7539 since the "poly1305" shash
		 * went (diamond_compat.h): the name is checked, not grabbed.
		 */
		ictx->suite = DMD_SUITE_CHACHA_POLY;
		err = PTR_ERR_OR_ZERO(hash_name);
		if (err)
			goto err_free_inst;
		/* The name itself is checked by check_request() below. */
		hash_base = NULL;
		hash_cra_name = "poly1305";
		hash_driver = "poly1305-lib";
		hash_priority = stream->base.cra_priority;
		digestsize = POLY1305_DIGEST_SIZE;
	} else {
		goto err_free_inst;
	}
named:
	if (digestsize != DMD_TAG_SIZE)
		goto err_free_inst;

	err = -ENOENT;
	if (snprintf(inst->alg.base.cra_name, CRYPTO_MAX_ALG_NAME,
		     "diamond(%s,%s)", stream->base.cra_name,
		     hash_cra_name) >= CRYPTO_MAX_ALG_NAME)
		goto err_free_inst;
	/*
	 * The driver name says what runs: suite 1 the spawns' drivers (from
	 * 7.3 ctr-aes-lib, whose library code it calls), suite 2 lib/crypto
	 * (the spawns only check that the names are these); a preallocating
	 * instance says so in its prefix.
	 */
	if (snprintf(inst->alg.base.cra_driver_name, CRYPTO_MAX_ALG_NAME,
		     "%s%s,%s)",
		     ictx->prealloc ? DMD_PREALLOC_PREFIX : "diamond(",
		     ictx->suite == DMD_SUITE_CHACHA_POLY ? DMD_SUITE2_STREAM :
		     stream->base.cra_driver_name,
		     hash_driver) >= CRYPTO_MAX_ALG_NAME)
		goto err_free_inst;
	err = check_request(tb, &inst->alg.base);
	if (err)
		goto err_free_inst;

	/*
	 * Two variants per name, chosen by the lookup's mask
	 * (Documentation/kernel-api.rst, Memory). A caller that masks
	 * CRYPTO_ALG_ALLOCATES_MEMORY (it cannot handle an allocation in a
	 * request, e.g. one that may not sleep) gets an instance whose setkey
	 * sizes the bounce buffer for the key's largest request, so that no
	 * request allocates; every other caller gets one whose requests
	 * allocate their own buffer, so that a keyed tfm holds only its state
	 * between epochs, and which says so with the flag. The latter has the
	 * higher priority: a lookup that allows both gets it. Beyond that the
	 * instance is async or allocating only if a suite 1 child it calls
	 * is; the spawns were grabbed with the lookup's mask, so a lookup that
	 * excludes these flags gets children without them. lib/crypto is
	 * synchronous and allocates nothing.
	 */
	inst->alg.base.cra_flags = ictx->prealloc ? 0 :
				   CRYPTO_ALG_ALLOCATES_MEMORY;
	if (ictx->suite == DMD_SUITE_AES_GHASH)
		inst->alg.base.cra_flags |= (stream->base.cra_flags |
					     (ictx->ghash_lib ? 0 :
					      hash_base->cra_flags)) &
					    CRYPTO_ALG_INHERITED_FLAGS;
	inst->alg.base.cra_priority = (stream->base.cra_priority +
				       hash_priority) / 2 - ictx->prealloc;
	inst->alg.base.cra_blocksize = 1;
	inst->alg.base.cra_alignmask = 0;
	inst->alg.base.cra_ctxsize = sizeof(struct diamond_tfm_ctx);

	inst->alg.ivsize = DMD_IV_SIZE;
	inst->alg.maxauthsize = DMD_AUTHSIZE;
	inst->alg.init = diamond_init_tfm;
	inst->alg.exit = diamond_exit_tfm;
	inst->alg.setkey = diamond_setkey;
	inst->alg.setauthsize = diamond_grid_setauthsize;
	inst->alg.encrypt = diamond_encrypt;
	inst->alg.decrypt = diamond_decrypt;

	inst->free = diamond_free_instance;

	err = diamond_register_instance(tmpl, inst);
	if (err) {
err_free_inst:
		diamond_free_instance(inst);
	}
	return err;
}

/* diamond(<stream>,<hash>): diamond(ctr(aes),ghash), diamond(chacha20,poly1305) */
static struct crypto_template diamond_tmpl = {
	.name = "diamond",
	.create = diamond_create,
	.module = THIS_MODULE,
};

static int __init diamond_module_init(void)
{
	int err;

	err = diamond_keytype_register();
	if (err)
		return err;
	/* Until the init is done (a failed one frees it all): see above. */
	WRITE_ONCE(diamond_init_task, current);
	err = crypto_register_template(&diamond_tmpl);
	if (err) {
		WRITE_ONCE(diamond_init_task, NULL);
		diamond_keytype_unregister();
		return err;
	}

	err = diamond_selftest();
	diamond_precompute_votes_reset();
	if (!err)
		err = diamond_afalg_register();
	if (err) {
		diamond_unregister_all(&diamond_tmpl);
		diamond_keytype_unregister();
		return err;
	}
	WRITE_ONCE(diamond_init_task, NULL);
	return 0;
}

static void __exit diamond_module_exit(void)
{
	diamond_afalg_unregister();
	crypto_unregister_template(&diamond_tmpl);
	diamond_keytype_unregister();
}

module_init(diamond_module_init);
module_exit(diamond_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Diamond forward-secure aggregate AEAD (diamond(ctr(aes),ghash), diamond(chacha20,poly1305))");
MODULE_ALIAS_CRYPTO("diamond");
