// SPDX-License-Identifier: GPL-2.0
/*
 * dmd_atomic: drive both Diamond suites from softirq and count what must
 * never happen there (Documentation/kernel-api.rst, Concurrency).
 *
 * At load, for each suite, a tfm is allocated with CRYPTO_ALG_ASYNC and
 * CRYPTO_ALG_ALLOCATES_MEMORY in the mask (synchronous inner algorithms and
 * the instance whose setkey preallocates the bounce buffer: what
 * kernel-api.rst tells atomic callers to do) and keyed; then a timer
 * callback (softirq) issues requests without CRYPTO_TFM_REQ_MAY_SLEEP, one
 * per tick: seals of the current
 * epoch (precomputed table), seals that skip ahead (chain run online),
 * forged opens (-EBADMSG) and bodies of two 4000-byte records.
 * A request that finds the tfm busy (-EAGAIN, the precompute worker holds
 * it) is retried at the next tick.
 *
 * While a request runs, these count, on that CPU outside hardirq:
 *   - every slab and page allocation, whatever its gfp flags: the kmem
 *     tracepoints kmalloc, kmem_cache_alloc and mm_page_alloc, the same
 *     on every kernel from 6.1 (the fault-injection hooks should_failslab
 *     and should_fail_alloc_page are not: from 6.11 they sit behind a
 *     static key, off unless fault injection runs, and Debian's 6.12 does
 *     not build them at all);
 *   - kprobes on mutex_lock, mutex_trylock, mutex_unlock;
 *   - kprobes on vfree, __cond_resched, wait_for_completion.
 * The counts, the request outcomes and the probe points this kernel lacks
 * ("missing") are read-only module parameters; diamond_atomic.sh turns
 * them into TAP, a count whose probe point is missing into a loud SKIP.
 * The module stays loaded until removed; it does nothing after its init.
 */
#include <crypto/aead.h>
#include <linux/completion.h>
#include <linux/crypto.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include "diamond_compat.h"

#include <diamond/spec.h>

#define DMD_AT_STEPS	24	/* requests per suite */
#define DMD_AT_TRIES	400	/* ticks per suite, retries included */
#define DMD_AT_B	16	/* records per epoch the key allows */
#define DMD_AT_BUF	(2 * (2 + 4000) + DMD_TAG_SIZE)

/* Counter index of the probe self-check (calibrate()), after the suites. */
#define DMD_AT_CAL	3

/* Results, per suite (index 1 and 2) and DMD_AT_CAL: read-only parameters. */
static int allocs[4], mutex_calls[4], vfree_calls[4], resched[4];
static int ok[3], badmsg[3], eagain[3], other_err[3];
/* 1: the two instances of kernel-api.rst, Memory, are what they say. */
static int variants[3];
/* "counter:probe counter:probe ..." for the probe points not found. */
static char missing[256];
module_param_array(allocs, int, NULL, 0444);
module_param_array(mutex_calls, int, NULL, 0444);
module_param_array(vfree_calls, int, NULL, 0444);
module_param_array(resched, int, NULL, 0444);
module_param_array(ok, int, NULL, 0444);
module_param_array(badmsg, int, NULL, 0444);
module_param_array(eagain, int, NULL, 0444);
module_param_array(other_err, int, NULL, 0444);
module_param_array(variants, int, NULL, 0444);
module_param_string(missing, missing, sizeof(missing), 0444);

static DEFINE_PER_CPU(int, armed);	/* suite being driven, or 0 */

struct run {
	struct crypto_aead *tfm;
	struct aead_request *req;
	struct timer_list timer;
	struct completion done;
	struct scatterlist sg;
	unsigned int suite, step, tries;
	u64 epoch;
	u8 iv[DMD_IV_SIZE];
	u8 *buf;
};

static int count_at(int *counter)
{
	int suite = this_cpu_read(armed);

	if (suite && !in_hardirq())
		counter[suite]++;
	return 0;
}

/* Where the first counted slab allocation of each suite came from. */
static unsigned long alloc_site[4];

static void count_alloc(unsigned long site)
{
	int suite = this_cpu_read(armed);

	if (suite && !in_hardirq()) {
		allocs[suite]++;
		if (!alloc_site[suite])
			alloc_site[suite] = site;
	}
}

/* The kmem tracepoints' probes (TP_PROTO of include/trace/events/kmem.h). */
static void on_kmalloc(void *data, unsigned long site, const void *ptr,
		       size_t req, size_t alloc, gfp_t gfp, int node)
{
	count_alloc(site);
}

static void on_cache_alloc(void *data, unsigned long site, const void *ptr,
			   struct kmem_cache *s, gfp_t gfp, int node)
{
	count_alloc(site);
}

static void on_page_alloc(void *data, struct page *page, unsigned int order,
			  gfp_t gfp, int migratetype)
{
	count_at(allocs);
}

struct tp_probe {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct tp_probe tps[] = {
	{ "kmalloc", on_kmalloc },
	{ "kmem_cache_alloc", on_cache_alloc },
	{ "mm_page_alloc", on_page_alloc },
};

static void tp_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tps); i++)
		if (!strcmp(tp->name, tps[i].name))
			tps[i].tp = tp;
}

static int on_mutex(struct kprobe *p, struct pt_regs *regs)
{
	return count_at(mutex_calls);
}

static int on_vfree(struct kprobe *p, struct pt_regs *regs)
{
	return count_at(vfree_calls);
}

static int on_resched(struct kprobe *p, struct pt_regs *regs)
{
	return count_at(resched);
}

static struct kprobe probes[] = {
	{ .symbol_name = "mutex_lock", .pre_handler = on_mutex },
	{ .symbol_name = "mutex_trylock", .pre_handler = on_mutex },
	{ .symbol_name = "mutex_unlock", .pre_handler = on_mutex },
	{ .symbol_name = "vfree", .pre_handler = on_vfree },
	{ .symbol_name = "__cond_resched", .pre_handler = on_resched },
	{ .symbol_name = "wait_for_completion", .pre_handler = on_resched },
};

/* The counter a probe feeds, by its handler: for the "missing" list. */
static const char *counter_of(const struct kprobe *p)
{
	if (p->pre_handler == on_mutex)
		return "mutex_calls";
	return p->pre_handler == on_vfree ? "vfree_calls" : "resched";
}

static void note_missing(const char *counter, const char *probe)
{
	size_t n = strlen(missing);

	pr_err("dmd_atomic: no probe point %s on this kernel: %s not counted\n",
	       probe, counter);
	snprintf(missing + n, sizeof(missing) - n, "%s%s:%s", n ? " " : "",
		 counter, probe);
}

static void probes_register(void)
{
	unsigned int i;

	for_each_kernel_tracepoint(tp_find, NULL);
	for (i = 0; i < ARRAY_SIZE(tps); i++) {
		if (!tps[i].tp ||
		    tracepoint_probe_register(tps[i].tp, tps[i].probe, NULL)) {
			tps[i].tp = NULL;
			note_missing("allocs", tps[i].name);
		}
	}
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (register_kprobe(&probes[i])) {
			probes[i].addr = NULL;
			note_missing(counter_of(&probes[i]),
				     probes[i].symbol_name);
		}
	}
}

/*
 * A count of 0 means something only if the probes see what they should:
 * one kmalloc made while armed must be counted (allocs, index 3).
 */
static void calibrate(void)
{
	void *p;

	preempt_disable();
	this_cpu_write(armed, DMD_AT_CAL);
	p = kmalloc(64, GFP_ATOMIC);
	this_cpu_write(armed, 0);
	preempt_enable();
	kfree(p);
}

static void probes_unregister(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(probes); i++)
		if (probes[i].addr)
			unregister_kprobe(&probes[i]);
	for (i = 0; i < ARRAY_SIZE(tps); i++)
		if (tps[i].tp)
			tracepoint_probe_unregister(tps[i].tp, tps[i].probe,
						    NULL);
	tracepoint_synchronize_unregister();
}

/* One record of @len bytes (0x5a), or two of 4000 for the large steps. */
static unsigned int make_body(u8 *p, bool large)
{
	unsigned int n = large ? 2 : 1, len = large ? 4000 : 48, i;

	for (i = 0; i < n; i++) {
		put_unaligned_le16(len, p);
		memset(p + 2, 0x5a, len);
		p += 2 + len;
	}
	return n * (2 + len);
}

/*
 * Step s: 0 seal the current epoch, 1 seal two epochs ahead (online), 2 an
 * open of garbage (-EBADMSG, nothing moves); every fourth step large.
 */
static int issue(struct run *r)
{
	unsigned int kind = r->step % 3, body = make_body(r->buf, r->step % 4 == 3);
	u64 e = r->epoch + (kind == 1 ? 2 : 0);
	int err;

	put_unaligned_le64(e, r->iv);
	sg_init_one(&r->sg, r->buf, DMD_AT_BUF);
	aead_request_set_callback(r->req, 0, NULL, NULL);
	aead_request_set_ad(r->req, 0);
	aead_request_set_crypt(r->req, &r->sg, &r->sg,
			       kind == 2 ? body + DMD_TAG_SIZE : body, r->iv);
	this_cpu_write(armed, r->suite);
	err = kind == 2 ? crypto_aead_decrypt(r->req) :
			  crypto_aead_encrypt(r->req);
	this_cpu_write(armed, 0);
	if (!err)
		r->epoch = e + 1;
	return err;
}

static void tick(struct timer_list *t)
{
	struct run *r = timer_container_of(r, t, timer);
	int err = issue(r);

	if (err == -EAGAIN) {
		eagain[r->suite]++;
	} else {
		if (!err)
			ok[r->suite]++;
		else if (err == -EBADMSG)
			badmsg[r->suite]++;
		else
			other_err[r->suite]++;
		r->step++;
	}
	if (r->step < DMD_AT_STEPS && ++r->tries < DMD_AT_TRIES)
		mod_timer(&r->timer, jiffies + 1);
	else
		complete(&r->done);
}

static int key_tfm(struct run *r)
{
	unsigned int k = r->suite == DMD_SUITE_AES_GHASH ? DMD_KEY1_SIZE :
							   DMD_KEY2_SIZE;
	u8 blob[DMD_BLOB_MAX] = DMD_BLOB_MAGIC;

	blob[DMD_BLOB_OFF_VERSION] = DMD_BLOB_VERSION;
	blob[DMD_BLOB_OFF_SUITE] = r->suite;
	blob[DMD_BLOB_OFF_AGG] = DMD_AGG_XOR;
	put_unaligned_le32(DMD_AT_B, blob + DMD_BLOB_OFF_B);
	get_random_bytes(blob + DMD_BLOB_OFF_KEY, k);
	return crypto_aead_setkey(r->tfm, blob, DMD_BLOB_SIZE(k)) ?:
	       crypto_aead_setauthsize(r->tfm, DMD_TAG_SIZE);
}

/*
 * The tfm driven here (@pre, looked up with CRYPTO_ALG_ALLOCATES_MEMORY in
 * the mask) is a diamond-prealloc instance without the flag, and a lookup
 * without it in the mask gets the other instance, which carries the flag.
 */
static int check_variants(struct crypto_aead *pre, const char *name)
{
	struct crypto_aead *lean = crypto_alloc_aead(name, 0, CRYPTO_ALG_ASYNC);
	const char *pname = crypto_tfm_alg_driver_name(crypto_aead_tfm(pre));
	u32 pflags = crypto_aead_alg(pre)->base.cra_flags;
	int good;

	if (IS_ERR(lean))
		return 0;
	pr_info("dmd_atomic: %s: %s (masked), %s (not masked)\n", name, pname,
		crypto_tfm_alg_driver_name(crypto_aead_tfm(lean)));
	good = !strncmp(pname, "diamond-prealloc(", 17) &&
	       !(pflags & CRYPTO_ALG_ALLOCATES_MEMORY) &&
	       !strncmp(crypto_tfm_alg_driver_name(crypto_aead_tfm(lean)),
			"diamond(", 8) &&
	       (crypto_aead_alg(lean)->base.cra_flags &
		CRYPTO_ALG_ALLOCATES_MEMORY);
	crypto_free_aead(lean);
	return good;
}

static void drive(unsigned int suite, const char *name)
{
	struct run *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		goto fail;
	r->suite = suite;
	r->tfm = crypto_alloc_aead(name, 0, CRYPTO_ALG_ASYNC |
				   CRYPTO_ALG_ALLOCATES_MEMORY);
	if (IS_ERR(r->tfm)) {
		pr_err("dmd_atomic: %s: %ld\n", name, PTR_ERR(r->tfm));
		r->tfm = NULL;
		goto fail;
	}
	variants[suite] = check_variants(r->tfm, name);
	r->req = aead_request_alloc(r->tfm, GFP_KERNEL);
	r->buf = kzalloc(DMD_AT_BUF, GFP_KERNEL);
	if (!r->req || !r->buf || key_tfm(r))
		goto fail;
	pr_info("dmd_atomic: driving %s from softirq\n",
		crypto_tfm_alg_driver_name(crypto_aead_tfm(r->tfm)));
	init_completion(&r->done);
	timer_setup(&r->timer, tick, 0);
	mod_timer(&r->timer, jiffies + 1);
	wait_for_completion(&r->done);
	timer_delete_sync(&r->timer);
	if (allocs[suite])
		pr_warn("dmd_atomic: suite%u: %d allocations in requests from softirq, the first slab one from %pS\n",
			suite, allocs[suite], (void *)alloc_site[suite]);
	goto out;
fail:
	other_err[suite]++;
out:
	if (r) {
		kfree(r->buf);
		aead_request_free(r->req);
		if (r->tfm)
			crypto_free_aead(r->tfm);
		kfree(r);
	}
}

static int __init dmd_atomic_init(void)
{
	probes_register();
	calibrate();
	drive(DMD_SUITE_AES_GHASH, "diamond(ctr(aes),ghash)");
	drive(DMD_SUITE_CHACHA_POLY, "diamond(chacha20,poly1305)");
	probes_unregister();
	return 0;
}

static void __exit dmd_atomic_exit(void)
{
}

module_init(dmd_atomic_init);
module_exit(dmd_atomic_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Drive diamond.ko from softirq and count allocations and sleeping calls (kselftest)");
