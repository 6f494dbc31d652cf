// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The core's documented error codes (spec section 12) for every kind of bad
 * input, and the API properties the vectors do not reach: in-place sealing,
 * blob round trips, provisioning, and that a failed call changes nothing.
 */
#include <string.h>

#include <diamond/core.h>
#include <diamond/epoch.h>
#include "tap.h"
#include "../lib/state_eq.h"

static struct dmd_state fresh(unsigned int suite, uint32_t b)
{
	struct dmd_state st;
	uint8_t root[DMD_ROOT_SIZE];

	/* Non-zero padding, as a stack slot may have: dmd_test_state_eq ignores it. */
	memset(&st, 0xa5, sizeof(st));
	st.suite = (uint8_t)suite;
	st.agg = DMD_AGG_XOR;
	st.b = b;
	st.device_id = 9;
	st.gen = 0;
	st.group = 0;
	memset(root, 0x61, sizeof(root));
	dmd_derive_initial(&st, root);
	return st;
}

static void blobs(void)
{
	struct dmd_state st = fresh(2, 16), back;
	uint8_t blob[DMD_BLOB_MAX], bad[DMD_BLOB_MAX];
	size_t n = dmd_blob_size(2);

	memset(&back, 0x5a, sizeof(back));
	dmd_blob_write(blob, &st);
	tap_result(dmd_blob_parse(&back, blob, n) == DMD_OK &&
		   dmd_test_state_eq(&back, &st), "blob round trip");
	tap_result(dmd_blob_parse(&back, blob, n - 1) == DMD_EKEY,
		   "short blob -> DMD_EKEY");
	tap_result(dmd_blob_parse(&back, blob, 40) == DMD_EKEY,
		   "suite-1 length for a suite-2 blob -> DMD_EKEY");
#define BAD_BLOB(off, val, what)                                            \
	do {                                                                \
		memcpy(bad, blob, n);                                       \
		bad[off] = (val);                                           \
		tap_result(dmd_blob_parse(&back, bad, n) == DMD_EKEY,       \
			   what " -> DMD_EKEY");                            \
	} while (0)
	BAD_BLOB(0, 'X', "wrong magic");
	BAD_BLOB(DMD_BLOB_OFF_VERSION, 3, "unknown version");
	BAD_BLOB(DMD_BLOB_OFF_SUITE, 3, "unknown suite");
	BAD_BLOB(DMD_BLOB_OFF_AGG, 3, "unknown aggregation");
	BAD_BLOB(DMD_BLOB_OFF_FLAGS, 2, "unknown flag bit 1 set");
	memcpy(bad, blob, n);
	memset(bad + DMD_BLOB_OFF_B, 0, 4);
	tap_result(dmd_blob_parse(&back, bad, n) == DMD_EKEY, "b = 0 -> DMD_EKEY");
	memcpy(bad, blob, n);
	bad[DMD_BLOB_OFF_B + 2] = 1;	/* b = 65536 + 16 */
	tap_result(dmd_blob_parse(&back, bad, n) == DMD_EKEY,
		   "b > 65535 -> DMD_EKEY");
	memcpy(bad, blob, n);
	memset(bad + DMD_BLOB_OFF_EPOCH, 0xff, 8);
	tap_result(dmd_blob_parse(&back, bad, n) == DMD_EKEY,
		   "epoch 2^64-1 -> DMD_EKEY");
	back = st;
	back.b = 0;
	tap_result(dmd_derive_initial(&back, blob) == DMD_EINVAL,
		   "provisioning with b = 0 -> DMD_EINVAL");
}

static void sender_errors(void)
{
	struct dmd_state st = fresh(1, 2), reserve;
	struct dmd_sender s;
	uint8_t m[DMD_MAX_RECORD + 1] = { 0 }, c[sizeof(m)], tag[16];
	uint8_t small[10];

	tap_result(dmd_sender_init(&s, &st, small, sizeof(small), 16) ==
		   DMD_ESPACE, "window smaller than one slot -> DMD_ESPACE");
	tap_result(dmd_sender_init(&s, &st, NULL, 0, DMD_MAX_RECORD + 1) ==
		   DMD_ESIZE, "precompute length over the maximum -> DMD_ESIZE");
	dmd_sender_init(&s, &st, NULL, 0, 0);
	tap_result(dmd_sender_seal(&s, m, 1, c, NULL) == DMD_EINVAL,
		   "seal before begin -> DMD_EINVAL");
	dmd_sender_begin(&s, &reserve);
	tap_result(reserve.epoch == 1 && s.epoch == 0,
		   "begin reserves epoch 1 while sealing epoch 0");
	tap_result(dmd_sender_begin(&s, NULL) == DMD_EINVAL,
		   "begin twice -> DMD_EINVAL");
	tap_result(dmd_sender_close(&s, NULL, 0, tag, NULL) == DMD_EINVAL,
		   "close of an empty epoch -> DMD_EINVAL");
	tap_result(dmd_sender_seal(&s, m, DMD_MAX_RECORD + 1, c, NULL) ==
		   DMD_ESIZE && s.index == 0,
		   "oversize record -> DMD_ESIZE, index unchanged");
	dmd_sender_seal(&s, m, 4, c, NULL);
	dmd_sender_seal(&s, m, 4, c, NULL);
	tap_result(dmd_sender_seal(&s, m, 4, c, NULL) == DMD_EFULL,
		   "record b+1 -> DMD_EFULL (index space exhausted)");
	tap_result(dmd_sender_close(&s, m, DMD_MAX_AD + 1, tag, NULL) ==
		   DMD_ESIZE, "AD over the maximum -> DMD_ESIZE");
	tap_result(dmd_sender_close(&s, NULL, 0, tag, NULL) == DMD_OK,
		   "close after the error still works");
	dmd_sender_wipe(&s);

	st.epoch = UINT64_MAX - 2;
	dmd_sender_init(&s, &st, NULL, 0, 0);
	tap_result(dmd_sender_begin(&s, NULL) == DMD_OK,
		   "epoch 2^64-3 is the last that begins");
	dmd_sender_seal(&s, m, 1, c, NULL);
	dmd_sender_close(&s, NULL, 0, tag, NULL);
	tap_result(dmd_sender_begin(&s, NULL) == DMD_EFULL,
		   "epoch 2^64-2 -> DMD_EFULL");
}

/*
 * Open-only keys (spec section 2, byte 7 bit 0): read and written back with
 * the flag in both versions, refused by every sender (DMD_EKEY, nothing
 * sealed), and they open what the same state without the flag sealed.
 */
static void open_only(void)
{
	static const uint8_t pt[] = { 3, 0, 'a', 'b', 'c' };
	struct dmd_state st = fresh(1, 4), rxst = st, back;
	struct dmd_sender s;
	struct dmd_receiver rx;
	uint8_t blob[DMD_BLOB2_MAX], ct[sizeof(pt) + DMD_TAG_SIZE];
	uint8_t out[sizeof(ct)];
	int rc;

	rxst.flags = DMD_BLOB_FLAG_OPEN_ONLY;
	dmd_blob2_write(blob, &rxst);
	tap_result(blob[DMD_BLOB_OFF_FLAGS] == DMD_BLOB_FLAG_OPEN_ONLY &&
		   dmd_blob_parse(&back, blob, dmd_blob2_size(1)) == DMD_OK &&
		   dmd_test_state_eq(&back, &rxst), "open-only v2 blob round trip");
	dmd_blob_write(blob, &rxst);
	tap_result(dmd_blob_parse(&back, blob, dmd_blob_size(1)) == DMD_OK &&
		   dmd_test_state_eq(&back, &rxst), "open-only v1 blob round trip");
	blob[DMD_BLOB_OFF_FLAGS] = 0x81;
	tap_result(dmd_blob_parse(&back, blob, dmd_blob_size(1)) == DMD_EKEY,
		   "open-only with an unknown flag bit 7 -> DMD_EKEY");
	memset(&s, 0, sizeof(s));
	tap_result(dmd_sender_init(&s, &rxst, NULL, 0, 0) == DMD_EKEY &&
		   dmd_sender_init_groups(&s, &rxst, NULL, 0, 0, 2) ==
		   DMD_EKEY && !s.open,
		   "sender refuses an open-only state -> DMD_EKEY");
	back = rxst;
	tap_result(dmd_seal_body(&back, NULL, 0, pt, sizeof(pt), ct) ==
		   DMD_EKEY && dmd_test_state_eq(&back, &rxst),
		   "dmd_seal_body refuses an open-only state, state unchanged");
	rc = dmd_seal_body(&st, NULL, 0, pt, sizeof(pt), ct);
	rc = rc ?: dmd_receiver_init(&rx, &rxst, rxst.b, 0);
	rc = rc ?: dmd_receiver_close(&rx, 0, 1, NULL, 0, ct, sizeof(ct),
				      out);
	tap_result(rc == DMD_OK && !memcmp(out, pt, sizeof(pt)) &&
		   rx.st.epoch == 1 &&
		   rx.st.flags == DMD_BLOB_FLAG_OPEN_ONLY,
		   "an open-only receiver opens, keeps the flag in its state");
	dmd_receiver_wipe(&rx);
}

/* Version 2 (spec section 2): CRC-32, generation, group size. */
static void blobs_v2(void)
{
	struct dmd_state st = fresh(2, 16), back, g1 = st, g2;
	uint8_t blob[DMD_BLOB2_MAX], bad[DMD_BLOB2_MAX], v1[DMD_BLOB_MAX];
	uint8_t root[DMD_ROOT_SIZE];
	size_t n = dmd_blob2_size(2), bit;
	unsigned int missed = 0;

	memset(&back, 0x5a, sizeof(back));
	dmd_blob2_write(blob, &st);
	tap_result(n == 64 && dmd_blob2_size(1) == 48 && blob[4] == 2 &&
		   dmd_blob_parse(&back, blob, n) == DMD_OK &&
		   dmd_test_state_eq(&back, &st), "v2 blob round trip");
	for (bit = 0; bit < 8 * n; bit++) {
		memcpy(bad, blob, n);
		bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		missed += dmd_blob_parse(&back, bad, n) != DMD_EKEY;
	}
	tap_result(!missed, "v2: each of %zu flipped bits -> DMD_EKEY (%u missed)",
		   8 * n, missed);
	tap_result(dmd_blob_parse(&back, blob, n - 1) == DMD_EKEY &&
		   dmd_blob_parse(&back, blob, dmd_blob_size(2)) == DMD_EKEY &&
		   dmd_blob_parse(&back, blob, DMD_BLOB_HDR) == DMD_EKEY,
		   "v2: wrong lengths, a bare header too -> DMD_EKEY");

	/* Fields with a valid CRC but values a v2 blob may not hold. */
	st.group = (uint16_t)(st.b + 1);
	dmd_blob2_write(bad, &st);
	tap_result(dmd_blob_parse(&back, bad, n) == DMD_EKEY,
		   "v2: group size above b -> DMD_EKEY");
	st.group = (uint16_t)st.b;
	dmd_blob2_write(bad, &st);
	tap_result(dmd_blob_parse(&back, bad, n) == DMD_OK &&
		   back.group == st.b,
		   "v2: group size b is kept (spec section 5.1)");
	st.group = 0;
	st.gen = 1;	/* generation 1 starts at 2^32; epoch 0 is below it */
	dmd_blob2_write(bad, &st);
	tap_result(dmd_blob_parse(&back, bad, n) == DMD_EKEY,
		   "v2: epoch below its generation's start -> DMD_EKEY");
	st.gen = 0;

	dmd_blob_write(v1, &st);
	tap_result(dmd_blob_parse(&back, v1, dmd_blob_size(2)) == DMD_OK &&
		   back.gen == 0 && back.group == 0 && dmd_test_state_eq(&back, &st),
		   "v1 blob still read, as generation 0");

	memset(root, 0x61, sizeof(root));
	g1.gen = 1;
	g2 = g1;
	g2.gen = 2;
	tap_result(dmd_derive_initial(&g1, root) == DMD_OK &&
		   dmd_derive_initial(&g2, root) == DMD_OK &&
		   g1.epoch == (uint64_t)1 << 32 && g2.epoch == (uint64_t)2 << 32 &&
		   memcmp(g1.key, st.key, 32) && memcmp(g2.key, g1.key, 32),
		   "generations 0, 1, 2 of one device: unrelated keys, epochs gen * 2^32");
	dmd_blob2_write(blob, &g2);
	tap_result(dmd_blob_parse(&back, blob, n) == DMD_OK && back.gen == 2 &&
		   dmd_test_state_eq(&back, &g2), "v2 generation 2 round trip");
}

static void in_place_and_errors(unsigned int suite)
{
	struct dmd_state tx = fresh(suite, 4), rx = tx, before;
	uint8_t body[2 + 20 + 2 + 3], ct[sizeof(body) + 16], pt[sizeof(body)];
	uint8_t inplace[sizeof(body) + 16];
	struct dmd_sender s;

	body[0] = 20;
	body[1] = 0;
	memset(body + 2, 'r', 20);
	body[22] = 3;
	body[23] = 0;
	memcpy(body + 24, "end", 3);
	dmd_seal_body(&tx, NULL, 0, body, sizeof(body), ct);

	/* The same epoch sealed in place must give the same bytes. */
	tx = rx;
	memcpy(inplace, body, sizeof(body));
	dmd_sender_init(&s, &tx, NULL, 0, 0);
	dmd_sender_begin(&s, NULL);
	dmd_sender_seal(&s, inplace + 2, 20, inplace + 2, NULL);
	dmd_sender_seal(&s, inplace + 24, 3, inplace + 24, NULL);
	dmd_sender_close(&s, NULL, 0, inplace + sizeof(body), NULL);
	dmd_sender_wipe(&s);
	tap_result(!memcmp(inplace, ct, sizeof(ct)),
		   "suite %u: in-place seal equals out-of-place", suite);

	before = rx;
	tap_result(dmd_open(&rx, 0, NULL, 0, ct, 15, pt, 10) == DMD_EFORMAT,
		   "suite %u: input shorter than a tag -> DMD_EFORMAT", suite);
	tap_result(dmd_open(&rx, 0, NULL, 0, ct, 16, pt, 10) == DMD_EFORMAT,
		   "suite %u: an epoch of no records -> DMD_EFORMAT", suite);
	tap_result(dmd_open(&rx, 0, body, DMD_MAX_AD + 1, ct, sizeof(ct), pt,
			    10) == DMD_ESIZE,
		   "suite %u: AD over the maximum -> DMD_ESIZE", suite);
	tap_result(dmd_open(&rx, 11, NULL, 0, ct, sizeof(ct), pt, 10) ==
		   DMD_ESKIP, "suite %u: epoch beyond max_skip -> DMD_ESKIP",
		   suite);
	tap_result(dmd_open(&rx, 0, NULL, 0, NULL, sizeof(ct), pt, 10) ==
		   DMD_EINVAL, "suite %u: NULL input -> DMD_EINVAL", suite);
	tap_result(dmd_test_state_eq(&rx, &before),
		   "suite %u: none of these touched the state", suite);
	tap_result(dmd_open(&rx, 0, NULL, 0, ct, sizeof(ct), pt, 10) ==
		   DMD_OK && !memcmp(pt, body, sizeof(body)) && rx.epoch == 1,
		   "suite %u: then the epoch opens", suite);
	tap_result(dmd_open(&rx, 0, NULL, 0, ct, sizeof(ct), pt, 10) ==
		   DMD_EEXPIRED, "suite %u: and its replay -> DMD_EEXPIRED",
		   suite);
}

/*
 * The one epoch check (<diamond/epoch.h>, spec section 9.2 step 3) at its
 * corners: the kernel and libdiamond call the same function, so this table
 * covers them too.
 */
static const struct {
	const char *what;
	uint64_t cur, epoch, max_skip;
	int want;
} epoch_cases[] = {
	{ "the current epoch", 7, 7, 4096, DMD_OK },
	{ "one below the state", 7, 6, 4096, DMD_EEXPIRED },
	{ "epoch 0 from state 1", 1, 0, 4096, DMD_EEXPIRED },
	{ "a skip of exactly max_skip", 7, 7 + 4096, 4096, DMD_OK },
	{ "max_skip + 1", 7, 7 + 4097, 4096, DMD_ESKIP },
	{ "max_skip 0: the next epoch", 7, 8, 0, DMD_ESKIP },
	{ "max_skip 0: the current epoch", 7, 7, 0, DMD_OK },
	{ "2^64 - 3, the last epoch", DMD_EPOCH_LAST, DMD_EPOCH_LAST, 4096,
	  DMD_OK },
	{ "2^64 - 3 by a skip of max_skip", DMD_EPOCH_LAST - 4096,
	  DMD_EPOCH_LAST, 4096, DMD_OK },
	{ "2^64 - 2 -> EFULL", DMD_EPOCH_LAST, UINT64_MAX - 1, 4096,
	  DMD_EFULL },
	{ "2^64 - 1 -> EFULL", DMD_EPOCH_LAST, UINT64_MAX, 4096, DMD_EFULL },
	{ "2^64 - 2 at state 2^64 - 2 -> EFULL", UINT64_MAX - 1,
	  UINT64_MAX - 1, 4096, DMD_EFULL },
	{ "2^64 - 2 exactly max_skip ahead -> EFULL", UINT64_MAX - 1 - 4096,
	  UINT64_MAX - 1, 4096, DMD_EFULL },
	{ "2^64 - 2 max_skip + 1 ahead -> ESKIP first", UINT64_MAX - 1 - 4097,
	  UINT64_MAX - 1, 4096, DMD_ESKIP },
	{ "2^64 - 1 from state 0 -> ESKIP first", 0, UINT64_MAX, 4096,
	  DMD_ESKIP },
	{ "2^64 - 3 below a full state -> EEXPIRED first", UINT64_MAX - 1,
	  DMD_EPOCH_LAST, 4096, DMD_EEXPIRED },
	{ "2^64 - 1 with unbounded max_skip -> EFULL", 0, UINT64_MAX,
	  UINT64_MAX, DMD_EFULL },
	{ "older generation: generation 1 at generation 2", 2ull << 32,
	  (1ull << 32) + 5, 4096, DMD_EEXPIRED },
	{ "older generation: its last epoch", 2ull << 32, (2ull << 32) - 1,
	  4096, DMD_EEXPIRED },
	{ "older generation: epoch 0 at generation 65535",
	  (uint64_t)DMD_GEN_MAX << DMD_GEN_SHIFT, 0, UINT64_MAX, DMD_EEXPIRED },
	{ "a new generation's first epoch", 2ull << 32, 2ull << 32, 4096,
	  DMD_OK },
};

#define EPOCH_CASES (sizeof(epoch_cases) / sizeof(epoch_cases[0]))

static void epoch_check(void)
{
	size_t i;

	for (i = 0; i < EPOCH_CASES; i++)
		tap_result(dmd_check_epoch(epoch_cases[i].cur,
					   epoch_cases[i].epoch,
					   epoch_cases[i].max_skip) ==
			   epoch_cases[i].want, "epoch check: %s",
			   epoch_cases[i].what);
	/* Each constant once, in spec.h: 2^64 - 3 and the default skip. */
	tap_result(DMD_EPOCH_LAST == UINT64_MAX - 2 &&
		   DMD_DEFAULT_MAX_SKIP == 4096,
		   "DMD_EPOCH_LAST is 2^64 - 3, DMD_DEFAULT_MAX_SKIP 4096");
}

int main(void)
{
	tap_plan(12 + 6 + 9 + 12 + 2 * 9 + EPOCH_CASES + 1);
	blobs();
	open_only();
	blobs_v2();
	sender_errors();
	in_place_and_errors(1);
	in_place_and_errors(2);
	epoch_check();
	return tap_finish();
}
