/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Diamond portable core: the construction of Documentation/spec.rst on top
 * of the freestanding primitives in core/. No malloc, no stdio, no global
 * state: every context lives in caller memory, and every secret is wiped
 * when it is consumed. Functions that can fail return a DMD_E* code from
 * <diamond/spec.h>; the others cannot fail.
 */
#ifndef DIAMOND_CORE_H
#define DIAMOND_CORE_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/spec.h>

/* A key blob, parsed: the state at the start of epoch @epoch. */
struct dmd_state {
	uint8_t suite;
	uint8_t agg;
	uint8_t flags;		/* blob byte 7: DMD_BLOB_FLAG_*, known bits only */
	uint16_t gen;		/* provisioning generation; epoch >> 32 >= gen */
	uint16_t group;		/* group size g <= b; 0: g = b (one group) */
	uint32_t b;
	uint32_t device_id;
	uint64_t epoch;
	uint8_t key[DMD_KEY_MAX];	/* E_epoch; only dmd_key_size() bytes used */
};

struct dmd_agg {
	uint8_t acc[DMD_TAG_SIZE];
	uint8_t mode;
};

/*
 * Sender. Slots are precomputed into a caller-owned window; each window slot
 * holds R_j || H_j || P_j || KS_j[0:pre_len], i.e. dmd_slot_size() bytes;
 * a Diamond2 slot on a port with prepared Poly1305 bytes (the AVR,
 * DMD_POLY1305_PREP in poly1305.h) holds them between R_j and H_j, with
 * H_j clamped in place.
 */
struct dmd_sender {
	/*
	 * What every seal reads comes first: on the AVR, ldd/std reach 63
	 * bytes past a pointer, and a field beyond costs address arithmetic
	 * (and spilled pointers) at each use (Documentation/performance.md).
	 */
	uint8_t *win;
	size_t win_slots;
	size_t pre_len;
	size_t slot_size;	/* dmd_slot_size(st.suite, pre_len) */
	size_t win_head;	/* window slot holding slot @index */
	size_t win_count;	/* slots ready: index .. index + win_count - 1 */
	uint32_t index;		/* next record index j */
	uint8_t open;		/* an epoch is begun and not closed */
	uint8_t group_due;	/* a full group awaits dmd_sender_close_group() */
	uint8_t grouped;	/* g < b: group tags are sent */
	struct dmd_agg agg;
	uint64_t epoch;		/* epoch being sealed */
	struct dmd_state st;	/* what must be persisted: (e + 1, E_{e+1}) once begun */
	uint8_t frontier[DMD_KEY_MAX];	/* R_{e,f}: next slot to expand */
	uint32_t frontier_index;
	uint32_t g;		/* group size (spec section 5.1); b: no groups */
	uint32_t group_left;	/* records the current group still takes */
	uint32_t group;		/* index of the current group */
	uint8_t gkey[32];	/* H'_i || P'_i of the current non-final group */
};

/*
 * Receiver with group tags (spec section 9.1). Closed: @st is the state at
 * the start of epoch st.epoch. Open: epoch st.epoch is partly decided,
 * st.key holds E_{st.epoch+1}, @r is R_{st.epoch, group*g} and groups below
 * @group are decided (their keys are gone).
 */
struct dmd_receiver {
	struct dmd_state st;
	uint8_t r[DMD_KEY_MAX];
	uint32_t group;
	uint32_t g;
	uint32_t max_skip;
	uint8_t open;
};

size_t dmd_key_size(unsigned int suite);
size_t dmd_blob_size(unsigned int suite);

size_t dmd_blob2_size(unsigned int suite);

/* DMD_OK if @st holds valid parameters and a usable epoch, else DMD_EKEY. */
int dmd_state_check(const struct dmd_state *st);
/*
 * Reads a version 1 or 2 blob (a v1 blob is generation 0, group 0). A
 * version 2 blob whose CRC-32 does not match is DMD_EKEY like any other
 * malformed blob: a damaged key is never used.
 */
int dmd_blob_parse(struct dmd_state *st, const uint8_t *blob, size_t len);
/* Version 1, the kernel's setkey format: dmd_blob_size(st->suite) bytes. */
void dmd_blob_write(uint8_t *blob, const struct dmd_state *st);
/* Version 2, for storage: dmd_blob2_size(st->suite) bytes. */
void dmd_blob2_write(uint8_t *blob, const struct dmd_state *st);
/*
 * Spec section 2, the earlier derivations ("DIAMOND/1 E0", "DIAMOND/2 E0"):
 * E_0 of generation @st->gen from a root secret and the parameters in @st;
 * sets the epoch to gen * 2^32. Only for test keys from fixed roots and
 * the known answers: its uniqueness rests on the caller's ledger alone.
 */
int dmd_derive_initial(struct dmd_state *st, const uint8_t root[DMD_ROOT_SIZE]);
/*
 * Spec section 2, provisioning ("DIAMOND/3 E0"): E_0 of generation
 * @st->gen and group size @st->group from a root secret and @nonce, a value
 * fresh from getrandom for this provisioning alone; sets the epoch to
 * gen * 2^32.
 */
int dmd_derive_fresh(struct dmd_state *st,
		     const uint8_t nonce[DMD_PROV_NONCE_SIZE],
		     const uint8_t root[DMD_ROOT_SIZE]);
/* CRC-32 (IEEE, as zlib's crc32()), without tables or data branches. */
uint32_t dmd_crc32(const uint8_t *p, size_t len);

/* Spec section 3: the epoch chain, E -> (E_next, R_0); @e_next may be @e. */
void dmd_epoch_update(unsigned int suite, const uint8_t *e, uint8_t *e_next,
		      uint8_t *r0);

/* Epoch bodies (spec section 7). */
int dmd_body_count(const uint8_t *body, size_t len, uint32_t max_records,
		   uint32_t *count);

size_t dmd_slot_size(unsigned int suite, size_t pre_len);
/* A sender without group tags: g = b. */
int dmd_sender_init(struct dmd_sender *s, const struct dmd_state *st,
		    uint8_t *window, size_t window_size, size_t pre_len);
/* A sender with group size @g, 1 <= g <= b (DMD_EINVAL otherwise). */
int dmd_sender_init_groups(struct dmd_sender *s, const struct dmd_state *st,
			   uint8_t *window, size_t window_size, size_t pre_len,
			   uint32_t g);
int dmd_sender_begin(struct dmd_sender *s, struct dmd_state *reserve);
size_t dmd_sender_precompute(struct dmd_sender *s, size_t max_slots);
int dmd_sender_seal(struct dmd_sender *s, const uint8_t *m, size_t len,
		    uint8_t *c, uint32_t *index);
/*
 * Groups (spec section 5.1): after a seal fills a non-final group,
 * dmd_sender_group_due() is 1, and seal and close refuse (DMD_EINVAL) until
 * dmd_sender_close_group() has written the group tag G_i for the group tag
 * frame of group *@group.
 */
int dmd_sender_group_due(const struct dmd_sender *s);
int dmd_sender_close_group(struct dmd_sender *s, const uint8_t *ad,
			   size_t adlen, uint8_t tag[DMD_TAG_SIZE],
			   uint32_t *group);
/* The epoch tag T over the final group (possibly empty) and n. */
int dmd_sender_close(struct dmd_sender *s, const uint8_t *ad, size_t adlen,
		     uint8_t tag[DMD_TAG_SIZE], uint32_t *count);
/*
 * End the open epoch without a tag (the packet framing, spec section 14:
 * an epoch there is never closed): its unused slots and keys are erased,
 * the aggregate too. Nothing if no epoch is open.
 */
void dmd_sender_end(struct dmd_sender *s);
/*
 * The slot key R_{e,j} of the next record j, still held: in the window's
 * next slot, or the frontier. For a tag keyed by a record's slot key
 * (spec sections 5.1, 14.3), taken before the seal erases it.
 */
const uint8_t *dmd_sender_slot_key(const struct dmd_sender *s);
void dmd_sender_wipe(struct dmd_sender *s);

/*
 * Verify and decrypt one epoch (spec section 9). @ct is a ciphertext body
 * with its tag; @pt receives ct_len - 16 bytes and must not overlap @ct.
 * On any error @st is unchanged and @pt holds no plaintext. Errors come in
 * the order of spec section 9.2: DMD_EFORMAT for a @ct shorter than the
 * tag, DMD_ESIZE for the AD, the epoch's checks, the body's, DMD_EBADMSG.
 */
int dmd_open(struct dmd_state *st, uint64_t epoch, const uint8_t *ad,
	     size_t adlen, const uint8_t *ct, size_t ct_len, uint8_t *pt,
	     uint32_t max_skip);

/*
 * The receiver of spec section 9.1, one unit at a time. Each call verifies
 * one unit and returns DMD_OK (released into @pt, cursor moved past it) or
 * an error (nothing released, nothing changed): DMD_EEXPIRED for a unit the
 * cursor has passed, DMD_EBADMSG for a tag mismatch, DMD_EFORMAT when @ct
 * does not hold exactly the unit's records then a tag. @ct is the unit's
 * records as a body (section 7) followed by its tag; @pt receives
 * ct_len - 16 bytes and must not overlap @ct.
 *   dmd_receiver_group(): non-final group @group (g records, tag G_i).
 *   dmd_receiver_close(): the final group of an epoch of @n records
 *                         (records q*g .. n-1, possibly none, tag T).
 * Opening a unit past the cursor gives up on the groups between (and on the
 * rest of an open epoch) and erases their keys.
 *
 * Copies (spec 8.1, the copy rule): the receiver holds no frames, so the
 * rule is its caller's. A failed call changes nothing, so the caller keeps
 * the distinct copies of a unit's records and tags and presents the unit
 * once per combination, in the rule's order and within its budget of
 * verifications, until one is DMD_OK; it never lets a later copy replace an
 * earlier one, and never gives a unit up for a damaged copy while it may
 * still try another. Once a unit is released its keys are gone: every copy
 * presented after that is DMD_EEXPIRED.
 */
int dmd_receiver_init(struct dmd_receiver *rx, const struct dmd_state *st,
		      uint32_t g, uint32_t max_skip);
int dmd_receiver_group(struct dmd_receiver *rx, uint64_t epoch,
		       uint32_t group, const uint8_t *ad, size_t adlen,
		       const uint8_t *ct, size_t ct_len, uint8_t *pt);
int dmd_receiver_close(struct dmd_receiver *rx, uint64_t epoch, uint32_t n,
		       const uint8_t *ad, size_t adlen, const uint8_t *ct,
		       size_t ct_len, uint8_t *pt);
/*
 * Move @rx, a copy of a cursor, to group @group of @epoch (at or past the
 * cursor, within max_skip; @group at most the epoch's last unit, q(b))
 * without verifying anything: it then holds the keys a unit there starts
 * from. A unit opened from the copy gets the verdict and the next cursor it
 * would get from the cursor itself, with no chain steps walked again; so a
 * gateway can keep such copies as checkpoints of an open epoch (future
 * keys only). Never store the copy as the cursor: the groups it passed are
 * not decided. DMD_EEXPIRED, DMD_ESKIP as dmd_receiver_group(); DMD_EINVAL
 * for a group past q(b).
 */
int dmd_receiver_seek(struct dmd_receiver *rx, uint64_t epoch,
		      uint32_t group);
/*
 * The state to persist and resume from: closed, @rx's state; open, the
 * start of the next epoch (the open epoch's undecided groups are given up,
 * so a restart never accepts a unit twice).
 */
void dmd_receiver_state(const struct dmd_receiver *rx, struct dmd_state *st);
void dmd_receiver_wipe(struct dmd_receiver *rx);

/* Seal a whole plaintext body as one epoch without a window (tests, tools). */
int dmd_seal_body(struct dmd_state *st, const uint8_t *ad, size_t adlen,
		  const uint8_t *pt, size_t pt_len, uint8_t *ct);

#endif
