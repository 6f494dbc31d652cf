// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The epoch chain and the record chain (spec section 3). Both are the
 * Bellare-Yee forward-secure PRG with the suite's stream as the PRF: one
 * key per step, whose first output block(s) are the next key.
 */
#include <diamond/chain.h>

#include <diamond/core.h>

size_t dmd_key_size(unsigned int suite)
{
	if (suite == DMD_SUITE_AES_GHASH)
		return DMD_KEY1_SIZE;
	if (suite == DMD_SUITE_CHACHA_POLY)
		return DMD_KEY2_SIZE;
	return 0;
}

size_t dmd_blob_size(unsigned int suite)
{
	return DMD_BLOB_SIZE(dmd_key_size(suite));
}

size_t dmd_blob2_size(unsigned int suite)
{
	return DMD_BLOB2_SIZE(dmd_key_size(suite));
}

void dmd_epoch_update(unsigned int suite, const uint8_t *e, uint8_t *e_next,
		      uint8_t *r0)
{
	struct dmd_stream s;
	size_t k = dmd_key_size(suite);

	/* The stream holds its own copy of the key, so e_next may alias e. */
	dmd_stream_init(&s, suite, e, DMD_DOMAIN_EPOCH);
	dmd_stream_read(&s, e_next, k);
	dmd_stream_read(&s, r0, k);
	dmd_stream_wipe(&s);
}

void dmd_slot_open(struct dmd_stream *s, unsigned int suite, const uint8_t *r,
		   uint8_t *r_next, uint8_t hkey_pad[32])
{
	dmd_stream_init(s, suite, r, DMD_DOMAIN_RECORD);
	dmd_stream_read(s, r_next, dmd_key_size(suite));
	dmd_stream_read(s, hkey_pad, 32);
}

void dmd_group_keys(unsigned int suite, const uint8_t *r, uint8_t hp[32])
{
	struct dmd_stream s;

	dmd_stream_init(&s, suite, r, DMD_DOMAIN_GROUP);
	dmd_stream_read(&s, hp, 32);
	dmd_stream_wipe(&s);
}
