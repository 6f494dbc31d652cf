// SPDX-License-Identifier: GPL-2.0
/*
 * The wrapped state "DMDW" (Documentation/spec.rst, "Wrapped states"): a
 * clear setkey input (a version 2 blob, open-only, optionally followed by
 * its group cursor) sealed with lib/crypto's XChaCha20-Poly1305 under the
 * wrap key (diamond_wrapkey.c). Bytes only: the header is derived from the
 * inner blob when sealing and checked against it when opening, so that what
 * the header says (device, generation, epoch, cursor) is what the blob
 * keys, and the header, the AEAD's associated data, cannot be altered.
 * diamond_key.c keys a tfm from the opened inner bytes and builds the inner
 * bytes of an export.
 */
#include <crypto/chacha20poly1305.h>
#include <linux/random.h>
#include <linux/string.h>

#include "diamond.h"

/* The state size k of a suite; 0 for none. */
static unsigned int suite_k(u8 suite)
{
	if (suite == DMD_SUITE_AES_GHASH)
		return DMD_KEY1_SIZE;
	return suite == DMD_SUITE_CHACHA_POLY ? DMD_KEY2_SIZE : 0;
}

/*
 * Write the header for @inner (@len bytes) to @hdr: -EINVAL unless @inner
 * is a version 2 blob of a known suite, alone or with a cursor.
 */
static int hdr_build(const u8 *inner, unsigned int len, u8 *hdr)
{
	unsigned int k = len > DMD_BLOB_OFF_SUITE ?
			 suite_k(inner[DMD_BLOB_OFF_SUITE]) : 0;
	bool cursor = k && len == DMD_BLOB2_SIZE(k) + DMD_CURSOR_SIZE(k);
	const u8 *cur = inner + DMD_BLOB2_SIZE(k);

	if (!k || (len != DMD_BLOB2_SIZE(k) && !cursor))
		return -EINVAL;
	memset(hdr, 0, DMD_WRAP_AD_SIZE);
	memcpy(hdr, DMD_WRAP_MAGIC, 4);
	hdr[DMD_WRAP_OFF_VERSION] = DMD_WRAP_VERSION;
	hdr[DMD_WRAP_OFF_SUITE] = inner[DMD_BLOB_OFF_SUITE];
	hdr[DMD_WRAP_OFF_FLAGS] = cursor ? DMD_WRAP_FLAG_CURSOR : 0;
	memcpy(hdr + DMD_WRAP_OFF_DEVICE, inner + DMD_BLOB_OFF_DEVICE, 4);
	memcpy(hdr + DMD_WRAP_OFF_GEN, inner + DMD_BLOB2_OFF_GEN, 2);
	memcpy(hdr + DMD_WRAP_OFF_EPOCH, inner + DMD_BLOB_OFF_EPOCH, 8);
	if (cursor)
		memcpy(hdr + DMD_WRAP_OFF_GROUP, cur + 8, 4);
	put_unaligned_le32(len, hdr + DMD_WRAP_OFF_LEN);
	return 0;
}

/*
 * Seal @inner (@len bytes) under @wkey into @out, DMD_WRAP_SIZE(@len)
 * bytes, with a fresh random nonce. -EINVAL for an inner that is no
 * version 2 blob (with or without its cursor).
 */
int diamond_wrap_seal(const u8 wkey[DMD_WRAP_KEY_SIZE], const u8 *inner,
		      unsigned int len, u8 *out)
{
	int err = hdr_build(inner, len, out);

	if (err)
		return err;
	get_random_bytes(out + DMD_WRAP_OFF_NONCE, DMD_WRAP_NONCE_SIZE);
	xchacha20poly1305_encrypt(out + DMD_WRAP_HDR, inner, len, out,
				  DMD_WRAP_AD_SIZE, out + DMD_WRAP_OFF_NONCE,
				  wkey);
	return 0;
}

/*
 * The header's own rules (lengths, magic, version, known suite and flags,
 * reserved bytes zero): the inner length, or -EINVAL.
 */
static int hdr_check(const u8 *in, unsigned int len)
{
	unsigned int k, inner;
	bool cursor;

	if (len < DMD_WRAP_HDR + DMD_TAG_SIZE || memcmp(in, DMD_WRAP_MAGIC, 4) ||
	    in[DMD_WRAP_OFF_VERSION] != DMD_WRAP_VERSION ||
	    (in[DMD_WRAP_OFF_FLAGS] & ~DMD_WRAP_FLAG_CURSOR) ||
	    in[DMD_WRAP_OFF_RSVD0] || get_unaligned_le16(in + DMD_WRAP_OFF_RSVD1))
		return -EINVAL;
	k = suite_k(in[DMD_WRAP_OFF_SUITE]);
	cursor = in[DMD_WRAP_OFF_FLAGS] & DMD_WRAP_FLAG_CURSOR;
	inner = DMD_BLOB2_SIZE(k) + (cursor ? DMD_CURSOR_SIZE(k) : 0);
	if (!k || get_unaligned_le32(in + DMD_WRAP_OFF_LEN) != inner ||
	    len != DMD_WRAP_SIZE(inner) ||
	    (!cursor && get_unaligned_le32(in + DMD_WRAP_OFF_GROUP)))
		return -EINVAL;
	return inner;
}

/*
 * The opened inner blob against the header it came with: the same suite,
 * device, generation, epoch and cursor (cursor epoch e - 1, group c), and
 * open-only. Any difference is -EINVAL.
 */
static int inner_check(const u8 *hdr, const u8 *inner, unsigned int len)
{
	u8 want[DMD_WRAP_AD_SIZE];
	unsigned int k = suite_k(hdr[DMD_WRAP_OFF_SUITE]);
	u64 e = get_unaligned_le64(hdr + DMD_WRAP_OFF_EPOCH);
	const u8 *cur = inner + DMD_BLOB2_SIZE(k);

	if (memcmp(inner, DMD_BLOB_MAGIC, 4) ||
	    inner[DMD_BLOB_OFF_VERSION] != DMD_BLOB2_VERSION ||
	    !(inner[DMD_BLOB_OFF_FLAGS] & DMD_BLOB_FLAG_OPEN_ONLY) ||
	    hdr_build(inner, len, want) ||
	    memcmp(want, hdr, DMD_WRAP_OFF_NONCE))
		return -EINVAL;
	if (len > DMD_BLOB2_SIZE(k) && get_unaligned_le64(cur) + 1 != e)
		return -EINVAL;
	return 0;
}

/*
 * Open the DMDW blob @in (@len bytes) into @inner (DMD_WRAP_INNER_MAX
 * bytes); its length, or -EINVAL (malformed, or header and inner blob
 * disagree), -ENOKEY (@wkey NULL: no wrap key) or -EKEYREJECTED (the tag
 * does not verify: another wrap key, or altered bytes). Whatever it
 * returns, @inner holds no plaintext unless it is a length.
 */
int diamond_wrap_open(const u8 *wkey, const u8 *in, unsigned int len,
		      u8 *inner)
{
	int n = hdr_check(in, len);
	int err;

	if (n < 0)
		return n;
	if (!wkey)
		return -ENOKEY;
	if (!xchacha20poly1305_decrypt(inner, in + DMD_WRAP_HDR,
				       n + DMD_TAG_SIZE, in, DMD_WRAP_AD_SIZE,
				       in + DMD_WRAP_OFF_NONCE, wkey)) {
		memzero_explicit(inner, n);
		return -EKEYREJECTED;
	}
	err = inner_check(in, inner, n);
	if (err) {
		memzero_explicit(inner, n);
		return err;
	}
	return n;
}
