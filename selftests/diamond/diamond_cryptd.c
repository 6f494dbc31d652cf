// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_cryptd: backlog semantics (Documentation/kernel-api.rst,
 * Backlog). run_all.sh reloads cryptd with cryptd_max_cpu_qlen=1 and says
 * so in $DMD_CRYPTD_QLEN; this test then binds a suite 1 instance whose
 * inner algorithms both run through cryptd, and 4 threads on 4 tfms seal
 * 60 epochs each (4 records each, so several child requests per epoch),
 * competing for the 1-deep queue. AF_ALG requests carry MAY_BACKLOG, so
 * must the children: every seal must succeed, and no -ENOSPC (Diamond's
 * "index space exhausted") or -EBUSY may come back. TAP 13; exit 4 when
 * the kernel has no cryptd, AF_ALG cannot bind the instance on 7.x (it
 * takes only synchronous algorithms there) or the queue could not be made
 * 1 deep, each saying so; a failed bind before 7.x is a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

#define NAME	"diamond(cryptd(ctr(aes-generic)),cryptd(ghash-generic))"
#define THREADS	4
#define EPOCHS	60

/* The running kernel's major version, 0 if unknown. */
static int kernel_major(void)
{
	struct utsname u;

	return uname(&u) ? 0 : atoi(u.release);
}

struct worker {
	pthread_t th;
	int tfm, op, ok, enospc, ebusy, other;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	uint8_t pt[4 * (2 + 100)], ct[sizeof(pt) + DMD_TAG_SIZE];
	struct dmd_rng rng = { .s = (uint64_t)w->tfm };
	unsigned int e;
	size_t len = dmd_rand_body(&rng, pt, 4, 100);
	int err;

	for (e = 0; e < EPOCHS; e++) {
		err = dmd_kseal(w->op, 0, e, NULL, 0, pt, len, ct);
		if (!err)
			w->ok++;
		else if (err == -ENOSPC)
			w->enospc++;
		else if (err == -EBUSY)
			w->ebusy++;
		else
			w->other++;
	}
	return NULL;
}

int main(void)
{
	struct worker w[THREADS] = { 0 };
	struct dmd_rng rng = { .s = 7 };
	const char *qlen = getenv("DMD_CRYPTD_QLEN");
	uint8_t blob[DMD_BLOB_MAX];
	int i, ok = 0, enospc = 0, ebusy = 0, other = 0, fd;
	size_t len;

	tap_header();
	if (access("/sys/module/cryptd", F_OK)) {
		/* Debian's arm64 kernels are built without CONFIG_CRYPTO_CRYPTD. */
		tap_skip("this kernel has no cryptd", NAME);
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	fd = afalg_bind(NAME);
	afalg_close(fd);
	if (fd < 0 && kernel_major() >= 7) {
		/*
		 * From 7.x AF_ALG looks up only synchronous algorithms
		 * (AF_ALG_CRYPTOAPI_MASK has CRYPTO_ALG_ASYNC), and a cryptd
		 * child makes the instance async; from 7.1 there is no ghash
		 * hash to wrap either, and from 7.3 suite 1 is built on
		 * ctr-aes-lib alone. Before 7.x the bind must work.
		 */
		char why[192];

		snprintf(why, sizeof(why),
			 "AF_ALG cannot bind it (%s); from 7.x AF_ALG takes only synchronous algorithms",
			 dmd_errname(fd));
		tap_skip(why, NAME);
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	if (fd < 0) {
		tap_result(0, "AF_ALG binds %s (%s)", NAME, dmd_errname(fd));
		tap_trailing_plan();
		return tap_finish();
	}
	if (!qlen || strcmp(qlen, "1")) {
		tap_skip("cryptd was not reloaded with cryptd_max_cpu_qlen=1",
			 "1-deep cryptd queue");
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	len = dmd_make_blob(&rng, blob, 1, 0, 16, 0);
	for (i = 0; i < THREADS; i++) {
		w[i].tfm = afalg_bind(NAME);
		if (w[i].tfm < 0 || afalg_setkey(w[i].tfm, blob, len) ||
		    afalg_setauthsize(w[i].tfm, DMD_TAG_SIZE) ||
		    (w[i].op = afalg_accept(w[i].tfm)) < 0) {
			tap_result(0, "set up tfm %d on %s", i, NAME);
			return tap_finish();
		}
	}
	for (i = 0; i < THREADS; i++)
		pthread_create(&w[i].th, NULL, work, &w[i]);
	for (i = 0; i < THREADS; i++) {
		pthread_join(w[i].th, NULL);
		ok += w[i].ok;
		enospc += w[i].enospc;
		ebusy += w[i].ebusy;
		other += w[i].other;
		afalg_close(w[i].op);
		afalg_close(w[i].tfm);
	}
	tap_diag("%s: %d sealed, %d ENOSPC, %d EBUSY, %d other", NAME, ok,
		 enospc, ebusy, other);
	tap_result(!enospc, "1-deep cryptd queue: %d of %d seals returned ENOSPC",
		   enospc, THREADS * EPOCHS);
	tap_result(!ebusy, "1-deep cryptd queue: %d seals returned EBUSY", ebusy);
	tap_result(ok == THREADS * EPOCHS, "1-deep cryptd queue: %d of %d seals succeeded",
		   ok, THREADS * EPOCHS);
	tap_trailing_plan();
	return tap_finish();
}
