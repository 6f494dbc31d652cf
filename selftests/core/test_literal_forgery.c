// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The paper's literal tag hashes only the zero-padded ciphertext, so C and
 * C || 00 collide: a forgery that needs no key. Show the literal form
 * accepting it and the spec (length block, dmd_open) rejecting it.
 */
#include <string.h>

#include <diamond/core.h>
#include <diamond/ghash.h>
#include <diamond/poly1305.h>
#include <diamond/tag.h>
#include "tap.h"

static const uint8_t zeros[16];

/* sigma = UH(pad16(C)) + P, as in the paper's FAMAC.Sign. */
static void literal_tag(unsigned int suite, const uint8_t hp[32],
			const uint8_t *c, size_t len, uint8_t tag[16])
{
	struct dmd_ghash g;
	struct dmd_poly1305 p;
	size_t i;

	if (suite == DMD_SUITE_AES_GHASH) {
		dmd_ghash_init(&g, hp);
		dmd_ghash_update_padded(&g, c, len);
		dmd_ghash_final(&g, tag);
		for (i = 0; i < 16; i++)
			tag[i] ^= hp[16 + i];
	} else {
		dmd_poly1305_init(&p, hp);
		dmd_poly1305_update(&p, c, len);
		dmd_poly1305_update(&p, zeros, (16 - (len & 15)) & 15);
		dmd_poly1305_final(&p, tag);
	}
}

static void one_suite(unsigned int suite)
{
	uint8_t hp[32], c[8] = { 1, 2, 3, 4, 5, 6, 7 }, t1[16], t2[16];
	uint8_t pt[2 + 7 + 2], ct[sizeof(pt) + 16], forged[sizeof(ct) + 1];
	uint8_t out[sizeof(forged)];
	struct dmd_state st = { .suite = (uint8_t)suite, .agg = DMD_AGG_XOR,
				.b = 4, .device_id = 7 }, st0;
	size_t i;

	for (i = 0; i < sizeof(hp); i++)
		hp[i] = (uint8_t)(0x5a + 3 * i);
	literal_tag(suite, hp, c, 7, t1);
	literal_tag(suite, hp, c, 8, t2);	/* c[7] is the appended 00 */
	tap_result(!memcmp(t1, t2, 16),
		   "suite %u: paper's literal tag accepts C || 00 for C", suite);

	dmd_uh_tag(suite, hp, c, 7, 0, 0, t1);
	dmd_uh_tag(suite, hp, c, 8, 0, 0, t2);
	tap_result(memcmp(t1, t2, 16) != 0,
		   "suite %u: spec tag binds the length, C || 00 differs",
		   suite);

	/* End to end: one record of 7 bytes, extended by a zero byte. */
	memset(st.key, 0x33, sizeof(st.key));
	pt[0] = 7;
	pt[1] = 0;
	memcpy(pt + 2, "reading", 7);
	pt[9] = 0;	/* a second, empty record */
	pt[10] = 0;
	st0 = st;
	dmd_seal_body(&st, NULL, 0, pt, sizeof(pt), ct);
	forged[0] = 8;
	forged[1] = 0;
	memcpy(forged + 2, ct + 2, 7);
	forged[9] = 0;
	memcpy(forged + 10, ct + 9, sizeof(ct) - 9);
	st = st0;
	tap_result(dmd_open(&st, 0, NULL, 0, forged, sizeof(forged), out,
			    DMD_DEFAULT_MAX_SKIP) == DMD_EBADMSG &&
		   st.epoch == 0,
		   "suite %u: dmd_open rejects the zero-extended record", suite);
	tap_result(dmd_open(&st, 0, NULL, 0, ct, sizeof(ct), out,
			    DMD_DEFAULT_MAX_SKIP) == DMD_OK,
		   "suite %u: the genuine epoch still opens", suite);
}

int main(void)
{
	tap_plan(8);
	one_suite(DMD_SUITE_AES_GHASH);
	one_suite(DMD_SUITE_CHACHA_POLY);
	return tap_finish();
}
