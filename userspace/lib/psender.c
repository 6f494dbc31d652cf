// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host sender in packet mode (spec 14.3): the portable core's dmd_psender
 * on a blob file, reserving before use as the stream sender does
 * (sender.c): the blob of epoch e + 1 is durable before any slot of e is
 * used, and "<blob>.lock" is held for the sender's lifetime.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct diamond_psender {
	struct dmd_psender core;
	char *path;
	int lockfd;
	int broken;	/* a reservation failed: sealing would reuse slots */
};

int diamond_psender_open(struct diamond_psender **out, const char *blob_path,
			 unsigned int a, uint32_t addr)
{
	struct diamond_psender *s;
	struct dmd_state st;
	int rc, lockfd;

	if (!out || !blob_path)
		return -EINVAL;
	if (access(blob_path, R_OK | W_OK) < 0)
		return -errno;
	lockfd = dlib_lock_blob(blob_path);
	if (lockfd < 0)
		return lockfd;
	rc = dlib_read_sealing_blob(blob_path, &st);
	s = rc ? NULL : calloc(1, sizeof(*s));
	if (!rc && (!s || !(s->path = strdup(blob_path))))
		rc = -ENOMEM;
	if (!rc)
		rc = dlib_core_errno(dmd_psender_init(&s->core, &st, a, addr,
						      NULL, 0, 0));
	dmd_wipe(&st, sizeof(st));
	if (rc) {
		if (s)
			free(s->path);
		free(s);
		close(lockfd);
		return rc;
	}
	s->lockfd = lockfd;
	*out = s;
	return 0;
}

static int begin(struct diamond_psender *s)
{
	struct dmd_state reserve;
	int rc;

	rc = dlib_core_errno(dmd_psender_begin(&s->core, &reserve));
	if (rc)
		return rc;
	rc = dlib_store_reservation(s->path, &reserve);
	if (rc)
		s->broken = 1;
	return rc;
}

int diamond_psender_seal(struct diamond_psender *s, const uint8_t *m,
			 size_t len, uint8_t *pkt)
{
	size_t n;
	int rc;

	if (!s || s->broken)
		return -EIO;
	if (len > DMD_PKT_MAX_RECORD)
		return -EMSGSIZE;
	if (!s->core.s.open && (rc = begin(s)))
		return rc;
	rc = dmd_psender_seal(&s->core, m, len, 0, pkt, DMD_PKT_MAX, &n);
	if (rc == DMD_EFULL) {
		rc = begin(s);
		if (rc)
			return rc;
		rc = dmd_psender_seal(&s->core, m, len, 0, pkt, DMD_PKT_MAX, &n);
	}
	return rc ? dlib_core_errno(rc) : (int)n;
}

void diamond_psender_free(struct diamond_psender *s)
{
	if (!s)
		return;
	dmd_psender_wipe(&s->core);
	free(s->path);
	close(s->lockfd);
	dlib_free_secret(s, sizeof(*s));
}
