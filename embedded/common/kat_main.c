// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Known answers on the target: the vectors of vectors/diamond.txt for this
 * suite that fit the target's RAM (kat-vectors.h, generated at build time
 * by embedded/tools/kat-gen) run through the core as cross-compiled for the
 * board. TAP 13 goes to the console; the plan comes last and the exit code
 * is the number of failures (capped at 100).
 *
 * A vector too big for the target is reported as a TAP skip, by name.
 * Every step is opened with dmd_open and must give the expected code,
 * plaintext and next state. Every positive step is also sealed with the
 * sender and its window (short precomputed keystream, so both the window
 * and its tail path run) and must give the ciphertext body, the tag and the
 * reservation blob.
 */
#include <diamond/core.h>
#include <diamond/util.h>
#include "board.h"

#include "kat-vectors.h"

#ifndef KAT_MAX_BODY
#error "KAT_MAX_BODY must match the kat-gen limit"
#endif

#define KAT_PRE_LEN	24
#define KAT_WIN_SLOTS	3

static uint8_t ct[KAT_MAX_BODY], pt[KAT_MAX_BODY], out[KAT_MAX_BODY];
static uint8_t window[KAT_WIN_SLOTS * (DMD_KEY_MAX + 32 + KAT_PRE_LEN)];
static unsigned int tests, failed;
static const uint8_t *kp = kat_blob;

static void get(void *dst, size_t n)
{
	board_flash_read(dst, kp, n);
	kp += n;
}

static uint32_t get_le(unsigned int n)
{
	uint8_t b[8];
	uint32_t v = 0;

	get(b, n);
	while (n--)
		v = v << 8 | b[n];
	return v;
}

static void put_uint(unsigned int v)
{
	char b[8], *p = b + sizeof(b) - 1;

	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	board_puts(p);
}

static void report(int ok, const char *name, unsigned int step,
		   const char *what, int rc)
{
	tests++;
	if (!ok)
		failed++;
	board_puts(ok ? "ok " : "not ok ");
	put_uint(tests);
	board_puts(" - ");
	board_puts(name);
	board_puts(" step ");
	put_uint(step);
	board_puts(" ");
	board_puts(what);
	if (!ok) {
		board_puts(" # rc=-");
		put_uint((unsigned int)-rc);
	}
	board_puts("\n");
}

static int same(const uint8_t *a, const uint8_t *b, size_t n)
{
	return dmd_ct_equal(a, b, n);
}

/*
 * Does @st, written in the version of @next (spec section 13: a vector's
 * "next" has its key's version), give the @next_len bytes of @next?
 */
static int next_is(const struct dmd_state *st, const uint8_t *next,
		   size_t next_len)
{
	uint8_t blob[DMD_BLOB2_MAX];
	size_t len;

	if (next_len > DMD_BLOB_OFF_VERSION &&
	    next[DMD_BLOB_OFF_VERSION] == DMD_BLOB2_VERSION) {
		dmd_blob2_write(blob, st);
		len = dmd_blob2_size(st->suite);
	} else {
		dmd_blob_write(blob, st);
		len = dmd_blob_size(st->suite);
	}
	return next_len == len && same(blob, next, len);
}

/* Seal pt (a plaintext body) at @epoch into out; compare with ct. */
static int seal_step(struct dmd_state st, uint64_t epoch, const uint8_t *ad,
		     size_t adlen, size_t pt_len, size_t ct_len,
		     const uint8_t *next, size_t next_len, int *rc)
{
	struct dmd_sender s;
	struct dmd_state reserve;
	uint8_t r[DMD_KEY_MAX];
	size_t pos = 0, len;
	int ok;

	while (st.epoch < epoch) {	/* epochs the device lost */
		dmd_epoch_update(st.suite, st.key, st.key, r);
		st.epoch++;
	}
	*rc = dmd_sender_init(&s, &st, window, sizeof(window), KAT_PRE_LEN);
	if (*rc) {		/* refused: nothing was set up to wipe */
		dmd_wipe(r, sizeof(r));
		return 0;
	}
	*rc = dmd_sender_begin(&s, &reserve);
	if (!*rc)
		dmd_sender_precompute(&s, KAT_WIN_SLOTS);
	while (!*rc && pos + 2 <= pt_len) {
		len = pt[pos] | (size_t)pt[pos + 1] << 8;
		out[pos] = pt[pos];
		out[pos + 1] = pt[pos + 1];
		pos += 2;
		*rc = dmd_sender_seal(&s, pt + pos, len, out + pos, NULL);
		pos += len;
		dmd_sender_precompute(&s, 1);
	}
	if (!*rc && pos + DMD_TAG_SIZE == ct_len)
		*rc = dmd_sender_close(&s, ad, adlen, out + pos, NULL);
	else if (!*rc)
		*rc = DMD_EFORMAT;
	dmd_sender_wipe(&s);
	ok = !*rc && same(out, ct, ct_len);
	ok = ok && next_is(&reserve, next, next_len);
	dmd_wipe(r, sizeof(r));
	return ok;
}

int main(void)
{
	char name[64];
	uint8_t key[DMD_BLOB2_MAX], next[DMD_BLOB2_MAX], ad[KAT_MAX_BODY];
	struct dmd_state st, before;
	unsigned int nsteps, i;
	size_t n, ad_len, pt_len, ct_len, next_len;
	uint64_t epoch;
	int expect, rc, ok;

	board_init();
	board_puts("TAP version 13\n# known answers, suite " KAT_SUITE_NAME
		   ", on " BOARD_NAME "\n");
	for (;;) {
		n = 0;
		do
			get(&name[n], 1);
		while (name[n] && ++n < sizeof(name) - 1);
		name[sizeof(name) - 1] = 0;
		if (!name[0])
			break;
		n = get_le(1);
		if (!n) {	/* too big for this target: kat-gen says so */
			tests++;
			board_puts("ok ");
			put_uint(tests);
			board_puts(" - ");
			board_puts(name);
			board_puts(" # SKIP a body or AD over the target's "
				   "buffers\n");
			continue;
		}
		get(key, n);
		rc = dmd_blob_parse(&st, key, n);
		report(rc == DMD_OK, name, 0, "key", rc);
		nsteps = get_le(1);
		for (i = 1; i <= nsteps; i++) {
			epoch = get_le(4);
			epoch |= (uint64_t)get_le(4) << 32;
			expect = (int8_t)get_le(1);
			ad_len = get_le(2);
			get(ad, ad_len);
			pt_len = get_le(2);
			get(pt, pt_len);
			ct_len = get_le(2);
			get(ct, ct_len);
			next_len = get_le(1);
			get(next, next_len);

			before = st;
			if (expect == DMD_OK &&
			    (st.flags & DMD_BLOB_FLAG_OPEN_ONLY)) {
				/* An open-only key seals nothing (spec 2). */
				seal_step(before, epoch, ad, ad_len, pt_len,
					  ct_len, next, next_len, &rc);
				report(rc == DMD_EKEY, name, i,
				       "seal refused (open-only)", rc);
			} else if (expect == DMD_OK) {
				ok = seal_step(before, epoch, ad, ad_len,
					       pt_len, ct_len, next, next_len,
					       &rc);
				report(ok, name, i, "seal", rc);
			}
			rc = dmd_open(&st, epoch, ad, ad_len, ct, ct_len, out,
				      DMD_DEFAULT_MAX_SKIP);
			ok = rc == expect;
			if (ok && expect == DMD_OK)
				ok = pt_len == ct_len - DMD_TAG_SIZE &&
				     same(out, pt, pt_len) &&
				     next_is(&st, next, next_len);
			report(ok, name, i, "open", rc);
		}
	}
	board_puts("1..");
	put_uint(tests);
	board_puts("\n# ");
	put_uint(failed);
	board_puts(" failed\n");
	board_exit(failed > 100 ? 100 : (int)failed);
}
