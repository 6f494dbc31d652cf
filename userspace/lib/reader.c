// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Stream reader: turns a byte stream (file, serial line, datagrams) into
 * frames, discarding bytes up to the next sync when a frame boundary holds
 * none (spec section 8) and stepping over headers that cannot be valid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include <diamond/frame.h>

struct diamond_reader {
	uint8_t *buf;
	size_t head, tail, cap;
};

struct diamond_reader *diamond_reader_new(void)
{
	struct diamond_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cap = 2 * DIAMOND_FRAME_MAX;
	r->buf = malloc(r->cap);
	if (!r->buf) {
		free(r);
		return NULL;
	}
	return r;
}

void diamond_reader_free(struct diamond_reader *r)
{
	if (!r)
		return;
	dlib_free_secret(r->buf, r->cap);
	free(r);
}

int diamond_reader_feed(struct diamond_reader *r, const uint8_t *data,
			size_t len)
{
	size_t used = r->tail - r->head, ncap;
	uint8_t *nb;

	if (r->head && r->cap - r->tail < len) {
		memmove(r->buf, r->buf + r->head, used);
		r->head = 0;
		r->tail = used;
	}
	if (r->cap - r->tail < len) {
		ncap = r->cap;
		while (ncap - r->tail < len)
			ncap *= 2;
		nb = realloc(r->buf, ncap);
		if (!nb)
			return -ENOMEM;
		r->buf = nb;
		r->cap = ncap;
	}
	memcpy(r->buf + r->tail, data, len);
	r->tail += len;
	return 0;
}

void diamond_reader_reset(struct diamond_reader *r)
{
	r->head = r->tail = 0;
}

size_t diamond_reader_pending(const struct diamond_reader *r)
{
	return r->tail - r->head;
}

int diamond_reader_next(struct diamond_reader *r, struct diamond_frame *f,
			size_t *skipped)
{
	size_t avail = r->tail - r->head, at;
	int n;

	*skipped = 0;
	if (!avail)
		return 0;
	n = diamond_frame_parse(f, r->buf + r->head, avail);
	if (n > 0) {
		r->head += (size_t)n;
		if (r->head == r->tail)
			r->head = r->tail = 0;
		return 1;
	}
	if (n == -ENODATA)
		return 0;
	/* -EILSEQ: skip to the next sync; -EPROTO: step over this sync. */
	at = dmd_frame_sync(r->buf + r->head, avail);
	*skipped = at;
	r->head += at;
	if (r->head == r->tail)
		r->head = r->tail = 0;
	return n == -EPROTO ? -EPROTO : -EILSEQ;
}
