// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Frames (spec section 8): libdiamond's errno face of the one frame writer
 * and parser, core/frame.c, group tag frames (type 3) included.
 */
#include <errno.h>

#include <diamond/frame.h>
#include "internal.h"

static struct dmd_frame to_core(const struct diamond_frame *f)
{
	struct dmd_frame d = { f->type, f->suite, f->device_id, f->epoch,
			       f->index, f->len, f->payload };

	return d;
}

int diamond_frame_write(uint8_t *out, size_t size,
			const struct diamond_frame *f)
{
	struct dmd_frame d;
	int n;

	if (!out || !f)
		return -EPROTO;
	d = to_core(f);
	n = dmd_frame_write(out, size, &d);
	if (n == DMD_ESPACE)
		return -EMSGSIZE;
	return n > 0 ? n : -EPROTO;
}

int diamond_frame_parse(struct diamond_frame *f, const uint8_t *buf,
			size_t len)
{
	struct dmd_frame d;
	int n;

	if (!f || (!buf && len))
		return -EINVAL;
	/* The sync first: -EILSEQ tells the reader to resynchronise. */
	if ((len >= 1 && buf[0] != DMD_FRAME_SYNC0) ||
	    (len >= 2 && buf[1] != DMD_FRAME_SYNC1))
		return -EILSEQ;
	n = dmd_frame_parse(&d, buf, len);
	if (n == 0)
		return -ENODATA;
	if (n < 0)
		return -EPROTO;
	f->type = d.type;
	f->suite = d.suite;
	f->device_id = d.device_id;
	f->epoch = d.epoch;
	f->index = d.index;
	f->len = d.len;
	f->payload = d.payload;
	return n;
}
