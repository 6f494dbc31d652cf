/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diamond forward-secure aggregate AEAD (Documentation/spec.rst): the types
 * and helpers shared by the files of diamond.ko.
 *
 * Locking: everything in struct diamond_tfm_ctx below @busy (the key state,
 * the precomputed slots, the child requests and the scratch buffers) is
 * touched only by the owner of the DMD_BUSY bit. One tfm is one device
 * stream, so its requests are serialized anyway; owning the bit across a
 * whole epoch is what makes "each epoch is accepted at most once" hold under
 * concurrency. It is a bit lock, not a mutex, because a request without
 * CRYPTO_TFM_REQ_MAY_SLEEP may come from softirq: there it is only tried
 * (test_and_set_bit_lock), and releasing it (clear_and_wake_up_bit) is safe
 * in any context, where mutex_unlock() is not. Sleepable callers wait for it
 * with wait_on_bit_lock(), and the owner may sleep.
 *
 * setkey owns the bit too, so the key and everything sized from it (b, the
 * AD limit grp.aad_max, max_body and, on a preallocating instance, the
 * bounce buffer) can change between
 * a request's entry and its taking the bit. A request checks every limit
 * that bounds what it copies or hashes after it owns the bit, against the
 * key it will run under (diamond_request.c); a check before that is an
 * early refusal, never the one that keeps a copy inside its buffer.
 */
#ifndef DIAMOND_KMOD_H
#define DIAMOND_KMOD_H

#include <crypto/aead.h>
#include <crypto/algapi.h>
#include <crypto/chacha.h>
#include <crypto/hash.h>
#include <crypto/poly1305.h>
#include <crypto/skcipher.h>
#include <linux/atomic.h>
#include <linux/scatterlist.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include <diamond/spec.h>

#include "diamond_compat.h"

/* Offset of the keystream in a slot: O = k + 32 (spec section 3). */
#define DMD_SLOT_OFFSET_MAX	DMD_SLOT_KS(DMD_KEY_MAX)
/* A slot's stream, generated in one child call: O + one maximal record. */
#define DMD_STREAM_BUF		(DMD_SLOT_OFFSET_MAX + DMD_MAX_RECORD)
/* GHASH input of one slot: pad16(C_j or AD) || LB. */
#define DMD_HASH_BUF		(DMD_MAX_RECORD + 16)

/*
 * Everything a user's tfm allocates is charged to the caller's memcg, and
 * at the memcg limit it fails with -ENOMEM instead of calling the memcg OOM
 * killer (__GFP_RETRY_MAYFAIL) or logging (__GFP_NOWARN): the caller gets
 * the errno, the log stays the user's to fill only through the caller.
 */
#define DMD_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)
/*
 * The same for a request that may not sleep (no CRYPTO_TFM_REQ_MAY_SLEEP):
 * kmalloc only, never vmalloc, and no reclaim; a body the slab cannot give
 * at once is -ENOMEM.
 */
#define DMD_GFP_ATOMIC	(GFP_ATOMIC | __GFP_ACCOUNT | __GFP_NOWARN)
/* The IV domains of G (spec section 1). */
#define DMD_DOM_RECORD		0
#define DMD_DOM_EPOCH		1
#define DMD_DOM_GROUP		2
#define DMD_DOM_GRID		3
/* The DMD_BUSY bit of diamond_tfm_ctx.busy: see Locking above. */
#define DMD_BUSY		0

/*
 * The grid's scratch in ctx->sbuf (diamond_grid_scratch()): Z_u, 256
 * bytes, then the eight S of the unit, past what a slot of a packet
 * record uses.
 */
#define DMD_GRID_Z_SIZE		(DMD_GRID_TAGS * 2 * DMD_TAG_SIZE)
#define DMD_GRID_SCRATCH_OFF	2048
#define DMD_GRID_SCRATCH	(DMD_GRID_Z_SIZE + DMD_GRID_TAGS * DMD_TAG_SIZE)

/* Hard ceiling on max_epoch_bytes: keeps every length sum inside 32 bits. */
#define DMD_EPOCH_LIMIT		(256u << 20)
/* The longest body of @b records: b * (le16 length + DMD_MAX_RECORD). */
#define DMD_BODY_MAX(b)		((size_t)(b) * (DMD_BODY_LEN_SIZE + DMD_MAX_RECORD))

/* Module parameters, each defined in the file that reads it. */
extern unsigned int diamond_max_skip;		/* diamond_parse.c */
extern unsigned int diamond_precompute_kib;	/* diamond_chain.c */
extern unsigned int diamond_precompute_bytes;	/* diamond_chain.c */
extern unsigned int diamond_max_epoch_bytes;	/* diamond_key.c */

/*
 * Precomputed material of the current epoch (the offline phase of spec
 * section 9): slots 0 .. @ready - 1, slot j holding the head of the slot's
 * stream Y_j[0:slot_size] = R_{j+1} || H_j || P_j || KS_j[0:ks_len], so the
 * generator writes it in place; plus E_{epoch+1} and R_{epoch,0}. R_j is
 * slot j - 1's head (or @r0). All of it belongs to the current, not yet
 * accepted epoch: future keys.
 */
struct diamond_pre {
	u8 *slots;		/* vmalloc'd: @cap slots */
	size_t size;		/* bytes at @slots */
	u32 cap;		/* slots in the table */
	u32 ready;		/* slots computed, 0 when !@valid */
	u32 ks_len;		/* keystream bytes stored per slot */
	u32 slot_size;
	bool valid;		/* the material is for ctx->epoch */
	/*
	 * Keys handed to the ctr(aes) child, also in requests: aligned for
	 * its alignmask (aes-generic's is 3), else its setkey would allocate
	 * an aligned copy.
	 */
	u8 e_next[DMD_KEY_MAX] __aligned(8);
	u8 r0[DMD_KEY_MAX];
};

/*
 * The group cursor of spec section 9.1 (diamond_group.c), for a tfm keyed
 * with a group size g < b. While @open, epoch ctx->epoch has released
 * groups 0 .. @c - 1: ctx->ekey then holds E_{e+1} (E_e is gone), @r holds
 * R_{e,c*g}, and the table keeps only its slots from c*g on (if any) and is
 * not recomputed. Closed, the tfm holds (e, E_e) as an ungrouped one does.
 */
struct diamond_groups {
	u32 g;			/* group size; 0: one group per epoch */
	u32 c;			/* open: the first undecided group */
	bool open;
	u32 aad_max;		/* largest assoclen: unit table and AD */
	u8 r[DMD_KEY_MAX];
};

/*
 * The packet radio's tag grid (spec section 14, diamond_grid.c). @on: the
 * tfm's authsize is 12 (setauthsize, under the lock); @packet: its key is
 * a packet key (spec 14.2). The cursor (e_c, u_c) is ctx->epoch and the
 * group cursor's c (open: E_{e_c+1} in ctx->ekey and R_{e_c,16u_c} in
 * grp.r; closed: u_c = 0 and E_{e_c}); the window holds, for the 16 units
 * from it in stream order, the records released and the tags verified.
 */
struct diamond_grid {
	bool on;
	bool packet;
	u16 rel[DMD_GRID_WINDOW];
	u8 ver[DMD_GRID_WINDOW];
};

/* A grid request, its control table and ciphertext checked. */
struct diamond_grid_req {
	u64 epoch;
	u32 unit;
	u16 held;
	u8 tags;
	u8 flags;
	u8 *table;			/* the control table, in and out */
	u8 *rec[DMD_GRID_UNIT];		/* C_r, held ones, in the buffer */
	u16 len[DMD_GRID_UNIT];
	const u8 *tag[DMD_GRID_TAGS];	/* S_{u,t}[0:12], present ones */
};

/*
 * Suite 2's Poly1305 core work area (diamond_tag.c, on DMD_POLY1305_CORE):
 * the last tag's clamped r, s and accumulator, and the padded last block
 * (public). It lives in the tfm, not on the stack, so a record's tag
 * neither zeroes nor erases it: every request ends in
 * diamond_children_wipe(), which erases it once.
 */
struct diamond_poly {
	struct poly1305_core_key key;
	struct poly1305_state h;
	u32 s[4];
	u8 last[POLY1305_BLOCK_SIZE];
};

/*
 * Suite 1 runs on its spawns (the ctr(aes) skcipher and the ghash ahash)
 * or, where the kernel has them, on the AES-CTR and GHASH libraries.
 * Suite 2 calls the kernel's ChaCha20 and Poly1305 library code directly:
 * chacha_crypt() (<crypto/chacha.h>, the arch SIMD code where there is
 * one) and the Poly1305 core, or poly1305_init/update/final() where the
 * kernel does not build the core: no request, scatterlist or allocation
 * per record (diamond_compat.h).
 */
struct diamond_tfm_ctx {
	struct crypto_skcipher *stream;	/* suite 1: ctr(aes), NULL on lib AES */
	struct crypto_ahash *ghash;	/* suite 1, NULL when lib GHASH */
	u8 suite;
	u8 k;				/* state size: 16 or 32 */
	bool async_children;		/* a child may return -EINPROGRESS */
	/*
	 * The instance was looked up without CRYPTO_ALG_ALLOCATES_MEMORY
	 * (diamond_main.c): setkey sizes the bounce buffer for the key's
	 * largest request and requests allocate nothing. Else each request
	 * allocates its own buffer and frees it on the way out.
	 */
	bool prealloc;
	struct delayed_work precompute_work;
	atomic_t setkey_pending;	/* setkeys waiting: stop precomputing */
	atomic_t ahead;			/* an accepted epoch awaits its next */

	unsigned long busy;		/* DMD_BUSY: one epoch at a time */
	/* Below: only by the owner of DMD_BUSY. */
	u32 req_flags;			/* MAY_SLEEP and MAY_BACKLOG or 0 */
	struct crypto_wait wait;
	struct skcipher_request *sreq;
	struct ahash_request *hreq;
	struct chacha_state chacha;	/* suite 2: the last slot's state */
	struct diamond_poly poly;	/* suite 2: the last tag's key */
	struct dmd_aes_lib aes;		/* suite 1 on lib AES: the last key */
	const u8 *zero;			/* the zero page, lib G's input */
	u8 *sbuf;			/* DMD_STREAM_BUF, kmalloc'd */
	unsigned int sbuf_used;		/* bytes of sbuf to erase */
	u8 *hbuf;			/* DMD_HASH_BUF + IV + tag, kmalloc'd */
	u8 *iv;				/* 16 bytes inside hbuf */
	u8 *digest;			/* 16 bytes inside hbuf */
	u8 *gkey;			/* 32 bytes inside hbuf: H'_i || P'_i */
	/*
	 * The suite 1 children's scatterlists, built once by
	 * diamond_stream_sg_init(): G's zero input (two zero pages, longer
	 * than any request), ctx->sbuf whole and ctx->hbuf's GHASH input
	 * whole; a request's length is its cryptlen or nbytes.
	 */
	struct scatterlist zsg[2];
	struct scatterlist ssg;
	struct scatterlist hsg;
	u8 *ebuf;			/* @prealloc: the bounce buffer */
	size_t ebuf_size;		/* aad_max + @max_body + tag */
	unsigned int max_body;		/* largest body, fixed by setkey */

	bool keyed;
	/*
	 * The key only opens (blob flag, spec section 2): encrypt is -EPERM.
	 * Set by setkey under the lock; diamond_crypt's lock-free early
	 * refusal reads it, hence READ_ONCE/WRITE_ONCE.
	 */
	bool open_only;
	u8 agg;
	u32 b;
	u32 device_id;
	u16 gen;			/* version 2: generation, else 0 */
	u16 gsize;			/* version 2: group size field, else 0 */
	u64 epoch;			/* e_cur */
	u8 ekey[DMD_KEY_MAX];		/* E_{e_cur} */
	/*
	 * A copy of the wrap key found at setkey (diamond_wrapkey.c), for
	 * exports; erased with the key state.
	 */
	bool has_wkey;
	u8 wkey[DMD_WRAP_KEY_SIZE];
	/*
	 * The key came from custody (diamond_custody.c): wrapped, by
	 * reference to a "diamond:<id>", or in clear from the administrator. Only
	 * then may the tfm export; set by setkey under the lock.
	 */
	bool custody;
	struct diamond_pre pre;
	struct diamond_groups grp;
	struct diamond_grid grid;
};

/*
 * Where the slots of the epoch being processed come from: the precomputed
 * table for slots below @ready, then the record chain from @r.
 */
struct diamond_cursor {
	u32 next;			/* index of the next slot */
	u32 ready;
	const struct diamond_pre *pre;	/* NULL when nothing precomputed */
	const u8 *r;			/* R_{e,next} once next >= ready */
	u8 r0[DMD_KEY_MAX];		/* where @r starts without a table */
	u8 e_next[DMD_KEY_MAX];		/* E_{e+1} */
};

/* A slot's tag key: H || P (suite 2: the Poly1305 key r || s). */
struct diamond_slot {
	const u8 *hp;
};

struct diamond_agg {
	u8 acc[DMD_TAG_SIZE];
	u8 mode;
};

/* What one ungrouped request works on, in place in the bounce buffer. */
struct diamond_epoch {
	u64 epoch;
	bool enc;
	u8 *ad;			/* assoclen bytes */
	unsigned int adlen;
	u8 *body;		/* input body, turned into the output in place */
	unsigned int body_len;	/* followed by the tag (in or out) */
	u32 n;			/* records */
};

/* One unit of a grouped request, decoded from its table entry. */
struct diamond_unit {
	u32 field;		/* index field of its trailer: GB_i or TB */
	u32 group;		/* its group index */
	u32 first;		/* its first record slot */
	u32 count;		/* its records */
	unsigned int off;	/* its body in the ciphertext */
	unsigned int len;	/* its body's bytes, tag not counted */
	bool final;
};

/* A grouped request, with its unit table checked. */
struct diamond_units {
	u64 epoch;
	u8 *table;		/* the entries, in the bounce buffer */
	u32 u;
	const u8 *ad;
	unsigned int adlen;
	/*
	 * The units and their tags, in the bounce buffer: each unit is
	 * decrypted in place as it is hashed, and erased unless its tag
	 * matches, so it becomes the output (plaintext, zeros elsewhere).
	 */
	u8 *body;
	unsigned int len;	/* ciphertext bytes less the last tag */
};

static inline bool diamond_trylock(struct diamond_tfm_ctx *ctx)
{
	return !test_and_set_bit_lock(DMD_BUSY, &ctx->busy);
}

static inline void diamond_lock(struct diamond_tfm_ctx *ctx)
{
	wait_on_bit_lock(&ctx->busy, DMD_BUSY, TASK_UNINTERRUPTIBLE);
}

static inline void diamond_unlock(struct diamond_tfm_ctx *ctx)
{
	clear_and_wake_up_bit(DMD_BUSY, &ctx->busy);
}

/* Close the group cursor and erase R_{e,c*g}. Lock held. */
static inline void diamond_group_close(struct diamond_tfm_ctx *ctx)
{
	memzero_explicit(ctx->grp.r, sizeof(ctx->grp.r));
	ctx->grp.open = false;
	ctx->grp.c = 0;
}

/*
 * The key's largest assoclen, read without the lock for an early refusal
 * only: a setkey may change it until the lock is taken (diamond_request.c).
 */
static inline unsigned int diamond_assoc_max(const struct diamond_tfm_ctx *ctx)
{
	return READ_ONCE(ctx->grp.aad_max) ?: DMD_MAX_AD;
}

/*
 * An inner -ENOSPC or -EBUSY is a full child queue (a request without
 * MAY_BACKLOG): busy, try again, never Diamond's own -ENOSPC.
 */
static inline int diamond_child_err(int err)
{
	return err == -ENOSPC || err == -EBUSY ? -EAGAIN : err;
}

/*
 * A child's request result @err, waited for if it went asynchronous
 * (crypto_wait_req() on ctx->wait), as diamond_child_err() maps it: a
 * synchronous success, the case of every record, costs one test.
 */
static __always_inline int diamond_child_wait(struct diamond_tfm_ctx *ctx,
					      int err)
{
	if (likely(!err))
		return 0;
	return diamond_child_err(crypto_wait_req(err, &ctx->wait));
}

/*
 * The files' interfaces, from the bottom up: each file calls only the ones
 * listed before its own (diamond_main.c has the order).
 */

/* diamond_tag.c: UH tags and their aggregation. */
int __must_check diamond_uh_tag(struct diamond_tfm_ctx *ctx,
				const struct diamond_slot *slot,
				const u8 *data, unsigned int len, u64 epoch,
				u32 index_field, u8 tag[DMD_TAG_SIZE]);
int __must_check diamond_ghash_tag(struct diamond_tfm_ctx *ctx, const u8 *hp,
				   const u8 *data, unsigned int len, u64 epoch,
				   u32 index_field, u8 tag[DMD_TAG_SIZE]);
void diamond_agg_init(struct diamond_agg *a, u8 mode);
void diamond_agg_fold(struct diamond_agg *a, const u8 tag[DMD_TAG_SIZE]);

/* Aggregate one tag; XOR, the default, inline as it runs per record. */
static inline void diamond_agg_add(struct diamond_agg *a,
				   const u8 tag[DMD_TAG_SIZE])
{
	if (likely(a->mode == DMD_AGG_XOR))
		crypto_xor(a->acc, tag, DMD_TAG_SIZE);
	else
		diamond_agg_fold(a, tag);
}

void diamond_agg_final(struct diamond_agg *a, const u8 tau[DMD_TAG_SIZE],
		       u8 out[DMD_TAG_SIZE]);

/* diamond_chain.c: the key chains, the precomputed slots and their work. */
int __must_check diamond_pre_alloc(struct diamond_tfm_ctx *ctx);
void diamond_pre_erase(struct diamond_pre *pre);
void diamond_pre_erase_below(struct diamond_pre *pre, unsigned int k,
			     u32 slot);
void diamond_pre_free(struct diamond_pre *pre);
int __must_check diamond_precompute(struct diamond_tfm_ctx *ctx);
void diamond_precompute_init(struct diamond_tfm_ctx *ctx);
void diamond_schedule_precompute(struct diamond_tfm_ctx *ctx,
				 unsigned long delay);
void diamond_wait_precompute(struct crypto_aead *tfm);
void diamond_precompute_ahead(struct diamond_tfm_ctx *ctx);
void diamond_precompute_drop(struct diamond_tfm_ctx *ctx);
void diamond_precompute_votes_reset(void);
void diamond_precompute_cancel(struct diamond_tfm_ctx *ctx);
int __must_check diamond_cursor_open(struct diamond_tfm_ctx *ctx,
				     struct diamond_cursor *cur, u64 epoch);
int __must_check diamond_cursor_derive(struct diamond_tfm_ctx *ctx,
				       struct diamond_cursor *cur,
				       u64 updates);
int __must_check diamond_cursor_slot_gen(struct diamond_tfm_ctx *ctx,
					 struct diamond_cursor *cur,
					 struct diamond_slot *slot,
					 const u8 **ks, unsigned int len);

/*
 * Next slot of the walk: @slot at its H || P and @ks (if set) at its first
 * @len keystream bytes, both in the table or in ctx->sbuf and valid until
 * the next call; nothing is copied or allocated. The table's slots are
 * taken inline, as every record of a precomputed epoch takes one.
 */
static inline int __must_check
diamond_cursor_slot(struct diamond_tfm_ctx *ctx, struct diamond_cursor *cur,
		    struct diamond_slot *slot, const u8 **ks, unsigned int len)
{
	const struct diamond_pre *pre = cur->pre;
	u32 j = cur->next;
	const u8 *s;

	if (unlikely(j >= cur->ready || len > pre->ks_len))
		return diamond_cursor_slot_gen(ctx, cur, slot, ks, len);
	cur->next = j + 1;
	s = pre->slots + (size_t)j * pre->slot_size;
	slot->hp = s + DMD_SLOT_HKEY(ctx->k);
	if (ks)
		*ks = s + DMD_SLOT_KS(ctx->k);
	return 0;
}

/*
 * @dst ^= @src over one record: inline for the 16-byte records of
 * telemetry, where the call of __crypto_xor() costs more than the XOR.
 */
static inline void diamond_xor_record(u8 *dst, const u8 *src,
				      unsigned int len)
{
	if (len == 16)
		crypto_xor(dst, src, 16);
	else
		crypto_xor(dst, src, len);
}

void diamond_children_wipe(struct diamond_tfm_ctx *ctx);
void diamond_stream_sg_init(struct diamond_tfm_ctx *ctx);
const u8 *diamond_cursor_key(const struct diamond_cursor *cur);
int __must_check diamond_group_keys(struct diamond_tfm_ctx *ctx, const u8 *r,
				    u8 *hp);
int __must_check diamond_walk_open(struct diamond_tfm_ctx *ctx,
				   struct diamond_cursor *cur, u64 epoch,
				   u32 first);
int __must_check diamond_walk_to(struct diamond_tfm_ctx *ctx,
				 struct diamond_cursor *cur, u32 slot);
int __must_check diamond_walk_next_epoch(struct diamond_tfm_ctx *ctx,
					 struct diamond_cursor *cur);
int __must_check diamond_grid_keys(struct diamond_tfm_ctx *ctx, const u8 *r,
				   u8 *z);
u8 *diamond_grid_scratch(struct diamond_tfm_ctx *ctx);

/* diamond_parse.c: request parsing, no keys (spec sections 5.1, 7, 9.2). */
int __must_check diamond_body_parse(const u8 *body, unsigned int len, u32 b,
				    u32 *count);
int __must_check diamond_check_epoch(const struct diamond_tfm_ctx *ctx,
				     u64 epoch);
u32 diamond_units_ad_max(u32 b, u32 g);
int __must_check diamond_table_parse(const struct diamond_tfm_ctx *ctx,
				     u8 *aad, unsigned int aadlen,
				     struct diamond_units *us);
void diamond_unit_get(const struct diamond_tfm_ctx *ctx,
		      const struct diamond_units *us, u32 i, unsigned int off,
		      struct diamond_unit *u);
void diamond_unit_verdict(const struct diamond_units *us, u32 i, int verdict);

int __must_check diamond_grid_parse(const struct diamond_tfm_ctx *ctx, u8 *aad,
				    unsigned int aadlen, u8 *ct,
				    unsigned int ctlen,
				    struct diamond_grid_req *g);

/* diamond_grid.c: the packet radio's tag grid (spec section 14). */
bool diamond_grid_busy(const struct diamond_tfm_ctx *ctx);
void diamond_grid_erase(struct diamond_tfm_ctx *ctx);
int __must_check diamond_grid_key(struct diamond_tfm_ctx *ctx, u32 g);
int __must_check diamond_grid_restore(struct diamond_tfm_ctx *ctx,
				      const u8 *cur);
int diamond_grid_run(struct diamond_tfm_ctx *ctx, u64 epoch, u8 *aad,
		     unsigned int aadlen, u8 *ct, unsigned int ctlen);
int diamond_grid_setauthsize(struct crypto_aead *tfm, unsigned int authsize);

/* diamond_group.c: groups of g < b records (spec sections 5.1 and 9.1). */
int diamond_group_run(struct diamond_tfm_ctx *ctx, u64 epoch, u8 *aad,
		      unsigned int aadlen, u8 *body, unsigned int len);

/* diamond_epoch.c: an ungrouped epoch, sealed or opened. */
int diamond_epoch_run(struct diamond_tfm_ctx *ctx, struct diamond_epoch *ep);

/* diamond_request.c: the AEAD entry points. */
int diamond_encrypt(struct aead_request *req);
int diamond_decrypt(struct aead_request *req);

/* diamond_keytype.c: the key type "diamond", custody's keyring keys. */
int __must_check diamond_keytype_copy(const char *desc, u8 *out,
				      unsigned int size);
int __must_check diamond_keytype_register(void);
void diamond_keytype_unregister(void);

/* diamond_custody.c: which keys the module trusts; keys by reference. */
bool diamond_custody_clear(void);
bool diamond_custody_is_ref(const u8 *in, unsigned int len);
int __must_check diamond_custody_ref(const u8 *ref, unsigned int len, u8 suite,
				     u8 *out);

/* diamond_wrapkey.c: the wrap key, from the caller's keyrings. */
int __must_check diamond_wrap_key_find(u8 out[DMD_WRAP_KEY_SIZE]);

/* diamond_wrap.c: the wrapped state DMDW, bytes only. */
int __must_check diamond_wrap_seal(const u8 wkey[DMD_WRAP_KEY_SIZE],
				   const u8 *inner, unsigned int len, u8 *out);
int __must_check diamond_wrap_open(const u8 *wkey, const u8 *in,
				   unsigned int len, u8 *inner);

/* diamond_key.c: the key lifecycle. */
int diamond_setkey(struct crypto_aead *tfm, const u8 *key, unsigned int keylen);
int diamond_key_set(struct crypto_aead *tfm, const u8 *key,
		    unsigned int keylen, const u8 *wkey, bool custody);
int diamond_export_state(struct crypto_aead *tfm, u8 *blob, unsigned int len);
int diamond_export_wrapped(struct crypto_aead *tfm, u8 *out,
			   unsigned int *len);
void diamond_key_init(struct diamond_tfm_ctx *ctx);
void diamond_key_exit(struct diamond_tfm_ctx *ctx);

/* diamond_selftest.c */
int __must_check diamond_selftest(void);

/* diamond_afalg.c: the AF_ALG socket type "diamond". */
int __must_check diamond_afalg_register(void);
void diamond_afalg_unregister(void);

#endif /* DIAMOND_KMOD_H */
