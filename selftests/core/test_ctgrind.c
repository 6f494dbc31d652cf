// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Constant-time check, after Langley's ctgrind: run under valgrind memcheck
 * with every secret (the state key, the plaintext) marked undefined. Any
 * branch or memory index that depends on a secret is then reported as a
 * use of an uninitialised value, and valgrind --error-exitcode fails the
 * run. Ciphertext and tags are public once produced, so they are marked
 * defined before the receiver sees them; the receiver's verdict is marked
 * defined only after dmd_open has returned it. The same again with group
 * tags (g = 2: two groups and a final group of one record) through the
 * group sender and the group receiver, and with the packet framing (spec
 * section 14): a unit of packets through the packet sender and
 * dmd_grid_open(), once whole and once with a record damaged, whose
 * verdict bitmaps and return code are declassified only after the call.
 *
 * Without valgrind the program still runs both suites end to end.
 */
#include <string.h>
#include <valgrind/memcheck.h>

#include <diamond/core.h>
#include <diamond/packet.h>
#include "tap.h"

#define RECORDS 5
#define LEN 37

/* Seal RECORDS records of @pt into @ct; with @g < 8 group tags go to @gt. */
static void seal(struct dmd_state *st, uint32_t g, const uint8_t *pt,
		 uint8_t *ct, uint8_t gt[][16], const uint8_t ad[5])
{
	static uint8_t win[16 * (DMD_KEY_MAX + 32 + 16)];
	struct dmd_sender s;
	size_t pos, j;

	dmd_sender_init_groups(&s, st, win, sizeof(win), 16, g);
	dmd_sender_begin(&s, NULL);
	dmd_sender_precompute(&s, 3);	/* some slots precomputed, some not */
	for (pos = 0, j = 0; j < RECORDS; j++, pos += 2 + LEN) {
		memcpy(ct + pos, pt + pos, 2);
		dmd_sender_seal(&s, pt + pos + 2, LEN, ct + pos + 2, NULL);
		if (dmd_sender_group_due(&s))
			dmd_sender_close_group(&s, ad, 5, gt[j / g], NULL);
	}
	dmd_sender_close(&s, ad, 5, ct + pos, NULL);
	dmd_sender_wipe(&s);
}

/*
 * A unit's verdict is public once returned, and so is the cursor it moved
 * (epoch, group, open): declassify them, as dmd_open's return code is. The
 * keys in the receiver stay undefined.
 */
static void declassify(struct dmd_receiver *rx, int *rc)
{
	VALGRIND_MAKE_MEM_DEFINED(rc, sizeof(*rc));
	VALGRIND_MAKE_MEM_DEFINED(&rx->st.suite, sizeof(rx->st.suite));
	VALGRIND_MAKE_MEM_DEFINED(&rx->st.agg, sizeof(rx->st.agg));
	VALGRIND_MAKE_MEM_DEFINED(&rx->st.b, sizeof(rx->st.b));
	VALGRIND_MAKE_MEM_DEFINED(&rx->st.device_id, sizeof(rx->st.device_id));
	VALGRIND_MAKE_MEM_DEFINED(&rx->st.epoch, sizeof(rx->st.epoch));
	VALGRIND_MAKE_MEM_DEFINED(&rx->group, sizeof(rx->group));
	VALGRIND_MAKE_MEM_DEFINED(&rx->g, sizeof(rx->g));
	VALGRIND_MAKE_MEM_DEFINED(&rx->max_skip, sizeof(rx->max_skip));
	VALGRIND_MAKE_MEM_DEFINED(&rx->open, sizeof(rx->open));
}

/* The group receiver over units of 2, 2 and 1 records. */
static int open_groups(const struct dmd_state *st, const uint8_t *ct,
		       uint8_t gt[][16], const uint8_t ad[5], uint8_t *out)
{
	uint8_t unit[2 * (2 + LEN) + 16];
	struct dmd_receiver rx;
	size_t per = 2 * (2 + LEN);
	uint32_t i;
	int rc = dmd_receiver_init(&rx, st, 2, DMD_DEFAULT_MAX_SKIP), r;

	for (i = 0; i < 2; i++) {
		memcpy(unit, ct + i * per, per);
		memcpy(unit + per, gt[i], 16);
		r = dmd_receiver_group(&rx, 0, i, ad, 5, unit, sizeof(unit),
				       out + i * per);
		declassify(&rx, &r);
		rc |= r;
	}
	r = dmd_receiver_close(&rx, 0, RECORDS, ad, 5, ct + 2 * per,
			       2 + LEN + 16, out + 2 * per);
	declassify(&rx, &r);
	rc |= r;
	dmd_receiver_wipe(&rx);
	return rc;
}

static int one_suite(unsigned int suite, unsigned int agg, uint32_t g)
{
	uint8_t pt[RECORDS * (2 + LEN)], ct[sizeof(pt) + 16], out[sizeof(pt)];
	uint8_t gt[2][16];
	struct dmd_state st = { .suite = (uint8_t)suite, .agg = (uint8_t)agg,
				.b = 8, .device_id = 3 }, rx;
	size_t pos = 0, j;
	uint8_t ad[5] = "hdr01";
	int rc;

	for (j = 0; j < sizeof(st.key); j++)
		st.key[j] = (uint8_t)(j * 29 + suite);
	rx = st;
	for (j = 0; j < RECORDS; j++) {
		pt[pos] = LEN;
		pt[pos + 1] = 0;
		memset(pt + pos + 2, 'a' + (int)j, LEN);
		pos += 2 + LEN;
	}
	VALGRIND_MAKE_MEM_UNDEFINED(st.key, sizeof(st.key));
	VALGRIND_MAKE_MEM_UNDEFINED(rx.key, sizeof(rx.key));
	for (pos = 0, j = 0; j < RECORDS; j++, pos += 2 + LEN)
		VALGRIND_MAKE_MEM_UNDEFINED(pt + pos + 2, LEN);

	seal(&st, g, pt, ct, gt, ad);
	VALGRIND_MAKE_MEM_DEFINED(ct, sizeof(ct));
	VALGRIND_MAKE_MEM_DEFINED(gt, sizeof(gt));
	if (g < st.b)
		rc = open_groups(&rx, ct, gt, ad, out);
	else
		rc = dmd_open(&rx, 0, ad, sizeof(ad), ct, sizeof(ct), out,
			      DMD_DEFAULT_MAX_SKIP);
	VALGRIND_MAKE_MEM_DEFINED(&rc, sizeof(rc));
	VALGRIND_MAKE_MEM_DEFINED(out, sizeof(out));
	VALGRIND_MAKE_MEM_DEFINED(pt, sizeof(pt));
	return rc == DMD_OK && !memcmp(out, pt, sizeof(pt));
}

/*
 * One unit of 16 packets of LEN bytes (b = 16), sealed with the key and
 * the plaintext undefined, then opened whole or with record @damage's
 * ciphertext altered (16: none). Packets are public once sent.
 */
static int packet_unit(unsigned int suite, unsigned int damage)
{
	static uint8_t win[4 * (DMD_KEY_MAX + 32 + 64)];
	static uint8_t pkt[DMD_GRID_UNIT][DMD_PKT_MAX], pt[DMD_GRID_UNIT][LEN];
	static uint8_t out[DMD_GRID_UNIT][LEN];
	struct dmd_state st = { .suite = (uint8_t)suite, .b = 16,
				.device_id = 3 }, res;
	struct dmd_grid_unit g = { 0 };
	struct dmd_grid_verdict v;
	struct dmd_psender ps;
	struct dmd_packet p;
	uint8_t r0[DMD_KEY_MAX];
	size_t n[DMD_GRID_UNIT], j;
	uint16_t want = damage < 16 ? (uint16_t)~(1u << damage) : 0xffff;
	int rc = 0;

	for (j = 0; j < sizeof(st.key); j++)
		st.key[j] = (uint8_t)(j * 31 + suite);
	memset(pt, 'p', sizeof(pt));
	VALGRIND_MAKE_MEM_UNDEFINED(st.key, sizeof(st.key));
	VALGRIND_MAKE_MEM_UNDEFINED(pt, sizeof(pt));
	/* The receiver's R_{0,0}, from the same key. */
	dmd_epoch_update(suite, st.key, r0, r0);
	rc |= dmd_psender_init(&ps, &st, 1, 7, win, sizeof(win), 32);
	rc |= dmd_psender_begin(&ps, &res);
	for (j = 0; j < DMD_GRID_UNIT; j++) {
		dmd_sender_precompute(&ps.s, j % 3);
		rc |= dmd_psender_seal(&ps, pt[j], LEN, 0, pkt[j],
				       sizeof(pkt[j]), &n[j]);
	}
	dmd_psender_wipe(&ps);
	VALGRIND_MAKE_MEM_DEFINED(pkt, sizeof(pkt));
	if (damage < 16)
		pkt[damage][n[damage] - 1 - (damage == 15 ? 24 : 0)] ^= 1;
	for (j = 0; j < DMD_GRID_UNIT; j++) {
		rc |= dmd_packet_parse(&p, pkt[j], n[j], 1);
		dmd_grid_unit_add(&g, &p);
		g.pt[j] = out[j];
	}
	rc |= dmd_grid_open(suite, r0, 0, 0, &g, 0, &v, NULL);
	VALGRIND_MAKE_MEM_DEFINED(&rc, sizeof(rc));
	VALGRIND_MAKE_MEM_DEFINED(&v, sizeof(v));
	VALGRIND_MAKE_MEM_DEFINED(out, sizeof(out));
	VALGRIND_MAKE_MEM_DEFINED(pt, sizeof(pt));
	for (j = 0; j < DMD_GRID_UNIT; j++)
		if ((want >> j & 1) && memcmp(out[j], pt[j], LEN))
			rc = 1;
	return rc == DMD_OK && v.released == want;
}

int main(void)
{
	unsigned int suite, agg;

	tap_plan(16);
	for (suite = 1; suite <= 2; suite++) {
		tap_result(packet_unit(suite, 16), "suite %u: a packet unit "
			   "sealed and opened with secrets undefined", suite);
		tap_result(packet_unit(suite, 5), "suite %u: the same with "
			   "record 5 damaged: 15 released", suite);
	}
	if (!RUNNING_ON_VALGRIND)
		tap_diag("not under valgrind: functional run only "
			 "(make check runs it under memcheck)");
	for (suite = 1; suite <= 2; suite++) {
		for (agg = 0; agg <= 2; agg++) {
			tap_result(one_suite(suite, agg, 8),
				   "suite %u agg %u: seal and open with secrets "
				   "undefined", suite, agg);
			tap_result(one_suite(suite, agg, 2),
				   "suite %u agg %u g 2: group seal and open with "
				   "secrets undefined", suite, agg);
		}
	}
	return tap_finish();
}
