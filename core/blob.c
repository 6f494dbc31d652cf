// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Key blobs (spec section 2): the serialized state at the start of an epoch,
 * and the derivation of a device's first state from a root secret.
 * Version 1 is read and written (it is the kernel's setkey format); what is
 * stored is version 2, which adds the provisioning generation, the group
 * size and a CRC-32 so that a damaged blob is refused before any use.
 * Provisioning hashes a fresh value into E_0 that no blob needs to carry:
 * only the provisioning host ever derives E_0.
 */
#include <diamond/core.h>

#include <diamond/sha256.h>
#include <diamond/util.h>

#define E0_LABEL_V1 "DIAMOND/1 E0"
#define E0_LABEL_V2 "DIAMOND/2 E0"
#define E0_LABEL_V3 "DIAMOND/3 E0"
#define E0_LABEL_LEN 12

static int params_valid(unsigned int suite, unsigned int agg, uint32_t b)
{
	return dmd_key_size(suite) && agg <= DMD_AGG_HASH &&
	       b >= 1 && b <= DMD_MAX_B;
}

/* The chain of generation @gen starts at gen * 2^32 and only moves up. */
static int epoch_valid(uint64_t epoch, unsigned int gen)
{
	return epoch <= DMD_EPOCH_LAST + 1 && (epoch >> DMD_GEN_SHIFT) >= gen;
}

int dmd_state_check(const struct dmd_state *st)
{
	if (!st || !params_valid(st->suite, st->agg, st->b) ||
	    !epoch_valid(st->epoch, st->gen) || st->group > st->b ||
	    (st->flags & ~DMD_BLOB_FLAGS_KNOWN))
		return DMD_EKEY;
	return DMD_OK;
}

/* The common header (offsets 0..23); the key offset depends on @version. */
static int parse_header(struct dmd_state *st, const uint8_t *blob,
			size_t len, unsigned int version)
{
	const uint8_t magic[4] = { 'D', 'M', 'N', 'D' };
	size_t i, k = dmd_key_size(blob[DMD_BLOB_OFF_SUITE]);

	for (i = 0; i < sizeof(magic); i++)
		if (blob[i] != magic[i])
			return DMD_EKEY;
	if ((blob[DMD_BLOB_OFF_FLAGS] & ~DMD_BLOB_FLAGS_KNOWN) || !k ||
	    len != (version == 1 ? DMD_BLOB_SIZE(k) : DMD_BLOB2_SIZE(k)))
		return DMD_EKEY;
	st->suite = blob[DMD_BLOB_OFF_SUITE];
	st->agg = blob[DMD_BLOB_OFF_AGG];
	st->flags = blob[DMD_BLOB_OFF_FLAGS];
	st->b = dmd_load32_le(blob + DMD_BLOB_OFF_B);
	st->device_id = dmd_load32_le(blob + DMD_BLOB_OFF_DEVICE);
	st->epoch = dmd_load64_le(blob + DMD_BLOB_OFF_EPOCH);
	return DMD_OK;
}

int dmd_blob_parse(struct dmd_state *st, const uint8_t *blob, size_t len)
{
	struct dmd_state t;
	size_t k, i, off = DMD_BLOB_OFF_KEY;
	int rc;

	if (!st || !blob || len < DMD_BLOB_HDR)
		return DMD_EKEY;
	t.gen = 0;
	t.group = 0;
	if (blob[DMD_BLOB_OFF_VERSION] == DMD_BLOB_VERSION) {
		rc = parse_header(&t, blob, len, 1);
	} else if (blob[DMD_BLOB_OFF_VERSION] == DMD_BLOB2_VERSION) {
		/* Exact length first, then the CRC: a damaged blob says
		 * nothing else. */
		rc = parse_header(&t, blob, len, 2);
		if (!rc && dmd_load32_le(blob + len - DMD_BLOB2_CRC_SIZE) !=
		    dmd_crc32(blob, len - DMD_BLOB2_CRC_SIZE))
			rc = DMD_EKEY;
		if (!rc) {
			t.gen = dmd_load16_le(blob + DMD_BLOB2_OFF_GEN);
			t.group = dmd_load16_le(blob + DMD_BLOB2_OFF_GROUP);
		}
		off = DMD_BLOB2_OFF_KEY;
	} else {
		rc = DMD_EKEY;
	}
	if (rc || dmd_state_check(&t))
		return DMD_EKEY;
	k = dmd_key_size(t.suite);
	for (i = 0; i < DMD_KEY_MAX; i++)
		t.key[i] = i < k ? blob[off + i] : 0;
	*st = t;
	dmd_wipe(&t, sizeof(t));
	return DMD_OK;
}

/* Offsets 0..23, common to both versions. */
static void write_header(uint8_t *blob, const struct dmd_state *st,
			 uint8_t version)
{
	blob[0] = 'D';
	blob[1] = 'M';
	blob[2] = 'N';
	blob[3] = 'D';
	blob[DMD_BLOB_OFF_VERSION] = version;
	blob[DMD_BLOB_OFF_SUITE] = st->suite;
	blob[DMD_BLOB_OFF_AGG] = st->agg;
	blob[DMD_BLOB_OFF_FLAGS] = st->flags;
	dmd_store32_le(blob + DMD_BLOB_OFF_B, st->b);
	dmd_store32_le(blob + DMD_BLOB_OFF_DEVICE, st->device_id);
	dmd_store64_le(blob + DMD_BLOB_OFF_EPOCH, st->epoch);
}

void dmd_blob_write(uint8_t *blob, const struct dmd_state *st)
{
	size_t k = dmd_key_size(st->suite), i;

	write_header(blob, st, DMD_BLOB_VERSION);
	for (i = 0; i < k; i++)
		blob[DMD_BLOB_OFF_KEY + i] = st->key[i];
}

void dmd_blob2_write(uint8_t *blob, const struct dmd_state *st)
{
	size_t k = dmd_key_size(st->suite), i;

	write_header(blob, st, DMD_BLOB2_VERSION);
	dmd_store16_le(blob + DMD_BLOB2_OFF_GEN, st->gen);
	dmd_store16_le(blob + DMD_BLOB2_OFF_GROUP, st->group);
	for (i = 0; i < k; i++)
		blob[DMD_BLOB2_OFF_KEY + i] = st->key[i];
	dmd_store32_le(blob + DMD_BLOB2_OFF_KEY + k,
		       dmd_crc32(blob, DMD_BLOB2_OFF_KEY + k));
}

/*
 * E_0 = SHA-256(label || suite || agg || le32(b) || le32(device_id) ||
 * @tail || [@nonce] || root)[0:k]: @tail is the label's fields after the
 * device ID (le16 G, then le16 g for "DIAMOND/3 E0"), @nonce NULL for the
 * earlier derivations.
 */
static void derive(struct dmd_state *st, const char *label,
		   const uint8_t *tail, size_t tail_len, const uint8_t *nonce,
		   const uint8_t root[DMD_ROOT_SIZE])
{
	struct dmd_sha256 h;
	uint8_t hdr[E0_LABEL_LEN + 10], digest[32];
	size_t i, k = dmd_key_size(st->suite);

	for (i = 0; i < E0_LABEL_LEN; i++)
		hdr[i] = (uint8_t)label[i];
	hdr[E0_LABEL_LEN] = st->suite;
	hdr[E0_LABEL_LEN + 1] = st->agg;
	dmd_store32_le(hdr + E0_LABEL_LEN + 2, st->b);
	dmd_store32_le(hdr + E0_LABEL_LEN + 6, st->device_id);

	dmd_sha256_init(&h);
	dmd_sha256_update(&h, hdr, sizeof(hdr));
	dmd_sha256_update(&h, tail, tail_len);
	if (nonce)
		dmd_sha256_update(&h, nonce, DMD_PROV_NONCE_SIZE);
	dmd_sha256_update(&h, root, DMD_ROOT_SIZE);
	dmd_sha256_final(&h, digest);

	for (i = 0; i < DMD_KEY_MAX; i++)
		st->key[i] = i < k ? digest[i] : 0;
	st->epoch = (uint64_t)st->gen << DMD_GEN_SHIFT;
	/* A provisioned state is the device's: it seals (no open-only). */
	st->flags = 0;
	dmd_wipe(digest, sizeof(digest));
	dmd_wipe(&h, sizeof(h));
}

static int derive_params_valid(const struct dmd_state *st)
{
	return st && params_valid(st->suite, st->agg, st->b) &&
	       st->group <= st->b;
}

/*
 * Generation 0 is version 1's derivation, unchanged; a later generation
 * adds its number under its own label, so each gives an unrelated E_0.
 */
int dmd_derive_initial(struct dmd_state *st, const uint8_t root[DMD_ROOT_SIZE])
{
	uint8_t gen[2];

	if (!derive_params_valid(st) || !root)
		return DMD_EINVAL;
	dmd_store16_le(gen, st->gen);
	derive(st, st->gen ? E0_LABEL_V2 : E0_LABEL_V1, gen, st->gen ? 2 : 0,
	       NULL, root);
	return DMD_OK;
}

/*
 * Every parameter of the blob, and a value no other provisioning used: a
 * lost, restored or copied ledger repeats G, never E_0.
 */
int dmd_derive_fresh(struct dmd_state *st,
		     const uint8_t nonce[DMD_PROV_NONCE_SIZE],
		     const uint8_t root[DMD_ROOT_SIZE])
{
	uint8_t tail[4];

	if (!derive_params_valid(st) || !nonce || !root)
		return DMD_EINVAL;
	dmd_store16_le(tail, st->gen);
	dmd_store16_le(tail + 2, st->group);
	derive(st, E0_LABEL_V3, tail, sizeof(tail), nonce, root);
	return DMD_OK;
}
