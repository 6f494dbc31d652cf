// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The custody loader (diamond_keys_load(), "diamondctl keys load"; issue
 * 20 items 2-3, userspace.rst section 1 "Custody"): the privileged step
 * at service start. From a root-only directory of clear state files (what
 * provisioning, import and restore write) it puts into a keyring the
 * ingest will possess the key diamond:wrap of diamond.ko's type "diamond"
 * and, per device that needs one, diamond:<id>, and writes the ingest's
 * state directory in version 4 (wrapped) form, so the ingest never reads
 * a key:
 *  - by reference (the default, every kernel): a version 4 file without a
 *    blob, the key in diamond:<id>; the ingest keys its tfm with a DMDR
 *    reference naming it;
 *  - wrapped (asked for): the loader keys a "diamond" tfm with the clear
 *    key itself and stores the module's export.
 * A device whose wrapped state in the ingest's directory is at or past
 * the clear one keeps it: the clear directory stays at provisioning (or
 * the last import) while the ingest moves on.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define WRAP_FILE	"wrap.key"

struct load {
	const struct diamond_keys_opts *o;
	struct diamond_store *keys, *ingest;
	int32_t keyring;
	int wrap_states;		/* export at load (6.1's way) */
	unsigned int ref, wrapped, kept;
};

/* @path's 32 bytes, made with getrandom (0600, new) when it is missing. */
static int wrap_key(const char *path, uint8_t key[DLIB_WRAP_SIZE])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), rc = 0;
	struct stat sb;

	if (fd < 0 && errno == ENOENT) {
		if (getrandom(key, DLIB_WRAP_SIZE, 0) != DLIB_WRAP_SIZE)
			return -EIO;
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		if (write(fd, key, DLIB_WRAP_SIZE) != DLIB_WRAP_SIZE ||
		    fsync(fd))
			rc = -EIO;
		close(fd);
		return rc ? rc : dlib_fsync_parent(path);
	}
	if (fd < 0)
		return -errno;
	/* Only its owner, root, may read it: anything else is refused. */
	if (fstat(fd, &sb) || (sb.st_mode & 077) || sb.st_uid != geteuid() ||
	    sb.st_size != DLIB_WRAP_SIZE)
		rc = -EPERM;
	if (!rc && read(fd, key, DLIB_WRAP_SIZE) != DLIB_WRAP_SIZE)
		rc = -EIO;
	close(fd);
	return rc;
}

/*
 * Device @id's clear state in @store: its blob's state, its cursor in
 * @rx (open or not) and the runs in @dec.
 */
static int clear_state(struct diamond_store *store, uint32_t id,
		       struct dmd_state *st, struct dmd_receiver *rx,
		       struct dlib_decided *dec)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	size_t len;
	int rc = diamond_store_load(store, id, blob, &len);

	if (!rc && dmd_blob_parse(st, blob, len) != DMD_OK)
		rc = -EUCLEAN;
	dmd_wipe(blob, sizeof(blob));
	if (!rc)
		rc = dlib_store_load_rx(store, id, st, rx,
					st->group ? st->group : st->b, dec);
	return rc;
}

/* Where a state stands: epoch e at group c (0 at the epoch's start). */
static int behind(uint64_t e1, uint32_t c1, uint64_t e2, uint32_t c2)
{
	return e1 < e2 || (e1 == e2 && c1 < c2);
}

/* The setkey input of @st and @rx: open-only v2 blob, then the cursor. */
static size_t payload(const struct dmd_state *st,
		      const struct dmd_receiver *rx, uint8_t *key)
{
	struct dmd_state s = *st;
	size_t n = dmd_blob2_size(st->suite);

	s.flags |= DMD_BLOB_FLAG_OPEN_ONLY;
	dmd_blob2_write(key, &s);
	dmd_wipe(&s, sizeof(s));
	return n + dlib_kernel_cursor(rx, key + n);
}

/* The module's wrapped form of @key (a clear setkey as root) into @w. */
static int export(const uint8_t *key, size_t len, struct dlib_wstate *w)
{
	const char *name = w->st.suite == DMD_SUITE_AES_GHASH ?
			   "diamond(ctr(aes),ghash)" :
			   "diamond(chacha20,poly1305)";
	uint8_t buf[DLIB_DMDW_MAX];
	struct dlib_ktfm *k;
	ssize_t n;
	int rc = dlib_ktfm_open_custody(name, key, len, &k);

	if (rc)
		return rc;
	n = dlib_ktfm_export(k, buf, sizeof(buf));
	dlib_ktfm_close(k);
	return n < 0 ? (int)n : dlib_wst_adopt(w, buf, (size_t)n);
}

/* Whether the ingest's state of @id already stands at or past (@e, @c). */
static int ingest_ahead(struct load *l, uint32_t id, uint16_t gen,
			uint64_t e, uint32_t c)
{
	struct dlib_wstate w;
	int rc = dlib_store_load_w(l->ingest, id, &w, NULL);

	return !rc && w.len && w.st.gen == gen &&
	       !behind(w.cursor ? w.st.epoch - 1 : w.st.epoch, w.c, e, c);
}

/* The ingest's file of @id, written from the clear state and handed over. */
static int put_ingest(struct load *l, uint32_t id, const struct dmd_state *st,
		      const struct dmd_receiver *rx,
		      const struct dlib_decided *dec)
{
	uint8_t key[DLIB_KERNEL_KEY_MAX];
	struct dlib_wstate w;
	char desc[24], path[4096];
	size_t len = payload(st, rx, key);
	int rc = 0;

	dlib_wst_from_state(&w, st, rx->open, rx->group);
	if (l->wrap_states) {
		rc = export(key, len, &w);
	} else {
		snprintf(desc, sizeof(desc), "diamond:%u", (unsigned int)id);
		rc = dlib_key_add(desc, key, len, l->keyring);
		rc = rc < 0 ? rc : 0;
	}
	dmd_wipe(key, sizeof(key));
	if (!rc)
		rc = dlib_store_save_w(l->ingest, &w, dec);
	diamond_store_path(l->ingest, id, path, sizeof(path));
	if (!rc && l->o->uid != (uid_t)-1 &&
	    chown(path, l->o->uid, l->o->gid))
		rc = -errno;
	if (!rc)
		l->wrapped += l->wrap_states, l->ref += !l->wrap_states;
	return rc;
}

/* One device of the clear directory into the keyring and the ingest's. */
static int load_device(struct load *l, uint32_t id)
{
	struct dlib_decided dec = { 0 };
	struct dmd_receiver rx;
	struct dmd_state st;
	int rc = clear_state(l->keys, id, &st, &rx, &dec);

	if (!rc && ingest_ahead(l, id, st.gen, rx.open ? rx.st.epoch :
				st.epoch, rx.open ? rx.group : 0))
		l->kept++;
	else if (!rc)
		rc = put_ingest(l, id, &st, &rx, &dec);
	dmd_wipe(&st, sizeof(st));
	dmd_wipe(&rx, sizeof(rx));
	free(dec.run);
	return rc;
}

/* "<decimal id>.state" into *@id. */
static int state_name(const char *name, uint32_t *id)
{
	char *end;
	unsigned long v;

	if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1] != '.'))
		return 0;
	v = strtoul(name, &end, 10);
	if (strcmp(end, ".state") || v > UINT32_MAX)
		return 0;
	*id = (uint32_t)v;
	return 1;
}

static int load_all(struct load *l, char *msg, size_t size)
{
	DIR *dir = opendir(l->o->key_dir);
	struct dirent *e;
	uint32_t id;
	int rc = 0;

	if (!dir)
		return -errno;
	while (!rc && (e = readdir(dir)))
		if (state_name(e->d_name, &id)) {
			rc = load_device(l, id);
			if (rc && msg && size)
				snprintf(msg, size, "device %u: %s",
					 (unsigned int)id, diamond_strerror(rc));
		}
	closedir(dir);
	return rc;
}

int diamond_keys_load(const struct diamond_keys_opts *o, char *msg,
		      size_t size)
{
	struct load l = { .o = o };
	uint8_t key[DLIB_WRAP_SIZE];
	char path[4096];
	int32_t wrap;
	int rc;

	if (!o || !o->key_dir || !o->state_dir)
		return -EINVAL;
	l.keyring = o->keyring ? o->keyring : DLIB_KEY_SESSION;
	/* No key directory: not set up for custody; the ingest says so. */
	if (access(o->key_dir, F_OK) && errno == ENOENT) {
		if (msg && size)
			snprintf(msg, size, "custody: no key directory %s: "
				 "nothing loaded", o->key_dir);
		return 0;
	}
	if (o->flags & DIAMOND_KEYS_NEW_SESSION) {
		rc = dlib_key_new_session();
		if (rc < 0)
			return rc;
		l.keyring = rc;
	} else if (o->flags & DIAMOND_KEYS_USER) {
		if (o->uid == (uid_t)-1)
			return -EINVAL;
		rc = dlib_key_ring();
		if (rc < 0)
			return rc;
		l.keyring = rc;
	}
	snprintf(path, sizeof(path), "%s/%s", o->key_dir, WRAP_FILE);
	rc = wrap_key(path, key);
	wrap = rc ? rc : dlib_key_add(DLIB_WRAP_DESC, key, sizeof(key),
				      l.keyring);
	dmd_wipe(key, sizeof(key));
	if (wrap < 0) {
		if (msg && size)
			snprintf(msg, size, "%s: %s", rc ? path : "add_key "
				 DLIB_WRAP_DESC, diamond_strerror(wrap));
		return wrap;
	}
	l.wrap_states = !!(o->flags & DIAMOND_KEYS_WRAP);
	rc = diamond_store_open(&l.keys, o->key_dir, 0);
	if (!rc)
		rc = diamond_store_open(&l.ingest, o->state_dir,
					DIAMOND_STORE_CREATE);
	if (!rc)
		rc = load_all(&l, msg, size);
	else if (msg && size)
		snprintf(msg, size, "%s: %s", l.keys ? o->state_dir :
			 o->key_dir, diamond_strerror(rc));
	diamond_store_close(l.keys);
	diamond_store_close(l.ingest);
	if (!rc && (o->flags & DIAMOND_KEYS_USER))
		rc = dlib_key_link_user(l.keyring, o->uid);
	if (!rc && (o->flags & (DIAMOND_KEYS_NEW_SESSION | DIAMOND_KEYS_USER)))
		rc = dlib_key_setperm(l.keyring, DLIB_RING_PERM);
	if (!rc && msg && size)
		snprintf(msg, size, "custody: %u device%s by reference, %u "
			 "wrapped by the loader, %u wrapped states kept",
			 l.ref, l.ref == 1 ? "" : "s", l.wrapped, l.kept);
	return rc ? rc : (int)(l.ref + l.wrapped + l.kept);
}
