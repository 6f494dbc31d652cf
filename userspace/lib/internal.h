/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * libdiamond internals: shared by the files of userspace/lib, never
 * installed. Names here carry the dlib_ prefix (the library's middle
 * tier); file-static helpers have short plain names.
 */
#ifndef LIBDIAMOND_INTERNAL_H
#define LIBDIAMOND_INTERNAL_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <diamond/core.h>
#include <diamond/epoch.h>
#include <diamond/libdiamond.h>
#include <diamond/packet.h>
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
DIAMOND_SAME(DIAMOND_PKT_MAX, DMD_PKT_MAX);
#undef DIAMOND_SAME
#define DIAMOND_DEFAULT_MAX_BODY	DIAMOND_MAX_BODY
/*
 * Keyed kernel tfms kept open (an LRU, tfm.c). A keyed tfm costs about
 * 49 KiB of kernel memory between epochs at b = 1024 (48,832 to 50,752
 * bytes measured through its memcg, 51.5 KiB by the formula:
 * Documentation/kernel-api.rst, "Memory"; performance.md, "Issue 31"),
 * so 16,384 of them stay under 1 GiB (about 800 MiB), above the 10,000
 * devices issue 31 wants kept keyed; it was 256 when a tfm cost 1.16 MiB.
 * Four descriptors each: dlib_fit_tfms() lowers the cap to the hard
 * descriptor limit, and a tfm refused for memory (a memcg at its limit)
 * lowers it too (open_epoch.c), so a smaller host re-keys instead.
 */
#define DIAMOND_DEFAULT_MAX_TFMS	16384
/* The kernel memory of one keyed tfm at b = 1024, by kernel-api.rst's formula. */
#define DIAMOND_TFM_KERNEL_BYTES	(51u * 1024 + 512)

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
struct dlib_wstate;
struct dlib_ckpt;

/*
 * store.c: a state file with the cursor of a grouped device and how the
 * groups below it were decided (version 3; version 2 still read), as runs
 * of groups decided alike: err 0 released, else the -errno they were
 * lost with (spec 9.1, "Persistence").
 */
struct dlib_run {
	uint32_t n;
	int err;
};
struct dlib_decided {
	struct dlib_run *run;
	uint32_t nrun, cap;
};
/* Append @n groups decided @err, merged with a last run alike. */
int dlib_dec_add(struct dlib_decided *dec, uint32_t n, int err);

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
	int failed;		/* its unit failed: the errno (> 0); cleared
				 * by a new frame */
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
	int tag_failed;			/* the final group failed as it is: the
					 * errno (> 0) */
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
	struct dlib_decided dec;	/* @gerr below the cursor, as stored */
	uint32_t stall;			/* frames since a later unit waits */
	uint32_t walk_credit;		/* long chain walks it may start */
	struct dlib_ep *win[DIAMOND_WINDOW_EPOCHS];	/* open epochs */
	struct diamond_dev_stats stats;
	uint8_t last_tag[DIAMOND_TAG_SIZE];	/* T of stats.last_epoch */
	void *tfm;			/* backend handle or NULL */
	struct dlib_wstate *w;		/* custody: its wrapped state, else NULL */
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
	struct diamond_fence *fence;	/* DIAMOND_GW_SHARED: every write */
	uint8_t *body;		/* assembled epoch, shared by all devices */
	size_t body_cap;
	uint8_t *pt;
	size_t pt_cap;
	struct diamond_gw_stats stats;
	uint64_t chain_steps;		/* diamond_gw_chain_steps() */
	int custody;			/* keys in diamond.ko (section 1) */
	int (*stage)(void *arg);	/* diamond_gw_set_stage() or NULL */
	void *stage_arg;
	char detail[4200];
	/* The first storage failure of the current call (dlib_gw_fail()). */
	int fatal;
	char failure[4300];
};

/*
 * The receive path, in pipeline order; each file calls only files listed
 * after it (tools/userspace/file-order checks that no two call each
 * other): gateway.c (the public entry points) -> receive.c -> window.c
 * (assembly), units.c -> decide.c -> verify.c -> open_epoch.c; below
 * them deliver.c, quarantine.c, spool.c, epoch.c, gtags.c, event.c,
 * devices.c, cursor.c, tfm.c, store.c.
 */

/* receive.c: frames down the pipeline. */
/*
 * Take every whole frame gw->rd holds; 0, or -ENOMEM, or the storage
 * failure (gw->fatal) that stopped it.
 */
int dlib_rx_drain(struct diamond_gw *gw);
/*
 * End of input: open what is complete, sum up, close every open epoch;
 * after a storage failure (returned) nothing is closed: it stays spooled.
 */
int dlib_rx_finish(struct diamond_gw *gw);

/* window.c: frames into open epochs (assembly); it decides nothing. */
int dlib_win_screen(struct diamond_gw *gw, struct dlib_dev *d,
		    const struct diamond_frame *f);
int dlib_win_open(struct diamond_gw *gw, struct dlib_dev *d,
		  const struct diamond_frame *f, struct dlib_ep **out);
struct dlib_ep *dlib_win_victim(const struct diamond_gw *gw);
int dlib_win_take(struct diamond_gw *gw, struct dlib_ep *ep,
		  const struct diamond_frame *f);

/* units.c: a grouped device's next unit to open. */
struct dlib_unit {
	uint32_t group, first, count, n;
	int final;
	const struct dlib_tags *tags;	/* its tag frame's copies */
	const uint8_t *tag;	/* the copy verified: AD || G_i or AD || T */
	size_t taglen;
};
/*
 * The first complete unit at or past the cursor that has not failed (a
 * failed unit is tried again only once one of its frames changes), and
 * its open epoch; *@next: it is the cursor's own unit. NULL: none.
 */
struct dlib_ep *dlib_unit_find(struct dlib_dev *d, struct dlib_unit *u,
			       int *next);

/* decide.c: the one place an epoch or a group is released, lost or rejected. */
int dlib_dec_frame(struct diamond_gw *gw, struct dlib_dev *d,
		   const struct diamond_frame *f, int err);
void dlib_dec_reject(struct diamond_gw *gw, struct dlib_ep *ep, int err);
int dlib_dec_epoch(struct diamond_gw *gw, struct dlib_ep *ep);
int dlib_dec_unit(struct diamond_gw *gw, struct dlib_dev *d,
		  struct dlib_ep *ep, struct dlib_unit *u);
void dlib_dec_end(struct diamond_gw *gw, struct dlib_dev *d);
void dlib_dec_close_all(struct diamond_gw *gw, int report);

/* verify.c: what the cryptography says of a complete epoch or unit. */
int dlib_grow_pt(struct diamond_gw *gw, size_t need);
int dlib_verify_epoch(struct diamond_gw *gw, struct dlib_ep *ep,
		      struct diamond_frame *t, struct diamond_epoch_body *body);
int dlib_verify_unit(struct diamond_gw *gw, struct dlib_dev *d,
		     struct dlib_ep *ep, struct dlib_unit *u,
		     struct diamond_epoch_body *body,
		     struct dmd_receiver *next);

/* deliver.c: records of @b (first .. first + count - 1) to the callbacks. */
void dlib_deliver(struct diamond_gw *gw, struct dlib_dev *d,
		  const struct diamond_epoch_body *b, const uint8_t *pt,
		  uint32_t first, uint32_t group);
/*
 * With a stage set, the same records to the callbacks before the new
 * state is saved, then the stage's commit: 0 once they are durable. 0
 * without a stage.
 */
int dlib_stage(struct diamond_gw *gw, const struct diamond_epoch_body *b,
	       const uint8_t *pt, uint32_t first, uint32_t group);

/* epoch.c: one open (device, epoch). */
void dlib_ep_free(struct diamond_gw *gw, struct dlib_ep *ep);
/* The open epoch @epoch of @d, or NULL. */
struct dlib_ep *dlib_ep_find(struct dlib_dev *d, uint64_t epoch);
/* @ep was fed: the head of the LRU. */
void dlib_ep_touch(struct diamond_gw *gw, struct dlib_ep *ep);
/* Charge what @ep holds against max_buffer. */
void dlib_ep_charge(struct diamond_gw *gw, struct dlib_ep *ep);
/* Copy @c of the tag frame @ep holds, as a frame. */
void dlib_ep_tag_copy(const struct dlib_ep *ep, unsigned int c,
		      struct diamond_frame *f);
/* Call @emit for every frame @ep holds (records, group tags, tags). */
int dlib_ep_frames(const struct dlib_ep *ep,
		   int (*emit)(void *arg, const struct diamond_frame *f),
		   void *arg);

/* gtags.c: the group tag frames an open epoch holds. */
#define DLIB_GTAG_CHUNK	256
/* The held tag of group @c, if its chunk exists (else NULL). */
struct dlib_gtag *dlib_gtag_at(const struct dlib_ep *ep, uint32_t c);
/* The highest group with a tag held + 1, or 0. */
uint32_t dlib_gtag_top(const struct dlib_ep *ep);
/* Hold a group tag frame in @ep: 0, 1 a duplicate, or -ENOMEM. */
int dlib_gtag_hold(struct diamond_gw *gw, struct dlib_ep *ep,
		   const struct diamond_frame *f);
/* Whether non-final unit @c of @ep is complete and untried, kept right. */
void dlib_gtag_update(struct dlib_ep *ep, uint32_t c);
/* The first complete untried non-final unit at or past @c, or UINT32_MAX. */
uint32_t dlib_gtag_next(const struct dlib_ep *ep, uint32_t c);
/*
 * Why unit @c of @ep failed as it is held (a positive errno), or 0: it was
 * not tried, or a frame of it came since.
 */
int dlib_gtag_failed(const struct dlib_ep *ep, uint32_t c);
/* A frame was taken into @ep: a unit of it that failed may be retried. */
void dlib_gtag_touch(struct dlib_ep *ep, const struct diamond_frame *f);
/* Call @emit for every group tag frame @ep holds, in group order. */
int dlib_ep_tag_frames(const struct dlib_ep *ep,
		       int (*emit)(void *arg, const struct diamond_frame *f),
		       void *arg);
void dlib_ep_tags_free(struct dlib_ep *ep);

/* event.c: counters and the caller's callbacks. */
void dlib_drop_frames(struct diamond_gw *gw, struct dlib_dev *d,
		      uint32_t n);
void dlib_gw_event(struct diamond_gw *gw, int kind, int err,
		   uint32_t dev, uint64_t epoch, uint32_t count);
void dlib_group_event(struct diamond_gw *gw, struct dlib_dev *d,
		      struct diamond_event *ev);
/*
 * @what (@path) could not be made durable: the first such failure of a
 * call is what it returns (diamond_gw_failure()). Returns @err.
 */
int dlib_gw_fail(struct diamond_gw *gw, int err, const char *what,
		 const char *path);

/* devices.c: the device table. */
struct dlib_dev *dlib_dev_find(const struct diamond_gw *gw, uint32_t id);
/* The device's entry, loading its state file on first use. */
int dlib_gw_get_dev(struct diamond_gw *gw, uint32_t id,
		    struct dlib_dev **out);

/* cursor.c: a grouped device's cursor and its decisions (spec 9.1). */
static inline int dlib_grouped(const struct dlib_dev *d)
{
	return d->g < d->st.b;
}
/* The non-final groups of an epoch of n records: q(n). */
static inline uint32_t dlib_nonfinal(uint32_t n, uint32_t b, uint32_t g)
{
	return n < b ? n / g : (b - 1) / g;
}
/* The units an epoch of device @d can have at most: q(b) + 1. */
static inline uint32_t dlib_max_units(const struct dlib_dev *d)
{
	return dlib_nonfinal(d->st.b, d->st.b, d->g) + 1;
}
/*
 * gerr[] of a group: DLIB_UNDECIDED nothing known yet; 0 released; a
 * positive errno: it failed (bad tag) and may still verify; a negative
 * errno: lost and reported.
 */
#define DLIB_UNDECIDED	1
/* Set up a device's cursor from its state file. */
int dlib_cur_load(struct diamond_gw *gw, struct dlib_dev *d);
void dlib_cur_free(struct dlib_dev *d);
/* Is group @group of @epoch one the cursor has passed (its keys gone)? */
int dlib_cur_behind(const struct dlib_dev *d, uint64_t epoch,
		    uint32_t group);
/* Start the decisions on @epoch (the cursor moves into it). */
void dlib_cur_track(struct dlib_dev *d, uint64_t epoch);
/*
 * What a group whose gerr[] is @v is decided as once the cursor passes it
 * unreleased: lost as incomplete, or for why its last try failed.
 */
static inline int dlib_lost_as(int v)
{
	return v == DLIB_UNDECIDED ? -ENOMSG : v > 0 ? -v : v;
}
/* The stored decisions back as the cursor has them (a failed store). */
void dlib_cur_unplan(struct dlib_dev *d);
/* Was any of the first @units groups of the tracked epoch released? */
int dlib_cur_any_released(const struct dlib_dev *d, uint32_t units);

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
/*
 * After each feed: fdatasync, or rewrite from memory once it outgrew that
 * or a write or sync failed. 0, or that failure (dlib_gw_fail()).
 */
int dlib_spool_commit(struct diamond_gw *gw);
/* The spool to replay (diamond_gw_resume()): a descriptor, or -errno. */
int dlib_spool_reader(const struct diamond_gw *gw);
/* After the replay: rewrite the spool from the open epochs. */
int dlib_spool_rewrite(struct diamond_gw *gw);
const char *dlib_spool_path(const struct diamond_gw *gw);

/* quarantine.c */
int dlib_quarantine_open(struct diamond_gw *gw, const char *state_dir,
			 size_t max);
void dlib_quarantine(struct diamond_gw *gw, const struct dlib_ep *ep,
		     int err);

/* framefile.c: frame files of the state directory (spool, quarantine). */
int dlib_write_all(int fd, const uint8_t *p, size_t len);
/* One frame to the file descriptor @arg points to (an emit callback). */
int dlib_emit_fd(void *arg, const struct diamond_frame *f);
/*
 * A spool file replaced crash-safely: @emit writes the new content to a
 * new file ("@path.tmp"), which is fsync'd and renamed over @path. 0 and
 * the new file's descriptor (opened O_APPEND) and size, or -errno and
 * @path as it was. The caller closes the old descriptor and fsyncs the
 * directory.
 */
int dlib_spool_replace(const char *path, int (*emit)(void *arg, int fd),
		       void *arg, int *fd_out, size_t *size);
/* @out: @state_dir/@name, made (mode 0700) if need be. */
int dlib_make_dir(char *out, size_t size, const char *state_dir,
		  const char *name);

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
struct dlib_pstate;
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
	/*
	 * Packet mode (spec 14.5), per packet-mode device: @gh is its handle
	 * (NULL until grid_attach() sets one; the software backend keeps
	 * none). open_grid(): one unit of the tag grid at unit @u of epoch
	 * @e, as dmd_grid_open() (no r_next): from @r = R_{e,16u} in software,
	 * from the tfm's own cursor in the kernel (@r unused). 0 (some tag
	 * verified), -EBADMSG (none did, nothing changed), or another -errno
	 * after which the handle is to be dropped (grid_drop()).
	 */
	int (*open_grid)(void *gh, unsigned int suite, const uint8_t *r,
			 uint64_t e, uint32_t u, struct dmd_grid_unit *g,
			 uint16_t before, struct dmd_grid_verdict *v);
	/*
	 * The kernel's (NULL in software): a handle keyed at the receiver's
	 * state @ps (its cursor, keys and the bitmaps of its undecided units)
	 * into *@gh; grid_decide(): every unit before (@e, @u) decided, so
	 * the backend's cursor is at or past it (0, or -errno: drop the
	 * handle); grid_cursor(): the backend's cursor (e_c, u_c).
	 */
	int (*grid_attach)(void **gh, const struct dlib_pstate *ps);
	int (*grid_decide)(void *gh, uint64_t e, uint32_t u);
	void (*grid_cursor)(const void *gh, uint64_t *e, uint32_t *u);
	void (*grid_drop)(void *gh);
	/*
	 * Custody: the state d->tfm holds now, as the module wraps it, into
	 * @w (a copy of d->w, whose header it replaces). NULL: no custody.
	 */
	int (*wrapped)(struct dlib_dev *d, struct dlib_wstate *w);
};

/*
 * custody.c: a custody device's state after a request that moved it,
 * read from its tfm and made durable before anything is delivered: the
 * device at @epoch (the blob's, spec section 2), with the cursor at group
 * @c of epoch - 1 when @open. On failure d->w is unchanged.
 */
int dlib_custody_save(struct diamond_gw *gw, struct dlib_dev *d,
		      uint64_t epoch, int open, uint32_t c);
/* A custody device's entry from its version 4 file. */
int dlib_custody_load(struct diamond_gw *gw, struct dlib_dev *d);

/* tfm.c: the LRU of open tfms around a backend call. */
void dlib_make_room(struct diamond_gw *gw, struct dlib_dev *self);
void dlib_track_tfm(struct diamond_gw *gw, struct dlib_dev *d, int had);
/* Kernel tfms that fit the descriptor limit (raised to its hard limit). */
unsigned int dlib_fit_tfms(unsigned int want);

extern const struct dlib_backend dlib_backend_kernel;

/* ktfm.c: the kernel backend's AF_ALG transport ("aead" or "diamond"). */
#define DLIB_ALG_TYPE	"diamond"	/* diamond.ko's own AF_ALG type */
struct dlib_ktfm;
int dlib_ktfm_open(const char *name, const uint8_t *key, size_t len,
		   struct dlib_ktfm **out);
int dlib_ktfm_open_as(const char *name, const uint8_t *key, size_t len,
		      unsigned int authsize, struct dlib_ktfm **out);
ssize_t dlib_alg_request(int op, int enc, const uint8_t *in, size_t inlen,
			 uint32_t assoclen, const uint8_t *iv, uint8_t *out,
			 size_t outlen);
ssize_t dlib_ktfm_decrypt(struct dlib_ktfm *k, const uint8_t *in,
			  size_t inlen, uint32_t assoclen, const uint8_t *iv,
			  uint8_t *out, size_t outlen);
void dlib_ktfm_close(struct dlib_ktfm *k);
int dlib_ktfm_open_custody(const char *name, const uint8_t *key, size_t len,
			   struct dlib_ktfm **out);
/* The setkey input "DMDR" naming device @id's key "diamond:<id>". */
void dlib_key_ref(uint8_t ref[DMD_REF_SIZE], uint8_t suite, uint32_t id);
ssize_t dlib_ktfm_export(struct dlib_ktfm *k, uint8_t *buf, size_t size);
int dlib_ktfm_type_bind(const char *name);
const char *dlib_ktfm_type_hint(int rc);
extern const struct dlib_backend dlib_backend_software;
/*
 * backend_kcapi.c: the key the module is given for @d (@rx NULL: its
 * blob), always open-only; its length. @key holds DLIB_KERNEL_KEY_MAX.
 */
#define DLIB_KERNEL_KEY_MAX	(DMD_BLOB2_MAX + 12 + DMD_KEY_MAX)
size_t dlib_kernel_key(const struct dlib_dev *d, const struct dmd_receiver *rx,
		       uint8_t *key);
/* @rx's cursor le64(e) || le32(c) || R_{e,c*g} at @out, if open: bytes. */
size_t dlib_kernel_cursor(const struct dmd_receiver *rx, uint8_t *out);

/*
 * The epoch check both backends make before any cryptography (spec
 * 9.1-9.2), as an errno: <diamond/epoch.h> through dlib_core_errno().
 */
static inline int dlib_check_epoch(const struct dmd_state *st, uint64_t epoch,
				   uint32_t max_skip)
{
	return dlib_core_errno(dmd_check_epoch(st->epoch, epoch, max_skip));
}

/*
 * wstate.c: a device's wrapped state (custody mode): its public
 * parameters, the clear header of its DMDW blob (kernel-api.rst "Wrapped
 * states") and the blob itself, never a key (userspace.rst section 3,
 * version 4).
 */
#define DLIB_DMDW_HDR	DMD_WRAP_AD_SIZE
#define DLIB_DMDW_MAX	DMD_WRAP_MAX	/* 56 + 64 + 12 + 32 + 16 */
struct dlib_wstate {
	struct dmd_state st;	/* parameters and epoch e; key all zero */
	uint32_t c;		/* the cursor's next group, 0 without one */
	uint8_t cursor;		/* the blob holds a cursor into epoch e - 1 */
	uint8_t blob[DLIB_DMDW_MAX];
	size_t len;		/* 0: none yet, keyed by its logon key */
};
/* @w for the state @st (key dropped), with a cursor at group @c. */
void dlib_wst_from_state(struct dlib_wstate *w, const struct dmd_state *st,
			 int cursor, uint32_t c);
/* The DMDW header @w stands for (DLIB_DMDW_HDR bytes at @h). */
void dlib_wst_header(const struct dlib_wstate *w, uint8_t *h);
/* A new DMDW blob of @w's device into @w: its header read and checked. */
int dlib_wst_adopt(struct dlib_wstate *w, const uint8_t *dmdw, size_t len);
/* The state file body of @w (parameters, header, blob) at @out: its size. */
size_t dlib_wst_put(const struct dlib_wstate *w, uint8_t *out);
size_t dlib_wst_size(const struct dlib_wstate *w);
/* A body of @wlen blob bytes at @p (@left bytes there) into @w. */
int dlib_wst_get(struct dlib_wstate *w, const uint8_t *p, size_t left,
		 size_t wlen, uint32_t device_id);

/*
 * keyring.c: keys of diamond.ko's type "diamond". dlib_key_find(): the
 * serial of the key @desc in the caller's keyrings (request_key, no
 * callout) or -errno (-ENOKEY). dlib_key_add(): such a key into @keyring
 * with DLIB_KEY_PERM: possessor and owner view and search, nothing else;
 * -ENOPKG without the module.
 */
#define DLIB_KEY_PERM		0x09090000u	/* pos/usr VIEW | SEARCH */
#define DLIB_RING_PERM		0x0b000000u	/* pos VIEW | READ | SEARCH */
#define DLIB_KEY_SESSION	(-3)		/* KEY_SPEC_SESSION_KEYRING */
#define DLIB_WRAP_DESC		"diamond:wrap"
#define DLIB_WRAP_SIZE		32
int32_t dlib_key_find(const char *desc);
int32_t dlib_key_add(const char *desc, const uint8_t *payload, size_t len,
		     int32_t keyring);
int32_t dlib_key_new_session(void);
/*
 * A new keyring "diamond" in the session keyring; then, filled, linked
 * into @uid's user keyring (as root), replacing the one there before.
 */
#define DLIB_RING_DESC		"diamond"
int32_t dlib_key_ring(void);
int dlib_key_link_user(int32_t ring, uid_t uid);
int dlib_key_setperm(int32_t key, uint32_t perm);

/* sender.c: the exclusive lock "<blob>.lock" of a sealer: its fd or -errno. */
int dlib_lock_blob(const char *path);
int dlib_read_sealing_blob(const char *path, struct dmd_state *st);
int dlib_store_reservation(const char *path, struct dmd_state *reserve);

/* store.c: every state written under @fence from now on (NULL: none). */
void dlib_store_set_fence(struct diamond_store *store,
			  struct diamond_fence *fence);
/* store.c: the fence set, or NULL. */
struct diamond_fence *dlib_store_fence(const struct diamond_store *store);
/* store.c: a version 4 file; @dec: the runs when @w has a cursor. */
int dlib_store_load_w(struct diamond_store *store, uint32_t device_id,
		      struct dlib_wstate *w, struct dlib_decided *dec);
int dlib_store_save_w(struct diamond_store *store,
		      const struct dlib_wstate *w,
		      const struct dlib_decided *dec);

/*
 * A packet-mode device's state (version 5, spec 14.5 "Release"): the
 * blob (e_c + 1, E_{e_c+1}), the cursor (e_c, u_c, R_{e_c,16u_c}) and the
 * two bitmaps of each undecided unit with a bit set.
 */
#define DLIB_PRX_UNITS	8	/* units a packet-mode device holds */
struct dlib_pbits {
	uint64_t e;
	uint32_t u;
	uint16_t rel;		/* bit r: record r released */
	uint8_t ver;		/* bit t: tag t verified */
};
struct dlib_pstate {
	struct dmd_state st;	/* epoch e_c + 1, key E_{e_c+1} */
	uint32_t uc;
	uint8_t rc[DMD_KEY_MAX];
	uint32_t n;
	struct dlib_pbits unit[DLIB_PRX_UNITS];
};
/*
 * Read: a version 5 file as stored; version 1 (and 2, 3: a stream
 * cursor's open epoch is given up, as dmd_receiver_state() does) as the
 * cursor at unit 0 of the blob's epoch, its keys derived.
 */
int dlib_store_load_pkt(struct diamond_store *store, uint32_t device_id,
			struct dlib_pstate *ps);
int dlib_store_save_pkt(struct diamond_store *store,
			const struct dlib_pstate *ps);
/* Is (e, u) before (e2, u2)? */
static inline int dlib_pos_before(uint64_t e, uint32_t u, uint64_t e2,
				    uint32_t u2)
{
	return e < e2 || (e == e2 && u < u2);
}

/*
 * kgrid.c: the packet receiver's kernel backend (kernel-api.rst "Packet
 * radio: the tag grid"). dlib_kgrid_key(): the restore form of @ps (a
 * version 2 blob, open-only, then le64(e_c) || le32(u_c) || R ||
 * 16 * le16 released || 16 * u8 verified) into @key, its length, or
 * -ERANGE for a bitmap outside the module's window of 16 units.
 * dlib_kgrid_request(): the AAD (the control table) and ciphertext of a
 * request for unit @u (@g NULL: none held, a give-up), its length.
 * dlib_kgrid_verdict(): the answer @out checked against @before, the
 * released plaintexts into @g->pt, the module's cursor into *@ec, *@uc;
 * -EIO when the module and the receiver disagree.
 */
#define DLIB_KGRID_KEY_MAX	(DMD_BLOB2_MAX + DMD_GRID_CURSOR_SIZE(DMD_KEY_MAX))
#define DLIB_KGRID_MAX		(DMD_GRID_TABLE_SIZE + \
				 DMD_GRID_UNIT * (2 + DMD_PKT_MAX_RECORD) + \
				 DMD_GRID_TAGS * DMD_PKT_TAG_SIZE)
uint64_t dlib_kgrid_distance(uint32_t units, uint64_t ec, uint32_t uc,
			     uint64_t e, uint32_t u);
ssize_t dlib_kgrid_key(const struct dlib_pstate *ps, uint8_t *key);
size_t dlib_kgrid_request(const struct dmd_grid_unit *g, uint32_t u,
			  uint8_t flags, uint8_t *in);
int dlib_kgrid_verdict(const uint8_t *out, size_t outlen,
		       struct dmd_grid_unit *g, uint16_t before,
		       struct dmd_grid_verdict *v, uint64_t *ec, uint32_t *uc);
/* The backend ops (internal.h, struct dlib_backend), @name the tfm's. */
int dlib_kgrid_attach(void **gh, const struct dlib_pstate *ps,
		      const char *name);
int dlib_kgrid_open(void *gh, unsigned int suite, const uint8_t *r,
		    uint64_t e, uint32_t u, struct dmd_grid_unit *g,
		    uint16_t before, struct dmd_grid_verdict *v);
int dlib_kgrid_decide(void *gh, uint64_t e, uint32_t u);
void dlib_kgrid_cursor(const void *gh, uint64_t *e, uint32_t *u);
void dlib_kgrid_drop(void *gh);

/* The directory of @store. */
const char *dlib_store_dir(const struct diamond_store *store);

int dlib_store_load_rx(struct diamond_store *store, uint32_t device_id,
		       struct dmd_state *st, struct dmd_receiver *rx,
		       uint32_t g, struct dlib_decided *dec);
int dlib_store_save_rx(struct diamond_store *store,
		       const struct dmd_receiver *rx,
		       const struct dlib_decided *dec);


#endif
