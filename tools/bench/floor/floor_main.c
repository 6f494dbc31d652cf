// SPDX-License-Identifier: GPL-2.0
/*
 * dmd_floor: the floor of one Diamond epoch on this kernel (issue 21,
 * Documentation/performance.md "Against the floor"). Reading the
 * parameter suite1 or suite2 runs, in the reader's context, the work spec
 * sections 3-5 mandate for one epoch of FLOOR_N records of 16 bytes (the
 * kernel bench's d<suite>-xor-b1024-len16) on the kernel's own
 * primitives, and returns the guest nanoseconds (instructions under qemu
 * -icount shift=0) it took:
 *
 *   total   the epoch update G(E, IV_epoch)[0:2k]; per record j one
 *           G(R_j, 0)[0 : O + 16] (next key, hash key, pad, keystream),
 *           the keystream XOR and the record's one-time-key hash, folded
 *           into the XOR aggregate; the trailer slot G(R_n, 0)[0:O] and
 *           its hash over TB (empty AD). Once per pair of a G variant and
 *           a hash variant (floor_suite1.c, floor_suite2.c).
 *   online  the same with every G output read from a table computed
 *           beforehand (diamond.ko's precomputed epoch): keystream XOR,
 *           hashes, aggregate. Once per hash variant.
 *
 * Each figure is the median of @reps runs. The chain is serial (each G
 * call's key is the previous one's output) and each hash has its own
 * key, so one call of each per slot is as batched as the work gets. Every
 * pair must produce the same aggregate tag, and online the same as total:
 * a variant that computes something else is reported, not counted.
 *
 * Lines, for tools/bench/kernel-floor.c:
 *   driver VARIANT DRIVER       what the crypto API bound
 *   skip VARIANT                this kernel lacks it
 *   total PRF MAC NS            one pair
 *   online - MAC NS
 *   floor total NS PRF MAC      the cheapest pair; floor online NS MAC
 *   mismatch PRF MAC            a pair whose tag differs (an error)
 *   error PRF MAC ERRNO         a pair that failed (an error)
 *   status ok|failed            last: failed after a mismatch or error
 *
 * Reading the parameter nh runs floor_nh.c instead (issue 22): one long
 * record's hash, Poly1305 against the kernel's nhpoly1305.
 */
#include <crypto/algapi.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <diamond/spec.h>

#include "diamond_compat.h"
#include "floor.h"

#define FLOOR_N		1024	/* records per epoch */
#define FLOOR_LEN	16	/* bytes per record */
/* A slot of the online table: O + 16 rounded to whole ChaCha20 blocks. */
#define FLOOR_STRIDE	128
/* Variants per primitive at most (floor_suite*.c). */
#define FLOOR_VARIANTS	8

static unsigned int reps = 5;
module_param(reps, uint, 0644);
MODULE_PARM_DESC(reps, "Runs per figure, the median is reported (1..32, default 5)");

static DEFINE_MUTEX(floor_lock);

/* What one suite's run works on. */
struct floor_run {
	const struct floor_suite *s;
	unsigned int suite;
	u8 *ct;			/* FLOOR_N records of ciphertext */
	u8 *pt;			/* their plaintext */
	u8 *table;		/* FLOOR_N + 1 slots, FLOOR_STRIDE each */
	u8 y[FLOOR_STRIDE] __aligned(64);	/* G's output, in place */
	u8 ekey[32];
	u8 ref[DMD_TAG_SIZE];	/* the first pair's tag */
	bool have_ref;
	bool failed;
	bool prf_ok[FLOOR_VARIANTS];
	bool mac_ok[FLOOR_VARIANTS];
	char *buf;		/* the parameter's text */
	int len;
};

static __printf(2, 3) void put_line(struct floor_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->len += vscnprintf(r->buf + r->len, PAGE_SIZE - r->len, fmt, ap);
	va_end(ap);
}

/* HB (or TB) of spec sections 4 and 5, epoch 0. */
static void header_block(u8 hb[16], u32 index_field, unsigned int len)
{
	put_unaligned_le64(0, hb);
	put_unaligned_le32(index_field, hb + 8);
	put_unaligned_le32(len, hb + 12);
}

/* Record @j's keystream XOR and tag under slot @y, folded into @acc. */
static int floor_record(struct floor_run *r, struct floor_mac *mac,
			const u8 *y, u32 j, u8 acc[16])
{
	unsigned int k = r->s->k, o = DMD_SLOT_KS(k);
	const u8 *c = r->ct + j * FLOOR_LEN;
	u8 hb[16], t[16];
	int err;

	crypto_xor_cpy(r->pt + j * FLOOR_LEN, c, y + o, FLOOR_LEN);
	if (r->suite == DMD_SUITE_AES_GHASH)
		header_block(hb, j, FLOOR_LEN);
	err = mac->tag(mac, y + DMD_SLOT_HKEY(k),
		       r->suite == DMD_SUITE_AES_GHASH ? hb : NULL, c,
		       FLOOR_LEN, t);
	crypto_xor(acc, t, 16);
	return err;
}

/* The trailer's tag under slot @y (TB, empty AD), folded into @acc. */
static int floor_trailer(struct floor_run *r, struct floor_mac *mac,
			 const u8 *y, u8 acc[16])
{
	u8 tb[16], t[16];
	int err;

	header_block(tb, DMD_TRAILER_FLAG | FLOOR_N, 0);
	err = mac->tag(mac, y + DMD_SLOT_HKEY(r->s->k), tb, NULL, 0, t);
	crypto_xor(acc, t, 16);
	return err;
}

/*
 * The whole epoch with G online. With @table, G's outputs are kept there
 * as well (untimed use: the online table).
 */
static int floor_total(struct floor_run *r, struct floor_prf *prf,
		       struct floor_mac *mac, u8 tag[16], u8 *table)
{
	unsigned int k = r->s->k, o = DMD_SLOT_KS(k);
	const u8 *key;
	u8 acc[16] = { };
	u32 j;
	int err;

	err = prf->gen(prf, r->ekey, FLOOR_DOM_EPOCH, r->y, 2 * k);
	key = r->y + k;
	for (j = 0; !err && j < FLOOR_N; j++) {
		err = prf->gen(prf, key, FLOOR_DOM_RECORD, r->y, o + FLOOR_LEN);
		key = r->y;
		if (!err)
			err = floor_record(r, mac, r->y, j, acc);
		if (table)
			memcpy(table + j * FLOOR_STRIDE, r->y, FLOOR_STRIDE);
	}
	if (!err)
		err = prf->gen(prf, key, FLOOR_DOM_RECORD, r->y, o);
	if (!err)
		err = floor_trailer(r, mac, r->y, acc);
	if (table)
		memcpy(table + FLOOR_N * FLOOR_STRIDE, r->y, FLOOR_STRIDE);
	memcpy(tag, acc, 16);
	return err;
}

/* The epoch with every G output already in r->table. */
static int floor_online(struct floor_run *r, struct floor_mac *mac,
			u8 tag[16])
{
	u8 acc[16] = { };
	u32 j;
	int err = 0;

	for (j = 0; !err && j < FLOOR_N; j++)
		err = floor_record(r, mac, r->table + j * FLOOR_STRIDE, j, acc);
	if (!err)
		err = floor_trailer(r, mac, r->table + FLOOR_N * FLOOR_STRIDE,
				    acc);
	memcpy(tag, acc, 16);
	return err;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median ns of @n runs of one pair (@prf NULL: online); -errno on failure. */
static s64 floor_time(struct floor_run *r, struct floor_prf *prf,
		      struct floor_mac *mac, unsigned int n)
{
	u64 t[FLOOR_REPS_MAX], t0;
	u8 tag[16];
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < n; i++) {
		t0 = ktime_get_ns();
		err = prf ? floor_total(r, prf, mac, tag, NULL) :
			    floor_online(r, mac, tag);
		t[i] = ktime_get_ns() - t0;
		if (!err && r->have_ref && crypto_memneq(tag, r->ref, 16))
			err = -EBADMSG;
	}
	if (err)
		return err;
	sort(t, n, sizeof(t[0]), cmp_u64, NULL);
	return t[n / 2];
}

/* Init every variant; those this kernel lacks get a skip line. */
static void floor_variants_init(struct floor_run *r)
{
	struct floor_prf *p;
	struct floor_mac *m;
	unsigned int i;

	for (i = 0; i < FLOOR_VARIANTS && (p = r->s->prf[i]); i++) {
		r->prf_ok[i] = !p->init(p);
		if (r->prf_ok[i])
			put_line(r, "driver %s %s\n", p->name, p->driver);
		else
			put_line(r, "skip %s\n", p->name);
	}
	for (i = 0; i < FLOOR_VARIANTS && (m = r->s->mac[i]); i++) {
		r->mac_ok[i] = !m->init(m);
		if (r->mac_ok[i])
			put_line(r, "driver %s %s\n", m->name, m->driver);
		else
			put_line(r, "skip %s\n", m->name);
	}
}

static void floor_variants_exit(struct floor_run *r)
{
	unsigned int i;

	for (i = 0; i < FLOOR_VARIANTS && r->s->prf[i]; i++)
		if (r->prf_ok[i])
			r->s->prf[i]->exit(r->s->prf[i]);
	for (i = 0; i < FLOOR_VARIANTS && r->s->mac[i]; i++)
		if (r->mac_ok[i])
			r->s->mac[i]->exit(r->s->mac[i]);
}

/* One pair's line; the cheapest so far is kept in @best. */
static void floor_pair(struct floor_run *r, struct floor_prf *p,
		       struct floor_mac *m, s64 *best, const char **names)
{
	s64 ns = floor_time(r, p, m, reps);

	if (ns == -EBADMSG) {
		put_line(r, "mismatch %s %s\n", p ? p->name : "-", m->name);
		r->failed = true;
	} else if (ns < 0) {
		put_line(r, "error %s %s %lld\n", p ? p->name : "-", m->name, ns);
		r->failed = true;
	} else {
		put_line(r, "%s %s %s %lld\n", p ? "total" : "online",
			 p ? p->name : "-", m->name, ns);
		if (*best < 0 || ns < *best) {
			*best = ns;
			names[0] = p ? p->name : "-";
			names[1] = m->name;
		}
	}
}

/*
 * The reference tag from the first pair, the online table from the same
 * run (untimed), then every pair total and every hash online.
 */
static void floor_suite_run(struct floor_run *r)
{
	struct floor_prf *first = NULL;
	const char *tn[2] = { "-", "-" }, *on[2] = { "-", "-" };
	s64 total = -1, online = -1;
	unsigned int i, j;

	for (i = 0; i < FLOOR_VARIANTS && r->s->prf[i] && !first; i++)
		if (r->prf_ok[i])
			first = r->s->prf[i];
	for (j = 0; j < FLOOR_VARIANTS && r->s->mac[j]; j++) {
		if (!first || !r->mac_ok[j])
			continue;
		if (!r->have_ref) {
			r->have_ref = !floor_total(r, first, r->s->mac[j],
						   r->ref, r->table);
			if (!r->have_ref)
				break;
		}
		for (i = 0; i < FLOOR_VARIANTS && r->s->prf[i]; i++)
			if (r->prf_ok[i])
				floor_pair(r, r->s->prf[i], r->s->mac[j],
					   &total, tn);
		floor_pair(r, NULL, r->s->mac[j], &online, on);
	}
	if (total < 0 || online < 0) {
		put_line(r, "error no pair ran\n");
		r->failed = true;
		return;
	}
	put_line(r, "floor total %lld %s %s\n", total, tn[0], tn[1]);
	put_line(r, "floor online %lld %s\n", online, on[1]);
}

static int floor_get(char *buf, const struct kernel_param *kp)
{
	unsigned int suite = *(const unsigned int *)kp->arg;
	struct floor_run *r;
	int len;

	if (reps < 1 || reps > FLOOR_REPS_MAX)
		return -EINVAL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->suite = suite;
	r->s = suite == DMD_SUITE_AES_GHASH ? &floor_suite1 : &floor_suite2;
	r->buf = buf;
	r->ct = kmalloc(2 * FLOOR_N * FLOOR_LEN, GFP_KERNEL);
	r->table = vmalloc((FLOOR_N + 1) * FLOOR_STRIDE);
	if (!r->ct || !r->table) {
		len = -ENOMEM;
		goto out;
	}
	r->pt = r->ct + FLOOR_N * FLOOR_LEN;
	memset(r->ct, 0x5a, FLOOR_N * FLOOR_LEN);
	memset(r->ekey, 0x42, sizeof(r->ekey));

	mutex_lock(&floor_lock);
	floor_variants_init(r);
	floor_suite_run(r);
	floor_variants_exit(r);
	put_line(r, "status %s\n", r->failed ? "failed" : "ok");
	mutex_unlock(&floor_lock);
	len = r->len;
out:
	vfree(r->table);
	kfree(r->ct);
	kfree_sensitive(r);
	return len;
}

static const struct kernel_param_ops floor_ops = {
	.get = floor_get,
};

static unsigned int suite1 = DMD_SUITE_AES_GHASH;
static unsigned int suite2 = DMD_SUITE_CHACHA_POLY;
module_param_cb(suite1, &floor_ops, &suite1, 0444);
MODULE_PARM_DESC(suite1, "Read: run suite 1's floor (lines, see floor_main.c)");
module_param_cb(suite2, &floor_ops, &suite2, 0444);
MODULE_PARM_DESC(suite2, "Read: run suite 2's floor");

static int floor_nh_param(char *buf, const struct kernel_param *kp)
{
	int len;

	if (reps < 1 || reps > FLOOR_REPS_MAX)
		return -EINVAL;
	mutex_lock(&floor_lock);
	len = floor_nh_get(buf, reps);
	mutex_unlock(&floor_lock);
	return len;
}

static const struct kernel_param_ops floor_nh_ops = {
	.get = floor_nh_param,
};

module_param_cb(nh, &floor_nh_ops, NULL, 0444);
MODULE_PARM_DESC(nh, "Read: Poly1305 against nhpoly1305 per record, 256 B to 4 KiB");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("The floor of one Diamond epoch on the kernel's primitives (benchmark)");
