// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet receiver's kernel backend without the kernel (kgrid.c): the
 * bytes it hands diamond.ko and how it reads the answers, against
 * Documentation/kernel-api.rst, "Packet radio: the tag grid":
 *
 *   restore   the setkey restore form of a receiver's state: a version 2
 *             open-only blob of (e_c + 1, E_{e_c+1}), then le64(e_c) ||
 *             le32(u_c) || R || 16 * le16 released || 16 * u8 verified,
 *             the window cursor first (124 bytes for suite 1, 156 for 2);
 *             a bitmap outside the 16-unit window is refused
 *   request   the 32-byte control table and the ciphertext (held records
 *             ascending, then tags ascending); a give-up's placeholder
 *   verdict   released plaintexts taken from their places, the cursor
 *             read; an answer that disagrees with what the receiver
 *             released before (a record twice, one not held, the unit's
 *             total) hands nothing on
 *
 * The module's own behaviour is check-packet-vm's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <diamond/core.h>
#include <diamond/libdiamond.h>

#include "tap.h"
#include "../../userspace/lib/internal.h"

static void state(struct dlib_pstate *ps, unsigned int suite)
{
	unsigned int i;

	memset(ps, 0, sizeof(*ps));
	ps->st.suite = (uint8_t)suite;
	ps->st.agg = 0;
	ps->st.b = 64;			/* four units an epoch */
	ps->st.device_id = 7;
	ps->st.epoch = 100;		/* e_c = 99 */
	for (i = 0; i < DMD_KEY_MAX; i++) {
		ps->st.key[i] = (uint8_t)(0x40 + i);
		ps->rc[i] = (uint8_t)(0x80 + i);
	}
	ps->uc = 2;
	ps->n = 2;
	ps->unit[0] = (struct dlib_pbits){ 99, 2, 0x000f, 0x01 };	/* d 0 */
	ps->unit[1] = (struct dlib_pbits){ 100, 1, 0xf000, 0x08 };	/* d 3 */
}

static void restore(unsigned int suite, size_t want)
{
	uint8_t key[DLIB_KGRID_KEY_MAX], zero[48] = { 0 };
	size_t k = dmd_key_size(suite), n = dmd_blob2_size(suite);
	struct dlib_pstate ps;
	struct dmd_state st;
	const uint8_t *w;
	ssize_t len;

	state(&ps, suite);
	len = dlib_kgrid_key(&ps, key);
	w = key + n + 12 + k;
	tap_result(len == (ssize_t)want &&
		   dmd_blob_parse(&st, key, n) == DMD_OK && st.epoch == 100 &&
		   (st.flags & DMD_BLOB_FLAG_OPEN_ONLY) &&
		   !memcmp(st.key, ps.st.key, k) &&
		   dmd_packet_key_check(&st) == DMD_OK,
		   "restore, suite %u: %zd bytes; the blob is (e_c + 1, "
		   "E_{e_c+1}), open-only, a packet key", suite, len);
	tap_result(len > 0 && dmd_load64_le(key + n) == 99 &&
		   dmd_load32_le(key + n + 8) == 2 &&
		   !memcmp(key + n + 12, ps.rc, k),
		   "restore, suite %u: le64(e_c) || le32(u_c) || R_{e_c,16u_c}",
		   suite);
	tap_result(len > 0 && dmd_load16_le(w) == 0x000f && w[32] == 0x01 &&
		   dmd_load16_le(w + 6) == 0xf000 && w[35] == 0x08 &&
		   !memcmp(w + 2, zero, 4) && !memcmp(w + 8, zero, 24) &&
		   !memcmp(w + 33, zero, 2) && !memcmp(w + 36, zero, 12),
		   "restore, suite %u: the window, cursor first (unit (100, 1) "
		   "3 units on, across the epoch), every other entry 0", suite);
	ps.unit[1] = (struct dlib_pbits){ 103, 2, 0x0001, 0x01 };	/* d 16 */
	tap_result(dlib_kgrid_key(&ps, key) == -ERANGE,
		   "restore, suite %u: a bitmap 16 units past the cursor is "
		   "refused (-ERANGE)", suite);
}

static void request(void)
{
	static const uint8_t c3[5] = { 1, 2, 3, 4, 5 };
	uint8_t tag0[DMD_PKT_TAG_SIZE], tag7[DMD_PKT_TAG_SIZE];
	uint8_t in[DLIB_KGRID_MAX], zero[24] = { 0 };
	struct dmd_grid_unit g;
	size_t len;

	memset(&g, 0, sizeof(g));
	memset(tag0, 0xa0, sizeof(tag0));
	memset(tag7, 0xa7, sizeof(tag7));
	g.rec[3] = c3;
	g.len[3] = sizeof(c3);
	g.rec[0] = c3;		/* an empty record */
	g.len[0] = 0;
	g.tag[7] = tag7;
	g.tag[0] = tag0;
	len = dlib_kgrid_request(&g, 5, 0, in);
	tap_result(len == 32 + 2 + 2 + 5 + 24 &&
		   dmd_load32_le(in) == 5 && dmd_load16_le(in + 4) == 0x0009 &&
		   in[6] == 0x81 && in[7] == 0 && !memcmp(in + 8, zero, 24),
		   "request: the control table (u, held, tags, no flag, 0 in "
		   "8..31), %zu bytes", len);
	tap_result(dmd_load16_le(in + 32) == 0 &&
		   dmd_load16_le(in + 34) == 5 && !memcmp(in + 36, c3, 5) &&
		   !memcmp(in + 41, tag0, 12) && !memcmp(in + 53, tag7, 12),
		   "request: held records ascending as le16(len) || C, then "
		   "the tags ascending, the last tag the AEAD tag");
	len = dlib_kgrid_request(NULL, 3, 1, in);
	tap_result(len == 44 && dmd_load32_le(in) == 3 &&
		   dmd_load16_le(in + 4) == 0 && in[6] == 0 && in[7] == 1 &&
		   !memcmp(in + 8, zero, 24) && !memcmp(in + 32, zero, 12),
		   "request: a give-up holds nothing, GIVE_UP set, 12 zero "
		   "bytes of placeholder");
}

/* An answer for the request of request(): r 3 released, tag 0 verified. */
static size_t answer(uint8_t *out, uint16_t rel, uint16_t unit_rel)
{
	memset(out, 0, 64);
	dmd_store32_le(out, 5);
	dmd_store16_le(out + 4, 0x0009);
	out[6] = 0x81;
	dmd_store16_le(out + 8, rel);
	out[10] = 0x01;
	dmd_store16_le(out + 12, unit_rel);
	out[14] = 0x01;
	dmd_store64_le(out + 16, 1234);
	dmd_store32_le(out + 24, 6);
	dmd_store16_le(out + 34, 5);
	memcpy(out + 36, "hello", 5);
	return 32 + 2 + 7 + 12;		/* the last tag has no place */
}

static void verdict(void)
{
	static const uint8_t c3[5] = { 1, 2, 3, 4, 5 };
	uint8_t out[64], pt[DMD_GRID_UNIT][8];
	struct dmd_grid_verdict v;
	struct dmd_grid_unit g;
	uint64_t ec = 0;
	uint32_t uc = 0, r;
	size_t len;

	memset(&g, 0, sizeof(g));
	memset(pt, 0, sizeof(pt));
	for (r = 0; r < DMD_GRID_UNIT; r++)
		g.pt[r] = pt[r];
	g.rec[0] = c3;
	g.rec[3] = c3;
	g.len[3] = 5;
	len = answer(out, 0x0008, 0x0018);
	tap_result(!dlib_kgrid_verdict(out, len, &g, 0x0010, &v, &ec, &uc) &&
		   v.released == 0x0008 && v.verified == 0x01 &&
		   !memcmp(pt[3], "hello", 5) && ec == 1234 && uc == 6,
		   "verdict: the released record's plaintext from its place, "
		   "the tags, the module's cursor");
	len = answer(out, 0x0008, 0x0008);
	tap_result(dlib_kgrid_verdict(out, len, &g, 0x0008, &v, &ec, &uc) == -EIO,
		   "verdict: a record the receiver released before, released "
		   "again: -EIO, nothing handed on");
	len = answer(out, 0x0008, 0x0008);
	tap_result(dlib_kgrid_verdict(out, len, &g, 0x0010, &v, &ec, &uc) == -EIO,
		   "verdict: the unit's released records not the receiver's "
		   "and this request's: -EIO");
	len = answer(out, 0x0004, 0x0004);
	tap_result(dlib_kgrid_verdict(out, len, &g, 0, &v, &ec, &uc) == -EIO,
		   "verdict: a record released that was not held: -EIO");
	len = answer(out, 0x0008, 0x0008);
	tap_result(dlib_kgrid_verdict(out, 36, &g, 0, &v, &ec, &uc) == -EIO &&
		   dlib_kgrid_verdict(out, 20, &g, 0, &v, &ec, &uc) == -EIO,
		   "verdict: an answer shorter than its records: -EIO");
}

int main(void)
{
	tap_header();
	restore(DMD_SUITE_AES_GHASH, 124);
	restore(DMD_SUITE_CHACHA_POLY, 156);
	request();
	verdict();
	tap_trailing_plan();
	return tap_finish();
}
