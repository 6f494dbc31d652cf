// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The gateway's state directory: one file per device holding only its
 * current state blob, checked by a CRC-32 and the device id, replaced
 * crash-safely (fileio.c). A fleet's shard directory, shared by the
 * verifiers that may take the shard, has a fence (fence.c): each state is
 * then replaced under it, and not at all once a newer holder took it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define STATE_MAGIC	"DMDS"
#define STATE_VERSION	1
#define STATE_VERSION_RX 2	/* with the cursor of a grouped device */
#define STATE_VERSION_DEC 3	/* the cursor and its decided groups */
#define STATE_VERSION_W	4	/* custody: a wrapped state (wstate.c) */
#define STATE_VERSION_PKT 5	/* packet mode: cursor and unit bitmaps */
/* Version 5: le32 m, then m units: le64 e, le32 u, le16 rel, u8 ver, u8 0. */
#define PUNIT_SIZE	16
#define STATE_HDR	16	/* magic, version, 3 reserved, id, blob length */
/* The cursor: le64 open epoch e, le32 next group c, R_{e,c*g}. */
#define CURSOR_SIZE(k)	(12 + (k))
/* Version 3: le32 m, then m runs of le16 groups, le16 errno (0 released). */
#define RUN_SIZE	4
#define RUNS_MAX	65535	/* c <= (b - 1) / g < 65535 groups */
#define STATE_MAX	(STATE_HDR + 8 + DLIB_DMDW_HDR + DLIB_DMDW_MAX + 4 + \
			 RUNS_MAX * RUN_SIZE + 4)
_Static_assert(STATE_MAX >= DIAMOND_STATE_FILE_SIZE(DIAMOND_BLOB_MAX) +
	       CURSOR_SIZE(DMD_KEY_MAX) + 4 + RUNS_MAX * RUN_SIZE,
	       "STATE_MAX holds every version");

struct diamond_store {
	char *dir;
	int lockfd;
	struct diamond_fence *fence;	/* a shared shard directory's */
};

void dlib_store_set_fence(struct diamond_store *store,
			  struct diamond_fence *fence)
{
	store->fence = fence;
}

struct diamond_fence *dlib_store_fence(const struct diamond_store *store)
{
	return store->fence;
}

/* Replace @path, checked and made under the fence if there is one. */
static int put(struct diamond_store *store, const char *path,
	       const void *data, size_t len)
{
	int rc = store->fence ? diamond_fence_enter(store->fence) : 0;

	if (rc)
		return rc;
	rc = diamond_file_replace(path, data, len, 0600);
	if (store->fence)
		diamond_fence_exit(store->fence);
	return rc;
}

void diamond_store_path(const struct diamond_store *store, uint32_t device_id,
			char *buf, size_t size)
{
	snprintf(buf, size, "%s/%u.state", store->dir, (unsigned int)device_id);
}

/* Remove "*.state.tmp.*" left by a writer killed mid-update. */
static void remove_stale(struct diamond_store *store)
{
	DIR *d = opendir(store->dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strstr(e->d_name, ".state.tmp."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

int diamond_store_open(struct diamond_store **store, const char *dir,
		       unsigned int flags)
{
	struct diamond_store *s;
	struct stat sb;
	char *lock;
	int rc;

	if (!store || !dir)
		return -EINVAL;
	if ((flags & DIAMOND_STORE_CREATE) && mkdir(dir, 0700) < 0 &&
	    errno != EEXIST)
		return -errno;
	if (stat(dir, &sb) < 0)
		return -errno;
	if (!S_ISDIR(sb.st_mode))
		return -ENOTDIR;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->dir = strdup(dir))) {
		free(s);
		return -ENOMEM;
	}
	s->lockfd = -1;
	if (flags & DIAMOND_STORE_LOCK) {
		if (asprintf(&lock, "%s/.lock", dir) < 0) {
			diamond_store_close(s);
			return -ENOMEM;
		}
		s->lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		free(lock);
		if (s->lockfd < 0 || flock(s->lockfd, LOCK_EX | LOCK_NB) < 0) {
			rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
			diamond_store_close(s);
			return rc;
		}
		remove_stale(s);
	}
	*store = s;
	return 0;
}

void diamond_store_close(struct diamond_store *store)
{
	if (!store)
		return;
	if (store->lockfd >= 0)
		close(store->lockfd);
	free(store->dir);
	free(store);
}

/* A version 1 file: what a device without an open epoch keeps. */
#define STATE_V1_MAX	DIAMOND_STATE_FILE_SIZE(DIAMOND_BLOB_MAX)

/*
 * The header and the blob into @out, then @curlen bytes of cursor (version
 * 3, or version 1 without one) and the CRC: the file's size.
 */
static size_t encode(uint8_t *out, const uint8_t *blob, size_t len,
		     uint32_t id, size_t curlen)
{
	memcpy(out, STATE_MAGIC, 4);
	out[4] = curlen ? STATE_VERSION_DEC : STATE_VERSION;
	out[5] = out[6] = out[7] = 0;
	dmd_store32_le(out + 8, id);
	dmd_store32_le(out + 12, (uint32_t)len);
	memcpy(out + STATE_HDR, blob, len);
	dmd_store32_le(out + STATE_HDR + len + curlen,
		       dlib_crc32(out, STATE_HDR + len + curlen));
	return DIAMOND_STATE_FILE_SIZE(len) + curlen;
}

/*
 * Device @device_id's file into *@buf, malloc'd to fit it: *@cap bytes,
 * at most STATE_MAX + 1 (one more than any valid file). Wipe and free it
 * with dlib_free_secret(*@buf, *@cap), also on failure.
 */
static int read_file(struct diamond_store *store, uint32_t device_id,
		     uint8_t **buf, size_t *cap, size_t *got)
{
	char path[4096];
	struct stat sb;
	ssize_t n;
	int fd, rc = 0;

	*got = *cap = 0;
	*buf = NULL;
	diamond_store_path(store, device_id, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)	/* the directory was checked at open: no such device */
		return errno == ENOENT ? -DIAMOND_ENODEVICE : -errno;
	*cap = fstat(fd, &sb) == 0 && (size_t)sb.st_size < STATE_MAX ?
	       (size_t)sb.st_size + 1 : STATE_MAX + 1;
	*buf = malloc(*cap);
	if (!*buf) {
		close(fd);
		return -ENOMEM;
	}
	while (*got < *cap) {
		n = read(fd, *buf + *got, *cap - *got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	close(fd);
	return rc;
}

/*
 * The cursor's length in a file of version @ver whose cursor starts at
 * @cur and whose file has @left bytes from there (0 if it cannot be).
 */
static size_t cursor_len(uint8_t ver, const uint8_t *cur, size_t left,
			 size_t k)
{
	uint32_t m;

	if (ver == STATE_VERSION)
		return 0;
	if (ver == STATE_VERSION_RX)
		return CURSOR_SIZE(k);
	if (left < CURSOR_SIZE(k) + 4)
		return 0;
	m = dmd_load32_le(cur + CURSOR_SIZE(k));
	if (ver == STATE_VERSION_PKT)
		return m <= DLIB_PRX_UNITS ?
		       CURSOR_SIZE(k) + 4 + (size_t)m * PUNIT_SIZE : 0;
	return m && m <= RUNS_MAX ? CURSOR_SIZE(k) + 4 + (size_t)m * RUN_SIZE :
	       0;
}

/*
 * Check a state file of @got bytes: its blob length in *@blen and its
 * cursor length in *@curlen (0 in a version 1 file).
 */
static int check_file(const uint8_t *buf, size_t got, uint32_t device_id,
		      size_t *blen, size_t *curlen)
{
	struct diamond_params p;
	size_t cl = 0, bl;

	/* A wrapped state: its key is in diamond.ko, not here. */
	if (got >= STATE_HDR + 4 && !memcmp(buf, STATE_MAGIC, 4) &&
	    buf[4] == STATE_VERSION_W)
		return -ENOKEY;
	if (got < STATE_HDR + 4 || memcmp(buf, STATE_MAGIC, 4) ||
	    buf[4] < STATE_VERSION ||
	    (buf[4] > STATE_VERSION_DEC && buf[4] != STATE_VERSION_PKT) ||
	    buf[5] || buf[6] || buf[7])
		return -EUCLEAN;
	bl = dmd_load32_le(buf + 12);
	if (bl > DIAMOND_BLOB_MAX ||
	    diamond_blob_info(buf + STATE_HDR,
			      got >= STATE_HDR + bl ? bl : 0, &p))
		return -EUCLEAN;
	cl = cursor_len(buf[4], buf + STATE_HDR + bl,
			got - STATE_HDR - bl, dmd_key_size(p.suite));
	if ((buf[4] != STATE_VERSION && !cl) ||
	    got != DIAMOND_STATE_FILE_SIZE(bl) + cl ||
	    dmd_load32_le(buf + STATE_HDR + bl + cl) !=
	    dlib_crc32(buf, STATE_HDR + bl + cl))
		return -EUCLEAN;
	/* An intact file, but of another device (copied or renamed). */
	if (dmd_load32_le(buf + 8) != device_id || p.device_id != device_id)
		return -EXDEV;
	*blen = bl;
	*curlen = cl;
	return 0;
}

int diamond_store_load(struct diamond_store *store, uint32_t device_id,
		       uint8_t *blob, size_t *len)
{
	size_t blen, curlen, got, cap;
	uint8_t *buf;
	int rc;

	rc = read_file(store, device_id, &buf, &cap, &got);
	if (!rc)
		rc = check_file(buf, got, device_id, &blen, &curlen);
	if (!rc) {
		memcpy(blob, buf + STATE_HDR, blen);
		*len = blen;
	}
	dlib_free_secret(buf, cap);
	return rc;
}

int dlib_dec_add(struct dlib_decided *dec, uint32_t n, int err)
{
	struct dlib_run *r;
	uint32_t cap;

	if (dec->nrun && dec->run[dec->nrun - 1].err == err) {
		dec->run[dec->nrun - 1].n += n;
		return 0;
	}
	if (dec->nrun == dec->cap) {
		cap = dec->cap ? 2 * dec->cap : 8;
		r = realloc(dec->run, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		dec->run = r;
		dec->cap = cap;
	}
	dec->run[dec->nrun++] = (struct dlib_run){ .n = n, .err = err };
	return 0;
}

/* Version 3 and 4 runs at @p (le32 m, m runs) for groups 0 .. c - 1. */
static int parse_runs(const uint8_t *p, uint32_t c, struct dlib_decided *dec)
{
	uint32_t m = dmd_load32_le(p), i, sum = 0, n;
	int err, rc = 0;

	dec->nrun = 0;
	for (i = 0; !rc && i < m; i++) {
		n = dmd_load16_le(p + 4 + i * RUN_SIZE);
		err = -(int)dmd_load16_le(p + 6 + i * RUN_SIZE);
		sum += n;
		rc = !n || sum > c ? -EUCLEAN : dlib_dec_add(dec, n, err);
	}
	return rc ? rc : sum == c ? 0 : -EUCLEAN;
}

/*
 * The decided groups 0 .. c - 1 of a cursor (version 3 runs, or a version
 * 2 file's: how they went is not known, so they count as gone, replay).
 */
static int load_runs(const uint8_t *p, size_t curlen, size_t k, uint32_t c,
		     struct dlib_decided *dec)
{
	dec->nrun = 0;
	if (curlen == CURSOR_SIZE(k))
		return dlib_dec_add(dec, c, -EKEYEXPIRED);
	return parse_runs(p, c, dec);
}

/* The cursor at @cur into @rx (its blob's state in rx->st already). */
static int load_cursor(const uint8_t *cur, size_t curlen,
		       const struct dmd_state *st, uint32_t g,
		       struct dmd_receiver *rx, struct dlib_decided *dec)
{
	size_t k = dmd_key_size(st->suite);
	uint32_t c = dmd_load32_le(cur + 8);

	/* The cursor belongs to the epoch before the blob's. */
	if (dmd_load64_le(cur) + 1 != st->epoch || !st->epoch || c == 0 ||
	    c > (st->b - 1) / g)
		return -EUCLEAN;
	rx->st.epoch = st->epoch - 1;	/* key: E_{e+1} */
	rx->group = c;
	memcpy(rx->r, cur + 12, k);
	rx->open = 1;
	return dec ? load_runs(cur + CURSOR_SIZE(k), curlen, k, c, dec) : 0;
}

/*
 * A grouped device's receiver from its file: the blob's state, and with a
 * cursor the open epoch e = blob epoch - 1 at group c with R_{e,c*g} and,
 * into @dec (if not NULL), how groups 0 .. c - 1 were decided.
 */
int dlib_store_load_rx(struct diamond_store *store, uint32_t device_id,
		       struct dmd_state *st, struct dmd_receiver *rx,
		       uint32_t g, struct dlib_decided *dec)
{
	size_t blen, curlen, got, cap;
	uint8_t *buf;
	int rc;

	if (dec)
		dec->nrun = 0;
	rc = read_file(store, device_id, &buf, &cap, &got);
	if (!rc)
		rc = check_file(buf, got, device_id, &blen, &curlen);
	/* A packet-mode device's chain is the packet receiver's (spec 14.2). */
	if (!rc && buf[4] == STATE_VERSION_PKT)
		rc = -EMEDIUMTYPE;
	if (!rc && dmd_blob_parse(st, buf + STATE_HDR, blen) != DMD_OK)
		rc = -EUCLEAN;
	if (!rc && rx)
		rc = dlib_core_errno(dmd_receiver_init(rx, st, g, 0));
	if (!rc && rx && curlen)
		rc = load_cursor(buf + STATE_HDR + blen, curlen, st, g, rx, dec);
	dlib_free_secret(buf, cap);
	return rc;
}

/* The runs of @dec at @out (le32 m, then m runs): their length. */
static size_t put_runs(uint8_t *out, const struct dlib_decided *dec)
{
	uint8_t *p = out + 4;
	uint32_t i;

	dmd_store32_le(out, dec->nrun);
	for (i = 0; i < dec->nrun; i++, p += RUN_SIZE) {
		dmd_store16_le(p, (uint16_t)dec->run[i].n);
		dmd_store16_le(p + 2, (uint16_t)-dec->run[i].err);
	}
	return (size_t)(p - out);
}

/* The cursor of @rx with the runs of @dec at @out: its length. */
static size_t put_cursor(uint8_t *out, const struct dmd_receiver *rx,
			 const struct dlib_decided *dec)
{
	size_t k = dmd_key_size(rx->st.suite);

	dmd_store64_le(out, rx->st.epoch);
	dmd_store32_le(out + 8, rx->group);
	memcpy(out + 12, rx->r, k);
	return CURSOR_SIZE(k) + put_runs(out + CURSOR_SIZE(k), dec);
}

/*
 * The receiver's state: the blob (e + 1, E_{e+1}) and, open, the cursor
 * with how its groups below c were decided (@dec, which covers them).
 */
int dlib_store_save_rx(struct diamond_store *store,
		       const struct dmd_receiver *rx,
		       const struct dlib_decided *dec)
{
	size_t n, blen = dmd_blob2_size(rx->st.suite), cl = 0,
	       size = DIAMOND_STATE_FILE_SIZE(blen);
	uint8_t blob[DIAMOND_BLOB_MAX], *buf;
	struct dmd_state st;
	char path[4096];
	int rc;

	if (rx->open && (!dec->nrun || dec->nrun > RUNS_MAX))
		return -EINVAL;
	if (rx->open)
		size += CURSOR_SIZE(dmd_key_size(rx->st.suite)) + 4 +
			(size_t)dec->nrun * RUN_SIZE;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	dmd_receiver_state(rx, &st);
	dmd_blob2_write(blob, &st);
	if (rx->open)
		cl = put_cursor(buf + STATE_HDR + blen, rx, dec);
	n = encode(buf, blob, blen, st.device_id, cl);
	diamond_store_path(store, st.device_id, path, sizeof(path));
	rc = put(store, path, buf, n);
	dlib_free_secret(buf, size);
	dmd_wipe(blob, sizeof(blob));
	dmd_wipe(&st, sizeof(st));
	return rc;
}

/* Offsets in a version 4 file: the parameters, the DMDW header, its flags. */
#define W_BODY		STATE_HDR
#define W_FLAGS		(W_BODY + 8 + 6)
#define W_BLOB		(W_BODY + 8 + DLIB_DMDW_HDR)

/*
 * The lengths of a version 4 file of @got bytes, checked with its CRC
 * before anything in it is believed: the blob's in *@wl, the runs' in *@rl.
 */
static int check_w(const uint8_t *buf, size_t got, size_t *wl, size_t *rl)
{
	size_t end;
	uint32_t m;

	if (got < W_BLOB + 4 || memcmp(buf, STATE_MAGIC, 4) ||
	    buf[4] != STATE_VERSION_W || buf[5] || buf[6] || buf[7])
		return -EUCLEAN;
	*wl = dmd_load32_le(buf + 12);
	*rl = 0;
	if (*wl > DLIB_DMDW_MAX)
		return -EUCLEAN;
	end = W_BLOB + *wl;
	if (buf[W_FLAGS] & 1) {
		if (got < end + 8)
			return -EUCLEAN;
		m = dmd_load32_le(buf + end);
		if (!m || m > RUNS_MAX)
			return -EUCLEAN;
		*rl = 4 + (size_t)m * RUN_SIZE;
	}
	end += *rl;
	return got == end + 4 &&
	       dmd_load32_le(buf + end) == dlib_crc32(buf, end) ? 0 : -EUCLEAN;
}

int dlib_store_load_w(struct diamond_store *store, uint32_t device_id,
		      struct dlib_wstate *w, struct dlib_decided *dec)
{
	size_t got, cap, wl, rl;
	uint8_t *buf;
	int rc;

	if (dec)
		dec->nrun = 0;
	rc = read_file(store, device_id, &buf, &cap, &got);
	if (!rc)
		rc = check_w(buf, got, &wl, &rl);
	if (!rc)
		rc = dlib_wst_get(w, buf + W_BODY, got - W_BODY, wl,
				  dmd_load32_le(buf + 8));
	if (!rc && w->st.device_id != device_id)
		rc = -EXDEV;
	if (!rc && w->cursor != !!rl)
		rc = -EUCLEAN;
	if (!rc && rl && dec)
		rc = parse_runs(buf + W_BLOB + wl, w->c, dec);
	dlib_free_secret(buf, cap);
	return rc;
}

int dlib_store_save_w(struct diamond_store *store,
		      const struct dlib_wstate *w,
		      const struct dlib_decided *dec)
{
	size_t n, size = W_BLOB + DLIB_DMDW_MAX + 4;
	char path[4096];
	uint8_t *buf;
	int rc;

	if (w->cursor && (!dec->nrun || dec->nrun > RUNS_MAX))
		return -EINVAL;
	if (w->cursor)
		size += 4 + (size_t)dec->nrun * RUN_SIZE;
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, STATE_MAGIC, 4);
	buf[4] = STATE_VERSION_W;
	buf[5] = buf[6] = buf[7] = 0;
	dmd_store32_le(buf + 8, w->st.device_id);
	dmd_store32_le(buf + 12, (uint32_t)w->len);
	n = W_BODY + dlib_wst_put(w, buf + W_BODY);
	if (w->cursor)
		n += put_runs(buf + n, dec);
	dmd_store32_le(buf + n, dlib_crc32(buf, n));
	diamond_store_path(store, w->st.device_id, path, sizeof(path));
	rc = put(store, path, buf, n + 4);
	free(buf);
	return rc;
}

int diamond_store_save(struct diamond_store *store, const uint8_t *blob,
		       size_t len)
{
	uint8_t buf[STATE_V1_MAX];
	struct diamond_params p;
	char path[4096];
	size_t n;
	int rc;

	if (diamond_blob_info(blob, len, &p))
		return -EINVAL;
	n = encode(buf, blob, len, p.device_id, 0);
	diamond_store_path(store, p.device_id, path, sizeof(path));
	rc = put(store, path, buf, n);
	dmd_wipe(buf, sizeof(buf));
	return rc;
}

int diamond_store_create(struct diamond_store *store, const uint8_t *blob,
			 size_t len)
{
	uint8_t buf[STATE_V1_MAX];
	struct diamond_params p;
	char path[4096], tmp[4200];
	size_t n;
	ssize_t w;
	int fd, rc = 0;

	if (diamond_blob_info(blob, len, &p))
		return -EINVAL;
	n = encode(buf, blob, len, p.device_id, 0);
	diamond_store_path(store, p.device_id, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	w = write(fd, buf, n);
	if (w != (ssize_t)n)
		rc = w < 0 ? -errno : -EIO;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	close(fd);
	/* link() never replaces: an existing state is never overwritten. */
	if (!rc && link(tmp, path) < 0)
		rc = -errno;
	unlink(tmp);
	if (!rc)
		rc = dlib_fsync_parent(path);
out:
	dmd_wipe(buf, sizeof(buf));
	return rc;
}

/* At most this many epoch updates prove that a state follows another. */
#define IMPORT_MAX_DERIVE	(1u << 20)

/* Does @to follow @from on the same chain (same generation, later epoch)? */
static int follows(const struct dmd_state *from, const struct dmd_state *to)
{
	struct dmd_state t = *from;
	int same;

	if (t.suite != to->suite || t.agg != to->agg || t.b != to->b ||
	    t.device_id != to->device_id || to->epoch - t.epoch > IMPORT_MAX_DERIVE)
		return 0;
	if (to->epoch > t.epoch)
		dlib_state_advance(&t, to->epoch - 1);
	same = dmd_ct_equal(t.key, to->key, sizeof(t.key));
	dmd_wipe(&t, sizeof(t));
	return same;
}

/* Whether @next may replace @cur: 0, or why not. */
static int forward(const struct dmd_state *cur, const struct dmd_state *next)
{
	if (next->gen < cur->gen)
		return -DIAMOND_EOLDGEN;
	if (next->gen > cur->gen)	/* a newer provisioning */
		return 0;
	if (next->epoch < cur->epoch)
		return -DIAMOND_EBACKWARD;
	if (!follows(cur, next))
		return next->epoch == cur->epoch ? -DIAMOND_EBACKWARD :
		       -DIAMOND_ECHAIN;
	return 0;
}

int diamond_store_import(struct diamond_store *store, const uint8_t *blob,
			 size_t len, uint64_t advance)
{
	struct dmd_state next, cur;
	uint8_t buf[DIAMOND_BLOB_MAX];
	size_t clen;
	int rc;

	if (!store || !blob || dmd_blob_parse(&next, blob, len) != DMD_OK)
		return -EINVAL;
	if (advance && (advance >= UINT64_MAX - 1 - next.epoch))
		rc = -DIAMOND_EEXHAUSTED;
	else
		rc = 0;
	if (!rc && advance)
		dlib_state_advance(&next, next.epoch + advance - 1);
	if (!rc) {
		rc = diamond_store_load(store, next.device_id, buf, &clen);
		if (rc == -DIAMOND_ENODEVICE) {
			rc = 1;		/* a device new to this store */
		} else if (!rc) {
			rc = dmd_blob_parse(&cur, buf, clen) ? -EUCLEAN :
			     forward(&cur, &next);
			/* An equal state is already here: nothing to do. */
			if (!rc && next.epoch == cur.epoch && next.gen == cur.gen)
				rc = 2;
			dmd_wipe(&cur, sizeof(cur));
		}
	}
	if (rc == 1 || rc == 0) {
		dmd_blob2_write(buf, &next);
		rc = rc ? diamond_store_create(store, buf, dmd_blob2_size(next.suite)) :
		     diamond_store_save(store, buf, dmd_blob2_size(next.suite));
	} else if (rc == 2) {
		rc = 0;
	}
	dmd_wipe(buf, sizeof(buf));
	dmd_wipe(&next, sizeof(next));
	return rc;
}

const char *dlib_store_dir(const struct diamond_store *store)
{
	return store->dir;
}

/* Version 5's units at @p (@n of them), checked against the cursor. */
static int get_punits(const uint8_t *p, uint32_t n, struct dlib_pstate *ps)
{
	uint64_t ec = ps->st.epoch - 1;
	struct dlib_pbits *u;
	uint32_t i;

	for (i = 0; i < n; i++, p += PUNIT_SIZE) {
		u = &ps->unit[i];
		u->e = dmd_load64_le(p);
		u->u = dmd_load32_le(p + 8);
		u->rel = dmd_load16_le(p + 12);
		u->ver = p[14];
		if (p[15] || u->u >= ps->st.b / DMD_GRID_UNIT || u->e < ec ||
		    (u->e == ec && u->u < ps->uc))
			return -EUCLEAN;
	}
	ps->n = n;
	return 0;
}

/* The cursor (le64 e_c, le32 u_c, R) and units of a version 5 file. */
static int get_pcursor(const uint8_t *cur, struct dlib_pstate *ps)
{
	size_t k = dmd_key_size(ps->st.suite);

	if (!ps->st.epoch || dmd_load64_le(cur) + 1 != ps->st.epoch)
		return -EUCLEAN;
	ps->uc = dmd_load32_le(cur + 8);
	if (ps->uc >= ps->st.b / DMD_GRID_UNIT)
		return -EUCLEAN;
	memcpy(ps->rc, cur + 12, k);
	return get_punits(cur + CURSOR_SIZE(k) + 4,
			  dmd_load32_le(cur + CURSOR_SIZE(k)), ps);
}

/* The cursor at unit 0 of the blob's epoch e: E_{e+1} and R_{e,0}. */
static void fresh_cursor(struct dlib_pstate *ps)
{
	dmd_epoch_update(ps->st.suite, ps->st.key, ps->st.key, ps->rc);
	ps->st.epoch++;
	ps->uc = 0;
	ps->n = 0;
}

int dlib_store_load_pkt(struct diamond_store *store, uint32_t device_id,
			struct dlib_pstate *ps)
{
	size_t blen, curlen, got, cap;
	uint8_t *buf;
	int rc;

	memset(ps, 0, sizeof(*ps));
	rc = read_file(store, device_id, &buf, &cap, &got);
	if (!rc)
		rc = check_file(buf, got, device_id, &blen, &curlen);
	if (!rc && dmd_blob_parse(&ps->st, buf + STATE_HDR, blen) != DMD_OK)
		rc = -EUCLEAN;
	if (!rc && dmd_packet_key_check(&ps->st) != DMD_OK)
		rc = -EINVAL;
	if (!rc && buf[4] == STATE_VERSION_PKT)
		rc = get_pcursor(buf + STATE_HDR + blen, ps);
	else if (!rc && ps->st.epoch >= DMD_EPOCH_LAST)
		rc = -DIAMOND_EEXHAUSTED;
	else if (!rc)
		fresh_cursor(ps);
	dlib_free_secret(buf, cap);
	if (rc)
		dmd_wipe(ps, sizeof(*ps));
	return rc;
}

/* The cursor and units of @ps at @out: their length. */
static size_t put_pcursor(uint8_t *out, const struct dlib_pstate *ps)
{
	size_t k = dmd_key_size(ps->st.suite);
	uint8_t *p = out + CURSOR_SIZE(k) + 4;
	uint32_t i;

	dmd_store64_le(out, ps->st.epoch - 1);
	dmd_store32_le(out + 8, ps->uc);
	memcpy(out + 12, ps->rc, k);
	dmd_store32_le(out + CURSOR_SIZE(k), ps->n);
	for (i = 0; i < ps->n; i++, p += PUNIT_SIZE) {
		dmd_store64_le(p, ps->unit[i].e);
		dmd_store32_le(p + 8, ps->unit[i].u);
		dmd_store16_le(p + 12, ps->unit[i].rel);
		p[14] = ps->unit[i].ver;
		p[15] = 0;
	}
	return (size_t)(p - out);
}

int dlib_store_save_pkt(struct diamond_store *store,
			const struct dlib_pstate *ps)
{
	uint8_t buf[STATE_HDR + DIAMOND_BLOB_MAX + CURSOR_SIZE(DMD_KEY_MAX) +
		    4 + DLIB_PRX_UNITS * PUNIT_SIZE + 4];
	size_t blen = dmd_blob2_size(ps->st.suite), cl, n;
	char path[4096];
	int rc;

	if (ps->n > DLIB_PRX_UNITS)
		return -EINVAL;
	memcpy(buf, STATE_MAGIC, 4);
	dmd_blob2_write(buf + STATE_HDR, &ps->st);
	cl = put_pcursor(buf + STATE_HDR + blen, ps);
	buf[4] = STATE_VERSION_PKT;
	buf[5] = buf[6] = buf[7] = 0;
	dmd_store32_le(buf + 8, ps->st.device_id);
	dmd_store32_le(buf + 12, (uint32_t)blen);
	n = STATE_HDR + blen + cl;
	dmd_store32_le(buf + n, dlib_crc32(buf, n));
	diamond_store_path(store, ps->st.device_id, path, sizeof(path));
	rc = put(store, path, buf, n + 4);
	dmd_wipe(buf, sizeof(buf));
	return rc;
}
