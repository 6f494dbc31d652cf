/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Frames (Documentation/spec.rst section 8), written and parsed once for
 * every user, in the freestanding core: record frames, epoch tag frames and
 * group tag frames. Header fields are range-checked here; what they mean
 * for a device's state is the receiver's business.
 */
#ifndef DIAMOND_FRAME_H
#define DIAMOND_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/spec.h>

struct dmd_frame {
	uint8_t type;		/* DMD_FRAME_RECORD, _TAG or _GROUP */
	uint8_t suite;
	uint32_t device_id;
	uint64_t epoch;
	uint16_t index;		/* record j, count n or group i */
	uint16_t len;		/* payload bytes */
	const uint8_t *payload;	/* C_j, or AD || tag */
};

/*
 * Write the 20-byte header of @f into @hdr (its payload is not read): for
 * a sender that sends header and payload apart, without a frame buffer.
 * Returns DMD_OK, or DMD_EFORMAT for a frame that is not valid.
 */
int dmd_frame_header(uint8_t hdr[DMD_FRAME_HDR], const struct dmd_frame *f);

/*
 * Write @f (header then payload; @payload may overlap @out) into @out.
 * Returns the frame's size, DMD_EFORMAT for a frame that is not valid, or
 * DMD_ESPACE when @cap is too small.
 */
int dmd_frame_write(uint8_t *out, size_t cap, const struct dmd_frame *f);

/*
 * Parse the frame that starts at @buf. Returns its size (> 0) with @f
 * filled in (its payload points into @buf); 0 when @len holds only the
 * start of a frame that may be valid; DMD_EFORMAT when no valid frame
 * starts at @buf (a receiver then resynchronises: dmd_frame_sync()).
 */
int dmd_frame_parse(struct dmd_frame *f, const uint8_t *buf, size_t len);

/* The offset of the next possible sync after @buf[0], or @len if none. */
size_t dmd_frame_sync(const uint8_t *buf, size_t len);

/*
 * The next frame of a byte stream (spec 8.1): bytes where no valid frame
 * starts are passed over up to the next possible sync, and counted in
 * *@skipped; the frame then starts at @buf + *@skipped. Returns its size
 * (> 0, @f filled in), or 0 when the stream ends inside a frame that may
 * still be valid (or is used up), as dmd_frame_parse() does.
 */
int dmd_frame_next(struct dmd_frame *f, const uint8_t *buf, size_t len,
		   size_t *skipped);

#endif
