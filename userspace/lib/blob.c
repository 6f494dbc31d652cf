// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Key blobs: checking, provisioning and the gateway's mirror update. */
#include <errno.h>

#include "internal.h"

int diamond_blob_info(const uint8_t *blob, size_t len,
		      struct diamond_params *p)
{
	struct dmd_state st;

	if (dmd_blob_parse(&st, blob, len) != DMD_OK)
		return -EINVAL;
	if (p) {
		p->suite = st.suite;
		p->agg = st.agg;
		p->b = st.b;
		p->device_id = st.device_id;
		p->epoch = st.epoch;
		p->generation = st.gen;
		p->group_size = st.group;
	}
	dmd_wipe(&st, sizeof(st));
	return 0;
}

/* The blob's fields from @p; -EINVAL for a value no blob can hold. */
static int provision_state(struct dmd_state *st, const struct diamond_params *p)
{
	if (!p || p->suite > 255 || p->agg > 255 ||
	    p->generation > DMD_GEN_MAX || p->group_size > p->b ||
	    p->group_size > UINT16_MAX)
		return -EINVAL;
	st->suite = (uint8_t)p->suite;
	st->agg = (uint8_t)p->agg;
	st->b = p->b;
	st->device_id = p->device_id;
	st->gen = (uint16_t)p->generation;
	/* g = b is stored as 0: the blob of a device without groups. */
	st->group = (uint16_t)(p->group_size == p->b ? 0 : p->group_size);
	return 0;
}

/* @nonce NULL: the earlier derivation (test keys from fixed roots). */
static int provision(const uint8_t *root, const uint8_t *nonce,
		     const struct diamond_params *p, uint8_t *blob,
		     size_t *len)
{
	struct dmd_state st = { 0 };
	int rc;

	if (!root || !blob || !len || provision_state(&st, p))
		return -EINVAL;
	rc = nonce ? dmd_derive_fresh(&st, nonce, root) :
		     dmd_derive_initial(&st, root);
	if (rc == DMD_OK) {
		dmd_blob2_write(blob, &st);
		*len = dmd_blob2_size(st.suite);
	}
	dmd_wipe(&st, sizeof(st));
	return rc == DMD_OK ? 0 : -EINVAL;
}

int diamond_provision(const uint8_t root[DIAMOND_ROOT_SIZE],
		      const struct diamond_params *p, uint8_t *blob,
		      size_t *len)
{
	return provision(root, NULL, p, blob, len);
}

int diamond_provision_fresh(const uint8_t root[DIAMOND_ROOT_SIZE],
			    const uint8_t nonce[DIAMOND_PROV_NONCE_SIZE],
			    const struct diamond_params *p, uint8_t *blob,
			    size_t *len)
{
	if (!nonce)
		return -EINVAL;
	return provision(root, nonce, p, blob, len);
}

void dlib_state_advance(struct dmd_state *st, uint64_t epoch)
{
	uint8_t r[DMD_KEY_MAX];

	while (st->epoch <= epoch) {
		dmd_epoch_update(st->suite, st->key, st->key, r);
		st->epoch++;
	}
	dmd_wipe(r, sizeof(r));
}
