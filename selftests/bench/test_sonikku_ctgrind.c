// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Constant-time check of SKINNY-128, ForkSkinny-128, SuperSonic, and
 * SKINNY-64-192 with ZMAC, PMAC1 and PMAC2x on it and SKINNY-128-256,
 * and VMAC (bench/baselines), after Langley's ctgrind, as selftests/core/
 * test_ctgrind.c does for the core: under valgrind memcheck, with the
 * tweakeys, keys, blocks and messages marked undefined, any branch or
 * memory index that depends on them is reported and tools/run-ctgrind.sh
 * fails the suite. Outputs are declassified before they are compared with
 * a second run (so a result is also checked to be deterministic). Without
 * valgrind the program still runs every call.
 */
#include <string.h>
#include <valgrind/memcheck.h>

#include "forkskinny.h"
#include "pmac.h"
#include "skinny128.h"
#include "supersonic.h"
#include "tap.h"
#include "vmac.h"
#include "zmac.h"

#define SECRET(p, n)	VALGRIND_MAKE_MEM_UNDEFINED(p, n)
#define PUBLIC(p, n)	VALGRIND_MAKE_MEM_DEFINED(p, n)

static uint8_t tk[48], in[16], msg[200];

static void fill(void)
{
	size_t i;

	for (i = 0; i < sizeof(tk); i++)
		tk[i] = (uint8_t)(7 * i + 1);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(3 * i);
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i ^ 0x5a);
	SECRET(tk, sizeof(tk));
	SECRET(in, sizeof(in));
	SECRET(msg, sizeof(msg));
}

static int cipher_runs(unsigned int ntk)
{
	uint8_t a[16], b[16], c0[16], c1[16], l[16], r[16];

	skinny128_encrypt(tk, ntk, in, a);
	skinny128_encrypt(tk, ntk, in, b);
	forkskinny128_encrypt(tk, ntk, in, c0, c1);
	forkskinny128_encrypt(tk, ntk, in, l, NULL);
	forkskinny128_encrypt(tk, ntk, in, NULL, r);
	PUBLIC(a, 16);
	PUBLIC(b, 16);
	PUBLIC(c0, 16);
	PUBLIC(c1, 16);
	PUBLIC(l, 16);
	PUBLIC(r, 16);
	return !memcmp(a, b, 16) && !memcmp(c0, l, 16) && !memcmp(c1, r, 16);
}

static int sonic_runs(unsigned int ntk)
{
	static const size_t lens[] = { 0, 1, 16, 46, 62, 95, 128, 200 };
	uint8_t t[32], u[32];
	struct supersonic_key k;
	size_t i;
	int ok = 1;

	supersonic_init(&k, tk, ntk);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		supersonic_mac(&k, msg, lens[i], t, t + 16);
		supersonic_mac(&k, msg, lens[i], u, NULL);
		supersonic_mac(&k, msg, lens[i], NULL, u + 16);
		PUBLIC(t, 32);
		PUBLIC(u, 32);
		ok &= !memcmp(t, u, 32);
	}
	supersonic_wipe(&k);
	return ok;
}

/* Two runs of one MAC (@which: 0 ZMAC, 1 PMAC2x, 2 PMAC1) alike. */
static int twice(const struct skinny_tbc *e, unsigned int which, size_t len)
{
	uint8_t t[2][32];
	unsigned int r;

	for (r = 0; r < 2; r++) {
		if (which == 0)
			zmac(e, ZMAC_AS_REFERENCE, tk, msg, len, t[r], 2 * e->n);
		else if (which == 1)
			pmac2x(e, tk, msg, len, t[r], 2 * e->n);
		else
			pmac1(tk, msg, len, t[r]);
		PUBLIC(t[r], 32);
	}
	return !memcmp(t[0], t[1], which == 2 ? 16 : 2 * e->n);
}

/* ZMAC, PMAC2x (and PMAC1 on SKINNY-128-256) on a secret key and message. */
static int pzmac_runs(const struct skinny_tbc *e)
{
	static const size_t lens[] = { 0, 1, 15, 16, 31, 62, 95, 200 };
	unsigned int which, last = e->n == 16 ? 2 : 1;
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (which = 0; which <= last; which++)
			ok &= twice(e, which, lens[i]);
	return ok;
}

/*
 * VMAC-64/128 tags with the subkeys and the message undefined (the key
 * set-up's redraw of an L3 key above 2^64 - 257, probability 2^-55, is
 * a branch on the key by design, so vmac_init runs on a defined key and
 * its output is marked secret after).
 */
static int vmac_runs(unsigned int taglen)
{
	static const size_t lens[] = { 0, 1, 16, 127, 128, 129, 200 };
	static const uint8_t nonce[16] = { 1 };
	struct vmac_key k;
	uint8_t t[16], u[16];
	size_t i;
	int ok = 1;

	PUBLIC(tk, 16);
	vmac_init(&k, tk, taglen);
	SECRET(tk, 16);
	SECRET(&k, sizeof(k));
	PUBLIC(&k.halves, sizeof(k.halves));	/* the tag length */
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		vmac_tag(&k, nonce, sizeof(nonce), msg, lens[i], t);
		vmac_tag(&k, nonce, sizeof(nonce), msg, lens[i], u);
		PUBLIC(t, 16);
		PUBLIC(u, 16);
		ok &= !memcmp(t, u, taglen);
	}
	vmac_wipe(&k);
	return ok;
}

int main(void)
{
	tap_header();
	fill();
	tap_result(cipher_runs(3), "SKINNY-128-384, ForkSkinny-128-384 on secret "
		   "tweakey and block: each branch alone equals both");
	tap_result(cipher_runs(2), "SKINNY-128-256, ForkSkinny-128-256 likewise");
	tap_result(sonic_runs(3), "SuperSonic-384 on a secret key and message, "
		   "0 to 200 bytes: each half alone equals both");
	tap_result(sonic_runs(2), "SuperSonic-256 likewise");
	tap_result(pzmac_runs(&skinny_tbc_128_256), "ZMAC, PMAC1, PMAC2x on SKINNY-128-256, "
		   "secret key and message, 0 to 200 bytes: each twice alike");
	tap_result(pzmac_runs(&skinny_tbc_64_192), "ZMAC, PMAC2x on SKINNY-64-192 likewise");
	tap_result(vmac_runs(8), "VMAC-64 on secret subkeys and message, 0 to 200 bytes: twice alike");
	tap_result(vmac_runs(16), "VMAC-128 likewise");
	tap_trailing_plan();
	return tap_failed ? TAP_EXIT_FAIL : TAP_EXIT_PASS;
}
