// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The portable core against vectors/diamond.txt: every step opens with the
 * expected result, plaintext and next state; every positive step seals back
 * to the same bytes through each sender path (no window, and windows with
 * short, exact and long precomputed keystream that refill mid-epoch).
 * Every step without groups also opens through the group receiver with
 * g = b, with the same outcome (spec section 5.1: g = b is the format
 * without groups). Vectors with groups run through the group receiver unit
 * by unit, and their positive epochs seal back through the group sender.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include <diamond/util.h>
#include "lib/vecfile.h"
#include "tap.h"

static const size_t pre_lens[] = { 0, 8, 16, 64 };

/* Does @st, written in the version of @v's key, give @next (spec 13)? */
static int next_is(const struct vec *v, const struct dmd_state *st,
		   const struct vec_buf *next)
{
	uint8_t blob[DMD_BLOB2_MAX];
	size_t len;

	if (v->key.len > DMD_BLOB_OFF_VERSION &&
	    v->key.p[DMD_BLOB_OFF_VERSION] == DMD_BLOB2_VERSION) {
		dmd_blob2_write(blob, st);
		len = dmd_blob2_size(st->suite);
	} else {
		dmd_blob_write(blob, st);
		len = dmd_blob_size(st->suite);
	}
	return next->len == len && !memcmp(blob, next->p, len);
}

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
	if (rc) {		/* a refused init leaves nothing to wipe */
		free(win);
		return rc;
	}
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

/* An open-only key (spec section 2) seals nothing: DMD_EKEY, no byte out. */
static int refused_untouched(int rc, const uint8_t *ct, size_t len)
{
	size_t i;

	for (i = 0; rc == DMD_EKEY && i < len; i++)
		if (ct[i] != 0xa5)
			return 0;
	return rc == DMD_EKEY;
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
		if (before->flags & DMD_BLOB_FLAG_OPEN_ONLY)
			tap_result(refused_untouched(rc, ct, s->ct.len),
				   "%s epoch %llu seal of an open-only key "
				   "refused pre_len %zu (got %d)", v->name,
				   (unsigned long long)s->epoch, pre_lens[i],
				   rc);
		else
			tap_result(rc == DMD_OK &&
				   !memcmp(ct, s->ct.p, s->ct.len),
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
	uint8_t *pt = malloc(ptlen + 1);
	int want = vec_expect_code(s->expect), rc, ok;

	rc = dmd_open(st, s->epoch, s->ad.p, s->ad.len, s->ct.p, s->ct.len,
		      pt, DMD_DEFAULT_MAX_SKIP);
	ok = rc == want;
	if (ok && want == DMD_OK) {
		ok = s->pt.len == ptlen && !memcmp(pt, s->pt.p, ptlen) &&
		     next_is(v, st, &s->next);
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

/* The same step through the group receiver with g = b: the same outcome. */
static void run_step_gb(const struct vec *v, struct dmd_receiver *rx,
			const struct vec_step *s)
{
	struct dmd_receiver before = *rx;
	size_t ptlen = s->ct.len >= 16 ? s->ct.len - 16 : 0;
	uint8_t *pt = calloc(1, ptlen + 1);
	struct dmd_state st;
	uint32_t n = 0;
	int want = vec_expect_code(s->expect), rc, ok;

	/* The count comes from the body, as the epoch tag frame carries it. */
	if (dmd_body_count(s->ct.p, ptlen, DMD_MAX_B, &n) != DMD_OK || n > rx->st.b)
		n = rx->st.b;
	rc = dmd_receiver_close(rx, s->epoch, n, s->ad.p, s->ad.len, s->ct.p,
			       s->ct.len, pt);
	ok = rc == want;
	if (ok && want == DMD_OK) {
		dmd_receiver_state(rx, &st);
		ok = !rx->open && !memcmp(pt, s->pt.p, ptlen) &&
		     next_is(v, &st, &s->next);
	} else if (ok) {
		ok = !memcmp(&before, rx, sizeof(before));
	}
	tap_result(ok, "%s epoch %llu group receiver g = b -> %s (got %d)",
		   v->name, (unsigned long long)s->epoch, s->expect, rc);
	free(pt);
}

/* A unit of a grouped vector through the group receiver. */
static void run_unit(const struct vec *v, struct dmd_receiver *rx,
		     const struct vec_step *s)
{
	struct dmd_receiver before = *rx;
	size_t ptlen = s->ct.len >= 16 ? s->ct.len - 16 : 0, i;
	uint8_t *pt = calloc(1, ptlen + 1);
	struct dmd_state st;
	int want = vec_expect_code(s->expect), rc, ok;

	if (s->count)
		rc = dmd_receiver_close(rx, s->epoch, s->count, s->ad.p,
				       s->ad.len, s->ct.p, s->ct.len, pt);
	else
		rc = dmd_receiver_group(rx, s->epoch, s->group, s->ad.p,
				       s->ad.len, s->ct.p, s->ct.len, pt);
	ok = rc == want;
	if (ok && want == DMD_OK) {
		ok = s->pt.len == ptlen && !memcmp(pt, s->pt.p, ptlen);
		if (s->count) {
			dmd_receiver_state(rx, &st);
			ok &= !rx->open && next_is(v, &st, &s->next);
		}
	} else if (ok) {
		ok = !memcmp(&before, rx, sizeof(before));
		for (i = 0; ok && i < ptlen; i++)
			ok = pt[i] == 0;	/* nothing released */
	}
	tap_result(ok, "%s epoch %llu %s %u -> %s (got %d)", v->name,
		   (unsigned long long)s->epoch, s->count ? "count" : "group",
		   s->count ? s->count : s->group, s->expect, rc);
	free(pt);
}

/*
 * Seal the epoch whose units are steps @first .. @last (all positive, in
 * order) through the group sender, with window @pre/@slots, and compare
 * every unit's bytes.
 */
static int seal_units(const struct vec *v, struct dmd_state st,
		      unsigned int first, unsigned int last, size_t pre,
		      size_t slots)
{
	const struct vec_step *s;
	struct dmd_sender snd;
	size_t win_size = slots * dmd_slot_size(st.suite, pre), pos, len;
	uint8_t *win = win_size ? malloc(win_size) : NULL, r[DMD_KEY_MAX];
	uint8_t *ct;
	unsigned int i;
	int rc, ok = 1;

	while (st.epoch < v->step[first].epoch) {
		dmd_epoch_update(st.suite, st.key, st.key, r);
		st.epoch++;
	}
	rc = dmd_sender_init_groups(&snd, &st, win, win_size, pre, v->g);
	if (!rc)
		rc = dmd_sender_begin(&snd, NULL);
	for (i = first; !rc && i <= last; i++) {
		s = &v->step[i];
		ct = malloc(s->ct.len);
		for (pos = 0; !rc && pos < s->pt.len; pos += len) {
			dmd_sender_precompute(&snd, 2);
			len = s->pt.p[pos] | s->pt.p[pos + 1] << 8;
			memcpy(ct + pos, s->pt.p + pos, 2);
			pos += 2;
			rc = dmd_sender_seal(&snd, s->pt.p + pos, len, ct + pos,
					     NULL);
		}
		if (!rc && s->count)
			rc = dmd_sender_close(&snd, s->ad.p, s->ad.len,
					      ct + pos, NULL);
		else if (!rc)
			rc = dmd_sender_close_group(&snd, s->ad.p, s->ad.len,
						    ct + pos, NULL);
		ok &= !rc && !memcmp(ct, s->ct.p, s->ct.len);
		free(ct);
	}
	dmd_sender_wipe(&snd);
	free(win);
	return ok && !rc;
}

/* Every epoch of a vector whose steps are all positive seals back. */
static void check_group_seals(const struct vec *v, struct dmd_state st)
{
	unsigned int i, first = 0;

	for (i = 0; i < v->nsteps; i++)
		if (strcmp(v->step[i].expect, "ok"))
			return;
	for (i = 0; i < v->nsteps; i++) {
		if (!v->step[i].count)
			continue;
		for (size_t p = 0; p < sizeof(pre_lens) / sizeof(pre_lens[0]); p++)
			tap_result(seal_units(v, st, first, i, pre_lens[p],
					      pre_lens[p] ? 3 : 0),
				   "%s epoch %llu seals back by groups, pre_len %zu",
				   v->name,
				   (unsigned long long)v->step[i].epoch,
				   pre_lens[p]);
		dmd_blob_parse(&st, v->step[i].next.p, v->step[i].next.len);
		first = i + 1;
	}
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "vectors/diamond.txt";
	struct vec_file *f = vec_open_groups(path);
	const struct vec *v;
	struct dmd_receiver rx;
	struct dmd_state st;
	unsigned int i;

	if (!f)
		return TAP_EXIT_FAIL;
	tap_header();
	while ((v = vec_next(f))) {
		if (!tap_result(dmd_blob_parse(&st, v->key.p, v->key.len) ==
				DMD_OK, "%s key blob parses", v->name))
			continue;
		if (v->g) {
			dmd_receiver_init(&rx, &st, v->g, DMD_DEFAULT_MAX_SKIP);
			for (i = 0; i < v->nsteps; i++)
				run_unit(v, &rx, &v->step[i]);
			check_group_seals(v, st);
			continue;
		}
		dmd_receiver_init(&rx, &st, st.b, DMD_DEFAULT_MAX_SKIP);
		for (i = 0; i < v->nsteps; i++) {
			run_step_gb(v, &rx, &v->step[i]);
			run_step(v, &st, &v->step[i]);
		}
	}
	vec_close(f);
	tap_trailing_plan();
	return tap_finish();
}
