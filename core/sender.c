// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sender (spec section 10). Offline: dmd_sender_precompute() expands
 * future record slots into the caller's window. Online: dmd_sender_seal() is
 * an XOR with the slot's keystream plus one universal hash. A slot is wiped
 * the moment its record is sealed, so the context never holds a key or pad
 * of a record already sent.
 */
#include <diamond/core.h>

#include <diamond/chain.h>
#include <diamond/tag.h>
#include <diamond/util.h>

/*
 * Bytes a slot keeps between R and H || P for its Poly1305 key
 * (DMD_POLY1305_PREP, poly1305.h): none but on a port that has them.
 */
static size_t slot_prep(unsigned int suite)
{
	return suite == DMD_SUITE_CHACHA_POLY ? DMD_POLY1305_PREP : 0;
}

size_t dmd_slot_size(unsigned int suite, size_t pre_len)
{
	return dmd_key_size(suite) + slot_prep(suite) + 32 + pre_len;
}

int dmd_sender_init(struct dmd_sender *s, const struct dmd_state *st,
		    uint8_t *window, size_t window_size, size_t pre_len)
{
	return dmd_sender_init_groups(s, st, window, window_size, pre_len,
				      st ? st->b : 0);
}

int dmd_sender_init_groups(struct dmd_sender *s, const struct dmd_state *st,
			   uint8_t *window, size_t window_size, size_t pre_len,
			   uint32_t g)
{
	size_t slot;

	if (!s || dmd_state_check(st) != DMD_OK)
		return s ? DMD_EKEY : DMD_EINVAL;
	/* A key that only opens (a gateway's) never seals: spec section 2. */
	if (st->flags & DMD_BLOB_FLAG_OPEN_ONLY)
		return DMD_EKEY;
	if (g < 1 || g > st->b)
		return DMD_EINVAL;
	if (pre_len > DMD_MAX_RECORD)
		return DMD_ESIZE;
	slot = dmd_slot_size(st->suite, pre_len);
	if (window && window_size < slot)
		return DMD_ESPACE;
	dmd_wipe(s, sizeof(*s));
	s->st = *st;
	s->win = window;
	s->win_slots = window ? window_size / slot : 0;
	s->pre_len = pre_len;
	s->slot_size = slot;
	s->g = g;
	s->grouped = g < st->b;
	return DMD_OK;
}

int dmd_sender_begin(struct dmd_sender *s, struct dmd_state *reserve)
{
	if (!s || s->open)
		return DMD_EINVAL;
	/* The reservation for e + 1 must itself be a valid blob. */
	if (s->st.epoch > DMD_EPOCH_LAST)
		return DMD_EFULL;
	s->epoch = s->st.epoch;
	dmd_epoch_update(s->st.suite, s->st.key, s->st.key, s->frontier);
	s->st.epoch++;
	s->frontier_index = 0;
	s->index = 0;
	s->win_head = 0;
	s->win_count = 0;
	s->group_left = s->g;
	s->group = 0;
	s->group_due = 0;
	dmd_agg_init(&s->agg, s->st.agg);
	s->open = 1;
	if (reserve)
		*reserve = s->st;
	dmd_wipe_stack();
	return DMD_OK;
}

/*
 * Window slot at ring position @pos < 2 win_slots (head + count). A compare
 * and subtract, not `%`: AVR has no divider, and this runs twice a seal.
 * The branch depends on public bookkeeping only.
 */
static uint8_t *window_slot(const struct dmd_sender *s, size_t pos)
{
	if (pos >= s->win_slots)
		pos -= s->win_slots;
	return s->win + pos * s->slot_size;
}

static void window_advance(struct dmd_sender *s)
{
	if (++s->win_head == s->win_slots)
		s->win_head = 0;
	s->win_count--;
}

/*
 * b[0:n) to a[0:n) and a_src[0:n) to b[0:n) at once: an exchange when
 * a_src == a, else a move down (a_src >= a, the ranges may overlap: each
 * a_src byte is read before a store reaches it). Out of line, like
 * xor_bytes(): inlined, GCC kept a pointer on the frame (18 AVR cycles a
 * byte against 12).
 */
static __attribute__((noinline)) void swap_bytes(uint8_t *a,
						 const uint8_t *a_src,
						 uint8_t *b, size_t n)
{
	uint8_t t;

	while (n--) {
		t = *b;
		*b++ = *a_src++;
		*a++ = t;
	}
}

size_t dmd_sender_precompute(struct dmd_sender *s, size_t max_slots)
{
	size_t k, prep, added = 0;
	uint8_t *slot;

	if (!s || !s->open)
		return 0;
	k = dmd_key_size(s->st.suite);
	prep = slot_prep(s->st.suite);
	/*
	 * Slots 0 .. b: slot n closes an epoch of n records. The stream of R
	 * (the frontier) is R' || H || P || keystream (spec section 3):
	 * written straight into the slot, then R' and R trade places, so
	 * the slot holds R || H || P || keystream and the frontier R'. With
	 * prep bytes (poly1305.h), the stream goes @prep bytes in, R goes to
	 * the start as R' leaves, and the prep bytes between R and H || P
	 * are computed: R || prep || H || P || keystream.
	 */
	while (added < max_slots && s->win_count < s->win_slots &&
	       s->frontier_index <= s->st.b) {
		slot = window_slot(s, s->win_head + s->win_count);
		dmd_stream_prefix(s->st.suite, s->frontier, DMD_DOMAIN_RECORD,
				  slot + prep, s->slot_size - prep);
		swap_bytes(slot, slot + prep, s->frontier, k);
#if DMD_POLY1305_PREP
		if (prep)
			dmd_poly1305_prep(slot + k);
#endif
		s->frontier_index++;
		s->win_count++;
		added++;
	}
	dmd_wipe_stack();
	return added;
}

/*
 * out = in ^ ks, n bytes; apart so the loop gets free pointer registers.
 * The AVR takes eight bytes a step in assembly: 7 cycles a byte and 4 a
 * step, against the 11 a byte of GCC's loop (Documentation/performance.md).
 * The step count is the public length.
 */
static __attribute__((noinline)) void xor_bytes(uint8_t *out,
						const uint8_t *in,
						const uint8_t *ks, size_t n)
{
#if defined(__AVR__)
	size_t k = n >> 3;
	uint8_t t;

	n &= 7;
	if (k)
		__asm__ volatile(
			"1:\n\t"
			".rept 8\n\t"
			"ld __tmp_reg__, %a[in]+\n\t"
			"ld %[t], %a[ks]+\n\t"
			"eor %[t], __tmp_reg__\n\t"
			"st %a[out]+, %[t]\n\t"
			".endr\n\t"
			"sbiw %[k], 1\n\t"
			"brne 1b"
			: [out] "+e"(out), [in] "+e"(in), [ks] "+e"(ks),
			  [k] "+w"(k), [t] "=&r"(t)
			:
			: "memory");
#endif
	while (n--)
		*out++ = *in++ ^ *ks++;
}

/*
 * XOR keystream bytes [skip : skip + len) of slot key @r into @out. Out of
 * line, like fresh_slot_use(): its stream state stays in its own frame,
 * below the seal's, where the full stack wipe reaches.
 */
static __attribute__((noinline)) void tail_xor(unsigned int suite,
					       const uint8_t *r, size_t skip,
					       uint8_t *out, const uint8_t *in,
					       size_t len)
{
	struct dmd_stream st;
	uint8_t discard[16];
	size_t n;

	dmd_stream_init(&st, suite, r, DMD_DOMAIN_RECORD);
	while (skip) {
		n = skip < sizeof(discard) ? skip : sizeof(discard);
		dmd_stream_read(&st, discard, n);
		skip -= n;
	}
	dmd_stream_xor(&st, out, in, len);
	dmd_stream_wipe(&st);
	dmd_wipe(discard, sizeof(discard));
}

/*
 * The slot's tag into @tag; or, with @fold (a record), folded into the
 * aggregate: straight in where the suite and mode allow (tag.h), else
 * through @tag, which is wiped after.
 */
static inline __attribute__((always_inline)) void
slot_tag(const struct dmd_sender *s, const uint8_t hp[32], const uint8_t *data,
	 size_t len, uint32_t index_field, uint8_t tag[16],
	 struct dmd_agg *fold)
{
	if (fold && dmd_record_tag_fold(s->st.suite, hp, data, len, fold))
		return;
	dmd_uh_tag(s->st.suite, hp, data, len, s->epoch, index_field, tag);
	if (fold) {
		dmd_agg_add(fold, tag);
		dmd_wipe(tag, DMD_TAG_SIZE);
	}
}

/*
 * Slot from the window: XOR its precomputed keystream (and any tail beyond
 * it) over @in, tag straight from the slot's H || P, then wipe the slot.
 * Inlined into the seal with use_slot(): what it keeps in the seal's frame
 * (which no stack wipe covers) is pointers and lengths; keys, keystream and
 * tags go through the callees' frames below.
 */
static inline __attribute__((always_inline)) void
window_slot_use(struct dmd_sender *s, uint8_t *out, const uint8_t *in,
		size_t len, const uint8_t *tag_data, size_t tag_len,
		uint32_t index_field, uint8_t tag[16], struct dmd_agg *fold)
{
	uint8_t *slot = window_slot(s, s->win_head);
	/*
	 * Slot layout: R (key size) || prep bytes || H || P (32) ||
	 * keystream (pre_len); the stream offset of keystream byte i is
	 * key size + 32 + i.
	 */
	uint8_t *hp = slot + (s->slot_size - s->pre_len - 32);
	size_t pre = len < s->pre_len ? len : s->pre_len;

	xor_bytes(out, in, hp + 32, pre);
	if (len > pre)
		tail_xor(s->st.suite, slot,
			 (size_t)(hp + 32 + pre - slot) - slot_prep(s->st.suite),
			 out + pre, in + pre, len - pre);
	slot_tag(s, hp, tag_data, tag_len, index_field, tag, fold);
	dmd_wipe(slot, s->slot_size);
	window_advance(s);
}

/*
 * Slot expanded now, from the frontier (no window, or the window is dry).
 * Out of line so its stream state and H || P never sit in the seal's frame.
 */
static __attribute__((noinline)) void
fresh_slot_use(struct dmd_sender *s, uint8_t *out, const uint8_t *in,
	       size_t len, const uint8_t *tag_data, size_t tag_len,
	       uint32_t index_field, uint8_t tag[16], struct dmd_agg *fold)
{
	struct dmd_stream st;
	uint8_t hp[32];

	dmd_slot_open(&st, s->st.suite, s->frontier, s->frontier, hp);
	dmd_stream_xor(&st, out, in, len);
	dmd_stream_wipe(&st);
	s->frontier_index++;
	slot_tag(s, hp, tag_data, tag_len, index_field, tag, fold);
	dmd_wipe(hp, sizeof(hp));
}

/*
 * Use the next slot: XOR its keystream over @in (len bytes, may be 0) into
 * @out and compute its tag over @tag_data with @index_field, into @tag or
 * (a record) folded into @fold (slot_tag()). The slot's keys
 * are wiped before returning. Returns how many bytes of stack the caller
 * must wipe: a window slot runs no key schedule and no stream, so its path
 * is shallow (DMD_STACK_WIPE_WINDOW*, util.h); a fresh slot or a tail
 * beyond the precomputed bytes takes the full wipe. Inlined into seal and
 * close: one prologue and no argument shuffling on the online path.
 */
static inline __attribute__((always_inline)) size_t
use_slot(struct dmd_sender *s, uint8_t *out, const uint8_t *in, size_t len,
	 const uint8_t *tag_data, size_t tag_len, uint32_t index_field,
	 uint8_t tag[16], struct dmd_agg *fold)
{
	if (!s->win_count) {
		fresh_slot_use(s, out, in, len, tag_data, tag_len,
			       index_field, tag, fold);
		return DMD_STACK_WIPE;
	}
	window_slot_use(s, out, in, len, tag_data, tag_len, index_field, tag,
			fold);
	if (len > s->pre_len)
		return DMD_STACK_WIPE;
	if (s->st.agg == DMD_AGG_HASH)
		return DMD_STACK_WIPE_WINDOW_HASH;
	return s->st.suite == DMD_SUITE_AES_GHASH ?
		       DMD_STACK_WIPE_WINDOW_GHASH : DMD_STACK_WIPE_WINDOW;
}

/*
 * Before a seal, with g < b: the first record of a group that may end
 * before the epoch does takes the group trailer keys from its slot key R_j
 * (spec section 5.1) before the slot is used and R_j erased. A PRF call,
 * so this frame wipes the stack below it itself; the seal's own path stays
 * as it is without groups.
 */
static __attribute__((noinline)) void group_before(struct dmd_sender *s)
{
	if (s->group_left != s->g || s->st.b - s->index <= s->g)
		return;
	dmd_group_keys(s->st.suite, dmd_sender_slot_key(s), s->gkey);
	dmd_wipe_stack();
}

/* A window slot starts with the key that expanded it (precompute). */
const uint8_t *dmd_sender_slot_key(const struct dmd_sender *s)
{
	return s->win_count ? window_slot(s, s->win_head) : s->frontier;
}

/*
 * The common online case, with the seal's checks done: no groups, a window
 * slot that covers the record, and a record tag folded straight into an
 * XOR aggregate (tag.h). What use_slot() does for it, keeping only @s, the
 * slot's H || P, @c and @len across its calls; the general path is
 * seal_general(), out of line, so that its register pressure does not cost
 * this one saved registers (Documentation/performance.md, "Measured
 * choices"). Inlined into the seal, so the stack wipe counts from the
 * seal's frame, as util.h describes.
 */
static inline __attribute__((always_inline)) void
seal_window_fold(struct dmd_sender *s, const uint8_t *m, size_t len,
		 uint8_t *c)
{
	const size_t k = s->slot_size - s->pre_len - 32;
	uint8_t *hp = window_slot(s, s->win_head) + k;

	xor_bytes(c, m, hp + 32, len);
#if DMD_POLY1305_PREP
	dmd_poly1305_xor_pre(hp - DMD_POLY1305_PREP, c, len, s->agg.acc);
#else
	dmd_poly1305_xor(hp, c, len, s->agg.acc);
#endif
	dmd_wipe(hp - k, s->slot_size);
	if (DMD_STACK_WIPE_WINDOW)
		dmd_wipe_stack_n(DMD_STACK_WIPE_WINDOW);
	window_advance(s);
}

/* Any other seal (checks done): groups, a fresh slot, a tail, a tag. */
static __attribute__((noinline)) void seal_general(struct dmd_sender *s,
						    const uint8_t *m,
						    size_t len, uint8_t *c)
{
	uint8_t sigma[DMD_TAG_SIZE];
	size_t wipe;

	if (s->grouped)
		group_before(s);
	wipe = use_slot(s, c, m, len, c, len, s->index, sigma, &s->agg);
	/* A full group that leaves room in the epoch is non-final. */
	if (s->grouped && !--s->group_left && s->index + 1 < s->st.b)
		s->group_due = 1;
	if (wipe)
		dmd_wipe_stack_n(wipe);
}

int dmd_sender_seal(struct dmd_sender *s, const uint8_t *m, size_t len,
		    uint8_t *c, uint32_t *index)
{
	if (!s || !s->open || s->group_due || ((!m || !c) && len))
		return DMD_EINVAL;
	if (len > DMD_MAX_RECORD)
		return DMD_ESIZE;
	if (s->index >= s->st.b)
		return DMD_EFULL;
	/* Before the seal: @index is not kept across its calls. */
	if (index)
		*index = s->index;
	if (!s->grouped && s->win_count && len <= s->pre_len &&
	    s->st.suite == DMD_SUITE_CHACHA_POLY && s->agg.mode == DMD_AGG_XOR)
		seal_window_fold(s, m, len, c);
	else
		seal_general(s, m, len, c);
	s->index++;
	return DMD_OK;
}

int dmd_sender_group_due(const struct dmd_sender *s)
{
	return s && s->open && s->group_due;
}

int dmd_sender_close_group(struct dmd_sender *s, const uint8_t *ad,
			   size_t adlen, uint8_t tag[DMD_TAG_SIZE],
			   uint32_t *group)
{
	uint8_t tau[DMD_TAG_SIZE];

	if (!dmd_sender_group_due(s) || !tag || (!ad && adlen))
		return DMD_EINVAL;
	if (adlen > DMD_MAX_AD)
		return DMD_ESIZE;
	dmd_uh_tag(s->st.suite, s->gkey, ad, adlen, s->epoch,
		   DMD_GROUP_FLAG | s->index, tau);
	dmd_agg_final(&s->agg, tau, tag);
	dmd_agg_init(&s->agg, s->st.agg);
	dmd_wipe(tau, sizeof(tau));
	dmd_wipe(s->gkey, sizeof(s->gkey));
	if (group)
		*group = s->group;
	s->group++;
	s->group_left = s->g;
	s->group_due = 0;
	dmd_wipe_stack();
	return DMD_OK;
}

/*
 * Slots past the last one used, and the trailer keys of a group the epoch
 * cut short, are never used: erase them, and the epoch is over.
 */
static void end_epoch(struct dmd_sender *s)
{
	dmd_wipe(s->gkey, sizeof(s->gkey));
	while (s->win_count) {
		dmd_wipe(window_slot(s, s->win_head), s->slot_size);
		window_advance(s);
	}
	dmd_wipe(s->frontier, sizeof(s->frontier));
	s->open = 0;
}

int dmd_sender_close(struct dmd_sender *s, const uint8_t *ad, size_t adlen,
		     uint8_t tag[DMD_TAG_SIZE], uint32_t *count)
{
	uint8_t tau[DMD_TAG_SIZE];

	if (!s || !s->open || s->group_due || !tag || s->index == 0 ||
	    (!ad && adlen))
		return DMD_EINVAL;
	if (adlen > DMD_MAX_AD)
		return DMD_ESIZE;
	use_slot(s, NULL, NULL, 0, ad, adlen, DMD_TRAILER_FLAG | s->index,
		 tau, NULL);
	dmd_agg_final(&s->agg, tau, tag);
	dmd_wipe(tau, sizeof(tau));
	if (count)
		*count = s->index;
	end_epoch(s);
	dmd_wipe_stack();
	return DMD_OK;
}

void dmd_sender_end(struct dmd_sender *s)
{
	if (!s || !s->open)
		return;
	dmd_wipe(&s->agg, sizeof(s->agg));
	end_epoch(s);
}

void dmd_sender_wipe(struct dmd_sender *s)
{
	if (!s)
		return;
	if (s->win)
		dmd_wipe(s->win, s->win_slots * s->slot_size);
	dmd_wipe(s, sizeof(*s));
}
