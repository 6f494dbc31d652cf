/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * libdiamond internals: shared by the files of userspace/lib, never
 * installed. Names here carry the dlib_ prefix (the library's middle
 * tier); file-static helpers have short plain names.
 */
#ifndef LIBDIAMOND_INTERNAL_H
#define LIBDIAMOND_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>
#include <diamond/epoch.h>
#include <diamond/libdiamond.h>
#include <diamond/util.h>

/*
 * libdiamond.h restates the spec constants its users need without
 * including spec.h; each copy is tied to the one definition here.
 */
#define DIAMOND_SAME(a, b) _Static_assert((a) == (b), #a " != " #b " (spec.h)")
DIAMOND_SAME(DIAMOND_MAX_BODY, DMD_MAX_BODY);
DIAMOND_SAME(DIAMOND_FRAME_HDR, DMD_FRAME_HDR);
DIAMOND_SAME(DIAMOND_MAX_RECORD, DMD_MAX_RECORD);
DIAMOND_SAME(DIAMOND_MAX_AD, DMD_MAX_AD);
DIAMOND_SAME(DIAMOND_TAG_SIZE, DMD_TAG_SIZE);
DIAMOND_SAME(DIAMOND_BLOB_MAX, DMD_BLOB2_MAX);
DIAMOND_SAME(DIAMOND_ROOT_SIZE, DMD_ROOT_SIZE);
DIAMOND_SAME(DIAMOND_PROV_NONCE_SIZE, DMD_PROV_NONCE_SIZE);
DIAMOND_SAME(DIAMOND_FRAME_RECORD, DMD_FRAME_RECORD);
DIAMOND_SAME(DIAMOND_FRAME_TAG, DMD_FRAME_TAG);
#undef DIAMOND_SAME
#define DIAMOND_DEFAULT_MAX_BODY	DIAMOND_MAX_BODY
#define DIAMOND_DEFAULT_MAX_TFMS	256

/* Map a portable-core DMD_E* code to the errno the kernel would return. */
int dlib_core_errno(int dmd_rc);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): the core's dmd_crc32. */
uint32_t dlib_crc32(const uint8_t *p, size_t len);

/* Wipe then free; @p may be NULL. */
void dlib_free_secret(void *p, size_t len);

/* fsync the directory that holds @path. */
int dlib_fsync_parent(const char *path);

/*
 * The state after a verified epoch: (epoch + 1, E_{epoch+1}) derived from
 * @st by epoch updates, as the kernel's tfm does internally.
 */
void dlib_state_advance(struct dmd_state *st, uint64_t epoch);

struct dlib_dev;
struct dlib_ckpt;

/*
 * Spec section 8.1: distinct copies of a record or a tag frame the gateway
 * holds, and
 * verifications it spends on a unit before it gives the unit up.
 */
#define DLIB_COPIES	3
#define DLIB_TRIES	8

/* The distinct copies of one tag frame, in arrival order (tagcopies.c). */
struct dlib_tags {
	uint8_t *p[DLIB_COPIES];	/* AD || T, or AD || G_i */
	uint16_t len[DLIB_COPIES];
	uint16_t n[DLIB_COPIES];	/* the frame's index field */
	uint8_t have;			/* copies held */
};

/* Hold @f in @t: 0, 1 a repeat or a copy past the bound, or -ENOMEM. */
int dlib_tags_hold(struct dlib_tags *t, const struct diamond_frame *f);
/* The bytes @t's copies hold, for the charge. */
size_t dlib_tags_bytes(const struct dlib_tags *t);
void dlib_tags_free(struct dlib_tags *t);

/* The held copies of a group tag frame (type 3). */
struct dlib_gtag {
	struct dlib_tags t;
	uint8_t failed;		/* its unit failed; cleared by a new frame */
};

/*
 * One open epoch of one device: its records, the tag frame if it came
 * first, and what it costs against the gateway's max_buffer. Open epochs
 * of all devices sit on one LRU list (head = most recently fed).
 */
struct dlib_ep {
	struct dlib_dev *dev;
	struct diamond_asm *asm_;
	uint64_t epoch;
	uint8_t suite;
	struct dlib_tags tag;		/* the held copies of its tag frame */
	uint32_t frames;		/* frames taken */
	/*
	 * Held group tag frames by group, in chunks of DLIB_GTAG_CHUNK made
	 * as tags arrive: a forged tag at a high group costs one chunk, not
	 * a table of every group (issue 23).
	 */
	struct dlib_gtag **gtag;
	uint64_t *ready;		/* bit c: non-final unit c complete, untried */
	uint32_t ngtag;			/* groups @gtag covers: q(b) */
	size_t gtag_bytes;		/* what @gtag holds, for the charge */
	uint8_t tag_failed;		/* the final group failed as it is */
	int bad;			/* no groups: why it failed as it is */
	struct dlib_ckpt *ckpt;		/* its group-start keys walked so far */
	size_t charge;			/* bytes charged to the buffer */
	struct dlib_ep *prev, *next;
};

/*
 * One device at the gateway: the mirror of its state file, its open
 * epochs, its counters and, with the kernel backend, its keyed tfm.
 */
struct dlib_dev {
	uint32_t id;
	uint8_t verified_once;
	struct dmd_state st;		/* == the state file's blob */
	uint32_t g;			/* group size; b without groups */
	struct dmd_receiver *rx;	/* g < b: the cursor (spec 9.1) */
	int *gerr;			/* decisions on rx's epoch, by group */
	uint32_t ngerr;			/* entries in @gerr */
	uint64_t gerr_epoch;		/* the epoch @gerr is about */
	uint8_t gerr_live;		/* @gerr holds an undecided epoch */
	uint32_t stall;			/* frames since a later unit waits */
	uint32_t walk_credit;		/* long chain walks it may start */
	struct dlib_ep *win[DIAMOND_WINDOW_EPOCHS];	/* open epochs */
	struct diamond_dev_stats stats;
	uint8_t last_tag[DIAMOND_TAG_SIZE];	/* T of stats.last_epoch */
	void *tfm;			/* backend handle or NULL */
	struct dlib_dev *lru_prev, *lru_next;	/* devices with a tfm */
};

struct dlib_spool;

struct diamond_gw {
	struct diamond_store *store;
	const struct dlib_backend *be;
	struct diamond_gw_cbs cbs;
	uint32_t max_skip;
	unsigned int max_tfms, ntfms;
	size_t max_body, max_buffer;
	struct diamond_reader *rd;
	/* Device table: open addressing on the id, never shrinks. */
	struct dlib_dev **tab;
	size_t tab_size, ndev;
	struct dlib_dev *lru_head, *lru_tail;	/* head = most recent */
	struct dlib_ep *ep_head, *ep_tail;		/* open epochs, LRU */
	struct dlib_spool *spool;	/* NULL without DIAMOND_GW_SPOOL */
	char *qdir;			/* NULL without DIAMOND_GW_QUARANTINE */
	size_t qmax, qused, qfiles;
	uint64_t qseq;
	int replaying;			/* feeding the spool back: no appends */
	uint8_t *body;		/* assembled epoch, shared by all devices */
	size_t body_cap;
	uint8_t *pt;
	size_t pt_cap;
	struct diamond_gw_stats stats;
	uint64_t chain_steps;		/* diamond_gw_chain_steps() */
	char detail[4200];
};

/* gateway.c */
int dlib_gw_get_dev(struct diamond_gw *gw, uint32_t id,
			struct dlib_dev **out);
/* Take every whole frame gw->rd holds. */
int dlib_gw_drain(struct diamond_gw *gw);
void dlib_gw_event(struct diamond_gw *gw, int kind, int err,
		       uint32_t dev, uint64_t epoch, uint32_t count);

/* window.c: frames into open epochs, complete epochs verified. */
int dlib_win_frame(struct diamond_gw *gw, const struct diamond_frame *f);
void dlib_win_close_all(struct diamond_gw *gw, int report);
void dlib_ep_free(struct diamond_gw *gw, struct dlib_ep *ep);
/* The open epoch @epoch of @d, or NULL. */
struct dlib_ep *dlib_ep_find(struct dlib_dev *d, uint64_t epoch);
void dlib_ep_reject(struct diamond_gw *gw, struct dlib_ep *ep, int err);
void dlib_drop_frames(struct diamond_gw *gw, struct dlib_dev *d,
			  uint32_t n);
int dlib_grow_pt(struct diamond_gw *gw, size_t need);
/* Records of @b (records first .. first + count - 1) to the callbacks. */
void dlib_deliver(struct diamond_gw *gw, struct dlib_dev *d,
		      const struct diamond_epoch_body *b, const uint8_t *pt,
		      uint32_t first, uint32_t group);
/* Call @emit for every frame @ep holds (records, then a held tag). */
int dlib_ep_frames(const struct dlib_ep *ep,
		       int (*emit)(void *arg, const struct diamond_frame *f),
		       void *arg);

/* groups.c: the units of grouped devices (spec section 9.1). */
static inline int dlib_grouped(const struct dlib_dev *d)
{
	return d->g < d->st.b;
}
/* Set up a device's cursor from its state file (software backend only). */
int dlib_grp_load(struct diamond_gw *gw, struct dlib_dev *d);
/* 0, or why @f can never be part of a unit of @d (-EKEYEXPIRED stale). */
int dlib_grp_screen(const struct dlib_dev *d,
			const struct diamond_frame *f);
/* Report a group tag frame of a group the cursor has passed. */
void dlib_grp_stale(struct diamond_gw *gw, struct dlib_dev *d,
			const struct diamond_frame *f);
#define DLIB_GTAG_CHUNK	256
/* Call @emit for every group tag frame @ep holds, in group order. */
int dlib_ep_tag_frames(const struct dlib_ep *ep,
		       int (*emit)(void *arg, const struct diamond_frame *f),
		       void *arg);
/* Hold a group tag frame in @ep: 0, 1 a duplicate, or -ENOMEM. */
int dlib_grp_frame(struct diamond_gw *gw, struct dlib_ep *ep,
		       const struct diamond_frame *f);
/* Open what can be opened; @all: give up every incomplete group (end). */
int dlib_grp_progress(struct diamond_gw *gw, struct dlib_dev *d,
			  int all);
/* End of input: open what is complete, sum up every epoch. */
void dlib_grp_finish(struct diamond_gw *gw);
/* A frame was taken into @ep: a unit of it that failed may be retried. */
void dlib_grp_touch(struct dlib_ep *ep, const struct diamond_frame *f);
void dlib_grp_free(struct dlib_dev *d);
void dlib_ep_tags_free(struct dlib_ep *ep);

/*
 * checkpoint.c: keys of an open epoch's group starts, so that no unit
 * walks the chain from the cursor again (issue 23, item 1).
 *
 * dlib_ckpt_seek() - @out: a copy of the cursor @rx moved to @group of
 * @epoch, from the nearest checkpoint of *@cpp (made on first use),
 * leaving new checkpoints on the way; adds the chain steps it walked to
 * *@steps. 0, -EKEYEXPIRED (behind the cursor), -ERANGE, -EINVAL, -ENOMEM.
 */
int dlib_ckpt_seek(struct dlib_ckpt **cpp, const struct dmd_receiver *rx,
		   uint64_t epoch, uint32_t group, struct dmd_receiver *out,
		   uint64_t *steps, uint32_t *credit);
/*
 * Long walks are paid from a device's credits (checkpoint.c): whether a
 * seek to @group of @epoch may go now (else the unit waits), and a
 * verified unit's refund.
 */
#define DLIB_WALK_CREDITS	DIAMOND_WINDOW_EPOCHS
int dlib_ckpt_may(const struct dlib_ckpt *cp, const struct dmd_receiver *rx,
		  uint64_t epoch, uint32_t group, uint32_t credit);
void dlib_ckpt_verified(uint32_t *credit);
/* Erase the checkpoints the cursor @rx has passed. */
void dlib_ckpt_forget(struct dlib_ckpt *cp, const struct dmd_receiver *rx);
size_t dlib_ckpt_bytes(const struct dlib_ckpt *cp);
void dlib_ckpt_free(struct dlib_ckpt *cp);

/* spool.c */
int dlib_spool_open(struct diamond_gw *gw, const char *state_dir);
void dlib_spool_close(struct diamond_gw *gw);
void dlib_spool_append(struct diamond_gw *gw, const struct diamond_frame *f);
/* After each feed: fsync, or rewrite from memory once it outgrew that. */
void dlib_spool_commit(struct diamond_gw *gw);
int dlib_quarantine_open(struct diamond_gw *gw, const char *state_dir,
			     size_t max);
void dlib_quarantine(struct diamond_gw *gw, const struct dlib_ep *ep,
			 int err);

/* assembler.c */
int dlib_asm_complete(const struct diamond_asm *a, uint32_t n);
size_t dlib_asm_footprint(const struct diamond_asm *a);
int dlib_asm_frames(const struct diamond_asm *a, uint32_t device_id,
			int (*emit)(void *arg, const struct diamond_frame *f),
			void *arg);
/* Whether records first .. first + count - 1 are all held. */
int dlib_asm_has(const struct diamond_asm *a, uint32_t first,
		     uint32_t count);
/* The highest record index held + 1. */
uint32_t dlib_asm_top(const struct diamond_asm *a);
/*
 * How many ways records first .. first + count - 1 can be put together
 * from the copies held (0: one is missing); past DLIB_TRIES, some number
 * above it.
 */
unsigned int dlib_asm_picks(const struct diamond_asm *a, uint32_t first,
			    uint32_t count);
/*
 * Records first .. first + count - 1 as a body, each the copy that
 * @pick (< dlib_asm_picks()) chooses, with @tag (AD || T of @taglen
 * bytes) around it: AD || body || T in *@buf.
 */
int dlib_asm_range(const struct diamond_asm *a, uint32_t first,
		       uint32_t count, unsigned int pick, const uint8_t *tag,
		       size_t taglen, uint8_t **buf, size_t *cap,
		       struct diamond_epoch_body *body);
/* diamond_asm_tag() without emptying the assembler. */
int dlib_asm_assemble(const struct diamond_asm *a,
			  const struct diamond_frame *f, unsigned int pick,
			  uint8_t **buf, size_t *cap,
			  struct diamond_epoch_body *body);

/*
 * A verification backend. open() verifies @body against d->st with
 * @max_skip and writes the plaintext body into @pt; it never changes d->st
 * (the gateway advances it once the new state is durable). release()
 * closes d->tfm; open() may set d->tfm.
 */
struct dlib_backend {
	const char *name;
	int (*open)(struct dlib_dev *d, const struct diamond_epoch_body *body,
		    uint8_t *pt, uint32_t max_skip);
	/*
	 * One unit of a grouped device (spec 9.1): non-final group @group
	 * (@n = 0) or the final group of @n records, of body->epoch, opened
	 * at the cursor @next (a copy of d->rx), which it moves past the unit
	 * on success. Returns 0 or -errno; d->rx is the caller's to update.
	 */
	int (*open_unit)(struct dlib_dev *d, uint32_t group, uint32_t n,
			 const struct diamond_epoch_body *body, uint8_t *pt,
			 struct dmd_receiver *next);
	void (*release)(struct dlib_dev *d);
};

/* gateway.c: the LRU of open tfms around a backend call. */
void dlib_make_room(struct diamond_gw *gw, struct dlib_dev *self);
void dlib_track_tfm(struct diamond_gw *gw, struct dlib_dev *d, int had);

extern const struct dlib_backend dlib_backend_kernel;
extern const struct dlib_backend dlib_backend_software;
/*
 * backend_kcapi.c: the key the module is given for @d (@rx NULL: its
 * blob), always open-only; its length. @key holds DLIB_KERNEL_KEY_MAX.
 */
#define DLIB_KERNEL_KEY_MAX	(DMD_BLOB2_MAX + 12 + DMD_KEY_MAX)
size_t dlib_kernel_key(const struct dlib_dev *d, const struct dmd_receiver *rx,
		       uint8_t *key);

/*
 * The epoch check both backends make before any cryptography (spec
 * 9.1-9.2), as an errno: <diamond/epoch.h> through dlib_core_errno().
 */
static inline int dlib_check_epoch(const struct dmd_state *st, uint64_t epoch,
				   uint32_t max_skip)
{
	return dlib_core_errno(dmd_check_epoch(st->epoch, epoch, max_skip));
}

/* store.c: a state file with the cursor of a grouped device (version 2). */
int dlib_store_load_rx(struct diamond_store *store, uint32_t device_id,
			   struct dmd_state *st, struct dmd_receiver *rx,
			   uint32_t g);
int dlib_store_save_rx(struct diamond_store *store,
			   const struct dmd_receiver *rx);


#endif
