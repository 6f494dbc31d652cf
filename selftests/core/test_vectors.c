// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The portable core against vectors/diamond.txt: every step opens with the
 * expected result, plaintext and next state; every positive step seals back
 * to the same bytes through each sender path (no window, and windows with
 * short, exact and long precomputed keystream that refill mid-epoch).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/diamond/core.h"
#include "../../core/util.h"
#include "../lib/vecfile.h"
#include "../tap.h"

static const size_t pre_lens[] = { 0, 8, 16, 64 };

/* Seal pt at @epoch with a window of @slots slots of @pre bytes. */
static int seal_windowed(struct dmd_state st, uint64_t epoch,
			 const struct vec_step *s, size_t pre, size_t slots,
			 uint8_t *ct)
{
	struct dmd_sender snd;
	struct dmd_state reserve;
	size_t win_size = slots * dmd_slot_size(st.suite, pre), pos = 0, len;
	uint8_t *win = win_size ? malloc(win_size) : NULL, r[DMD_KEY_MAX];
	int rc;

	while (st.epoch < epoch) {	/* lost epochs: the device moved on */
		dmd_epoch_update(st.suite, st.key, st.key, r);
		st.epoch++;
	}
	rc = dmd_sender_init(&snd, &st, win, win_size, pre);
	if (!rc)
		rc = dmd_sender_begin(&snd, &reserve);
	while (!rc && pos < s->pt.len) {
		dmd_sender_precompute(&snd, 2);	/* refill as a device would */
		len = s->pt.p[pos] | s->pt.p[pos + 1] << 8;
		memcpy(ct + pos, s->pt.p + pos, 2);
		pos += 2;
		rc = dmd_sender_seal(&snd, s->pt.p + pos, len, ct + pos, NULL);
		pos += len;
	}
	if (!rc)
		rc = dmd_sender_close(&snd, s->ad.p, s->ad.len, ct + pos, NULL);
	dmd_sender_wipe(&snd);
	free(win);
	return rc;
}

static void check_seal(const struct vec *v, const struct dmd_state *before,
		       const struct vec_step *s)
{
	uint8_t *ct = malloc(s->ct.len);
	size_t i;
	int rc;

	for (i = 0; i < sizeof(pre_lens) / sizeof(pre_lens[0]); i++) {
		memset(ct, 0xa5, s->ct.len);
		rc = seal_windowed(*before, s->epoch, s, pre_lens[i],
				   pre_lens[i] ? 3 : 0, ct);
		tap_result(rc == DMD_OK && !memcmp(ct, s->ct.p, s->ct.len),
			   "%s epoch %llu seal pre_len %zu", v->name,
			   (unsigned long long)s->epoch, pre_lens[i]);
	}
	free(ct);
}

static void run_step(const struct vec *v, struct dmd_state *st,
		     const struct vec_step *s)
{
	struct dmd_state before = *st;
	size_t ptlen = s->ct.len >= 16 ? s->ct.len - 16 : 0;
	uint8_t *pt = malloc(ptlen + 1), blob[DMD_BLOB_MAX];
	int want = vec_expect_code(s->expect), rc, ok;

	rc = dmd_open(st, s->epoch, s->ad.p, s->ad.len, s->ct.p, s->ct.len,
		      pt, DMD_DEFAULT_MAX_SKIP);
	ok = rc == want;
	if (ok && want == DMD_OK) {
		dmd_blob_write(blob, st);
		ok = s->pt.len == ptlen && !memcmp(pt, s->pt.p, ptlen) &&
		     s->next.len == dmd_blob_size(st->suite) &&
		     !memcmp(blob, s->next.p, s->next.len);
	} else if (ok) {
		ok = !memcmp(&before, st, sizeof(before));
		for (size_t i = 0; ok && i < ptlen && rc == DMD_EBADMSG; i++)
			ok = pt[i] == 0;	/* nothing released */
	}
	tap_result(ok, "%s epoch %llu open -> %s (got %d)", v->name,
		   (unsigned long long)s->epoch, s->expect, rc);
	if (want == DMD_OK)
		check_seal(v, &before, s);
	free(pt);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "vectors/diamond.txt";
	struct vec_file *f = vec_open(path);
	const struct vec *v;
	struct dmd_state st;
	unsigned int i;

	if (!f)
		return TAP_EXIT_FAIL;
	tap_header();
	while ((v = vec_next(f))) {
		if (!tap_result(dmd_blob_parse(&st, v->key.p, v->key.len) ==
				DMD_OK, "%s key blob parses", v->name))
			continue;
		for (i = 0; i < v->nsteps; i++)
			run_step(v, &st, &v->step[i]);
	}
	vec_close(f);
	tap_trailing_plan();
	return tap_finish();
}
