// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * bench-fw-kat: the plain AEADs' and the re-keying PRF's known answers
 * (bench/baselines/kat_vectors.h: RFC 7253 Appendix A, SP 800-38C
 * Appendix C, RFC 3610, the GCM specification, bench/rekey-vectors.sh),
 * SKINNY-128 and ForkSkinny-128 (forkskinny_vectors.h), SuperSonic
 * (sonikku_vectors.h), and
 * UMAC-64/128 (RFC 4418 section 5, the rows that fit the board's longest
 * record; longer ones are reported as SKIP) on
 * the board that measures them, with the board's own AES (the AVR's is
 * assembly, not the host's). A row is copied out of flash, decoded and run;
 * CCM also decrypts and refuses a flipped tag bit. TAP 13 on the console,
 * the plan last, the exit code the number of failures (embedded/tests/
 * kat.sh folds it into make check).
 */
#include "board.h"
#include "fw_tap.h"

#include "aead.h"
#include "forkskinny.h"
#include "forkskinny_vectors.h"
#include "gcm.h"
#include "kat_vectors.h"
#include "rekey.h"
#include "skinny128.h"
#include "sonikku_vectors.h"
#include "supersonic.h"
#include "umac.h"

#include <diamond/util.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static size_t unhex(uint8_t *out, const char *h)
{
	size_t n = 0;
	int v[2], i;

	while (h[0] && h[1]) {
		for (i = 0; i < 2; i++)
			v[i] = h[i] <= '9' ? h[i] - '0' : h[i] - 'a' + 10;
		out[n++] = (uint8_t)(v[0] << 4 | v[1]);
		h += 2;
	}
	return n;
}

static int same(const uint8_t *a, const uint8_t *b, size_t n)
{
	return dmd_ct_equal(a, b, n);
}

static int ccm_case(const uint8_t key[16], const uint8_t *n, size_t nl,
		    const uint8_t *a, size_t al, const uint8_t *p, size_t pl,
		    uint8_t *e, size_t tl)
{
	struct dmd_aes128 aes;
	uint8_t c[56], back[40], t[16];
	int ok;

	dmd_aes128_init(&aes, key);
	ccm_encrypt(&aes, n, nl, a, al, p, pl, c, c + pl, tl);
	ok = same(c, e, pl + tl);
	ccm_decrypt_tag(&aes, n, nl, a, al, e, pl, back, t, tl);
	ok &= same(back, p, pl) && same(t, e + pl, tl);
	e[pl + tl - 1] ^= 1;
	ccm_decrypt_tag(&aes, n, nl, a, al, e, pl, back, t, tl);
	ok &= !same(t, e + pl, tl);
	dmd_aes128_wipe(&aes);
	return ok;
}

static void aead_row(const struct aead_vec *v)
{
	uint8_t key[16], n[16], a[40], p[40], e[56], c[56];
	struct ocb3_key ok3;
	size_t nl, al, pl, el;
	int ok;

	unhex(key, v->key);
	nl = unhex(n, v->nonce);
	al = unhex(a, v->ad);
	pl = unhex(p, v->pt);
	el = unhex(e, v->ct);
	if (el != pl + v->tlen) {
		ok = 0;
	} else if (v->mode == 'o') {
		ocb3_init(&ok3, key);
		ocb3_encrypt(&ok3, n, nl, a, al, p, pl, c, c + pl);
		ocb3_wipe(&ok3);
		ok = same(c, e, el);
	} else if (v->mode == 'c') {
		ok = ccm_case(key, n, nl, a, al, p, pl, e, v->tlen);
	} else {
		gcm_encrypt(key, n, p, pl, c, c + pl);
		ok = same(c, e, el);
	}
	fw_tap_report(ok, v->mode == 'o' ? "OCB3" : v->mode == 'c' ? "CCM" : "GCM",
	       v->name);
}

static void rekey_row(const struct rekey_vec *v)
{
	struct dmd_aes128 aes;
	uint8_t k[16], x[16], f[16], e[16];

	unhex(k, v->k);
	unhex(x, v->x);
	unhex(e, v->f);
	dmd_aes128_init(&aes, k);
	rekey_prf(&aes, x, f);
	dmd_aes128_wipe(&aes);
	fw_tap_report(same(f, e, 16), "re-keying PRF", v->k);
}

static void skinny_row(const struct skinny_vec *v)
{
	uint8_t tk[48], in[16], e0[16], e1[16], c0[16], c1[16], l[16], r[16];
	int ok;

	unhex(tk, v->tweakey);
	unhex(in, v->in);
	unhex(e1, v->c1);
	if (!v->fork) {
		skinny128_encrypt(tk, v->ntk, in, c1);
		fw_tap_report(same(c1, e1, 16), v->ntk == 3 ? "SKINNY-128-384" :
		       "SKINNY-128-256", "paper vector");
		return;
	}
	unhex(e0, v->c0);
	forkskinny128_encrypt(tk, v->ntk, in, c0, c1);
	forkskinny128_encrypt(tk, v->ntk, in, l, (uint8_t *)0);
	forkskinny128_encrypt(tk, v->ntk, in, (uint8_t *)0, r);
	ok = same(c0, e0, 16) && same(c1, e1, 16) && same(l, e0, 16) &&
	     same(r, e1, 16);
	fw_tap_report(ok, v->ntk == 3 ? "ForkSkinny-128-384" : "ForkSkinny-128-256",
	       v->in);
}

static void supersonic_row(const struct supersonic_vec *v)
{
	static const uint8_t key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
					 12, 13, 14, 15 };
	static uint8_t m[SUPERSONIC_KAT_MAXLEN];
	uint8_t e[32], l[16], r[16];
	struct supersonic_key k;
	size_t j;

	for (j = 0; j < sizeof(m); j++)
		m[j] = (uint8_t)(0x20 + j);
	unhex(e, v->tag);
	supersonic_init(&k, key, v->ntk);
	supersonic_mac(&k, m, v->len, l, r);
	supersonic_wipe(&k);
	fw_tap_report(same(l, e, 16) && same(r, e + 16, 16),
	       v->ntk == 3 ? "SuperSonic-384" : "SuperSonic-256", "reference");
}

static void umac_row(const struct umac_vec *v)
{
	static const uint8_t key[16] = "abcdefghijklmnop";
	static const uint8_t nonce[8] = "bcdefghi";
	static struct umac_key k;
	uint8_t m[UMAC_MAX_LEN], tag[16], e[16];
	size_t i, pl = 0;
	unsigned int t;

	for (t = 8; t <= 16; t += 8) {
		if (v->len > UMAC_MAX_LEN) {
			fw_tap_skip("UMAC", v->name, "longer than this board's records");
			continue;
		}
		while (v->pat[pl])
			pl++;
		for (i = 0; i < v->len; i++)
			m[i] = (uint8_t)v->pat[i % pl];
		umac_init(&k, key, t);
		umac_tag(&k, nonce, sizeof(nonce), m, v->len, tag);
		umac_wipe(&k);
		unhex(e, t == 8 ? v->tag64 : v->tag128);
		fw_tap_report(same(tag, e, t), t == 8 ? "UMAC-64" : "UMAC-128", v->name);
	}
}

int main(void)
{
	struct aead_vec v;
	struct rekey_vec r;
	struct umac_vec u;
	struct skinny_vec k;
	struct supersonic_vec sv;
	size_t i;

	board_init();
	board_puts("TAP version 13\n# plain AEADs, re-keying PRF, SKINNY, ForkSkinny, SuperSonic, UMAC on "
		   BOARD_NAME "\n");
	for (i = 0; i < NELEM(aead_vecs); i++) {
		board_flash_read(&v, &aead_vecs[i], sizeof(v));
		aead_row(&v);
	}
	for (i = 0; i < NELEM(rekey_vecs); i++) {
		board_flash_read(&r, &rekey_vecs[i], sizeof(r));
		rekey_row(&r);
	}
	for (i = 0; i < NELEM(skinny_vecs); i++) {
		board_flash_read(&k, &skinny_vecs[i], sizeof(k));
		skinny_row(&k);
	}
	for (i = 0; i < NELEM(supersonic_vecs); i++) {
		board_flash_read(&sv, &supersonic_vecs[i], sizeof(sv));
		supersonic_row(&sv);
	}
	for (i = 0; i < NELEM(umac_vecs); i++) {
		board_flash_read(&u, &umac_vecs[i], sizeof(u));
		umac_row(&u);
	}
	fw_tap_done();
}
