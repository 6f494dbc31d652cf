// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_threads: concurrency on shared tfms, raw AF_ALG. NTFM tfms, each
 * keyed with its own blob (suites alternate), and NTHREAD threads that each
 * accept() their own operation socket on every tfm, so all threads race on
 * the same key state.
 *  1. in order: every thread submits every epoch 0..E-1 of every tfm, in
 *     order, as sealed by the portable core. Each epoch must be accepted
 *     exactly once across the threads (a thread that submits e has seen
 *     e - 1 settled, so nothing is skipped), every other answer must be
 *     EKEYEXPIRED, and every accepted plaintext must be the core's.
 *  2. shuffled: each thread submits the epochs in its own random order;
 *     now epochs may be skipped, but none is accepted twice, the last one
 *     is accepted exactly once, and rejections are EKEYEXPIRED only.
 *  3. sealing: every thread asks to seal every epoch in order on one
 *     shared tfm per suite; each epoch is sealed exactly once (never the
 *     same keystream twice) and equals the core's ciphertext.
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

#define NTHREAD	4
#define NTFM	4
#define NEPOCH	48

struct epoch_msg {
	uint8_t ad[16];
	size_t adlen;
	uint8_t pt[256], ct[256 + DMD_TAG_SIZE];
	size_t ptlen;
};

struct tfm_case {
	unsigned int suite;
	uint8_t blob[DMD_BLOB_MAX];
	size_t bloblen;
	int tfm;
	struct epoch_msg msg[NEPOCH];
	atomic_int accepted[NEPOCH];
	atomic_int mismatch, other_err, first_err;
};

static struct tfm_case cases[NTFM];
static int phase;		/* 1, 2 or 3 */
static uint64_t seed;

struct worker {
	pthread_t th;
	unsigned int id;
	int ops[NTFM];
};

static void note_err(struct tfm_case *c, int err)
{
	int zero = 0;

	atomic_fetch_add(&c->other_err, 1);
	atomic_compare_exchange_strong(&c->first_err, &zero, err);
}

static void submit_open(struct worker *w, unsigned int t, unsigned int e)
{
	struct tfm_case *c = &cases[t];
	struct epoch_msg *m = &c->msg[e];
	uint8_t out[256];
	int err;

	if (w->ops[t] < 0)
		w->ops[t] = afalg_accept(c->tfm);
	if (w->ops[t] < 0) {
		note_err(c, w->ops[t]);
		return;
	}
	err = dmd_kopen(w->ops[t], 0, e, m->ad, m->adlen, m->ct,
			m->ptlen + DMD_TAG_SIZE, out, NULL, NULL);
	if (!err) {
		atomic_fetch_add(&c->accepted[e], 1);
		if (memcmp(out, m->pt, m->ptlen))
			atomic_fetch_add(&c->mismatch, 1);
	} else if (err != -EKEYEXPIRED) {
		note_err(c, err);
		afalg_close(w->ops[t]);	/* leave no half request behind */
		w->ops[t] = -1;
	}
}

static void submit_seal(struct worker *w, unsigned int t, unsigned int e)
{
	struct tfm_case *c = &cases[t];
	struct epoch_msg *m = &c->msg[e];
	uint8_t out[256 + DMD_TAG_SIZE];
	int err;

	if (w->ops[t] < 0)
		w->ops[t] = afalg_accept(c->tfm);
	if (w->ops[t] < 0) {
		note_err(c, w->ops[t]);
		return;
	}
	err = dmd_kseal(w->ops[t], 0, e, m->ad, m->adlen, m->pt, m->ptlen,
			out);
	if (!err) {
		atomic_fetch_add(&c->accepted[e], 1);
		if (memcmp(out, m->ct, m->ptlen + DMD_TAG_SIZE))
			atomic_fetch_add(&c->mismatch, 1);
	} else if (err != -EKEYEXPIRED) {
		note_err(c, err);
		afalg_close(w->ops[t]);
		w->ops[t] = -1;
	}
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct dmd_rng r = { seed + w->id * 7919 };
	unsigned int order[NEPOCH], e, t, i, j, tmp;

	for (e = 0; e < NEPOCH; e++)
		order[e] = e;
	if (phase == 2)
		for (i = NEPOCH - 1; i > 0; i--) {
			j = dmd_rand_below(&r, i + 1);
			tmp = order[i], order[i] = order[j], order[j] = tmp;
		}
	for (i = 0; i < NEPOCH; i++)
		for (t = 0; t < NTFM; t++) {
			/* threads walk the tfms in different orders */
			unsigned int tt = (t + w->id) % NTFM;

			if (phase == 3)
				submit_seal(w, tt, order[i]);
			else
				submit_open(w, tt, order[i]);
		}
	for (t = 0; t < NTFM; t++)
		afalg_close(w->ops[t]);
	return NULL;
}

static int setup(struct dmd_rng *r)
{
	struct dmd_state st;
	unsigned int t, e;
	int err;

	for (t = 0; t < NTFM; t++) {
		struct tfm_case *c = &cases[t];

		c->suite = 1 + t % 2;
		c->bloblen = dmd_make_blob(r, c->blob, c->suite, t % 3, 8, 0);
		dmd_blob_parse(&st, c->blob, c->bloblen);
		for (e = 0; e < NEPOCH; e++) {
			struct epoch_msg *m = &c->msg[e];

			m->adlen = dmd_rand_below(r, sizeof(m->ad) + 1);
			dmd_rand_bytes(r, m->ad, m->adlen);
			m->ptlen = dmd_rand_body(r, m->pt, 1 + dmd_rand_below(r, 4), 40);
			err = dmd_core_seal_at(&st, e, m->ad, m->adlen, m->pt,
					       m->ptlen, m->ct);
			if (err)
				return -EINVAL;
		}
	}
	return 0;
}

static int rekey_all(void)
{
	unsigned int t, e;
	int err;

	for (t = 0; t < NTFM; t++) {
		struct tfm_case *c = &cases[t];

		if (c->tfm > 0)
			afalg_close(c->tfm);
		c->tfm = dmd_tfm(c->suite, c->blob, c->bloblen);
		if (c->tfm < 0)
			return c->tfm;
		for (e = 0; e < NEPOCH; e++)
			atomic_store(&c->accepted[e], 0);
		atomic_store(&c->mismatch, 0);
		atomic_store(&c->other_err, 0);
		atomic_store(&c->first_err, 0);
	}
	(void)err;
	return 0;
}

static int run_phase(int p)
{
	struct worker w[NTHREAD];
	unsigned int i, t;
	int err = rekey_all();

	if (err)
		return err;
	phase = p;
	for (i = 0; i < NTHREAD; i++) {
		w[i].id = i;
		for (t = 0; t < NTFM; t++)
			w[i].ops[t] = -1;
		if (pthread_create(&w[i].th, NULL, work, &w[i]))
			return -EAGAIN;
	}
	for (i = 0; i < NTHREAD; i++)
		pthread_join(w[i].th, NULL);
	return 0;
}

static void report(const char *what, int exact)
{
	unsigned int t, e, twice, missing;

	for (t = 0; t < NTFM; t++) {
		struct tfm_case *c = &cases[t];
		int oe = atomic_load(&c->other_err), mm = atomic_load(&c->mismatch);

		twice = missing = 0;
		for (e = 0; e < NEPOCH; e++) {
			int a = atomic_load(&c->accepted[e]);

			twice += a > 1;
			missing += a == 0 && (exact || e == NEPOCH - 1);
		}
		if (!tap_result(!twice && !missing && !oe && !mm,
				"%s: tfm %u (suite %u), %u threads x %u epochs: %s",
				what, t, c->suite, NTHREAD, NEPOCH,
				exact ? "each epoch accepted exactly once" :
					"no epoch accepted twice, last accepted"))
			tap_diag("%u epochs accepted more than once, %u never; %d results differ from the core; %d errors other than EKEYEXPIRED (first %s)",
				 twice, missing, mm, oe,
				 dmd_errname(atomic_load(&c->first_err)));
	}
}

int main(void)
{
	struct dmd_rng r;
	int fd, err, s1, s2;

	seed = dmd_seed();
	r.s = seed;
	tap_header();
	tap_diag("seed %llu (set DMD_SEED to repeat)", (unsigned long long)seed);
	fd = afalg_bind(DMD_ALG_SUITE1);
	s1 = fd >= 0;
	afalg_close(fd);
	fd = afalg_bind(DMD_ALG_SUITE2);
	s2 = fd >= 0;
	afalg_close(fd);
	if (!s1 || !s2) {
		tap_skip("diamond AEAD (both suites) not available",
			 "diamond_threads");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	if (!tap_result(!setup(&r), "core seals %u epochs for each of %u tfms",
			NEPOCH, NTFM)) {
		tap_trailing_plan();
		return TAP_EXIT_FAIL;
	}
	err = run_phase(1);
	if (tap_result(!err, "in-order race set up"))
		report("in order", 1);
	else
		tap_diag("got %s", dmd_errname(err));
	err = run_phase(2);
	if (tap_result(!err, "shuffled race set up"))
		report("shuffled", 0);
	else
		tap_diag("got %s", dmd_errname(err));
	err = run_phase(3);
	if (tap_result(!err, "sealing race set up"))
		report("sealing", 1);
	else
		tap_diag("got %s", dmd_errname(err));
	tap_trailing_plan();
	return tap_finish();
}
