// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host sender (spec section 10): the portable core's sender on a blob file.
 * Beginning an epoch writes the blob of the next epoch durably before the
 * first record is sealed, so a crash can lose at most the open epoch and
 * never reuses a slot. Two senders on one blob would seal the same slots,
 * so a sender holds an exclusive lock on "<blob>.lock" for its lifetime.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "internal.h"

struct diamond_sender {
	struct dmd_sender core;
	char *path;
	int lockfd;
	size_t body;	/* body bytes of the open epoch, tag included */
	int broken;	/* a reservation failed: sealing would reuse slots */
};

/*
 * flock(2) on a file beside the blob: the blob is replaced by rename(), so
 * a lock on it would stay with the old inode. Any sealer of @path, and any
 * tool that writes it, takes the same lock (Documentation/userspace.rst).
 */
int dlib_lock_blob(const char *path)
{
	char *lock;
	int fd, rc;

	if (asprintf(&lock, "%s.lock", path) < 0)
		return -ENOMEM;
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(lock);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(fd);
		return rc;
	}
	return fd;
}

/*
 * The blob a sealer starts from: parsed, and refused when it is a
 * gateway's key (spec section 2: it opens, it never seals).
 */
int dlib_read_sealing_blob(const char *path, struct dmd_state *st)
{
	uint8_t blob[DIAMOND_BLOB_MAX + 1];
	ssize_t n;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, blob, sizeof(blob));
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (!rc && dmd_blob_parse(st, blob, (size_t)n) != DMD_OK)
		rc = -EINVAL;
	else if (!rc && (st->flags & DMD_BLOB_FLAG_OPEN_ONLY))
		rc = -EPERM;
	dmd_wipe(blob, sizeof(blob));
	if (rc)
		dmd_wipe(st, sizeof(*st));
	return rc;
}

/* Spec 10.1: the blob of e + 1 is durable before any slot of e is used. */
int dlib_store_reservation(const char *path, struct dmd_state *reserve)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	int rc;

	dmd_blob2_write(blob, reserve);
	rc = diamond_file_replace(path, blob, dmd_blob2_size(reserve->suite),
				  0600);
	dmd_wipe(blob, sizeof(blob));
	dmd_wipe(reserve, sizeof(*reserve));
	return rc;
}

int diamond_sender_open(struct diamond_sender **out, const char *blob_path)
{
	struct diamond_sender *s;
	struct dmd_state st;
	int rc, lockfd;

	/* The blob must exist before a lock file is made beside it. */
	if (access(blob_path, R_OK | W_OK) < 0)
		return -errno;
	lockfd = dlib_lock_blob(blob_path);
	if (lockfd < 0)
		return lockfd;
	rc = dlib_read_sealing_blob(blob_path, &st);
	if (rc) {
		close(lockfd);
		return rc;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(blob_path))) {
		free(s);
		close(lockfd);
		dmd_wipe(&st, sizeof(st));
		return -ENOMEM;
	}
	s->lockfd = lockfd;
	/* The blob's group size; 0 stands for g = b (spec section 5.1). */
	rc = dlib_core_errno(dmd_sender_init_groups(&s->core, &st, NULL, 0,
					0, st.group ? st.group : st.b));
	dmd_wipe(&st, sizeof(st));
	if (rc) {
		diamond_sender_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void diamond_sender_free(struct diamond_sender *s)
{
	if (!s)
		return;
	dmd_sender_wipe(&s->core);
	free(s->path);
	close(s->lockfd);
	dlib_free_secret(s, sizeof(*s));
}

void diamond_sender_params(const struct diamond_sender *s,
			   struct diamond_params *p)
{
	p->suite = s->core.st.suite;
	p->agg = s->core.st.agg;
	p->b = s->core.st.b;
	p->device_id = s->core.st.device_id;
	p->epoch = s->core.open ? s->core.epoch : s->core.st.epoch;
	p->generation = s->core.st.gen;
	p->group_size = s->core.st.group;
}

static int begin(struct diamond_sender *s)
{
	struct dmd_state reserve;
	int rc;

	rc = dlib_core_errno(dmd_sender_begin(&s->core, &reserve));
	if (rc)
		return rc;
	rc = dlib_store_reservation(s->path, &reserve);
	if (rc)
		s->broken = 1;
	return rc;
}

/* Frame the payload the core just wrote after the header in @frame. */
static int write_frame(const struct diamond_sender *s, uint8_t type,
		       uint32_t index, size_t len, uint8_t *frame, size_t cap)
{
	struct diamond_frame f = {
		.type = type,
		.suite = s->core.st.suite,
		.device_id = s->core.st.device_id,
		.epoch = s->core.epoch,
		.index = (uint16_t)index,
		.len = (uint16_t)len,
		.payload = frame + DIAMOND_FRAME_HDR,
	};

	return diamond_frame_write(frame, cap, &f);
}

int diamond_sender_seal(struct diamond_sender *s, const uint8_t *data,
			size_t len, uint8_t *frame, int *full)
{
	uint32_t j;
	int rc;

	if (s->broken)
		return -EIO;
	if (len > DIAMOND_MAX_RECORD)
		return -EMSGSIZE;
	if (dmd_sender_group_due(&s->core))
		return -EINPROGRESS;
	if (!s->core.open) {
		rc = begin(s);
		if (rc)
			return rc;
		s->body = DIAMOND_TAG_SIZE;
	}
	rc = dlib_core_errno(dmd_sender_seal(&s->core, data, len,
						 frame + DIAMOND_FRAME_HDR, &j));
	if (rc)
		return rc;
	s->body += DMD_BODY_LEN_SIZE + len;
	/* Close while the next record, whatever its size, still fits. */
	if (full)
		*full = s->core.index >= s->core.st.b ||
			s->body + DMD_BODY_LEN_SIZE + DIAMOND_MAX_RECORD >
			DIAMOND_MAX_BODY;
	return write_frame(s, DIAMOND_FRAME_RECORD, j, len, frame,
			   DIAMOND_FRAME_MAX);
}

/*
 * A group tag frame (type 3) or the epoch tag frame (type 2): AD || tag
 * after the header, the tag from the core's close of the same kind.
 */
static int tag_frame(struct diamond_sender *s, uint8_t type,
		     const uint8_t *ad, size_t adlen, uint8_t *frame)
{
	uint8_t *tag = frame + DIAMOND_FRAME_HDR + adlen;
	uint32_t field;
	int rc;

	if (adlen > DIAMOND_MAX_AD)
		return -EMSGSIZE;
	if (adlen)
		memcpy(frame + DIAMOND_FRAME_HDR, ad, adlen);
	rc = type == DIAMOND_FRAME_GROUP ?
	     dmd_sender_close_group(&s->core, ad, adlen, tag, &field) :
	     dmd_sender_close(&s->core, ad, adlen, tag, &field);
	rc = dlib_core_errno(rc);
	if (rc)
		return rc;
	return write_frame(s, type, field, adlen + DIAMOND_TAG_SIZE, frame,
			   DIAMOND_FRAME_HDR + DIAMOND_MAX_AD + DIAMOND_TAG_SIZE);
}

int diamond_sender_close_group(struct diamond_sender *s, const uint8_t *ad,
			       size_t adlen, uint8_t *frame)
{
	if (!dmd_sender_group_due(&s->core))
		return 0;
	return tag_frame(s, DIAMOND_FRAME_GROUP, ad, adlen, frame);
}

int diamond_sender_close_epoch(struct diamond_sender *s, const uint8_t *ad,
			       size_t adlen, uint8_t *frame)
{
	/* A failed reservation sealed nothing: there is nothing to close
	 * (seal already reported why). */
	if (s->broken || !s->core.open)
		return 0;
	if (dmd_sender_group_due(&s->core))
		return -EINPROGRESS;
	return tag_frame(s, DIAMOND_FRAME_TAG, ad, adlen, frame);
}
