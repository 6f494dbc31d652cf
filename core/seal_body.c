// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Seal a whole plaintext body as one epoch: the sender without a window. */
#include <diamond/core.h>

#include <diamond/util.h>

int dmd_seal_body(struct dmd_state *st, const uint8_t *ad, size_t adlen,
		  const uint8_t *pt, size_t pt_len, uint8_t *ct)
{
	struct dmd_sender s;
	size_t pos = 0, len;
	uint32_t n, j;
	int rc;

	if (!st || !pt || !ct)
		return DMD_EINVAL;
	/* A refused init leaves @s as it was: the wipe below needs it empty. */
	dmd_wipe(&s, sizeof(s));
	rc = dmd_state_check(st);
	if (rc == DMD_OK)
		rc = dmd_body_count(pt, pt_len, st->b, &n);
	if (rc == DMD_OK)
		rc = dmd_sender_init(&s, st, NULL, 0, 0);
	if (rc == DMD_OK)
		rc = dmd_sender_begin(&s, NULL);
	for (j = 0; rc == DMD_OK && j < n; j++) {
		len = (size_t)pt[pos] | (size_t)pt[pos + 1] << 8;
		ct[pos] = pt[pos];
		ct[pos + 1] = pt[pos + 1];
		pos += DMD_BODY_LEN_SIZE;
		rc = dmd_sender_seal(&s, pt + pos, len, ct + pos, NULL);
		pos += len;
	}
	if (rc == DMD_OK)
		rc = dmd_sender_close(&s, ad, adlen, ct + pt_len, NULL);
	if (rc == DMD_OK)
		*st = s.st;
	dmd_sender_wipe(&s);
	return rc;
}
