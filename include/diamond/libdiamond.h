/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * libdiamond: the userspace side of Diamond (Documentation/userspace.rst).
 *
 * A gateway reads frames (Documentation/spec.rst section 8), assembles the
 * record frames of one (device, epoch) until its tag frame, verifies and
 * decrypts the epoch - in the kernel through AF_ALG (libkcapi) by default,
 * or with the portable core when the caller explicitly selects the software
 * backend - and keeps each device's evolving key state in a crash-safe
 * state directory. A host sender seals records into frames and reserves
 * every epoch in its blob file before using it (spec section 10).
 *
 * Every function that can fail returns a negative errno value; the ones
 * specific to Diamond are listed with diamond_strerror(). All symbols carry
 * the diamond_ prefix. Secrets are wiped before memory is released.
 */
#ifndef LIBDIAMOND_H
#define LIBDIAMOND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DIAMOND_FRAME_HDR	20
#define DIAMOND_MAX_RECORD	4096
#define DIAMOND_MAX_AD		1024
#define DIAMOND_TAG_SIZE	16
#define DIAMOND_FRAME_MAX	(DIAMOND_FRAME_HDR + DIAMOND_MAX_RECORD)
#define DIAMOND_BLOB_MAX	64	/* a version 2 blob, suite 2 */
#define DIAMOND_ROOT_SIZE	32
#define DIAMOND_PROV_NONCE_SIZE	16	/* fresh per provisioning, spec section 2 */
/*
 * The one limit of sender and gateway: the largest epoch body, the
 * length-prefixed ciphertext records with the tag (spec section 7, AD not
 * counted). A sender closes an epoch early rather than exceed it, and the
 * gateway opens every epoch up to it. Equal to DMD_MAX_BODY of
 * <diamond/spec.h> (checked where both are seen).
 */
#define DIAMOND_MAX_BODY	1048576

/*
 * Errors of libdiamond's own, returned negated like errno values and
 * numbered above every errno (Linux's MAX_ERRNO is 4095), so an OS error
 * (a full disk, a missing path) is never reported as one of these.
 */
#define DIAMOND_EEXHAUSTED	4097	/* epoch index space exhausted */
#define DIAMOND_ENODEVICE	4098	/* unknown device: no state file */
#define DIAMOND_EOLDGEN		4099	/* epoch of an older provisioning generation */
#define DIAMOND_EBACKWARD	4100	/* import would not move the device forward */
#define DIAMOND_ECHAIN		4101	/* not a later state of the same key chain */

#define DIAMOND_FRAME_RECORD	1
#define DIAMOND_FRAME_TAG	2
#define DIAMOND_FRAME_GROUP	3	/* group tag, g < b (spec section 5.1) */

/**
 * diamond_strerror() - describe a libdiamond error
 * @err: a negative errno value returned by a diamond_ function
 *
 * Besides the usual errno meanings, libdiamond uses:
 * -EBADMSG bad tag; -EKEYEXPIRED epoch older than the state (replay);
 * -ERANGE epoch beyond max_skip; -EINVAL malformed or damaged blob, or
 * malformed body; -EMSGSIZE record, AD or epoch over its maximum;
 * -EPROTO malformed frame; -ENODATA truncated frame; -ENOMSG incomplete
 * epoch (records missing); -EUCLEAN corrupt state file; -EXDEV state file
 * of another device; -ENOBUFS an open epoch evicted (the gateway's window
 * or buffer was full); -ENOPKG kernel module or AF_ALG missing; -EEXIST
 * refusing to overwrite; -EBUSY the blob is locked by another sealer;
 * -EINPROGRESS a group tag frame is due before the sender goes on;
 * and its own codes -DIAMOND_E* above. Every other errno (-ENOENT,
 * -ENOSPC, ...) means what the OS says it means.
 *
 * Return: a static string, never NULL.
 */
const char *diamond_strerror(int err);

/* ---- Key blobs (spec section 2) ---------------------------------------- */

/**
 * struct diamond_params - the clear fields of a key blob
 * @suite: 1 (Diamond1, AES/GHASH) or 2 (Diamond2, ChaCha20/Poly1305)
 * @agg: 0 XOR, 1 ADD, 2 HASH
 * @b: records per epoch
 * @device_id: the device the blob belongs to
 * @epoch: the epoch this state opens
 * @generation: the provisioning generation (spec section 2); the first
 *              epoch of generation G is G * 2^32
 * @group_size: records per group tag, 1..b (spec section 5.1); 0 means b
 *              (one tag per epoch, no group tag frames)
 */
struct diamond_params {
	unsigned int suite;
	unsigned int agg;
	uint32_t b;
	uint32_t device_id;
	uint64_t epoch;
	unsigned int generation;
	uint32_t group_size;
};

/**
 * diamond_blob_info() - parse and check a key blob
 * @blob: the blob
 * @len: its length (version 2: 48 or 64; version 1: 40 or 56)
 * @p: receives the parameters (may be NULL to only check)
 *
 * Return: 0, or -EINVAL for a malformed blob.
 */
int diamond_blob_info(const uint8_t *blob, size_t len,
		      struct diamond_params *p);

/**
 * diamond_provision() - a device's initial blob by the earlier derivation
 * @root: the 32-byte root secret
 * @p: suite, agg, b, device_id, generation and group_size (epoch is
 *     ignored; the blob opens epoch generation * 2^32)
 * @blob: receives the version 2 blob, DIAMOND_BLOB_MAX bytes of room
 * @len: receives the blob length
 *
 * Spec section 2's earlier derivation, without a fresh value: its keys are
 * unique only while no (root, ID, generation) repeats, which a lost or
 * restored ledger breaks. For test keys from fixed roots; provisioning
 * uses diamond_provision_fresh().
 *
 * Return: 0, or -EINVAL for bad parameters (group_size above b included).
 */
int diamond_provision(const uint8_t root[DIAMOND_ROOT_SIZE],
		      const struct diamond_params *p, uint8_t *blob,
		      size_t *len);

/**
 * diamond_provision_fresh() - derive a device's initial blob at provisioning
 * @root: the 32-byte root secret
 * @nonce: DIAMOND_PROV_NONCE_SIZE bytes fresh from getrandom(2) for this
 *         provisioning alone (a fixed value only for known answers)
 * @p: as for diamond_provision()
 * @blob: receives the version 2 blob, DIAMOND_BLOB_MAX bytes of room
 * @len: receives the blob length
 *
 * Spec section 2: E_0 binds every parameter, the generation, the group size
 * and @nonce, so two provisionings never share a key even when the ledger
 * that hands out generations was lost, restored or copied. The blob does
 * not carry @nonce; keep it with the root (diamondctl writes it into the
 * ledger line) if the key must be recomputable.
 *
 * Return: 0, or -EINVAL for bad parameters (group_size above b included).
 */
int diamond_provision_fresh(const uint8_t root[DIAMOND_ROOT_SIZE],
			    const uint8_t nonce[DIAMOND_PROV_NONCE_SIZE],
			    const struct diamond_params *p, uint8_t *blob,
			    size_t *len);

/* ---- Files ------------------------------------------------------------- */

/**
 * diamond_file_replace() - replace a file's contents crash-safely
 * @path: the file
 * @data: new contents
 * @len: their length
 * @mode: permission bits of the new file (e.g. 0600)
 *
 * Writes a temporary file beside @path, fsyncs it, renames it over @path
 * and fsyncs the directory. After a crash at any point @path holds either
 * the old or the new contents, never a mixture.
 *
 * Return: 0 or a negative errno.
 */
int diamond_file_replace(const char *path, const void *data, size_t len,
			 unsigned int mode);

/* ---- State store ------------------------------------------------------- */

/*
 * A state directory holds one file per device, "<id>.state" (decimal id),
 * of DIAMOND_STATE_FILE_SIZE(blob length) bytes: "DMDS", version 1, three
 * zero bytes, le32 device id, le32 blob length, the blob, le32 CRC-32 of
 * everything before it. The file holds only the current state.
 */
#define DIAMOND_STATE_FILE_SIZE(bloblen)	(16 + (bloblen) + 4)

struct diamond_store;

#define DIAMOND_STORE_CREATE	1	/* make the directory (0700) if missing */
#define DIAMOND_STORE_LOCK	2	/* exclusive: the one gateway of @dir */

/**
 * diamond_store_open() - open a state directory
 * @store: receives the store
 * @dir: the directory
 * @flags: DIAMOND_STORE_CREATE, DIAMOND_STORE_LOCK
 *
 * With DIAMOND_STORE_LOCK the store takes an exclusive lock on
 * @dir/.lock (-EBUSY if another gateway holds it) and removes temporary
 * files a crashed writer left behind.
 *
 * Return: 0 or a negative errno.
 */
int diamond_store_open(struct diamond_store **store, const char *dir,
		       unsigned int flags);
void diamond_store_close(struct diamond_store *store);

/**
 * diamond_store_load() - read a device's current state blob
 * @store: the store
 * @device_id: the device
 * @blob: receives the blob, DIAMOND_BLOB_MAX bytes of room
 * @len: receives its length
 *
 * Return: 0; -DIAMOND_ENODEVICE unknown device (no state file);
 * -EUCLEAN corrupt file (bad size, magic, checksum or blob); -EXDEV the
 * file holds another device's state; another errno from the OS.
 */
int diamond_store_load(struct diamond_store *store, uint32_t device_id,
		       uint8_t *blob, size_t *len);

/**
 * diamond_store_import() - move a device's state forward, never back
 * @store: the store (open it with DIAMOND_STORE_LOCK: no gateway may run)
 * @blob: a state blob (from an export, or a newer provisioning)
 * @len: its length
 * @advance: also move it this many epochs further (0: as it is); for a
 *           backup whose newer states were lost, so that no epoch the lost
 *           state had accepted can be accepted again
 *
 * Without a state file for the device the blob becomes its state. With
 * one, the blob replaces it only if it moves the device forward: a later
 * generation, or the same generation at a later epoch whose key the current
 * state derives (at most 2^20 epoch updates are tried). Equal states are a
 * no-op.
 *
 * Return: 0; -DIAMOND_EBACKWARD an older or equal-epoch different state;
 * -DIAMOND_EOLDGEN an older generation; -DIAMOND_ECHAIN not a later state of
 * the device's chain (other root, parameters or key); -EINVAL a malformed
 * or damaged blob; or an errno.
 */
int diamond_store_import(struct diamond_store *store, const uint8_t *blob,
			 size_t len, uint64_t advance);

/**
 * diamond_store_save() - replace a device's state crash-safely
 * @store: the store
 * @blob: the new state blob; its device id names the file
 * @len: its length
 *
 * Return: 0 or a negative errno; on error the old state is intact.
 */
int diamond_store_save(struct diamond_store *store, const uint8_t *blob,
		       size_t len);

/*
 * The fence of a state directory that several gateways share, one at a
 * time (a fleet's shard: Documentation/userspace.rst section 12, "Shards
 * and failover"). @dir/fence holds the highest fencing token any holder
 * took the directory with, and its holder's name; every write a fenced
 * gateway makes in the directory is checked against it under an exclusive
 * flock() of that file, so a holder whose token is no longer the stored
 * one writes nothing there again.
 */
struct diamond_fence;

#define DIAMOND_FENCE_HOLDER_MAX	64	/* a holder's name, no blanks */

/* Open (create) @dir/fence. 0 or a negative errno. */
int diamond_fence_open(struct diamond_fence **f, const char *dir);
void diamond_fence_close(struct diamond_fence *f);
/* The stored token (0: never taken) and holder. 0 or a negative errno. */
int diamond_fence_read(struct diamond_fence *f, uint64_t *token,
		       char *holder, size_t size);
/*
 * Take the directory with @token, which must be larger than the stored
 * one (else -ESTALE: as new a holder took it); written and fsync'd.
 */
int diamond_fence_take(struct diamond_fence *f, uint64_t token,
		       const char *holder);
/*
 * Lock the fence and check that the stored token is still ours: 0 (call
 * diamond_fence_exit() after the write), or -ESTALE, for good: a newer
 * holder took the directory (diamond_fence_stale() gives its token).
 */
int diamond_fence_enter(struct diamond_fence *f);
void diamond_fence_exit(struct diamond_fence *f);
/* diamond_fence_enter() and exit: is the directory still ours? */
int diamond_fence_check(struct diamond_fence *f);
/* Our token (0 before a take). */
uint64_t diamond_fence_token(const struct diamond_fence *f);
/* The newer token that refused us, or 0 while we hold the directory. */
uint64_t diamond_fence_stale(const struct diamond_fence *f);

/**
 * diamond_store_create() - write a device's first state, never overwriting
 * @store: the store
 * @blob: the initial blob
 * @len: its length
 *
 * Return: 0, -EEXIST if the device already has a state file, or an errno.
 */
int diamond_store_create(struct diamond_store *store, const uint8_t *blob,
			 size_t len);

/**
 * diamond_store_path() - the state file path of a device
 * @store: the store
 * @device_id: the device
 * @buf: output buffer
 * @size: its size
 */
void diamond_store_path(const struct diamond_store *store, uint32_t device_id,
			char *buf, size_t size);

/* ---- Frames (spec section 8) ------------------------------------------- */

/**
 * struct diamond_frame - one frame
 * @type: DIAMOND_FRAME_RECORD or DIAMOND_FRAME_TAG
 * @suite: 1 or 2
 * @device_id: sender
 * @epoch: epoch
 * @index: record index j (record) or record count n (tag)
 * @len: payload length
 * @payload: C_j (record) or AD || T (tag); points into the parser's buffer
 */
struct diamond_frame {
	uint8_t type;
	uint8_t suite;
	uint32_t device_id;
	uint64_t epoch;
	uint16_t index;
	uint16_t len;
	const uint8_t *payload;
};

/**
 * diamond_frame_write() - serialize a frame
 * @out: output buffer
 * @size: its size; DIAMOND_FRAME_HDR + f->len bytes are needed
 * @f: the frame
 *
 * Return: the frame length, -EMSGSIZE if @out is too small, -EPROTO if @f
 * is not a valid frame.
 */
int diamond_frame_write(uint8_t *out, size_t size,
			const struct diamond_frame *f);

/**
 * diamond_frame_parse() - parse one frame at the start of a buffer
 * @f: receives the frame; its payload points into @buf
 * @buf: bytes starting at a frame boundary
 * @len: bytes available
 *
 * Return: the frame length; -ENODATA if @buf holds only part of a frame
 * (truncated, or more bytes needed); -EILSEQ if @buf does not start with
 * the sync bytes; -EPROTO for a header with a bad type, suite, length,
 * count or epoch.
 */
int diamond_frame_parse(struct diamond_frame *f, const uint8_t *buf,
			size_t len);

struct diamond_reader;

/**
 * diamond_reader_new() - a stream parser that resynchronises on bad sync
 *
 * Return: the reader or NULL (out of memory).
 */
struct diamond_reader *diamond_reader_new(void);
void diamond_reader_free(struct diamond_reader *r);

/**
 * diamond_reader_feed() - append received bytes
 * @r: the reader
 * @data: bytes
 * @len: count
 *
 * Return: 0 or -ENOMEM.
 */
int diamond_reader_feed(struct diamond_reader *r, const uint8_t *data,
			size_t len);

/**
 * diamond_reader_next() - take the next frame
 * @r: the reader
 * @f: receives the frame (valid until the next call on @r)
 * @skipped: receives the number of bytes discarded before the result
 *
 * Bytes without sync are discarded up to the next "DF"; a header with sync
 * but invalid fields is reported once and its first byte discarded.
 *
 * Return: 1 a frame; 0 more data needed; -EILSEQ bytes were discarded to
 * resynchronise (*@skipped says how many); -EPROTO a malformed header.
 */
int diamond_reader_next(struct diamond_reader *r, struct diamond_frame *f,
			size_t *skipped);

/**
 * diamond_reader_pending() - bytes held that do not yet form a frame
 * @r: the reader
 *
 * At the end of input a non-zero value means a truncated frame.
 */
size_t diamond_reader_pending(const struct diamond_reader *r);

/**
 * diamond_reader_reset() - discard every byte held (a new datagram or a
 * reconnected line starts at a frame boundary)
 * @r: the reader
 */
void diamond_reader_reset(struct diamond_reader *r);

/* ---- Epoch assembler --------------------------------------------------- */

struct diamond_asm;

/**
 * struct diamond_epoch_body - one assembled epoch, ready for verification
 * @device_id: device
 * @suite: suite named by the frames
 * @epoch: epoch
 * @count: number of records n
 * @ad: associated data (from the tag frame)
 * @adlen: its length
 * @ct: ciphertext body le16(len_0) || C_0 || ... || T (spec section 7)
 * @ct_len: its length
 *
 * The assembler lays out @ad and @ct contiguously (AD || body || T, the
 * layout of an AF_ALG AEAD request) in the caller's buffer.
 */
struct diamond_epoch_body {
	uint32_t device_id;
	unsigned int suite;
	uint64_t epoch;
	uint32_t count;
	const uint8_t *ad;
	size_t adlen;
	const uint8_t *ct;
	size_t ct_len;
};

/**
 * diamond_asm_new() - an assembler for one device's epochs
 * @max_body: the largest epoch body accepted (bytes), 0 for the default
 *	(1 MiB: what one kernel request takes comfortably)
 *
 * Return: the assembler or NULL.
 */
struct diamond_asm *diamond_asm_new(size_t max_body);
void diamond_asm_free(struct diamond_asm *a);

/**
 * diamond_asm_record() - add a record frame
 * @a: the assembler
 * @f: a record frame
 * @dropped: receives the epoch of an unfinished epoch that this frame
 *	abandoned (a frame of a newer epoch arrived first)
 *
 * A repeated index keeps up to 3 distinct copies (exact repeats and
 * further copies are dropped); diamond_asm_tag() uses the latest. A frame
 * of an epoch older than the one being assembled is ignored.
 *
 * Return: 0; 1 if an unfinished epoch was abandoned (its number in
 * *@dropped; it is incomplete); -EMSGSIZE if the epoch grows too large
 * (the epoch is abandoned); -ENOMEM.
 */
int diamond_asm_record(struct diamond_asm *a, const struct diamond_frame *f,
		       uint64_t *dropped);

/**
 * diamond_asm_tag() - close the epoch with its tag frame
 * @a: the assembler
 * @f: the tag frame
 * @buf: the caller's output buffer (malloc'd or NULL; grown as needed and
 *	shared between assemblers, so an idle device holds no body)
 * @cap: its capacity, updated
 * @body: receives the assembled epoch, pointing into *@buf
 *
 * The assembler is empty afterwards whatever the result.
 *
 * Return: 0; -ENOMSG if a record below the count is missing, or records
 * past the count arrived (an incomplete or inconsistent epoch); -EMSGSIZE;
 * -ENOMEM.
 */
int diamond_asm_tag(struct diamond_asm *a, const struct diamond_frame *f,
		    uint8_t **buf, size_t *cap, struct diamond_epoch_body *body);

/**
 * diamond_asm_pending() - whether an unfinished epoch is held
 * @a: the assembler
 * @epoch: receives its number if so
 */
int diamond_asm_pending(const struct diamond_asm *a, uint64_t *epoch);

/* ---- Backends ---------------------------------------------------------- */

enum diamond_backend_kind {
	DIAMOND_BACKEND_KERNEL = 0,	/* AF_ALG "diamond(...)" via libkcapi */
	DIAMOND_BACKEND_SOFTWARE = 1,	/* portable core, explicit only */
};

/**
 * diamond_kernel_probe() - check that the kernel offers Diamond
 * @msg: receives a human-readable reason on failure
 * @size: its size
 *
 * Return: 0, or -ENOPKG when AF_ALG or the diamond module is missing
 * (@msg says how to load it).
 */
int diamond_kernel_probe(char *msg, size_t size);

/* ---- Gateway ----------------------------------------------------------- */

/**
 * struct diamond_gw_opts - gateway options
 * @state_dir: the state directory
 * @backend: DIAMOND_BACKEND_KERNEL (default) or DIAMOND_BACKEND_SOFTWARE
 * @max_tfms: kernel backend: keyed tfms kept open at once (LRU; 0 =
 *	16384, about 800 MiB of kernel memory at b = 1024; lowered to fit
 *	the descriptor limit, four each, and when a tfm is refused -ENOMEM)
 * @max_skip: lost epochs a device may skip (0 = 4096, spec section 9)
 * @max_body: 0 or DIAMOND_MAX_BODY, the one limit of sender and gateway
 *	(any other value is -EINVAL: a smaller cap would refuse epochs the
 *	sender makes, a larger one accept epochs no sender makes)
 * @max_buffer: bytes all open epochs of all devices may hold together
 *	(0 = DIAMOND_DEFAULT_MAX_BUFFER, at least DIAMOND_MIN_MAX_BUFFER);
 *	past it the least recently fed open epoch is dropped ("evicted")
 * @flags: DIAMOND_GW_SPOOL, DIAMOND_GW_QUARANTINE, DIAMOND_GW_CUSTODY
 * @quarantine_max: bytes the quarantine may hold (0 = 64 MiB); the oldest
 *	files go first
 *
 * Ingest limits (Documentation/userspace.rst, "Gateway limits"): a device
 * has at most DIAMOND_WINDOW_EPOCHS epochs open at once, each at most
 * @max_body bytes of records plus 8 bytes per record index below the
 * device's b; all open epochs together hold at most @max_buffer bytes.
 */
struct diamond_gw_opts {
	const char *state_dir;
	enum diamond_backend_kind backend;
	unsigned int max_tfms;
	uint32_t max_skip;
	size_t max_body;
	size_t max_buffer;
	unsigned int flags;
	size_t quarantine_max;
};

#define DIAMOND_WINDOW_EPOCHS		4
#define DIAMOND_DEFAULT_MAX_BUFFER	(32u << 20)
/* One largest epoch: its records grown by doubling, and 65535 slots. */
#define DIAMOND_MIN_MAX_BUFFER		(4u << 20)
#define DIAMOND_DEFAULT_QUARANTINE_MAX	(64u << 20)

/*
 * DIAMOND_GW_SPOOL: every frame taken into an open epoch is appended to
 * @state_dir/spool/frames (fdatasync'd once per diamond_gw_feed() call,
 * which fails if that fails);
 * diamond_gw_resume() reloads it after a restart. The file is rewritten
 * from memory when it outgrows twice what is open, so it stays within
 * 2 * max_buffer + 1 MiB.
 * DIAMOND_GW_QUARANTINE: the frames of each rejected epoch that had its
 * tag frame are written to
 * @state_dir/quarantine/<seq>-<device>-<epoch>-<reason>.frames, a frame
 * file that "diamondctl open --input" takes again; at most quarantine_max
 * bytes and 4096 files, the oldest removed first.
 */
#define DIAMOND_GW_SPOOL	1
#define DIAMOND_GW_QUARANTINE	2
/*
 * DIAMOND_GW_CUSTODY: the kernel backend in custody mode or not at all
 * (-ENOKEY without a logon key "diamond:wrap" in the caller's keyrings).
 * Without the flag custody is on exactly when that key is found; then
 * device keys stay in diamond.ko, state files are wrapped (version 4) and
 * a state file with a clear key is refused (-EPERM): Documentation/
 * userspace.rst section 1, "Custody".
 */
#define DIAMOND_GW_CUSTODY	4
/*
 * DIAMOND_GW_SHARED: @state_dir is a fleet's shard directory, shared by
 * the verifiers that may take the shard: no lifetime lock is taken on it;
 * instead every write there (device states, the spool) is made under the
 * fence given by diamond_gw_set_fence(), and refused (-ESTALE) once a
 * newer holder took the directory.
 */
#define DIAMOND_GW_SHARED	8

/**
 * struct diamond_keys_opts - the custody loader (diamond_keys_load())
 * @key_dir: root-only directory of clear state files (<id>.state, as
 *	provision --state-dir, import and restore write them) and wrap.key
 *	(32 bytes, mode 0600; made with getrandom when missing)
 * @state_dir: the ingest's state directory, written in version 4
 *	(wrapped) form; created if missing
 * @keyring: where the logon keys go; 0 = the session keyring
 * @flags: DIAMOND_KEYS_WRAP, DIAMOND_KEYS_NEW_SESSION, DIAMOND_KEYS_USER
 * @uid: owner given to the files written into @state_dir ((uid_t)-1:
 *	unchanged), @gid their group
 *
 * Documentation/userspace.rst section 1, "Custody".
 */
struct diamond_keys_opts {
	const char *key_dir;
	const char *state_dir;
	int32_t keyring;
	unsigned int flags;
	uid_t uid;
	gid_t gid;
};
/* Wrap every state at load (the loader keys a tfm), as on 6.1. */
#define DIAMOND_KEYS_WRAP	1
/*
 * Join a new session keyring first and, once loaded, leave it to its
 * possessors to view, list and search only: the process (and what it
 * executes, whatever uid it drops to) finds the keys; nobody adds, links
 * or removes one (a planted "diamond:wrap" in it would be found first).
 */
#define DIAMOND_KEYS_NEW_SESSION 2
/*
 * Into a new keyring "diamond" (closed as above, owned by root) linked
 * into the user keyring of @uid, replacing the one linked there before:
 * every process of that user whose session keyring links its user
 * keyring (systemd's KeyringMode=shared) finds the keys, and the loader
 * can run in a command of its own (ExecStartPre=+).
 */
#define DIAMOND_KEYS_USER	4

/**
 * diamond_keys_load() - load the custody keys (as root, at service start)
 * @o: the directories and keyring
 * @msg: receives a one-line summary, or what failed
 * @size: its size
 *
 * Adds the logon key "diamond:wrap" and, per device whose ingest state is
 * not a wrapped state at or past the clear one, either the logon key
 * "diamond:<id>" (view and search only; the ingest keys by serial) or,
 * where the kernel cannot key by serial (6.1) or with DIAMOND_KEYS_WRAP,
 * the module's wrapped export of its state into @o->state_dir.
 *
 * Return: the number of devices, or -errno.
 */
int diamond_keys_load(const struct diamond_keys_opts *o, char *msg,
		      size_t size);

/* Why an epoch was rejected: the labels of the metrics. */
enum diamond_reason {
	DIAMOND_REASON_BAD_TAG,		/* -EBADMSG */
	DIAMOND_REASON_REPLAY,		/* -EKEYEXPIRED */
	DIAMOND_REASON_TOO_FAR,		/* -ERANGE */
	DIAMOND_REASON_INCOMPLETE,	/* -ENOMSG */
	DIAMOND_REASON_TOO_LARGE,	/* -EMSGSIZE */
	DIAMOND_REASON_EVICTED,		/* -ENOBUFS: window or buffer full */
	DIAMOND_REASON_UNKNOWN_DEVICE,	/* -DIAMOND_ENODEVICE */
	DIAMOND_REASON_OLD_GENERATION,	/* -DIAMOND_EOLDGEN */
	DIAMOND_REASON_STATE,		/* -EUCLEAN, -EXDEV, I/O */
	DIAMOND_REASON_OTHER,
	DIAMOND_REASON_UNSUPPORTED,	/* -EOPNOTSUPP: grouped device, kernel */
	DIAMOND_REASON_COUNT
};

/**
 * diamond_reason() - the reason class of a rejection errno
 * @err: a negative errno from an event
 *
 * Return: an enum diamond_reason.
 */
int diamond_reason(int err);

/**
 * diamond_reason_name() - a short label: "bad_tag", "replay", ...
 * @reason: an enum diamond_reason
 *
 * Return: a static string.
 */
const char *diamond_reason_name(int reason);

enum diamond_event_kind {
	DIAMOND_EV_VERIFIED = 1,	/* an epoch verified; records delivered */
	DIAMOND_EV_REJECTED = 2,	/* an epoch rejected; nothing delivered */
	DIAMOND_EV_FRAME = 3,		/* malformed/truncated/garbage input */
	/* Devices with a group size g < b (spec section 9.1): */
	DIAMOND_EV_GROUP_VERIFIED = 4,	/* a group (unit) released */
	DIAMOND_EV_GROUP_REJECTED = 5,	/* a group failed or was given up */
	DIAMOND_EV_EPOCH_GROUPS = 6,	/* an epoch decided: its groups */
	/* The input ended with a unit whose try failed still undecided: */
	DIAMOND_EV_GROUP_UNDECIDED = 7,	/* kept, a genuine copy may come */
};

/**
 * struct diamond_event - what happened to an epoch or to the input
 * @kind: enum diamond_event_kind
 * @err: 0 or the negative errno of the rejection
 * @device_id: device (not for DIAMOND_EV_FRAME)
 * @epoch: epoch (not for DIAMOND_EV_FRAME)
 * @count: records in the epoch, or bytes skipped for DIAMOND_EV_FRAME
 * @detail: extra text (file names etc.), may be empty
 * @group: DIAMOND_EV_GROUP_*: the group index i (the final group is
 *	number q, its records q*g .. n-1)
 * @first: DIAMOND_EV_GROUP_*: the group's first record index
 * @closed: DIAMOND_EV_EPOCH_GROUPS: 1 if the epoch tag verified (then
 *	@count is the epoch's authenticated record count n), 0 if the
 *	gateway moved past the epoch without it (n unknown, at least the
 *	records of the groups released)
 * @group_err: DIAMOND_EV_EPOCH_GROUPS: per group 0 released, or the
 *	negative errno it was rejected with (-ENOMSG: incomplete or lost,
 *	-EBADMSG: bad tag and no genuine copy came)
 * @ngroups: DIAMOND_EV_EPOCH_GROUPS: entries in @group_err;
 *	DIAMOND_EV_GROUP_REJECTED: the groups @group .. @group + @ngroups - 1,
 *	all rejected for @err (records @first .. @first + @count - 1, the
 *	final group's as far as its tag frame's n says); 0 means one group;
 *	DIAMOND_EV_GROUP_UNDECIDED: the same for groups whose last try
 *	failed with @err and that the input left undecided
 *
 * For a grouped device each unit gives a DIAMOND_EV_GROUP_VERIFIED (after
 * its records); groups given up come as DIAMOND_EV_GROUP_REJECTED events,
 * one per run of consecutive groups with the same reason. When the input
 * ends (diamond_gw_finish()), the units at or past the cursor whose tries
 * failed come as DIAMOND_EV_GROUP_UNDECIDED events, one per run: nothing
 * is decided about them (their keys are kept, a genuine copy may still
 * open them in the next run), so they are not counted as rejected. Once the gateway
 * is done with an epoch (its final group verified, or a later epoch's unit
 * verified, or the input ended) one DIAMOND_EV_EPOCH_GROUPS sums it up,
 * but only if at least one of its groups was released: an epoch of which
 * nothing verified is no fact about a device (its groups are still
 * counted and reported as rejected).
 */
struct diamond_event {
	int kind;
	int err;
	uint32_t device_id;
	uint64_t epoch;
	uint32_t count;
	const char *detail;
	uint32_t group;
	uint32_t first;
	int closed;
	const int *group_err;
	uint32_t ngroups;
};

/**
 * struct diamond_record - one verified record with its epoch's AD
 * @device_id: device
 * @epoch: epoch
 * @index: record index
 * @data: the plaintext record
 * @len: its length
 * @ad: the epoch's associated data (verified with it)
 * @adlen: its length, 0 without AD
 * @group: the group the record was released with (0 without groups)
 */
struct diamond_record {
	uint32_t device_id;
	uint64_t epoch;
	uint32_t index;
	const uint8_t *data;
	size_t len;
	const uint8_t *ad;
	size_t adlen;
	uint32_t group;
};

/**
 * struct diamond_gw_cbs - gateway callbacks
 * @record: one plaintext record of a verified epoch; called only after the
 *	new state is durable, in index order
 * @event: after each epoch (verified or rejected) and each input error
 * @arg: passed to all
 * @record_ad: like @record, with the epoch's associated data; when set it
 *	is called instead of @record
 */
struct diamond_gw_cbs {
	void (*record)(void *arg, uint32_t device_id, uint64_t epoch,
		       uint32_t index, const uint8_t *data, size_t len);
	void (*event)(void *arg, const struct diamond_event *ev);
	void *arg;
	void (*record_ad)(void *arg, const struct diamond_record *r);
};

/**
 * struct diamond_gw_stats - counters since diamond_gw_new()
 * @devices: distinct devices with at least one verified epoch
 * @verified: epochs verified
 * @rejected: epochs rejected
 * @records: records delivered
 * @frame_errors: malformed, truncated or unsynchronised input events
 * @tfm_inits: kernel tfms created (setkey from the state file)
 * @tfm_evictions: kernel tfms closed by the LRU
 * @frames_dropped: well-formed frames not used: unknown device, epoch
 *	already verified or beyond max_skip, index past b, window or buffer
 *	full (the frames of evicted epochs count too)
 * @bytes: bytes received
 * @rejected_by: @rejected by enum diamond_reason
 * @open_epochs: epochs being assembled now
 * @buffered: bytes they hold (at most max_buffer)
 * @groups_verified: groups of grouped devices released (final groups too)
 * @groups_rejected: groups rejected (bad tag) or given up (incomplete)
 *
 * The size of this struct is part of libdiamond.so.1's ABI: a new counter
 * gets a function of its own (diamond_gw_chain_steps()), never a field.
 */
struct diamond_gw_stats {
	uint64_t devices;
	uint64_t verified;
	uint64_t rejected;
	uint64_t records;
	uint64_t frame_errors;
	uint64_t tfm_inits;
	uint64_t tfm_evictions;
	uint64_t frames_dropped;
	uint64_t bytes;
	uint64_t rejected_by[DIAMOND_REASON_COUNT];
	uint64_t open_epochs;
	uint64_t buffered;
	uint64_t groups_verified;
	uint64_t groups_rejected;
};

/**
 * struct diamond_dev_stats - one device's counters since diamond_gw_new()
 * @device_id: the device
 * @verified: epochs verified
 * @rejected_by: epochs rejected, by enum diamond_reason
 * @records: records delivered
 * @frames_dropped: its frames not used (see struct diamond_gw_stats)
 * @bytes: bytes of its frames received
 * @last_epoch: the last epoch verified (valid if @verified)
 * @groups_verified: groups released (grouped devices)
 * @groups_rejected: groups rejected or given up (grouped devices)
 */
struct diamond_dev_stats {
	uint32_t device_id;
	uint64_t verified;
	uint64_t rejected_by[DIAMOND_REASON_COUNT];
	uint64_t records;
	uint64_t frames_dropped;
	uint64_t bytes;
	uint64_t last_epoch;
	uint64_t groups_verified;
	uint64_t groups_rejected;
};

struct diamond_gw;

/**
 * diamond_gw_new() - start a gateway
 * @gw: receives the gateway
 * @opts: options
 * @cbs: callbacks (copied)
 * @msg: receives a reason on failure; on success, with the kernel backend,
 *	a one-line note when the kernel path is diamond.ko's own AF_ALG type
 *	because type "aead" refused it (7.3's crypto.af_alg_restrict=1), else
 *	it is left as it was
 * @size: its size
 *
 * With the kernel backend the module is probed first; when it is missing
 * this fails with -ENOPKG and never falls back to software.
 *
 * Return: 0 or a negative errno.
 */
int diamond_gw_new(struct diamond_gw **gw, const struct diamond_gw_opts *opts,
		   const struct diamond_gw_cbs *cbs, char *msg, size_t size);
void diamond_gw_free(struct diamond_gw *gw);

/**
 * diamond_gw_feed() - process received bytes
 * @gw: the gateway
 * @data: bytes
 * @len: count
 *
 * Frames are parsed, assembled per device and each complete epoch is
 * verified, persisted, then delivered. Per-epoch and per-frame problems
 * are reported through the event callback and counted; they do not fail
 * this call.
 *
 * Storage does: when the spool (DIAMOND_GW_SPOOL), a state file or the
 * stage's commit (diamond_gw_set_stage()) cannot be written or synced,
 * the call fails with that errno and diamond_gw_failure() names the file.
 * Then what @data brought may not be durable, so a caller that
 * acknowledges its input must not acknowledge it; an epoch or unit that
 * verified but could not be made durable is not decided (no event, no
 * records without a stage), and stays open. A later call tries again (a
 * spool that failed is rewritten from memory first), but the usual answer
 * is to stop: diamond_gw_free() leaves what is open in the spool.
 *
 * Return: 0, or a negative errno for a fatal error: out of memory, or
 * storage (above).
 */
int diamond_gw_feed(struct diamond_gw *gw, const uint8_t *data, size_t len);

/**
 * diamond_gw_finish() - end of input
 * @gw: the gateway
 *
 * Reports a truncated final frame and every unfinished epoch as rejected
 * (-ENOMSG), quarantines them and empties the spool. A gateway freed
 * without this keeps its open epochs in the spool for the next run.
 *
 * Return: 0, or a storage failure as for diamond_gw_feed(); then nothing
 * was closed, and the open epochs stay in the spool.
 */
int diamond_gw_finish(struct diamond_gw *gw);

/**
 * diamond_gw_open_epoch() - verify one assembled epoch
 * @gw: the gateway
 * @body: the epoch
 * @pt: receives the plaintext body, @body->ct_len - 16 bytes
 *
 * Verifies with the configured backend; on success the device's new state
 * is durable in the state directory before this returns.
 *
 * Return: 0; -ENOENT, -EUCLEAN, -EXDEV (state file); -EBADMSG,
 * -EKEYEXPIRED, -ERANGE, -EINVAL, -EMSGSIZE (verification); -EPROTO (the
 * frames name another suite than the state); an I/O errno.
 */
int diamond_gw_open_epoch(struct diamond_gw *gw,
			  const struct diamond_epoch_body *body, uint8_t *pt);

/**
 * diamond_gw_failure() - what the last call could not make durable
 * @gw: the gateway
 *
 * After diamond_gw_feed(), diamond_gw_feed_datagram(), diamond_gw_finish()
 * or diamond_gw_resume() failed on storage: "spool PATH", "state PATH"
 * (a device's state file) or "stage" (the stage's commit failed: its
 * caller knows why).
 *
 * Return: that text, or "" when the last call had no storage failure.
 */
const char *diamond_gw_failure(const struct diamond_gw *gw);

void diamond_gw_stats(const struct diamond_gw *gw,
		      struct diamond_gw_stats *stats);

/**
 * diamond_gw_chain_steps() - the work spent reaching grouped units
 * @gw: the gateway
 *
 * Return: record chain steps (and epoch updates) walked to reach the first
 * slot of the units of grouped devices, their own records not counted: at
 * most one walk of each open epoch plus 255 per unit (software backend;
 * Documentation/spec.rst, section 11).
 */
uint64_t diamond_gw_chain_steps(const struct diamond_gw *gw);

/**
 * diamond_gw_foreach_dev() - the counters of every device seen
 * @gw: the gateway
 * @fn: called once per device that sent a frame, in no particular order
 * @arg: passed to @fn
 */
void diamond_gw_foreach_dev(const struct diamond_gw *gw,
			    void (*fn)(void *arg,
				       const struct diamond_dev_stats *s),
			    void *arg);

/**
 * diamond_gw_feed_datagram() - process one datagram
 * @gw: the gateway
 * @data: the datagram
 * @len: its length
 *
 * The datagram is parsed as whole frames on its own: bytes it leaves
 * unparsed (a header claiming more than the datagram holds) are reported
 * as a truncated frame and discarded, so no datagram can reach into the
 * next one. Otherwise as diamond_gw_feed().
 *
 * Return: 0, or a negative errno for a fatal error (out of memory).
 */
int diamond_gw_feed_datagram(struct diamond_gw *gw, const uint8_t *data,
			     size_t len);

/**
 * diamond_gw_break() - the byte stream broke (a serial port went away)
 * @gw: the gateway
 *
 * Bytes held that do not form a whole frame are reported as a truncated
 * frame and dropped; the next bytes fed start at a frame boundary.
 */
void diamond_gw_break(struct diamond_gw *gw);

/**
 * diamond_gw_set_stage() - hand records out before the state moves on
 * @gw: the gateway
 * @commit: NULL (the default order), or called once the records of a
 *	verified epoch or unit have gone to the record callbacks and before
 *	the device's new state is saved; it returns 0 once what the callbacks
 *	were given is durable, else a negative errno
 * @arg: passed to @commit
 *
 * The default order is verify -> state durable -> records out, so a
 * record is never delivered twice, and a crash between the last two
 * loses it. A caller whose output is a durable queue (diamondctl open
 * --mqtt: an outbox file) sets a stage to get verify -> records out ->
 * @commit -> state durable instead: a crash before the state is saved
 * gives the same records again (same ID, same content) when the frames
 * come again, so delivery is at least once. When @commit fails the
 * state is not saved, the epoch or unit counts as not opened (a tfm that
 * moved on is closed, as when the state file cannot be written) and the
 * feed call fails with @commit's negative errno (diamond_gw_feed()).
 *
 * Return: 0, or -EINVAL without @gw.
 */
int diamond_gw_set_stage(struct diamond_gw *gw, int (*commit)(void *arg),
			 void *arg);

/**
 * diamond_gw_set_fence() - fence every write to a shared state directory
 * @gw: a gateway opened with DIAMOND_GW_SHARED
 * @fence: the directory's fence, taken (diamond_fence_take()); it must
 *	outlive @gw
 *
 * Set it before diamond_gw_resume() and the first feed. From then on each
 * device state and each spool write is checked and made under the fence;
 * once it is refused the write is not made (the state stays where it was,
 * as when its file cannot be written) and the caller finds out from
 * diamond_fence_stale(): it must drop the gateway, releasing nothing more.
 *
 * Return: 0, or -EINVAL.
 */
int diamond_gw_set_fence(struct diamond_gw *gw, struct diamond_fence *fence);

/**
 * diamond_gw_resume() - take up the spool of an earlier run
 * @gw: a gateway opened with DIAMOND_GW_SPOOL
 *
 * Feeds the frames a previous gateway spooled for its open epochs; those
 * that complete are verified and delivered now, the others wait for the
 * rest of their frames.
 *
 * Return: the number of frames taken up, or a negative errno.
 */
int diamond_gw_resume(struct diamond_gw *gw);

/* ---- Host sender (spec section 10) ------------------------------------- */

struct diamond_sender;

/**
 * diamond_sender_open() - a sender on a blob file
 * @s: receives the sender
 * @blob_path: the device's blob file, updated in place crash-safely
 *
 * A seal is exclusive: the sender holds an exclusive flock(2) on
 * "<blob_path>.lock" (created beside the blob, mode 0600) until
 * diamond_sender_free(). The blob itself is replaced by rename(), so it
 * cannot carry the lock. Any other tool that reads the blob to seal with it
 * or writes it (firmware image tools too) must take the same lock.
 *
 * Return: 0 or a negative errno: -EBUSY another sender holds the lock;
 * -EINVAL malformed or damaged blob (nothing is sealed with it); -EPERM an
 * open-only blob (spec section 2: a gateway's key), refused before anything
 * is sealed.
 */
int diamond_sender_open(struct diamond_sender **s, const char *blob_path);

/**
 * diamond_sender_seal() - seal one record into a record frame
 * @s: the sender
 * @data: the record
 * @len: its length, at most 4096
 * @frame: receives the frame, DIAMOND_FRAME_MAX bytes of room
 * @full: set to 1 when the epoch must now be closed: it holds b records,
 *        or one more record of the maximum size could take its body over
 *        DIAMOND_MAX_BODY, which the gateway would refuse
 *
 * The first record of an epoch first reserves it: the blob for the next
 * epoch (version 2) is written to the blob file durably before anything is
 * sealed. With a group size g < b (the blob's, spec section 5.1) a seal
 * that fills a group makes its group tag frame due: call
 * diamond_sender_close_group() after every seal.
 *
 * Return: the frame length or a negative errno (-EINPROGRESS: a group tag
 * frame is due and was not taken).
 */
int diamond_sender_seal(struct diamond_sender *s, const uint8_t *data,
			size_t len, uint8_t *frame, int *full);

/**
 * diamond_sender_close_group() - the group tag frame the last seal made due
 * @s: the sender
 * @ad: associated data (may be NULL with @adlen 0): the epoch's, which
 *      every group of it carries
 * @adlen: its length, at most 1024
 * @frame: receives the frame, DIAMOND_FRAME_HDR + 1040 bytes of room
 *
 * A group ending before b that the last seal filled gets its tag G_i in a
 * group tag frame (type 3), to be sent right after that record frame. With
 * g = b, or when no group is full, there is none.
 *
 * Return: the frame length, 0 if no group tag is due, or a negative errno.
 */
int diamond_sender_close_group(struct diamond_sender *s, const uint8_t *ad,
			       size_t adlen, uint8_t *frame);

/**
 * diamond_sender_close_epoch() - close the open epoch with its tag frame
 * @s: the sender
 * @ad: associated data (may be NULL with @adlen 0)
 * @adlen: its length, at most 1024
 * @frame: receives the frame, DIAMOND_FRAME_HDR + 1040 bytes of room
 *
 * Return: the frame length, 0 if no epoch is open, or a negative errno.
 */
int diamond_sender_close_epoch(struct diamond_sender *s, const uint8_t *ad,
			       size_t adlen, uint8_t *frame);

/**
 * diamond_sender_params() - the parameters of the sender's device
 * @s: the sender
 * @p: receives them (epoch: the next epoch to begin or the open one)
 */
void diamond_sender_params(const struct diamond_sender *s,
			   struct diamond_params *p);
void diamond_sender_free(struct diamond_sender *s);


/* ---- Packet radio: the receiver (spec section 14.5) -------------------- */

/*
 * A device in packet mode has a radio configuration beside its key (spec
 * 14.2): its address width @a (1 .. 4 bytes on the air) and its short
 * address. libdiamond keeps it in the state directory, "<id>.radio", a
 * line "packet a=A addr=X" (X in hex).
 */

/**
 * diamond_radio_set() - give a device of @store a packet-mode address
 * @store: the state directory (the device's state file must exist)
 * @device_id: the device
 * @a: address width, 1 .. 4
 * @addr: short address, below 2^(8a)
 *
 * Refuses (-EADDRINUSE) an address whose bytes on the air begin, or are
 * begun by, another packet-mode device's (prefix-free, spec 14.2), and
 * (-EINVAL) a key packet mode refuses (XOR, b a multiple of 16, no groups).
 *
 * Return: 0 or a negative errno.
 */
int diamond_radio_set(struct diamond_store *store, uint32_t device_id,
		      unsigned int a, uint32_t addr);
/**
 * diamond_radio_free() - may @device_id take this address?
 * @store: the state directory
 * @device_id: the device (its own configuration never clashes)
 * @a: address width, 1 .. 4
 * @addr: short address, below 2^(8a)
 *
 * The address check of diamond_radio_set() alone, for a device that has no
 * state yet: a provisioner asks before it uses a generation, so a clash
 * costs no key (diamond_radio_set() checks again when it writes).
 *
 * Return: 0 when free, -EADDRINUSE on a clash, -EINVAL for a bad address.
 */
int diamond_radio_free(struct diamond_store *store, uint32_t device_id,
		       unsigned int a, uint32_t addr);
/* The radio configuration of @device_id: -ENOENT if it has none. */
int diamond_radio_get(struct diamond_store *store, uint32_t device_id,
		      unsigned int *a, uint32_t *addr);
/*
 * Call @fn for every device of @store with a radio configuration, in
 * directory order; a nonzero return from @fn stops the walk and is
 * returned.
 */
int diamond_radio_list(struct diamond_store *store,
		       int (*fn)(void *arg, uint32_t device_id, unsigned int a,
				 uint32_t addr),
		       void *arg);

/* The longest packet (spec 14.1): the SX127x's 255-byte payload. */
#define DIAMOND_PKT_MAX		255

struct diamond_prx;

/**
 * struct diamond_prx_cbs - what the packet receiver reports
 * @record: a record released under a verified tag, exactly once
 * @lost: records @first .. @first + @count - 1 of @epoch given up, never
 *        to be released (the cursor moved past them)
 * @arg: passed to both
 */
struct diamond_prx_cbs {
	void (*record)(void *arg, uint32_t device_id, uint64_t epoch,
		       uint32_t index, const uint8_t *data, size_t len);
	void (*lost)(void *arg, uint32_t device_id, uint64_t epoch,
		     uint32_t first, uint32_t count);
	void *arg;
};

/**
 * struct diamond_prx_stats - the packet receiver's counters
 * @packets: packets fed
 * @nodev: no provisioned address begins them
 * @format: refused by the parse or the candidates (DMD_EFORMAT, ESIZE)
 * @range: no candidate (expired, past max_skip, past the last epoch)
 * @duplicates: copies already held
 * @unheld: copies not held (a record's copies full, or no unit free)
 * @tries: unit verifications (dmd_grid_open() calls)
 * @failed: tries in which a tag tried did not verify
 * @verified: tags verified
 * @released: records released
 * @lost: records reported lost
 * @saves: state files written
 */
struct diamond_prx_stats {
	uint64_t packets, nodev, format, range, duplicates, unheld;
	uint64_t tries, failed, verified, released, lost, saves;
};

#define DIAMOND_PRX_KERNEL	1u	/* verify through diamond.ko */

/**
 * diamond_prx_new() - a packet receiver over a state directory
 * @out: receives it
 * @store: the state directory (kept; not closed by diamond_prx_free())
 * @cbs: the callbacks (copied)
 * @max_skip: epochs a packet may be past the cursor's (0: 4096)
 * @flags: DIAMOND_PRX_KERNEL for the kernel backend (diamond.ko's tag
 *         grid, kernel-api.rst; max_skip at most 4096), else software
 *
 * Return: 0 or a negative errno.
 */
int diamond_prx_new(struct diamond_prx **out, struct diamond_store *store,
		    const struct diamond_prx_cbs *cbs, uint32_t max_skip,
		    unsigned int flags);
/*
 * Add device @device_id with its radio configuration from the store
 * (diamond_radio_set()); diamond_prx_add_all() adds every such device.
 * Its state file gives the cursor (spec 14.5) and the bitmaps of its
 * undecided units.
 */
int diamond_prx_add(struct diamond_prx *x, uint32_t device_id);
int diamond_prx_add_all(struct diamond_prx *x);
/**
 * diamond_prx_feed() - one packet as the PHY delivered it
 * @x: the receiver
 * @pkt: the PHY payload
 * @len: its length
 *
 * Return: 0 if it was taken (held, tried, or a duplicate), else why it
 * was dropped: -EPROTO (no device, or malformed), -EMSGSIZE (a record
 * over 222 bytes), -EKEYEXPIRED, -ERANGE, -DIAMOND_EEXHAUSTED (no
 * candidate position), or a storage failure (nothing released).
 */
int diamond_prx_feed(struct diamond_prx *x, const uint8_t *pkt, size_t len);
/*
 * Is @rc, from diamond_prx_feed(), a packet dropped (hostile, damaged or
 * stale input, counted) rather than a failure of the receiver (storage,
 * the stage, the fence, memory, the backend)? 1 or 0.
 */
int diamond_prx_dropped(int rc);
/**
 * diamond_prx_set_stage() - hand records out before the state moves on
 * @x: the receiver
 * @commit: NULL (the default order), or called once the records a try
 *	released (or the losses a cursor move reports) have gone to the
 *	callbacks and before the device's new state is saved; it returns 0
 *	once what the callbacks were given is durable, else a negative errno
 * @arg: passed to @commit
 *
 * The packet receiver's diamond_gw_set_stage(). The default order is
 * verify -> state durable -> records out: never twice, and a crash
 * between the last two loses them. With a stage: verify -> records out
 * -> @commit -> state durable, so a crash before the state is saved gives
 * the same records again (same ID, same content) when their packets come
 * again: at least once. When @commit fails the state is not saved, the
 * unit stays as it was in memory too (its records may be released again)
 * and the feed fails with @commit's errno.
 *
 * Return: 0, or -EINVAL without @x.
 */
int diamond_prx_set_stage(struct diamond_prx *x, int (*commit)(void *arg),
			  void *arg);
/**
 * diamond_prx_spool() - keep the packets held durable, and take them up
 * @x: the receiver, its devices added
 * @state_dir: the state directory: the spool is @state_dir/spool/packets
 *
 * The state file holds a device's cursor and which records of its open
 * units were released, not the packets of the units still undecided. A
 * caller that acknowledges its input (open --mqtt) must not lose those:
 * with a spool, every packet held anew is appended to it, and
 * diamond_prx_sync() makes it durable. This call feeds what an earlier
 * receiver spooled first (records it releases go to the callbacks and the
 * stage as any), then rewrites the spool from what is held. Set the
 * fence and the stage first.
 *
 * Return: the packets taken up, or a negative errno (storage, or the
 * stage's); the spool is then as it was.
 */
int diamond_prx_spool(struct diamond_prx *x, const char *state_dir);
/**
 * diamond_prx_sync() - make the spool durable
 * @x: the receiver
 *
 * After it returned 0, every packet fed so far is decided (its state
 * saved) or in the spool on disk, so the input may be acknowledged. A
 * failed write or sync is returned here (the spool is rewritten from
 * memory first); under a stale fence, -ESTALE.
 *
 * Return: 0 (also without a spool), or a negative errno.
 */
int diamond_prx_sync(struct diamond_prx *x);
/**
 * diamond_prx_set_fence() - fence every state write of a shared directory
 * @x: the receiver
 * @fence: the directory's fence, taken (diamond_fence_take()); it must
 *	outlive @x's store
 *
 * Every device state the receiver saves, and its spool, is checked and
 * written under the fence (the store's, so every other writer of that
 * store too); once it
 * is refused, nothing is saved or released (the feed fails with -ESTALE)
 * and diamond_fence_stale() says so.
 *
 * Return: 0, or -EINVAL.
 */
int diamond_prx_set_fence(struct diamond_prx *x, struct diamond_fence *fence);
void diamond_prx_stats(const struct diamond_prx *x,
		       struct diamond_prx_stats *s);
/*
 * Kernel backend: device tfms kept open at once (LRU; default 16384,
 * lowered to fit the descriptor limit, two descriptors each). A device
 * whose tfm was closed is keyed again from the receiver's state at its
 * next try. -EINVAL for 0.
 */
int diamond_prx_max_tfms(struct diamond_prx *x, unsigned int n);
/* The cursor (e_c, u_c) of @device_id: -DIAMOND_ENODEVICE if not added. */
int diamond_prx_cursor(const struct diamond_prx *x, uint32_t device_id,
		       uint64_t *epoch, uint32_t *unit);
/* Erase every key and held packet, and free. The end of input decides nothing. */
void diamond_prx_free(struct diamond_prx *x);

/* ---- Packet radio: the host sender ------------------------------------- */

struct diamond_psender;

/*
 * A host sender in packet mode (spec 14.3) on a blob file, reserving
 * before use as diamond_sender_open() does; @a and @addr as
 * diamond_radio_set().
 */
int diamond_psender_open(struct diamond_psender **out, const char *blob_path,
			 unsigned int a, uint32_t addr);
/*
 * Seal the next record into @pkt (255 bytes of room): the packet's length,
 * or a negative errno. An epoch is begun (its reservation made durable)
 * when none is open or the open one is full.
 */
int diamond_psender_seal(struct diamond_psender *s, const uint8_t *m,
			 size_t len, uint8_t *pkt);
void diamond_psender_free(struct diamond_psender *s);

#ifdef __cplusplus
}
#endif

#endif
