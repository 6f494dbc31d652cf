// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "frame.h"

#include "board.h"
#include "../../core/util.h"
#include "../../include/diamond/spec.h"

void frame_header(uint8_t hdr[20], uint8_t type, uint8_t suite,
		  uint32_t device_id, uint64_t epoch, uint16_t field,
		  uint16_t payload_len)
{
	hdr[0] = DMD_FRAME_SYNC0;
	hdr[1] = DMD_FRAME_SYNC1;
	hdr[2] = type;
	hdr[3] = suite;
	dmd_store32_le(hdr + 4, device_id);
	dmd_store64_le(hdr + 8, epoch);
	hdr[16] = (uint8_t)field;
	hdr[17] = (uint8_t)(field >> 8);
	hdr[18] = (uint8_t)payload_len;
	hdr[19] = (uint8_t)(payload_len >> 8);
}

void frame_send(uint8_t type, uint8_t suite, uint32_t device_id,
		uint64_t epoch, uint16_t field, const uint8_t *payload,
		uint16_t len, const uint8_t *tail, uint16_t tail_len)
{
	uint8_t hdr[DMD_FRAME_HDR];

	frame_header(hdr, type, suite, device_id, epoch, field,
		     (uint16_t)(len + tail_len));
	board_out(hdr, sizeof(hdr));
	if (len)
		board_out(payload, len);
	if (tail_len)
		board_out(tail, tail_len);
}
