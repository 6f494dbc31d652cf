// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Key blobs (spec section 2): the serialized state at the start of an epoch,
 * and the derivation of a device's first state from a root secret.
 */
#include "../include/diamond/core.h"

#include "sha256.h"
#include "util.h"

#define E0_LABEL "DIAMOND/1 E0"
#define E0_LABEL_LEN 12

static int params_valid(unsigned int suite, unsigned int agg, uint32_t b)
{
	return dmd_key_size(suite) && agg <= DMD_AGG_HASH &&
	       b >= 1 && b <= DMD_MAX_B;
}

int dmd_state_check(const struct dmd_state *st)
{
	if (!st || !params_valid(st->suite, st->agg, st->b) ||
	    st->epoch == UINT64_MAX)
		return DMD_EKEY;
	return DMD_OK;
}

int dmd_blob_parse(struct dmd_state *st, const uint8_t *blob, size_t len)
{
	const uint8_t magic[4] = { 'D', 'M', 'N', 'D' };
	uint32_t b;
	size_t k, i;

	if (!st || !blob || len < DMD_BLOB_HDR)
		return DMD_EKEY;
	for (i = 0; i < sizeof(magic); i++)
		if (blob[i] != magic[i])
			return DMD_EKEY;
	b = dmd_load32_le(blob + DMD_BLOB_OFF_B);
	if (blob[DMD_BLOB_OFF_VERSION] != DMD_BLOB_VERSION ||
	    blob[DMD_BLOB_OFF_RSVD] != 0 ||
	    !params_valid(blob[DMD_BLOB_OFF_SUITE], blob[DMD_BLOB_OFF_AGG], b))
		return DMD_EKEY;
	k = dmd_key_size(blob[DMD_BLOB_OFF_SUITE]);
	if (len != DMD_BLOB_SIZE(k) ||
	    dmd_load64_le(blob + DMD_BLOB_OFF_EPOCH) == UINT64_MAX)
		return DMD_EKEY;

	st->suite = blob[DMD_BLOB_OFF_SUITE];
	st->agg = blob[DMD_BLOB_OFF_AGG];
	st->b = b;
	st->device_id = dmd_load32_le(blob + DMD_BLOB_OFF_DEVICE);
	st->epoch = dmd_load64_le(blob + DMD_BLOB_OFF_EPOCH);
	for (i = 0; i < DMD_KEY_MAX; i++)
		st->key[i] = i < k ? blob[DMD_BLOB_OFF_KEY + i] : 0;
	return DMD_OK;
}

void dmd_blob_write(uint8_t *blob, const struct dmd_state *st)
{
	size_t k = dmd_key_size(st->suite), i;

	blob[0] = 'D';
	blob[1] = 'M';
	blob[2] = 'N';
	blob[3] = 'D';
	blob[DMD_BLOB_OFF_VERSION] = DMD_BLOB_VERSION;
	blob[DMD_BLOB_OFF_SUITE] = st->suite;
	blob[DMD_BLOB_OFF_AGG] = st->agg;
	blob[DMD_BLOB_OFF_RSVD] = 0;
	dmd_store32_le(blob + DMD_BLOB_OFF_B, st->b);
	dmd_store32_le(blob + DMD_BLOB_OFF_DEVICE, st->device_id);
	dmd_store64_le(blob + DMD_BLOB_OFF_EPOCH, st->epoch);
	for (i = 0; i < k; i++)
		blob[DMD_BLOB_OFF_KEY + i] = st->key[i];
}

int dmd_derive_initial(struct dmd_state *st, const uint8_t root[DMD_ROOT_SIZE])
{
	struct dmd_sha256 h;
	uint8_t hdr[E0_LABEL_LEN + 10], digest[32];
	size_t i, k;

	if (!st || !root || !params_valid(st->suite, st->agg, st->b))
		return DMD_EINVAL;
	for (i = 0; i < E0_LABEL_LEN; i++)
		hdr[i] = (uint8_t)E0_LABEL[i];
	hdr[E0_LABEL_LEN] = st->suite;
	hdr[E0_LABEL_LEN + 1] = st->agg;
	dmd_store32_le(hdr + E0_LABEL_LEN + 2, st->b);
	dmd_store32_le(hdr + E0_LABEL_LEN + 6, st->device_id);

	dmd_sha256_init(&h);
	dmd_sha256_update(&h, hdr, sizeof(hdr));
	dmd_sha256_update(&h, root, DMD_ROOT_SIZE);
	dmd_sha256_final(&h, digest);

	k = dmd_key_size(st->suite);
	for (i = 0; i < DMD_KEY_MAX; i++)
		st->key[i] = i < k ? digest[i] : 0;
	st->epoch = 0;
	dmd_wipe(digest, sizeof(digest));
	return DMD_OK;
}
