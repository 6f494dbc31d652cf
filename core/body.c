// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Epoch bodies (spec section 7): le16 length || record, repeated. Parsed in
 * full before any key is touched, so a malformed body costs no PRF call.
 */
#include <diamond/core.h>

#include <diamond/util.h>

int dmd_body_count(const uint8_t *body, size_t len, uint32_t max_records,
		   uint32_t *count)
{
	size_t pos = 0, rec;
	uint32_t n = 0;

	if (!body && len)
		return DMD_EINVAL;
	while (pos < len) {
		if (len - pos < DMD_BODY_LEN_SIZE)
			return DMD_EFORMAT;
		rec = (size_t)body[pos] | (size_t)body[pos + 1] << 8;
		pos += DMD_BODY_LEN_SIZE;
		if (rec > DMD_MAX_RECORD)
			return DMD_ESIZE;
		if (rec > len - pos)
			return DMD_EFORMAT;
		pos += rec;
		if (++n > max_records)
			return DMD_EFORMAT;
	}
	if (n == 0)
		return DMD_EFORMAT;
	*count = n;
	return DMD_OK;
}
