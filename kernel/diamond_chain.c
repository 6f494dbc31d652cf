// SPDX-License-Identifier: GPL-2.0
/*
 * Diamond key chains (Documentation/spec.rst section 3) on the suite's
 * stream: for suite 1 the instance's ctr(aes) spawn, or from 7.3 the
 * AES-CTR library (aes_ctr()), for suite 2 lib/crypto ChaCha20
 * (chacha_crypt()):
 *
 *	X        = G(E_e, IV_epoch)[0 : 2k]	E_{e+1} = X[0:k], R_{e,0} = X[k:2k]
 *	Y_j      = G(R_{e,j}, 0^16)		R_{e,j+1} = Y_j[0:k]
 *	H_j, P_j = Y_j[k : k+16], Y_j[k+16 : k+32]
 *	KS_j     = Y_j[O : O+len_j]		O = k + 32
 *
 * G(K, IV) is, for suite 1, one setkey and one encryption of the zero page
 * by the ctr(aes) child (or one key expansion and one aes_ctr() run), and
 * for suite 2 one lib/crypto ChaCha20 run over the zero page; the record
 * domain for slots, and the epoch, group and grid domains (spec sections 1,
 * 5.1 and 14.3). The output
 * lands where it is used: in the table, or in ctx->sbuf (erased at the end
 * of the request) for a slot opened online.
 *
 * The offline phase of spec section 9 lives here too: diamond_precompute(),
 * run by a work item queued after setkey and after each accepted epoch,
 * fills a table with the first slots of the current epoch (R_{j+1}, H_j, P_j
 * and the first ks_len bytes of KS_j) within the precompute_kib bound, and the
 * epoch walk (diamond_cursor_*) takes slots from that table while it lasts
 * and runs the chain online after it.
 */
#include <crypto/algapi.h>
#include <crypto/internal/aead.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "diamond.h"
#include "diamond_walk.h"

/* Block of the suite's stream: one ChaCha20 block, four AES blocks. */
#define DMD_KS_ALIGN		64
/*
 * A pathological precompute_kib cannot make us allocate more than this per
 * tfm (Documentation/kernel-api.rst, Module parameters).
 */
#define DMD_PRE_MAX_BYTES	(64u << 20)

unsigned int diamond_precompute_kib = 32;
module_param_named(precompute_kib, diamond_precompute_kib, uint, 0644);
MODULE_PARM_DESC(precompute_kib,
		 "Memory per tfm for the next epoch's precomputed slots, KiB; 0 disables (default 32)");

unsigned int diamond_precompute_bytes = 64;
module_param_named(precompute_bytes, diamond_precompute_bytes, uint, 0644);
MODULE_PARM_DESC(precompute_bytes,
		 "Keystream bytes precomputed per record slot, rounded up to 64, at most 4096 (default 64)");

/* Mark the first @len bytes of ctx->sbuf for the end-of-request wipe. */
static u8 *sbuf_use(struct diamond_tfm_ctx *ctx, unsigned int len)
{
	ctx->sbuf_used = max(ctx->sbuf_used, len);
	return ctx->sbuf;
}

/*
 * The children's scatterlists, for the tfm's life: two entries of the zero
 * page, G's plaintext (a request reads its cryptlen of them), ctx->sbuf and
 * ctx->hbuf's GHASH input whole. Built once here, not per slot.
 */
void diamond_stream_sg_init(struct diamond_tfm_ctx *ctx)
{
	BUILD_BUG_ON(DMD_STREAM_BUF > 2 * PAGE_SIZE);
	BUILD_BUG_ON(ARRAY_SIZE(ctx->zsg) != 2);

	sg_init_table(ctx->zsg, 2);
	sg_set_page(&ctx->zsg[0], ZERO_PAGE(0), PAGE_SIZE, 0);
	sg_set_page(&ctx->zsg[1], ZERO_PAGE(0), PAGE_SIZE, 0);
	sg_init_one(&ctx->ssg, ctx->sbuf, DMD_STREAM_BUF);
	sg_init_one(&ctx->hsg, ctx->hbuf, DMD_HASH_BUF);
}

/* Suite 1 before 7.3: G on the ctr(aes) spawn, one setkey and one request. */
static int __must_check stream_ctr(struct diamond_tfm_ctx *ctx,
				   const u8 *key, u8 domain, u8 *dst,
				   unsigned int len)
{
	struct scatterlist one, *out = &ctx->ssg;
	/*
	 * The table is vmalloc'd: a slot is generated in the linear scratch
	 * (one scatterlist entry, no page walk) and copied there.
	 */
	u8 *buf = is_vmalloc_addr(dst) ? sbuf_use(ctx, len) : dst;
	int err;

	err = crypto_skcipher_setkey(ctx->stream, key, ctx->k);
	if (unlikely(err))
		return err;

	diamond_stream_iv(ctx->iv, domain);
	if (buf != ctx->sbuf) {
		sg_init_one(&one, buf, len);
		out = &one;
	}
	skcipher_request_set_callback(ctx->sreq, ctx->req_flags, crypto_req_done,
				      &ctx->wait);
	skcipher_request_set_crypt(ctx->sreq, ctx->zsg, out, len, ctx->iv);
	err = diamond_child_wait(ctx, crypto_skcipher_encrypt(ctx->sreq));
	if (likely(!err) && buf != dst)
		memcpy(dst, buf, len);
	return err;
}

/*
 * Suite 1 from 7.3: G with the AES-CTR library (diamond_compat.h), the same
 * counter blocks as stream_ctr(), any context, no allocation.
 */
static int __must_check stream_aes_lib(struct diamond_tfm_ctx *ctx,
				       const u8 *key, u8 domain, u8 *dst,
				       unsigned int len)
{
	unsigned int part;
	int err;

	err = dmd_aes_lib_setkey(&ctx->aes, key, ctx->k);
	if (unlikely(err))
		return err;
	diamond_stream_iv(ctx->iv, domain);
	/* Whole pages but the last: the counter runs on across calls. */
	do {
		part = min_t(unsigned int, len, PAGE_SIZE);
		dmd_aes_lib_ctr(&ctx->aes, dst, ctx->zero, part, ctx->iv);
		dst += part;
		len -= part;
	} while (len);
	return 0;
}

/*
 * Suite 2's short streams where DMD_CHACHA_BLOCKS_MAX says so: block after
 * block of chacha_block_generic(), whole ones straight into @dst, the tail
 * through the stack (erased).
 */
static void chacha_blocks(struct chacha_state *st, u8 *dst, unsigned int len)
{
	u8 tail[CHACHA_BLOCK_SIZE];

	for (; len >= CHACHA_BLOCK_SIZE; len -= CHACHA_BLOCK_SIZE) {
		dmd_chacha_block(st, dst);
		dst += CHACHA_BLOCK_SIZE;
	}
	if (len) {
		dmd_chacha_block(st, tail);
		memcpy(dst, tail, len);
		memzero_explicit(tail, sizeof(tail));
	}
}

/* @len (<= PAGE_SIZE) bytes of the state's keystream into @dst. */
static void chacha_run(struct diamond_tfm_ctx *ctx, u8 *dst,
		       unsigned int len)
{
	if (DMD_CHACHA_BLOCKS_MAX && len <= DMD_CHACHA_BLOCKS_MAX)
		chacha_blocks(&ctx->chacha, dst, len);
	else
		dmd_chacha_crypt(&ctx->chacha, dst, ctx->zero, len, 20);
}

/*
 * Suite 2: G with lib/crypto ChaCha20 (chacha_crypt() takes the arch SIMD
 * code when it can), the counter block of spec section 1: counter 0, nonce
 * 01 || 0^11 for the epoch update, 02 || 0^11 for a group trailer, all zero
 * for a record slot.
 */
static void stream_chacha(struct diamond_tfm_ctx *ctx, const u8 *key,
			  u8 domain, u8 *dst, unsigned int len)
{
	u32 *x = ctx->chacha.x;
	unsigned int part;

	/* chacha_init() without the key round trip through a u32 array. */
	dmd_chacha_init_consts(&ctx->chacha);
	diamond_chacha_key(&ctx->chacha, key);
	x[12] = 0;
	x[13] = domain;
	x[14] = 0;
	x[15] = 0;
	/* Whole pages but the last: the counter runs on across calls. */
	do {
		part = min_t(unsigned int, len, PAGE_SIZE);
		chacha_run(ctx, dst, part);
		dst += part;
		len -= part;
	} while (len);
}

/* G(@key, IV)[0:@len] into @dst, IV that of @domain (DMD_DOM_*). */
static int __must_check stream(struct diamond_tfm_ctx *ctx, const u8 *key,
			       u8 domain, u8 *dst, unsigned int len)
{
	if (ctx->suite == DMD_SUITE_AES_GHASH)
		return DMD_AES_CTR_IS_LIB ?
		       stream_aes_lib(ctx, key, domain, dst, len) :
		       stream_ctr(ctx, key, domain, dst, len);
	stream_chacha(ctx, key, domain, dst, len);
	return 0;
}

/* (E, R_0) <- G(E, IV_epoch)[0:2k]; @e is updated in place. */
static int __must_check epoch_update(struct diamond_tfm_ctx *ctx, u8 *e,
				     u8 *r0)
{
	unsigned int k = ctx->k;
	u8 *y = sbuf_use(ctx, 2 * k);
	int err;

	err = stream(ctx, e, DMD_DOM_EPOCH, y, 2 * k);
	if (likely(!err)) {
		memcpy(e, y, k);
		memcpy(r0, y + k, k);
	}
	return err;
}

/*
 * Open slot @r online: Y = G(@r, 0)[0 : O + @len] in ctx->sbuf, its head
 * R_next || H || P first (@slot points at H || P), then KS[0:@len], which
 * @ks (if set) points at.
 */
static int __must_check slot_gen(struct diamond_tfm_ctx *ctx, const u8 *r,
				 struct diamond_slot *slot, const u8 **ks,
				 unsigned int len)
{
	unsigned int o = DMD_SLOT_KS(ctx->k);
	u8 *y = sbuf_use(ctx, o + len);
	int err;

	err = stream(ctx, r, DMD_DOM_RECORD, y, o + len);
	if (unlikely(err))
		return err;
	slot->hp = y + DMD_SLOT_HKEY(ctx->k);
	if (ks)
		*ks = y + o;
	return 0;
}

/*
 * Size the table for the current parameters: b + 1 slots (b records and the
 * trailer) if they fit in precompute_kib, else as many as fit. Called with
 * the lock held from setkey, so the module parameters are read once per key.
 * One vmalloc of the slots: page granular where kvmalloc would round a
 * table just over a power of two up to the next one, and charged to the
 * caller's memcg.
 */
int diamond_pre_alloc(struct diamond_tfm_ctx *ctx)
{
	struct diamond_pre *pre = &ctx->pre;
	unsigned int ks_len = READ_ONCE(diamond_precompute_bytes);
	size_t budget = (size_t)READ_ONCE(diamond_precompute_kib) * 1024;
	size_t slot_size, cap;

	ks_len = round_up(min_t(unsigned int, ks_len, DMD_MAX_RECORD),
			  DMD_KS_ALIGN);
	slot_size = DMD_SLOT_KS(ctx->k) + ks_len;
	budget = min_t(size_t, budget, DMD_PRE_MAX_BYTES);
	cap = min_t(size_t, ctx->b + 1, budget / slot_size);

	if (pre->slots && pre->cap == cap && pre->ks_len == ks_len)
		return 0;
	diamond_pre_free(pre);
	if (cap) {
		pre->size = cap * slot_size;
		pre->slots = __vmalloc(pre->size, DMD_GFP | __GFP_ZERO);
		if (!pre->slots) {
			pre->size = 0;
			return -ENOMEM;
		}
	}
	pre->slot_size = slot_size;
	pre->ks_len = ks_len;
	pre->cap = cap;
	return 0;
}

/* Forget the material of the current epoch (it was used or is stale). */
void diamond_pre_erase(struct diamond_pre *pre)
{
	if (pre->slots && pre->ready)
		memzero_explicit(pre->slots, (size_t)pre->ready * pre->slot_size);
	memzero_explicit(pre->e_next, sizeof(pre->e_next));
	memzero_explicit(pre->r0, sizeof(pre->r0));
	pre->ready = 0;
	pre->valid = false;
}

void diamond_pre_free(struct diamond_pre *pre)
{
	diamond_pre_erase(pre);
	kvfree_sensitive(pre->slots, pre->size);
	pre->slots = NULL;
	pre->size = 0;
	pre->cap = 0;
}

/* Slot @j of the table. */
static u8 *pre_slot(const struct diamond_pre *pre, u32 j)
{
	return pre->slots + (size_t)j * pre->slot_size;
}

/* R_j, the key of slot @j (< ready + 1) of the table's epoch. */
static const u8 *pre_key(const struct diamond_pre *pre, u32 j)
{
	return j ? pre_slot(pre, j - 1) : pre->r0;
}

/*
 * A group cursor opened at slot @slot of the table's epoch: erase what the
 * released groups used (R_0, slots below @slot but the R_{slot} at the head
 * of slot @slot - 1), so the rest of the epoch still opens from the table.
 * A cursor past the table erases all of it.
 */
void diamond_pre_erase_below(struct diamond_pre *pre, unsigned int k,
			     u32 slot)
{
	if (!pre->valid || !slot || slot > pre->ready) {
		diamond_pre_erase(pre);
		return;
	}
	memzero_explicit(pre->r0, sizeof(pre->r0));
	memzero_explicit(pre->slots, (size_t)(slot - 1) * pre->slot_size);
	memzero_explicit(pre_slot(pre, slot - 1) + k, pre->slot_size - k);
}

/*
 * The offline phase for the current epoch: E_{e+1}, R_{e,0} and then slot
 * after slot, each generated straight into the table. A setkey waiting for
 * the lock stops it early; the table is then left invalid and the next
 * request runs the chain online.
 */
int diamond_precompute(struct diamond_tfm_ctx *ctx)
{
	struct diamond_pre *pre = &ctx->pre;
	u32 j;
	int err;

	/* An open group cursor holds no E_e to precompute from. */
	if (!ctx->keyed || pre->valid || ctx->grp.open)
		return 0;

	memcpy(pre->e_next, ctx->ekey, ctx->k);
	err = epoch_update(ctx, pre->e_next, pre->r0);
	for (j = 0; !err && j < pre->cap; j++) {
		if (atomic_read(&ctx->setkey_pending)) {
			err = -EAGAIN;
			break;
		}
		err = stream(ctx, pre_key(pre, j), DMD_DOM_RECORD,
			     pre_slot(pre, j), pre->slot_size);
		pre->ready = j + 1;
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
			cond_resched();
	}
	if (likely(!err))
		pre->valid = true;
	else
		diamond_pre_erase(pre);
	diamond_children_wipe(ctx);
	return err;
}

/*
 * The precompute after an accepted epoch works ahead, for the tfm's next
 * epoch, and pays only if the tfm lives to see it. A gateway that rotates
 * more devices than it keeps tfms (libdiamond's LRU cap: one tfm per
 * device, the least recently used one closed) frees each tfm first: its
 * table, G for every slot of an epoch, was computed for nothing, and the
 * setkey of the device's next tfm computes it again. On arm64 suite 2
 * that doubled the G work of an epoch at 10,000 devices
 * (Documentation/userspace.rst section 6).
 *
 * So each tfm votes on its last accepted epoch: +1 when its next request
 * is accepted, -1 when it is re-keyed or freed first. While the sum over
 * all tfms (bounded, so it turns within DMD_AHEAD_VOTES epochs) is
 * negative the work ahead is not queued. The vote counts whether the work
 * ran or not, so precomputing starts again once tfms see their next
 * epochs. The precompute a setkey queues is for the epoch due, unless
 * the request came first: it is then work ahead too. The sum starts at
 * -1, no work ahead until a tfm has seen its next epoch: a gateway that
 * rotates devices would otherwise pay G twice for every epoch until its
 * first eviction (256 epochs for libdiamond), and one that keeps its
 * devices loses the work ahead of a single epoch.
 */
#define DMD_AHEAD_VOTES		16
#define DMD_AHEAD_START		(-1)
static atomic_t ahead_votes = ATOMIC_INIT(DMD_AHEAD_START);

static void ahead_vote(int v)
{
	int old = atomic_read(&ahead_votes), new;

	do {
		new = clamp(old + v, -DMD_AHEAD_VOTES, DMD_AHEAD_VOTES);
	} while (!atomic_try_cmpxchg(&ahead_votes, &old, new));
}

/* Precompute now: for the epoch a setkey made due, or ahead if it pays. */
static bool precompute_pays(struct diamond_tfm_ctx *ctx)
{
	return !atomic_read(&ctx->ahead) || atomic_read(&ahead_votes) >= 0;
}

/* After an accepted request: vote for the last one, queue the next. */
void diamond_precompute_ahead(struct diamond_tfm_ctx *ctx)
{
	if (atomic_xchg(&ctx->ahead, 1))
		ahead_vote(1);
	if (precompute_pays(ctx))
		diamond_schedule_precompute(ctx, 1);
}

/* The tfm is re-keyed or freed: its epoch ahead never comes. */
void diamond_precompute_drop(struct diamond_tfm_ctx *ctx)
{
	if (atomic_xchg(&ctx->ahead, 0))
		ahead_vote(-1);
}

/* After the module's selftest, whose tfms all die young: start again. */
void diamond_precompute_votes_reset(void)
{
	atomic_set(&ahead_votes, DMD_AHEAD_START);
}

static void precompute_locked(struct diamond_tfm_ctx *ctx)
{
	diamond_lock(ctx);
	ctx->req_flags = CRYPTO_TFM_REQ_MAY_SLEEP | CRYPTO_TFM_REQ_MAY_BACKLOG;
	/* On failure the table stays invalid and requests go online. */
	if (diamond_precompute(ctx))
		pr_debug("diamond: precompute stopped\n");
	diamond_unlock(ctx);
}

static void precompute_worker(struct work_struct *work)
{
	struct diamond_tfm_ctx *ctx = container_of(to_delayed_work(work),
						   struct diamond_tfm_ctx,
						   precompute_work);

	/* Work a setkey queued may run after its request: then it is ahead. */
	if (precompute_pays(ctx))
		precompute_locked(ctx);
}

void diamond_precompute_init(struct diamond_tfm_ctx *ctx)
{
	INIT_DELAYED_WORK(&ctx->precompute_work, precompute_worker);
	atomic_set(&ctx->setkey_pending, 0);
	atomic_set(&ctx->ahead, 0);
}

/*
 * Queue the offline phase of the current epoch. After a request it starts
 * one tick later (@delay 1), so that on a busy or single CPU the worker does
 * not preempt the caller on its way out of the request it just finished.
 */
void diamond_schedule_precompute(struct diamond_tfm_ctx *ctx,
				 unsigned long delay)
{
	if (READ_ONCE(diamond_precompute_kib))
		queue_delayed_work(system_unbound_wq, &ctx->precompute_work,
				   delay);
}

/*
 * For the selftest: let a queued precompute finish, and run it here if the
 * votes held it back, so that the table path runs.
 */
void diamond_wait_precompute(struct crypto_aead *tfm)
{
	struct diamond_tfm_ctx *ctx = crypto_aead_ctx(tfm);

	flush_delayed_work(&ctx->precompute_work);
	if (READ_ONCE(diamond_precompute_kib))
		precompute_locked(ctx);
}

/* The tfm goes: nothing may run for it after this. */
void diamond_precompute_cancel(struct diamond_tfm_ctx *ctx)
{
	cancel_delayed_work_sync(&ctx->precompute_work);
}

/*
 * Start the walk at slot 0 of the epoch @updates epoch updates after the
 * one ctx->ekey opens (E_{e_cur}, or E_{e+1} under an open group cursor),
 * without the table. Nothing in ctx changes.
 */
int diamond_cursor_derive(struct diamond_tfm_ctx *ctx,
			  struct diamond_cursor *cur, u64 updates)
{
	u64 i;
	int err = 0;

	memset(cur, 0, sizeof(*cur));
	cur->r = cur->r0;
	memcpy(cur->e_next, ctx->ekey, ctx->k);
	for (i = 0; i < updates; i++) {
		err = epoch_update(ctx, cur->e_next, cur->r0);
		if (unlikely(err))
			break;
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
			cond_resched();
	}
	if (unlikely(err))
		memzero_explicit(cur, sizeof(*cur));
	return err;
}

/*
 * Start the walk over the slots of @epoch (>= ctx->epoch, bounded by the
 * caller): from the table when it holds @epoch, else by running the epoch
 * chain forward from E_{e_cur} into the cursor. Nothing in ctx changes.
 */
int diamond_cursor_open(struct diamond_tfm_ctx *ctx,
			struct diamond_cursor *cur, u64 epoch)
{
	const struct diamond_pre *pre = &ctx->pre;
	u64 steps = epoch - ctx->epoch;

	if (!steps && pre->valid) {
		memset(cur, 0, sizeof(*cur));
		cur->pre = pre;
		cur->ready = pre->ready;
		cur->r = pre_key(pre, pre->ready);
		memcpy(cur->e_next, pre->e_next, ctx->k);
		return 0;
	}
	return diamond_cursor_derive(ctx, cur, steps + 1);
}

/*
 * The slot diamond_cursor_slot() does not find in the table (diamond.h):
 * past the table, or a record longer than the stored keystream, which
 * regenerates its slot from R_j.
 */
int diamond_cursor_slot_gen(struct diamond_tfm_ctx *ctx,
			    struct diamond_cursor *cur,
			    struct diamond_slot *slot, const u8 **ks,
			    unsigned int len)
{
	u32 j = cur->next++;
	int err;

	if (j < cur->ready)
		return slot_gen(ctx, pre_key(cur->pre, j), slot, ks, len);

	/*
	 * G reads its key before it writes, so slot after slot runs in place
	 * in ctx->sbuf, whose head is then R_{j+1}.
	 */
	err = slot_gen(ctx, cur->r, slot, ks, len);
	if (likely(!err))
		cur->r = ctx->sbuf;
	return err;
}

/* R_{e,j}, the key of the walk's next slot j (valid until the next call). */
const u8 *diamond_cursor_key(const struct diamond_cursor *cur)
{
	return cur->next < cur->ready ? pre_key(cur->pre, cur->next) : cur->r;
}

/*
 * The group trailer key H'_i || P'_i = G(@r, IV_group)[0:32] (spec section
 * 5.1) of the group whose first slot key is @r, into @hp (linear memory).
 */
int diamond_group_keys(struct diamond_tfm_ctx *ctx, const u8 *r, u8 *hp)
{
	return stream(ctx, r, DMD_DOM_GROUP, hp, 2 * DMD_TAG_SIZE);
}

/*
 * Start the walk at a cursor (a group's or the grid's, diamond_groups):
 * while it is open, slot @first (c*g, or 16u) of its epoch, from what is
 * left of the table or else from R_{e,first}; a later epoch from E_{e+1},
 * which an open cursor holds instead of E_e (the table is the open
 * epoch's); closed, from (e, E_e) and the table, at slot 0 of @epoch.
 * Nothing in ctx changes.
 */
int diamond_walk_open(struct diamond_tfm_ctx *ctx, struct diamond_cursor *cur,
		      u64 epoch, u32 first)
{
	int err;

	if (!ctx->grp.open)
		return diamond_cursor_open(ctx, cur, epoch);
	if (epoch > ctx->epoch)
		return diamond_cursor_derive(ctx, cur, epoch - ctx->epoch);
	if (ctx->pre.valid) {
		/* The table holds slots first .. ready - 1 (commit()). */
		err = diamond_cursor_open(ctx, cur, epoch);
		cur->next = first;
		return err;
	}
	memset(cur, 0, sizeof(*cur));
	cur->next = first;
	memcpy(cur->r0, ctx->grp.r, ctx->k);
	cur->r = cur->r0;
	memcpy(cur->e_next, ctx->ekey, ctx->k);
	return 0;
}

/* Walk the record chain up to slot @slot (skipped or lost records). */
int diamond_walk_to(struct diamond_tfm_ctx *ctx, struct diamond_cursor *cur,
		    u32 slot)
{
	struct diamond_slot s;
	int err;

	while (cur->next < slot) {
		err = diamond_cursor_slot(ctx, cur, &s, NULL, 0);
		if (err)
			return err;
		if (ctx->req_flags & CRYPTO_TFM_REQ_MAY_SLEEP)
			cond_resched();
	}
	return 0;
}

/*
 * Walk on into the next epoch, at its slot 0: (E_{e+2}, R_{e+1,0}) from
 * the E_{e+1} the walk holds. The slots of the epoch left are never used
 * (a packet epoch has no trailer), so they are not derived.
 */
int diamond_walk_next_epoch(struct diamond_tfm_ctx *ctx,
			    struct diamond_cursor *cur)
{
	int err = epoch_update(ctx, cur->e_next, cur->r0);

	cur->pre = NULL;
	cur->ready = 0;
	cur->next = 0;
	cur->r = cur->r0;
	return err;
}

/*
 * Z_u = G(R_{e,16u}, IV_grid)[0:256] (spec section 14.3) into @z, from
 * @r, the unit's first slot key.
 */
int diamond_grid_keys(struct diamond_tfm_ctx *ctx, const u8 *r, u8 *z)
{
	return stream(ctx, r, DMD_DOM_GRID, z, DMD_GRID_TAGS * 2 * DMD_TAG_SIZE);
}

/*
 * The grid's scratch (Z_u, then the eight S) in ctx->sbuf past anything
 * a slot of at most DMD_PKT_MAX_RECORD bytes uses, so the walk's key at
 * its head survives; erased with the rest of sbuf at the request's end.
 * Linear memory, as the ctr(aes) child's output must be.
 */
u8 *diamond_grid_scratch(struct diamond_tfm_ctx *ctx)
{
	BUILD_BUG_ON(DMD_GRID_SCRATCH_OFF + DMD_GRID_SCRATCH >
		     DMD_STREAM_BUF);
	BUILD_BUG_ON(DMD_SLOT_KS(DMD_KEY_MAX) + DMD_PKT_MAX_RECORD +
		     CHACHA_BLOCK_SIZE > DMD_GRID_SCRATCH_OFF);
	sbuf_use(ctx, DMD_GRID_SCRATCH_OFF + DMD_GRID_SCRATCH);
	return ctx->sbuf + DMD_GRID_SCRATCH_OFF;
}

/*
 * Erase what the last slots left behind: the suite 1 children keep the last
 * key they were given (a slot key), the lib AES key schedule, the suite 2
 * ChaCha20 state and key and its last Poly1305 key are ours, and ctx->sbuf holds the heads of the
 * slots opened online. After an accepted epoch all of these are keys of the
 * past.
 */
void diamond_children_wipe(struct diamond_tfm_ctx *ctx)
{
	/* Aligned, so no child's setkey needs an aligned copy. */
	static const u8 zero_key[DMD_KEY_MAX] __aligned(16);

	if (ctx->stream && crypto_skcipher_setkey(ctx->stream, zero_key, ctx->k))
		pr_debug("diamond: could not rekey the stream child\n");
	if (ctx->ghash &&
	    crypto_ahash_setkey(ctx->ghash, zero_key, DMD_TAG_SIZE))
		pr_debug("diamond: could not rekey the ghash child\n");
	if (ctx->suite == DMD_SUITE_CHACHA_POLY) {
		memzero_explicit(&ctx->chacha, sizeof(ctx->chacha));
		memzero_explicit(&ctx->poly, sizeof(ctx->poly));
	} else if (DMD_AES_CTR_IS_LIB) {
		memzero_explicit(&ctx->aes, sizeof(ctx->aes));
	}
	memzero_explicit(ctx->sbuf, ctx->sbuf_used);
	ctx->sbuf_used = 0;
	memzero_explicit(ctx->digest, DMD_TAG_SIZE);
}
