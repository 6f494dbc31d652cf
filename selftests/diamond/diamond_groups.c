// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_groups: loss-tolerant groups (g < b) through raw AF_ALG
 * (Documentation/kernel-api.rst "Groups"). A tfm keyed with a version 2
 * blob of group size g takes decrypt requests whose AD starts with a unit
 * table, le16(u) || u * (le32(field) || le32(len)), and answers each unit
 * with a verdict written over its field in the output.
 *
 * - every step of the grouped vectors, one unit per request: the vector's
 *   plaintext or errno (lost records, damage, truncation, a dropped final
 *   group, moved groups, groups swapped between epochs, another device);
 * - each epoch of the "-groups" vectors as one request of all its units;
 * - one request with a missing group releases the others, and the missing
 *   group is then refused (the cursor passed it);
 * - a flipped bit in one group rejects only that group, whose output is
 *   zeros; a replayed group is refused;
 * - a request that releases nothing changes no state: the genuine request
 *   then still opens;
 * - a malformed table is -EINVAL before any key is used, and a version 2
 *   blob with g = b (or 0) is today's ungrouped tfm;
 * - a version 2 blob followed by a stored cursor restores an open epoch.
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/vecfile.h"
#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

#define MAX_UNITS	8
#define UNIT_HDR	2
#define UNIT_SIZE	8
#define REQ_BUF		(UNIT_HDR + MAX_UNITS * UNIT_SIZE + DMD_T_BUF)

/* One unit of a request: its trailer index field and its ciphertext. */
struct unit {
	uint32_t field;
	const uint8_t *ct;	/* body || tag */
	size_t len;
};

/* A request's result: errno, then per unit its verdict and plaintext. */
struct reply {
	int err;
	uint32_t verdict[MAX_UNITS];
	uint8_t out[REQ_BUF];
	size_t pt_off[MAX_UNITS];	/* unit i's body in out */
};

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* The version 2 blob of a vector's version 1 key with group size @g. */
static size_t blob2(const struct vec_buf *key, uint32_t g, uint8_t *out)
{
	struct dmd_state st;

	if (dmd_blob_parse(&st, key->p, key->len) != DMD_OK)
		return 0;
	st.group = g;
	dmd_blob2_write(out, &st);
	return dmd_blob2_size(st.suite);
}

static int grouped_tfm(const struct vec *v, uint32_t g)
{
	uint8_t blob[DMD_BLOB2_MAX];
	size_t len = blob2(&v->key, g, blob);

	return len ? dmd_tfm(v->key.p[DMD_BLOB_OFF_SUITE], blob, len) :
		     -EINVAL;
}

static uint32_t step_field(const struct vec *v, const struct vec_step *s)
{
	return s->count ? DMD_TRAILER_FLAG | s->count :
			  DMD_GROUP_FLAG | (s->group * v->g + v->g);
}

/*
 * One decrypt request of @n units of @epoch with @ad; @table_len overrides
 * the table's u (0: @n). Fills @r; the output is read only on success.
 */
static void request(int tfm, uint64_t epoch, const uint8_t *ad, size_t adlen,
		    const struct unit *u, unsigned int n, struct reply *r)
{
	static uint8_t in[REQ_BUF];
	uint8_t iv[8];
	size_t assoc = UNIT_HDR + n * UNIT_SIZE + adlen, pos = assoc;
	ssize_t got;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	in[0] = n;
	in[1] = n >> 8;
	for (i = 0; i < n; i++) {
		put_le32(in + UNIT_HDR + i * UNIT_SIZE, u[i].field);
		put_le32(in + UNIT_HDR + i * UNIT_SIZE + 4, u[i].len);
		r->pt_off[i] = pos;
		memcpy(in + pos, u[i].ct, u[i].len);
		pos += u[i].len;
	}
	if (adlen)
		memcpy(in + UNIT_HDR + n * UNIT_SIZE, ad, adlen);
	for (i = 0; i < 8; i++)
		iv[i] = epoch >> (8 * i);
	got = afalg_aead_once(tfm, 0, iv, 8, assoc, in, pos, r->out,
			      pos - DMD_TAG_SIZE);
	if (got < 0) {
		r->err = (int)got;
		return;
	}
	if (got != (ssize_t)(pos - DMD_TAG_SIZE)) {
		r->err = -EPROTO;
		return;
	}
	for (i = 0; i < n; i++)
		r->verdict[i] = le32(r->out + UNIT_HDR + i * UNIT_SIZE);
}

static int is_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/* Unit @i released to plaintext @pt (its body, then a zeroed tag place). */
static int released(const struct reply *r, const struct unit *u,
		    unsigned int i, const struct vec_buf *pt)
{
	return r->verdict[i] == 0 && pt->len == u[i].len - DMD_TAG_SIZE &&
	       !memcmp(r->out + r->pt_off[i], pt->p, pt->len);
}

static struct unit step_unit(const struct vec *v, const struct vec_step *s)
{
	struct unit u = { step_field(v, s), s->ct.p, s->ct.len };

	return u;
}

/* Every step of a grouped vector as one single-unit request, in order. */
static void kat_steps(const struct vec *v)
{
	int tfm = grouped_tfm(v, v->g);
	static struct reply r;
	unsigned int i;

	if (!tap_result(tfm >= 0, "%s: setkey v2 blob, g = %u", v->name, v->g)) {
		tap_diag("got %s", dmd_errname(tfm));
		return;
	}
	for (i = 0; i < v->nsteps; i++) {
		const struct vec_step *s = &v->step[i];
		struct unit u = step_unit(v, s);
		int want = vec_expect_errno(s->expect), ok;

		request(tfm, s->epoch, s->ad.p, s->ad.len, &u, 1, &r);
		ok = r.err == want && (want || released(&r, &u, 0, &s->pt));
		if (!tap_result(ok, "%s: step %u epoch %llu %s %u -> %s",
				v->name, i, (unsigned long long)s->epoch,
				s->count ? "count" : "group",
				s->count ? s->count : s->group, s->expect))
			tap_diag("got %s, verdict %u", dmd_errname(r.err),
				 r.verdict[0]);
	}
	afalg_close(tfm);
}

/* The units of the first epoch of @v, at most four. */
static unsigned int first_epoch_units(const struct vec *v, struct unit *u)
{
	unsigned int n = 0;

	while (n < v->nsteps && n < 4 && v->step[n].epoch == v->step[0].epoch) {
		u[n] = step_unit(v, &v->step[n]);
		n++;
	}
	return n;
}

/*
 * A "-groups" vector, each epoch as one request of all its units; for the
 * first epoch also: a missing group, a damaged group, a request that
 * releases nothing, and a replay.
 */
static void whole_epochs(const struct vec *v)
{
	static struct reply r;
	struct unit u[MAX_UNITS];
	unsigned int i = 0, n, k, ok;
	int tfm = grouped_tfm(v, v->g);

	if (tfm < 0)
		return;
	while (i < v->nsteps) {
		const struct vec_step *s = &v->step[i];

		for (n = 0; i + n < v->nsteps &&
		     v->step[i + n].epoch == s->epoch && n < MAX_UNITS; n++)
			u[n] = step_unit(v, &v->step[i + n]);
		request(tfm, s->epoch, s->ad.p, s->ad.len, u, n, &r);
		ok = !r.err;
		for (k = 0; k < n && ok; k++)
			ok = released(&r, u, k, &v->step[i + k].pt) &&
			     (k == n - 1 || is_zero(r.out + r.pt_off[k] +
						    u[k].len - DMD_TAG_SIZE,
						    DMD_TAG_SIZE));
		if (!tap_result(ok, "%s: epoch %llu, %u units in one request",
				v->name, (unsigned long long)s->epoch, n))
			tap_diag("got %s", dmd_errname(r.err));
		i += n;
	}
	afalg_close(tfm);
}

/* Epoch 0 of a "-groups" vector: groups 0, 1, 2 and the final group. */
static void missing_group(const struct vec *v, const struct unit *all)
{
	static struct reply r;
	struct unit u[3] = { all[0], all[2], all[3] };
	const struct vec_step *s = &v->step[0];
	int tfm = grouped_tfm(v, v->g), ok;

	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 3, &r);
	ok = !r.err && released(&r, u, 0, &v->step[0].pt) &&
	     released(&r, u, 1, &v->step[2].pt) &&
	     released(&r, u, 2, &v->step[3].pt);
	if (!tap_result(ok, "%s: group 1 missing: groups 0, 2 and the final "
			"group released", v->name))
		tap_diag("got %s", dmd_errname(r.err));
	request(tfm, s->epoch, s->ad.p, s->ad.len, &all[1], 1, &r);
	if (!tap_result(r.err == -EKEYEXPIRED, "%s: group 1 arriving late "
			"is refused (EKEYEXPIRED)", v->name))
		tap_diag("got %s", dmd_errname(r.err));
	request(tfm, v->step[4].epoch, v->step[4].ad.p, v->step[4].ad.len,
		(struct unit[]){ step_unit(v, &v->step[4]) }, 1, &r);
	tap_result(!r.err && r.verdict[0] == 0, "%s: the next epoch opens",
		   v->name);
	afalg_close(tfm);
}

static void damaged_group(const struct vec *v, const struct unit *all)
{
	static struct reply r;
	static uint8_t bad[DMD_T_BUF];
	struct unit u[4];
	const struct vec_step *s = &v->step[0];
	int tfm = grouped_tfm(v, v->g), ok;

	memcpy(u, all, sizeof(u));
	memcpy(bad, all[1].ct, all[1].len);
	/* A byte of record 4, or of the tag if that record is empty. */
	bad[all[1].ct[0] | all[1].ct[1] ? 2 : all[1].len - 1] ^= 0x10;
	u[1].ct = bad;
	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 4, &r);
	ok = !r.err && released(&r, u, 0, &v->step[0].pt) &&
	     r.verdict[1] == EBADMSG &&
	     is_zero(r.out + r.pt_off[1], u[1].len) &&
	     released(&r, u, 2, &v->step[2].pt) &&
	     released(&r, u, 3, &v->step[3].pt);
	if (!tap_result(ok, "%s: a flipped bit rejects only its group "
			"(EBADMSG, zeros), the others are released", v->name))
		tap_diag("got %s, verdicts %u %u %u %u", dmd_errname(r.err),
			 r.verdict[0], r.verdict[1], r.verdict[2],
			 r.verdict[3]);
	request(tfm, s->epoch, s->ad.p, s->ad.len, &all[0], 1, &r);
	if (!tap_result(r.err == -EKEYEXPIRED, "%s: a replayed group is "
			"refused (EKEYEXPIRED)", v->name))
		tap_diag("got %s", dmd_errname(r.err));
	afalg_close(tfm);
}

/* Damage in every unit: nothing released, nothing changed. */
static void nothing_released(const struct vec *v, const struct unit *all)
{
	static struct reply r;
	static uint8_t bad[2][DMD_T_BUF];
	struct unit u[2] = { all[0], all[1] };
	const struct vec_step *s = &v->step[0];
	int tfm = grouped_tfm(v, v->g), ok, k;

	for (k = 0; k < 2; k++) {
		memcpy(bad[k], all[k].ct, all[k].len);
		bad[k][all[k].len - 1] ^= 1;	/* the tag */
		u[k].ct = bad[k];
	}
	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 2, &r);
	if (!tap_result(r.err == -EBADMSG, "%s: two damaged groups: EBADMSG",
			v->name))
		tap_diag("got %s", dmd_errname(r.err));
	/* A moved group (group 0 claimed as group 1) and a replay... */
	u[0] = all[0];
	u[0].field = all[1].field;
	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 1, &r);
	tap_result(r.err == -EBADMSG, "%s: group 0 claimed as group 1: EBADMSG",
		   v->name);
	/* ...then the genuine epoch opens whole: the state did not move. */
	request(tfm, s->epoch, s->ad.p, s->ad.len, all, 4, &r);
	ok = !r.err && released(&r, all, 0, &v->step[0].pt) &&
	     released(&r, all, 3, &v->step[3].pt);
	if (!tap_result(ok, "%s: after requests that released nothing the "
			"genuine epoch opens", v->name))
		tap_diag("got %s", dmd_errname(r.err));
	afalg_close(tfm);
}

/* Tables the kernel must refuse before any key, and encrypt. */
static void bad_tables(const struct vec *v, const struct unit *all)
{
	static struct reply r;
	struct unit u[2] = { all[1], all[0] };
	const struct vec_step *s = &v->step[0];
	int tfm = grouped_tfm(v, v->g), err;
	uint8_t iv[8] = { 0 }, in[64] = { 0 }, out[64];

	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 2, &r);
	tap_result(r.err == -EINVAL, "%s: groups out of order: EINVAL",
		   v->name);
	u[0] = all[3];
	u[1] = all[0];
	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 2, &r);
	tap_result(r.err == -EINVAL, "%s: final group not last: EINVAL",
		   v->name);
	u[0] = all[0];
	u[0].len -= 1;
	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 1, &r);
	tap_result(r.err == -EINVAL, "%s: a unit cut short: EINVAL",
		   v->name);
	u[0] = all[0];
	u[0].field = DMD_GROUP_FLAG | (v->g + 1);
	request(tfm, s->epoch, s->ad.p, s->ad.len, u, 1, &r);
	tap_result(r.err == -EINVAL, "%s: a group end off the grid: EINVAL",
		   v->name);
	/* u = 0: a table without units. */
	err = afalg_aead_once(tfm, 0, iv, 8, 2, in, 2 + 16, out, 2);
	tap_result(err == -EINVAL, "%s: u = 0: EINVAL", v->name);
	err = afalg_aead_once(tfm, 1, iv, 8, 0, in, 4, out, 20);
	if (!tap_result(err == -EOPNOTSUPP, "%s: encrypt on a grouped tfm: "
			"EOPNOTSUPP", v->name))
		tap_diag("got %s", dmd_errname(err));
	/* Everything above changed nothing. */
	request(tfm, s->epoch, s->ad.p, s->ad.len, all, 4, &r);
	tap_result(!r.err, "%s: then the genuine epoch opens", v->name);
	afalg_close(tfm);
}

/* g = b and g = 0 in a version 2 blob: an ungrouped tfm, AD with no table. */
static void ungrouped_v2(const struct vec *v)
{
	const struct vec_step *s = &v->step[3];	/* count = 16 = b */
	uint8_t blob[DMD_BLOB2_MAX], pt[DMD_T_BUF];
	unsigned int suite = v->key.p[DMD_BLOB_OFF_SUITE];
	size_t len;
	int tfm, err;

	/*
	 * The final group alone under g = b is not an epoch (records from 12
	 * on): it must fail as one, and a v2 blob with a bad CRC is refused.
	 */
	len = blob2(&v->key, 16, blob);
	tfm = dmd_tfm(suite, blob, len);
	err = tfm < 0 ? tfm : dmd_kopen(tfm, 1, s->epoch, s->ad.p, s->ad.len,
					s->ct.p, s->ct.len, pt, NULL, NULL);
	tap_result(err == -EBADMSG, "%s: v2 blob with g = b keys an "
		   "ungrouped tfm (the final group alone is no epoch)",
		   v->name);
	if (tfm >= 0)
		afalg_close(tfm);
	blob[DMD_BLOB2_OFF_KEY] ^= 1;
	tfm = dmd_tfm(suite, blob, len);
	tap_result(tfm == -EINVAL, "%s: v2 blob with a bad CRC: EINVAL",
		   v->name);
	if (tfm >= 0)
		afalg_close(tfm);
}

/* Ungrouped vectors through a v2 blob with @g = 0 or b: their results. */
static void v2_ungrouped_kat(const struct vec *v, uint32_t g)
{
	uint8_t blob[DMD_BLOB2_MAX], pt[DMD_T_BUF];
	size_t len = blob2(&v->key, g, blob);
	int tfm = dmd_tfm(v->key.p[DMD_BLOB_OFF_SUITE], blob, len), ok = 1;
	unsigned int i;

	for (i = 0; i < v->nsteps && tfm >= 0 && ok; i++) {
		const struct vec_step *s = &v->step[i];
		int err = dmd_kopen(tfm, 1, s->epoch, s->ad.p, s->ad.len,
				    s->ct.p, s->ct.len, pt, NULL, NULL);

		ok = err == vec_expect_errno(s->expect) &&
		     (err || !memcmp(pt, s->pt.p, s->pt.len));
	}
	tap_result(tfm >= 0 && ok, "%s: v2 blob, g = %u: the vector's results",
		   v->name, g);
	if (tfm >= 0)
		afalg_close(tfm);
}

/*
 * A cursor at group 0, the checkpoint a gateway sought to (R_{0,0} after
 * the blob (1, E_1) in @key, blen bytes): the tfm opens group 0 from it
 * and then group 1; with R_{0,g} in its place group 0 fails (-EBADMSG).
 */
static void cursor_at_zero(const struct vec *v, const struct unit *all,
			   uint8_t *key, size_t blen)
{
	static struct reply r;
	const struct vec_step *s = &v->step[0];
	unsigned int suite = v->key.p[DMD_BLOB_OFF_SUITE];
	size_t k = dmd_key_size(suite);
	struct dmd_receiver rx;
	struct dmd_state st;
	int tfm, ok = 0;

	if (dmd_blob_parse(&st, v->key.p, v->key.len) != DMD_OK ||
	    dmd_receiver_init(&rx, &st, v->g, 0) != DMD_OK ||
	    dmd_receiver_seek(&rx, s->epoch, 0) != DMD_OK) {
		tap_result(0, "%s: core receiver seeks to group 0", v->name);
		return;
	}
	put_le32(key + blen + 8, 0);
	tfm = dmd_tfm(suite, key, blen + 12 + k);
	if (tfm >= 0) {
		request(tfm, s->epoch, s->ad.p, s->ad.len, &all[0], 1, &r);
		ok = r.err == -EBADMSG;
		afalg_close(tfm);
	}
	tap_result(ok, "%s: a cursor at group 0 holding R_{0,g}: group 0 "
		   "-EBADMSG", v->name);
	memcpy(key + blen + 12, rx.r, k);
	tfm = dmd_tfm(suite, key, blen + 12 + k);
	ok = 0;
	if (tfm >= 0) {
		request(tfm, s->epoch, s->ad.p, s->ad.len, &all[0], 1, &r);
		ok = !r.err && released(&r, &all[0], 0, &s->pt);
		request(tfm, s->epoch, s->ad.p, s->ad.len, &all[1], 1, &r);
		ok = ok && !r.err && released(&r, &all[1], 0, &v->step[1].pt);
		afalg_close(tfm);
	}
	tap_result(ok, "%s: a cursor at group 0 (R_{0,0}, a checkpoint) "
		   "opens group 0, then group 1", v->name);
	dmd_receiver_wipe(&rx);
}

/*
 * The cursor a gateway stores (after group 0 of epoch 0: the blob
 * (1, E_1) and le64(0) || le32(1) || R_{0,g}), computed by the portable
 * core, keys a second tfm that then opens group 1 and refuses group 0.
 */
static void restored_cursor(const struct vec *v, const struct unit *all)
{
	static struct reply r;
	const struct vec_step *s = &v->step[0];
	unsigned int suite = v->key.p[DMD_BLOB_OFF_SUITE];
	uint8_t key[DMD_BLOB2_MAX + 12 + DMD_KEY_MAX], pt[DMD_T_BUF];
	struct dmd_receiver rx;
	struct dmd_state st;
	size_t blen, k = dmd_key_size(suite);
	int tfm, ok;

	if (dmd_blob_parse(&st, v->key.p, v->key.len) != DMD_OK ||
	    dmd_receiver_init(&rx, &st, v->g, 0) != DMD_OK ||
	    dmd_receiver_group(&rx, s->epoch, 0, s->ad.p, s->ad.len, s->ct.p,
			       s->ct.len, pt) != DMD_OK) {
		tap_result(0, "%s: core receiver opens group 0", v->name);
		return;
	}
	dmd_receiver_state(&rx, &st);
	st.group = v->g;
	dmd_blob2_write(key, &st);
	blen = dmd_blob2_size(suite);
	memset(key + blen, 0, 8);
	key[blen] = (uint8_t)s->epoch;
	put_le32(key + blen + 8, rx.group);
	memcpy(key + blen + 12, rx.r, k);
	tfm = dmd_tfm(suite, key, blen + 12 + k);
	if (!tap_result(tfm >= 0, "%s: setkey v2 blob + cursor (epoch 0 open "
			"at group 1)", v->name)) {
		tap_diag("got %s", dmd_errname(tfm));
		return;
	}
	request(tfm, s->epoch, s->ad.p, s->ad.len, &all[1], 1, &r);
	ok = !r.err && released(&r, &all[1], 0, &v->step[1].pt);
	request(tfm, s->epoch, s->ad.p, s->ad.len, &all[0], 1, &r);
	tap_result(ok && r.err == -EKEYEXPIRED, "%s: the restored cursor "
		   "opens group 1 and refuses group 0", v->name);
	afalg_close(tfm);
	cursor_at_zero(v, all, key, blen);
	put_le32(key + blen + 8, 1);
	key[blen] ^= 1;
	tfm = dmd_tfm(suite, key, blen + 12 + k);
	tap_result(tfm == -EINVAL, "%s: a cursor not of the epoch before the "
		   "blob's: EINVAL", v->name);
	if (tfm >= 0)
		afalg_close(tfm);
	dmd_receiver_wipe(&rx);
}

static int is_groups_vector(const struct vec *v)
{
	size_t n = strlen(v->name);

	return v->g == 4 && n > 7 && !strcmp(v->name + n - 7, "-groups");
}

int main(int argc, char **argv)
{
	const char *path = dmd_vectors_path(argc, argv);
	unsigned int nvec = 0, nplain = 0, suite;
	int avail[3] = { 0 };
	struct vec_file *vf;
	const struct vec *v;
	struct unit all[4];

	tap_header();
	avail[1] = dmd_suite_available(1);
	avail[2] = dmd_suite_available(2);
	if (!avail[1] && !avail[2]) {
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	vf = vec_open_groups(path);
	if (!vf) {
		tap_result(0, "open %s", path);
		tap_trailing_plan();
		return TAP_EXIT_FAIL;
	}
	while ((v = vec_next(vf))) {
		suite = v->key.p[DMD_BLOB_OFF_SUITE];
		if (suite > 2 || !avail[suite]) {
			tap_skip("suite not available", v->name);
			continue;
		}
		if (!v->g) {
			/* g = 0 and g = b alternately: today's tfm both. */
			if (nplain < 8)
				v2_ungrouped_kat(v, nplain & 1 ?
						 le32(v->key.p + DMD_BLOB_OFF_B) :
						 0);
			nplain++;
			continue;
		}
		nvec++;
		kat_steps(v);
		if (!is_groups_vector(v))
			continue;
		whole_epochs(v);
		if (first_epoch_units(v, all) != 4)
			continue;
		missing_group(v, all);
		damaged_group(v, all);
		nothing_released(v, all);
		bad_tables(v, all);
		ungrouped_v2(v);
		restored_cursor(v, all);
	}
	vec_close(vf);
	tap_result(nvec >= 22, "read %u grouped vectors from %s", nvec, path);
	tap_trailing_plan();
	return tap_finish();
}
