// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Frames (spec section 8). Every header field is checked against its range
 * before the payload length is trusted, so a damaged header costs a resync,
 * never a read past the frame or a frame swallowing its successors.
 */
#include <diamond/frame.h>

#include <diamond/util.h>

static int header_valid(const struct dmd_frame *f)
{
	if (f->suite != DMD_SUITE_AES_GHASH &&
	    f->suite != DMD_SUITE_CHACHA_POLY)
		return 0;
	if (f->epoch > DMD_EPOCH_LAST)
		return 0;
	switch (f->type) {
	case DMD_FRAME_RECORD:
		/* j < b <= 65535 */
		return f->index < DMD_MAX_B && f->len <= DMD_MAX_RECORD;
	case DMD_FRAME_TAG:
		/* 1 <= n <= b */
		return f->index >= 1 && f->len >= DMD_TAG_SIZE &&
		       f->len <= DMD_MAX_AD + DMD_TAG_SIZE;
	case DMD_FRAME_GROUP:
		/* (i + 1) g < b: i < 65534 */
		return f->index < DMD_MAX_B - 1 && f->len >= DMD_TAG_SIZE &&
		       f->len <= DMD_MAX_AD + DMD_TAG_SIZE;
	default:
		return 0;
	}
}

int dmd_frame_header(uint8_t hdr[DMD_FRAME_HDR], const struct dmd_frame *f)
{
	if (!hdr || !f || !header_valid(f))
		return DMD_EFORMAT;
	hdr[0] = DMD_FRAME_SYNC0;
	hdr[1] = DMD_FRAME_SYNC1;
	hdr[2] = f->type;
	hdr[3] = f->suite;
	dmd_store32_le(hdr + 4, f->device_id);
	dmd_store64_le(hdr + 8, f->epoch);
	hdr[16] = (uint8_t)f->index;
	hdr[17] = (uint8_t)(f->index >> 8);
	hdr[18] = (uint8_t)f->len;
	hdr[19] = (uint8_t)(f->len >> 8);
	return DMD_OK;
}

int dmd_frame_write(uint8_t *out, size_t cap, const struct dmd_frame *f)
{
	size_t n, i;

	if (!out || !f || !header_valid(f) || (f->len && !f->payload))
		return DMD_EFORMAT;
	n = DMD_FRAME_HDR + (size_t)f->len;
	if (cap < n)
		return DMD_ESPACE;
	/* The payload may overlap @out (a sender seals in place): move it. */
	if ((uintptr_t)f->payload < (uintptr_t)(out + DMD_FRAME_HDR))
		for (i = f->len; i--;)
			out[DMD_FRAME_HDR + i] = f->payload[i];
	else
		for (i = 0; i < f->len; i++)
			out[DMD_FRAME_HDR + i] = f->payload[i];
	dmd_frame_header(out, f);
	return (int)n;
}

int dmd_frame_parse(struct dmd_frame *f, const uint8_t *buf, size_t len)
{
	if (!f || (!buf && len))
		return DMD_EINVAL;
	if ((len >= 1 && buf[0] != DMD_FRAME_SYNC0) ||
	    (len >= 2 && buf[1] != DMD_FRAME_SYNC1))
		return DMD_EFORMAT;
	if (len < DMD_FRAME_HDR)
		return 0;
	f->type = buf[2];
	f->suite = buf[3];
	f->device_id = dmd_load32_le(buf + 4);
	f->epoch = dmd_load64_le(buf + 8);
	f->index = (uint16_t)(buf[16] | buf[17] << 8);
	f->len = (uint16_t)(buf[18] | buf[19] << 8);
	f->payload = buf + DMD_FRAME_HDR;
	if (!header_valid(f))
		return DMD_EFORMAT;
	if (len - DMD_FRAME_HDR < f->len)
		return 0;
	return DMD_FRAME_HDR + f->len;
}

size_t dmd_frame_sync(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 1; i < len; i++)
		if (buf[i] == DMD_FRAME_SYNC0 &&
		    (i + 1 == len || buf[i + 1] == DMD_FRAME_SYNC1))
			return i;
	return len;
}

int dmd_frame_next(struct dmd_frame *f, const uint8_t *buf, size_t len,
		   size_t *skipped)
{
	size_t at = 0;
	int rc;

	if (!f || !skipped || (!buf && len))
		return DMD_EINVAL;
	while ((rc = dmd_frame_parse(f, buf + at, len - at)) < 0)
		at += dmd_frame_sync(buf + at, len - at);
	*skipped = at;
	return rc;
}
