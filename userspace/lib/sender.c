// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Host sender (spec section 10): the portable core's sender on a blob file.
 * Beginning an epoch writes the blob of the next epoch durably before the
 * first record is sealed, so a crash can lose at most the open epoch and
 * never reuses a slot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct diamond_sender {
	struct dmd_sender core;
	char *path;
	int broken;	/* a reservation failed: sealing would reuse slots */
};

int diamond_sender_open(struct diamond_sender **out, const char *blob_path)
{
	struct diamond_sender *s;
	struct dmd_state st;
	uint8_t blob[DIAMOND_BLOB_MAX + 1];
	ssize_t n;
	int fd, rc;

	fd = open(blob_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, blob, sizeof(blob));
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (!rc && dmd_blob_parse(&st, blob, (size_t)n) != DMD_OK)
		rc = -EINVAL;
	dmd_wipe(blob, sizeof(blob));
	if (rc)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(blob_path))) {
		free(s);
		dmd_wipe(&st, sizeof(st));
		return -ENOMEM;
	}
	rc = _diamond_core_errno(dmd_sender_init(&s->core, &st, NULL, 0, 0));
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
	_diamond_free_secret(s, sizeof(*s));
}

void diamond_sender_params(const struct diamond_sender *s,
			   struct diamond_params *p)
{
	p->suite = s->core.st.suite;
	p->agg = s->core.st.agg;
	p->b = s->core.st.b;
	p->device_id = s->core.st.device_id;
	p->epoch = s->core.open ? s->core.epoch : s->core.st.epoch;
}

/* Spec 10.1: the blob of e + 1 is durable before any slot of e is used. */
static int begin(struct diamond_sender *s)
{
	struct dmd_state reserve;
	uint8_t blob[DIAMOND_BLOB_MAX];
	int rc;

	rc = _diamond_core_errno(dmd_sender_begin(&s->core, &reserve));
	if (rc)
		return rc;
	dmd_blob_write(blob, &reserve);
	rc = diamond_file_replace(s->path, blob, dmd_blob_size(reserve.suite),
				  0600);
	dmd_wipe(blob, sizeof(blob));
	dmd_wipe(&reserve, sizeof(reserve));
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
	if (!s->core.open) {
		rc = begin(s);
		if (rc)
			return rc;
	}
	rc = _diamond_core_errno(dmd_sender_seal(&s->core, data, len,
						 frame + DIAMOND_FRAME_HDR, &j));
	if (rc)
		return rc;
	if (full)
		*full = s->core.index >= s->core.st.b;
	return write_frame(s, DIAMOND_FRAME_RECORD, j, len, frame,
			   DIAMOND_FRAME_MAX);
}

int diamond_sender_close_epoch(struct diamond_sender *s, const uint8_t *ad,
			       size_t adlen, uint8_t *frame)
{
	uint32_t n;
	int rc;

	if (s->broken)
		return -EIO;
	if (!s->core.open)
		return 0;
	if (adlen > DIAMOND_MAX_AD)
		return -EMSGSIZE;
	if (adlen)
		memcpy(frame + DIAMOND_FRAME_HDR, ad, adlen);
	rc = _diamond_core_errno(dmd_sender_close(&s->core, ad, adlen,
			frame + DIAMOND_FRAME_HDR + adlen, &n));
	if (rc)
		return rc;
	return write_frame(s, DIAMOND_FRAME_TAG, n, adlen + DIAMOND_TAG_SIZE,
			   frame, DIAMOND_FRAME_HDR + DIAMOND_MAX_AD +
			   DIAMOND_TAG_SIZE);
}
