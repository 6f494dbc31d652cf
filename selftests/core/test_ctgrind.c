// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Constant-time check, after Langley's ctgrind: run under valgrind memcheck
 * with every secret (the state key, the plaintext) marked undefined. Any
 * branch or memory index that depends on a secret is then reported as a
 * use of an uninitialised value, and valgrind --error-exitcode fails the
 * run. Ciphertext and tags are public once produced, so they are marked
 * defined before the receiver sees them; the receiver's verdict is marked
 * defined only after dmd_open has returned it.
 *
 * Without valgrind the program still runs both suites end to end.
 */
#include <string.h>
#include <valgrind/memcheck.h>

#include "../../include/diamond/core.h"
#include "../tap.h"

#define RECORDS 5
#define LEN 37

static int one_suite(unsigned int suite, unsigned int agg)
{
	static uint8_t win[16 * (DMD_KEY_MAX + 32 + 16)];
	uint8_t pt[RECORDS * (2 + LEN)], ct[sizeof(pt) + 16], out[sizeof(pt)];
	struct dmd_state st = { .suite = (uint8_t)suite, .agg = (uint8_t)agg,
				.b = 8, .device_id = 3 }, rx;
	struct dmd_sender s;
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

	dmd_sender_init(&s, &st, win, sizeof(win), 16);
	dmd_sender_begin(&s, NULL);
	dmd_sender_precompute(&s, 3);	/* some slots precomputed, some not */
	for (pos = 0, j = 0; j < RECORDS; j++, pos += 2 + LEN) {
		memcpy(ct + pos, pt + pos, 2);
		dmd_sender_seal(&s, pt + pos + 2, LEN, ct + pos + 2, NULL);
	}
	dmd_sender_close(&s, ad, sizeof(ad), ct + sizeof(pt), NULL);
	dmd_sender_wipe(&s);

	VALGRIND_MAKE_MEM_DEFINED(ct, sizeof(ct));
	rc = dmd_open(&rx, 0, ad, sizeof(ad), ct, sizeof(ct), out,
		      DMD_DEFAULT_MAX_SKIP);
	VALGRIND_MAKE_MEM_DEFINED(&rc, sizeof(rc));
	VALGRIND_MAKE_MEM_DEFINED(out, sizeof(out));
	VALGRIND_MAKE_MEM_DEFINED(pt, sizeof(pt));
	return rc == DMD_OK && !memcmp(out, pt, sizeof(pt));
}

int main(void)
{
	unsigned int suite, agg;

	tap_plan(6);
	if (!RUNNING_ON_VALGRIND)
		tap_diag("not under valgrind: functional run only "
			 "(make check runs it under memcheck)");
	for (suite = 1; suite <= 2; suite++)
		for (agg = 0; agg <= 2; agg++)
			tap_result(one_suite(suite, agg),
				   "suite %u agg %u: seal and open with secrets "
				   "undefined", suite, agg);
	return tap_finish();
}
