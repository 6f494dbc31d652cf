// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The outbox, DIR/mqtt/outbox: every reading and event the verifier owes
 * the broker, appended and fdatasync'd before the device's state moves on
 * and before the frames that produced it are acknowledged, and forgotten
 * once the broker's PUBACK comes. A crash loses nothing owed: the next
 * run publishes the file again (consumers dedupe on the reading's ID).
 * The file is a run of records, each the topic's length and the
 * payload's (32-bit little-endian), then both; a torn last record is
 * ignored and cut off. With nothing owed it is truncated; when it grows
 * past twice what is owed (plus 1 MiB) it is rewritten from memory, as the
 * spool is. A failed write or fdatasync is returned; then the file may
 * lack what memory holds (a second fsync proves nothing after a failed
 * one), so it is broken until a rewrite into a new file succeeds.
 *
 * A fleet's shard keeps its outbox in the shard's shared directory, so
 * that a verifier taking the shard over publishes what the last holder
 * still owed; every write to it is then made under the shard's fence
 * (outbox_set_fence()), so a holder that lost the shard writes nothing
 * there again: no reading it verified after that is ever released.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <diamond/libdiamond.h>

#include "outbox.h"

#define SLACK		(1u << 20)
#define NO_MID		-1

struct msg {
	struct msg *prev, *next;
	int mid;		/* NO_MID until published */
	int durable;		/* in the file, fdatasync'd */
	size_t tlen, plen;
	char data[];		/* topic, NUL, payload */
};

struct outbox {
	char path[4096];
	int fd;
	size_t file_bytes;	/* in the file */
	size_t owed_bytes;	/* records of the messages owed */
	size_t owed;
	size_t inflight;	/* published, PUBACK awaited */
	int broken;		/* -errno: rewrite before appending */
	struct msg *head, *tail;
	struct msg *by_mid[65536];
	struct diamond_fence *fence;	/* a shared shard's, or NULL */
};

void outbox_set_fence(struct outbox *ob, struct diamond_fence *fence)
{
	ob->fence = fence;
}

/* May the file be written now? Then unfence(). 0 or -ESTALE. */
static int fence(struct outbox *ob)
{
	return ob->fence ? diamond_fence_enter(ob->fence) : 0;
}

static void unfence(struct outbox *ob)
{
	if (ob->fence)
		diamond_fence_exit(ob->fence);
}

static size_t rec_size(const struct msg *m)
{
	return 8 + m->tlen + m->plen;
}

static void put32(uint8_t *p, size_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static size_t get32(const uint8_t *p)
{
	return (size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 |
	       (size_t)p[3] << 24;
}

static struct msg *msg_new(const char *topic, size_t tlen, const void *p,
			   size_t plen)
{
	struct msg *m = malloc(sizeof(*m) + tlen + 1 + plen);

	if (!m)
		return NULL;
	*m = (struct msg){ .mid = NO_MID, .tlen = tlen, .plen = plen };
	memcpy(m->data, topic, tlen);
	m->data[tlen] = 0;
	memcpy(m->data + tlen + 1, p, plen);
	return m;
}

static void link_tail(struct outbox *ob, struct msg *m)
{
	m->prev = ob->tail;
	if (ob->tail)
		ob->tail->next = m;
	else
		ob->head = m;
	ob->tail = m;
	ob->owed++;
	ob->owed_bytes += rec_size(m);
}

static void unlink_msg(struct outbox *ob, struct msg *m)
{
	if (m->prev)
		m->prev->next = m->next;
	else
		ob->head = m->next;
	if (m->next)
		m->next->prev = m->prev;
	else
		ob->tail = m->prev;
	ob->owed--;
	ob->owed_bytes -= rec_size(m);
}

/* fsync the directory @path names: the names in it are durable. */
static int sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0 || fsync(fd) < 0)
		rc = -errno;
	if (fd >= 0)
		close(fd);
	return rc;
}

/* What an earlier run left: every whole record, owed again. */
static int load(struct outbox *ob)
{
	struct stat sb;
	uint8_t *buf;
	size_t at = 0, tl, pl, n;
	struct msg *m;
	ssize_t got;

	if (fstat(ob->fd, &sb) < 0)
		return -errno;
	n = (size_t)sb.st_size;
	buf = n ? malloc(n) : NULL;
	if (n && !buf)
		return -ENOMEM;
	got = n ? pread(ob->fd, buf, n, 0) : 0;
	if (got < 0 || (size_t)got != n) {
		free(buf);
		return got < 0 ? -errno : -EIO;
	}
	while (n - at >= 8) {
		tl = get32(buf + at);
		pl = get32(buf + at + 4);
		if (tl > OUTBOX_MAX_TOPIC || pl > OUTBOX_MAX_PAYLOAD ||
		    n - at - 8 < tl + pl)
			break;	/* torn */
		m = msg_new((const char *)buf + at + 8, tl, buf + at + 8 + tl, pl);
		if (!m) {
			free(buf);
			return -ENOMEM;
		}
		m->durable = 1;
		link_tail(ob, m);
		at += 8 + tl + pl;
	}
	free(buf);
	/* A torn tail cut off: no record is ever appended behind one. */
	if (at < n && ftruncate(ob->fd, (off_t)at) < 0)
		return -errno;
	ob->file_bytes = at;
	return 0;
}

int outbox_open(struct outbox **out, const char *state_dir)
{
	struct outbox *ob = calloc(1, sizeof(*ob));
	int rc;

	if (!ob)
		return -ENOMEM;
	snprintf(ob->path, sizeof(ob->path), "%s/mqtt", state_dir);
	if (mkdir(ob->path, 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		free(ob);
		return rc;
	}
	/* The names of a new directory and file durable before any record. */
	rc = sync_dir(state_dir);
	if (!rc)
		rc = sync_dir(ob->path);
	strncat(ob->path, "/outbox", sizeof(ob->path) - strlen(ob->path) - 1);
	ob->fd = open(ob->path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (!rc)
		rc = ob->fd < 0 ? -errno : load(ob);
	if (rc) {
		outbox_close(ob);
		return rc;
	}
	*out = ob;
	return 0;
}

void outbox_close(struct outbox *ob)
{
	struct msg *m, *next;

	if (!ob)
		return;
	for (m = ob->head; m; m = next) {
		next = m->next;
		free(m);
	}
	if (ob->fd >= 0)
		close(ob->fd);
	free(ob);
}

int outbox_add(struct outbox *ob, const char *topic, const void *p,
	       size_t len)
{
	size_t tlen = strlen(topic);
	struct msg *m;

	if (tlen > OUTBOX_MAX_TOPIC || len > OUTBOX_MAX_PAYLOAD)
		return -EMSGSIZE;
	m = msg_new(topic, tlen, p, len);
	if (!m)
		return -ENOMEM;
	link_tail(ob, m);
	return 0;
}

/* Append @m's record to @fd. 0 or -errno. */
static int write_rec(int fd, const struct msg *m)
{
	uint8_t hdr[8];
	const char *parts[3] = { (const char *)hdr, m->data, m->data + m->tlen + 1 };
	size_t lens[3] = { 8, m->tlen, m->plen }, i, done;
	ssize_t n;

	put32(hdr, m->tlen);
	put32(hdr + 4, m->plen);
	for (i = 0; i < 3; i++)
		for (done = 0; done < lens[i]; done += (size_t)n) {
			n = write(fd, parts[i] + done, lens[i] - done);
			if (n < 0 && errno == EINTR) {
				n = 0;
				continue;
			}
			if (n <= 0)
				return n < 0 ? -errno : -EIO;
		}
	return 0;
}

static int rewrite(struct outbox *ob);

static int sync_locked(struct outbox *ob)
{
	struct msg *m, *first = NULL;
	size_t at;
	int rc;

	if (ob->broken && (rc = rewrite(ob)))
		return rc;
	for (m = ob->tail; m && !m->durable; m = m->prev)
		first = m;
	if (!first)
		return 0;
	at = ob->file_bytes;
	for (m = first; m; m = m->next) {
		rc = write_rec(ob->fd, m);
		if (rc) {
			/* Cut off, so no torn record sits before later ones. */
			if (ftruncate(ob->fd, (off_t)at) < 0)
				ob->broken = rc;
			ob->file_bytes = at;
			return rc;
		}
		ob->file_bytes += rec_size(m);
	}
	if (fdatasync(ob->fd) < 0) {
		ob->broken = -errno;
		return ob->broken;
	}
	for (m = first; m; m = m->next)
		m->durable = 1;
	return 0;
}

int outbox_sync(struct outbox *ob)
{
	int rc;

	if (!ob->broken && (!ob->tail || ob->tail->durable))
		return 0;	/* nothing to write: no fence taken */
	rc = fence(ob);
	if (rc)
		return rc;
	rc = sync_locked(ob);
	unfence(ob);
	return rc;
}

void outbox_send(struct outbox *ob, outbox_pub_fn pub, void *arg)
{
	struct msg *m;
	int mid;

	for (m = ob->head; m && m->durable && ob->inflight < OUTBOX_WINDOW;
	     m = m->next) {
		if (m->mid != NO_MID)
			continue;
		if (pub(arg, m->data, m->data + m->tlen + 1, m->plen, &mid))
			return;	/* not connected: the next call tries again */
		if (mid < 0 || mid > 65535)
			continue;
		m->mid = mid;
		ob->by_mid[mid] = m;
		ob->inflight++;
	}
}

/*
 * The owed messages alone in the file, crash-safely: a new file, written
 * and fdatasync'd, renamed over the old one, the directory fsync'd (the
 * records appended next count on the new name). 0 or -errno.
 */
static int rewrite(struct outbox *ob)
{
	char tmp[4200], dir[4200];
	struct msg *m;
	int fd, rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", ob->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	for (m = ob->head; m && m->durable && !rc; m = m->next)
		rc = write_rec(fd, m);
	if (!rc && fdatasync(fd) < 0)
		rc = -errno;
	if (!rc && rename(tmp, ob->path) < 0)
		rc = -errno;
	if (rc) {
		close(fd);
		unlink(tmp);
		return rc;
	}
	close(ob->fd);
	ob->fd = fd;
	ob->file_bytes = 0;
	for (m = ob->head; m && m->durable; m = m->next)
		ob->file_bytes += rec_size(m);
	for (; m; m = m->next)	/* not yet durable: written by the next sync */
		m->durable = 0;
	snprintf(dir, sizeof(dir), "%s", ob->path);
	*strrchr(dir, '/') = 0;
	ob->broken = sync_dir(dir);
	return ob->broken;
}

void outbox_acked(struct outbox *ob, int mid)
{
	struct msg *m;

	if (mid < 0 || mid > 65535 || !(m = ob->by_mid[mid]))
		return;
	ob->by_mid[mid] = NULL;
	ob->inflight--;
	unlink_msg(ob, m);
	free(m);
	/* A lost truncate or rewrite only means a message published twice. */
	if (ob->owed ? ob->file_bytes <= 2 * ob->owed_bytes + SLACK :
	    !ob->file_bytes)
		return;
	if (fence(ob))
		return;
	if (!ob->owed) {
		if (ftruncate(ob->fd, 0) == 0)
			ob->file_bytes = 0;
	} else {
		rewrite(ob);
	}
	unfence(ob);
}

size_t outbox_owed(const struct outbox *ob)
{
	return ob->owed;
}

size_t outbox_inflight(const struct outbox *ob)
{
	return ob->inflight;
}

const char *outbox_path(const struct outbox *ob)
{
	return ob->path;
}
