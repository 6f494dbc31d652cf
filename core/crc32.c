// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): the integrity check of
 * a version 2 key blob (spec section 2). It runs over key bytes, so it is
 * computed bit by bit with masks, without a table or a branch on the data.
 */
#include <diamond/core.h>

#include <diamond/util.h>

uint32_t dmd_crc32(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffffu;
	unsigned int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^
			      (0xedb88320u & ((uint32_t)0 - (crc & 1u)));
	}
	return ~crc;
}
