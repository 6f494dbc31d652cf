/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Frames of spec section 8, device side. */
#ifndef DIAMOND_EMBEDDED_FRAME_H
#define DIAMOND_EMBEDDED_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Write the 20-byte header. @field is j (record) or n (epoch tag). */
void frame_header(uint8_t hdr[20], uint8_t type, uint8_t suite,
		  uint32_t device_id, uint64_t epoch, uint16_t field,
		  uint16_t payload_len);

/* Header plus payload (and, for a tag frame, @tail = T) to the link. */
void frame_send(uint8_t type, uint8_t suite, uint32_t device_id,
		uint64_t epoch, uint16_t field, const uint8_t *payload,
		uint16_t len, const uint8_t *tail, uint16_t tail_len);

#endif
