// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet receiver's spool, @state_dir/spool/packets (diamond_prx_spool()):
 * every packet the receiver holds anew is appended (ciphertext is not
 * secret), and diamond_prx_sync() makes the file durable. An entry is the
 * packet's length (1 byte), the unit it was held in (le64 epoch, le32
 * unit) and the packet: a packet held in two candidate units is there
 * twice. A restarted receiver feeds again the packets of the units at or
 * past its devices' cursors and skips the rest: an old packet fed again
 * would be held at a later candidate and cost tries. A caller that
 * acknowledges its input once that returned 0 (open --mqtt) loses nothing
 * when it dies: the packets of units not yet decided, which the state file
 * does not hold, are in the spool, and the next receiver feeds them again
 * before anything else. The stream's spool (spool.c) does the same for the
 * frames of open epochs.
 *
 * It grows until it holds twice what it held after its last rewrite (plus
 * 64 KiB), then it is rewritten from the packets held in memory (a new
 * file, fsync'd, renamed over the old one), so it stays within twice what
 * the receiver may hold, plus the slack. After a failed write or fdatasync
 * it counts as broken (the kernel may have dropped pages it then reports
 * clean) until a rewrite from memory succeeds; every sync tries that
 * first. In a fenced directory (diamond_prx_set_fence()) every write is
 * made under the fence, so a receiver that lost the shard writes nothing
 * more and its sync fails (-ESTALE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prx.h"

#define PSPOOL_SLACK	(64u << 10)
#define PSPOOL_HDR	13	/* length, le64 epoch, le32 unit */

struct dlib_pspool {
	char path[4096];
	int fd;
	size_t bytes;		/* in the file */
	size_t limit;		/* rewritten past this */
	int dirty;		/* appended since the last fdatasync */
	int broken;		/* -errno: the file may lack packets held */
};

static int fence(struct diamond_prx *x)
{
	struct diamond_fence *f = dlib_store_fence(x->store);

	return f ? diamond_fence_enter(f) : 0;
}

static void unfence(struct diamond_prx *x)
{
	struct diamond_fence *f = dlib_store_fence(x->store);

	if (f)
		diamond_fence_exit(f);
}

/* The entry of a packet held in unit (@e, @u), to @fd. */
static int put(int fd, uint64_t e, uint32_t u, const uint8_t *pkt,
	       size_t len)
{
	uint8_t buf[PSPOOL_HDR + DIAMOND_PKT_MAX];

	buf[0] = (uint8_t)len;
	dmd_store64_le(buf + 1, e);
	dmd_store32_le(buf + 9, u);
	memcpy(buf + PSPOOL_HDR, pkt, len);
	return dlib_write_all(fd, buf, PSPOOL_HDR + len);
}

void dlib_prx_spool_append(struct diamond_prx *x, uint64_t e, uint32_t u,
			   const uint8_t *pkt, size_t len)
{
	struct dlib_pspool *s = x->spool;
	int rc;

	/* Broken: the next sync writes every held packet anew. */
	if (!s || s->broken || x->replaying)
		return;
	rc = fence(x);
	if (!rc) {
		rc = put(s->fd, e, u, pkt, len);
		/* A short write cut off: no torn packet before later ones. */
		if (rc && ftruncate(s->fd, (off_t)s->bytes) < 0)
			s->bytes = SIZE_MAX;
		unfence(x);
	}
	if (rc) {
		s->broken = rc;
		return;
	}
	s->bytes += PSPOOL_HDR + len;
	s->dirty = 1;
}

/* Every packet held, of every device's units, to @fd. */
static int emit_held(void *arg, int fd)
{
	const struct diamond_prx *x = arg;
	const struct dlib_punit *pu;
	unsigned int i, r, c;
	size_t k;
	int rc = 0;

	for (k = 0; k < x->ndev && !rc; k++)
		for (i = 0; i < DLIB_PRX_UNITS && !rc; i++) {
			pu = &x->dev[k]->unit[i];
			for (r = 0; pu->used && r < DMD_GRID_UNIT && !rc; r++)
				for (c = 0; c < pu->ncopy[r] && !rc; c++)
					rc = put(fd, pu->bits.e, pu->bits.u,
						 pu->pkt[r][c], pu->len[r][c]);
		}
	return rc;
}

/*
 * Replace the spool by the packets held, crash-safely: a new file,
 * written and fsync'd, renamed over the old one, then the directory
 * fsync'd (its failure is reported: the spool stays broken).
 */
static int rewrite(struct diamond_prx *x)
{
	struct dlib_pspool *s = x->spool;
	size_t size;
	int fd, rc = dlib_spool_replace(s->path, emit_held, x, &fd, &size);

	if (rc)
		return rc;	/* the old file as it was */
	close(s->fd);
	s->fd = fd;
	s->bytes = size;
	s->limit = 2 * s->bytes + PSPOOL_SLACK;
	s->dirty = 0;
	s->broken = dlib_fsync_parent(s->path);
	return s->broken;
}

static int sync_locked(struct diamond_prx *x)
{
	struct dlib_pspool *s = x->spool;

	/* Outgrown, or broken: anew from memory. */
	if ((s->broken || s->bytes > s->limit) && rewrite(x) == 0)
		return 0;
	if (!s->broken && s->dirty && fdatasync(s->fd) < 0) {
		s->broken = -errno;
		/* The pages may be gone although clean: rewrite them now. */
		if (rewrite(x) == 0)
			return 0;
	}
	if (s->broken)
		return s->broken;
	s->dirty = 0;
	return 0;
}

int diamond_prx_sync(struct diamond_prx *x)
{
	int rc;

	if (!x)
		return -EINVAL;
	if (!x->spool)
		return 0;
	rc = fence(x);
	if (rc)
		return rc;
	rc = sync_locked(x);
	unfence(x);
	return rc;
}

/* The spool's packets, read whole (*@buf malloc'd, *@len bytes). */
static int slurp(int fd, uint8_t **buf, size_t *len)
{
	struct stat sb;
	ssize_t n;
	size_t at = 0;

	*buf = NULL;
	*len = 0;
	if (fstat(fd, &sb) < 0)
		return -errno;
	if (!sb.st_size)
		return 0;
	*buf = malloc((size_t)sb.st_size);
	if (!*buf)
		return -ENOMEM;
	while (at < (size_t)sb.st_size) {
		n = pread(fd, *buf + at, (size_t)sb.st_size - at, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* shorter than it was: what is there */
		at += (size_t)n;
	}
	*len = at;
	return 0;
}

int dlib_prx_spool_open(struct diamond_prx *x, const char *state_dir,
			uint8_t **buf, size_t *len)
{
	struct dlib_pspool *s;
	int rc;

	if (x->spool)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	rc = dlib_make_dir(s->path, sizeof(s->path), state_dir, "spool");
	if (!rc)
		rc = dlib_fsync_parent(s->path);
	strncat(s->path, "/packets", sizeof(s->path) - strlen(s->path) - 1);
	s->fd = rc ? -1 : open(s->path, O_RDWR | O_CREAT | O_APPEND |
			       O_CLOEXEC, 0600);
	if (!rc && s->fd < 0)
		rc = -errno;
	if (!rc)
		rc = slurp(s->fd, buf, len);
	if (rc) {
		if (s->fd >= 0)
			close(s->fd);
		free(s);
		return rc;
	}
	s->bytes = *len;
	x->spool = s;
	return 0;
}

int dlib_prx_spool_entry(const uint8_t *p, size_t len, uint64_t *e,
			 uint32_t *u, const uint8_t **pkt, size_t *plen)
{
	if (len < PSPOOL_HDR || !p[0] || len < PSPOOL_HDR + (size_t)p[0])
		return 0;
	*e = dmd_load64_le(p + 1);
	*u = dmd_load32_le(p + 9);
	*pkt = p + PSPOOL_HDR;
	*plen = p[0];
	return PSPOOL_HDR + p[0];
}

int dlib_prx_spool_rewrite(struct diamond_prx *x)
{
	int rc = fence(x);

	if (!rc) {
		rc = rewrite(x);
		unfence(x);
	}
	return rc;
}

void dlib_prx_spool_close(struct diamond_prx *x)
{
	struct dlib_pspool *s = x->spool;

	if (!s)
		return;
	close(s->fd);
	free(s);
	x->spool = NULL;
}
