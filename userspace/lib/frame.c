// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Frames (spec section 8): one header parser and writer for all users. */
#include <errno.h>
#include <string.h>

#include "internal.h"

static int header_valid(const struct diamond_frame *f)
{
	if (f->suite != DMD_SUITE_AES_GHASH && f->suite != DMD_SUITE_CHACHA_POLY)
		return 0;
	if (f->epoch >= UINT64_MAX - 1)
		return 0;
	switch (f->type) {
	case DIAMOND_FRAME_RECORD:
		return f->len <= DIAMOND_MAX_RECORD;
	case DIAMOND_FRAME_TAG:
		return f->index >= 1 && f->len >= DIAMOND_TAG_SIZE &&
		       f->len <= DIAMOND_MAX_AD + DIAMOND_TAG_SIZE;
	default:
		return 0;
	}
}

int diamond_frame_write(uint8_t *out, size_t size,
			const struct diamond_frame *f)
{
	size_t n;

	if (!out || !f || !header_valid(f) || (f->len && !f->payload))
		return -EPROTO;
	n = DIAMOND_FRAME_HDR + (size_t)f->len;
	if (size < n)
		return -EMSGSIZE;
	out[0] = DMD_FRAME_SYNC0;
	out[1] = DMD_FRAME_SYNC1;
	out[2] = f->type;
	out[3] = f->suite;
	dmd_store32_le(out + 4, f->device_id);
	dmd_store64_le(out + 8, f->epoch);
	out[16] = (uint8_t)f->index;
	out[17] = (uint8_t)(f->index >> 8);
	out[18] = (uint8_t)f->len;
	out[19] = (uint8_t)(f->len >> 8);
	if (f->len)
		memmove(out + DIAMOND_FRAME_HDR, f->payload, f->len);
	return (int)n;
}

int diamond_frame_parse(struct diamond_frame *f, const uint8_t *buf,
			size_t len)
{
	if (!f || (!buf && len))
		return -EINVAL;
	if (len < 2 || len < DIAMOND_FRAME_HDR) {
		/* Too short to judge the header; the sync may still be wrong. */
		if ((len >= 1 && buf[0] != DMD_FRAME_SYNC0) ||
		    (len >= 2 && buf[1] != DMD_FRAME_SYNC1))
			return -EILSEQ;
		return -ENODATA;
	}
	if (buf[0] != DMD_FRAME_SYNC0 || buf[1] != DMD_FRAME_SYNC1)
		return -EILSEQ;
	f->type = buf[2];
	f->suite = buf[3];
	f->device_id = dmd_load32_le(buf + 4);
	f->epoch = dmd_load64_le(buf + 8);
	f->index = (uint16_t)(buf[16] | buf[17] << 8);
	f->len = (uint16_t)(buf[18] | buf[19] << 8);
	f->payload = buf + DIAMOND_FRAME_HDR;
	if (!header_valid(f))
		return -EPROTO;
	if (len < DIAMOND_FRAME_HDR + (size_t)f->len)
		return -ENODATA;
	return DIAMOND_FRAME_HDR + f->len;
}
