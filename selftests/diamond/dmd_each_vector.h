/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The driver of a kselftest over every vector of vectors/diamond.txt, both
 * suites: TAP header; a skip (exit 4) when neither diamond AEAD binds; the
 * test's function on each vector whose suite binds (a skip for the others);
 * and at the end, that the file held the vectors it should. A header, not
 * a dmd_test.c function, because tap.h keeps its counters per program file.
 */
#ifndef DIAMOND_SELFTESTS_DMD_EACH_VECTOR_H
#define DIAMOND_SELFTESTS_DMD_EACH_VECTOR_H

#include "lib/vecfile.h"
#include "tap.h"
#include "afalg.h"
#include "dmd_test.h"

static inline int dmd_binds(unsigned int suite)
{
	int fd = afalg_bind(dmd_alg_name(suite));

	if (fd < 0) {
		tap_diag("bind %s: %s", dmd_alg_name(suite), dmd_errname(fd));
		return 0;
	}
	afalg_close(fd);
	return 1;
}

/* @fn on every vector of @argv's file (dmd_vectors_path); the exit code. */
static inline int dmd_each_vector(int argc, char **argv, const char *test,
				  void (*fn)(const struct vec *v,
					     unsigned int suite))
{
	const char *path = dmd_vectors_path(argc, argv);
	unsigned int suite, nvec = 0;
	struct vec_file *vf;
	const struct vec *v;
	int avail[3] = { 0 };

	tap_header();
	avail[1] = dmd_binds(1);
	avail[2] = dmd_binds(2);
	if (!avail[1] && !avail[2]) {
		tap_skip("diamond AEAD not available (module not loaded?)",
			 test);
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	vf = vec_open(path);
	if (!vf) {
		tap_result(0, "open %s", path);
		tap_trailing_plan();
		return TAP_EXIT_FAIL;
	}
	while ((v = vec_next(vf))) {
		nvec++;
		suite = v->key.len > DMD_BLOB_OFF_SUITE ?
			v->key.p[DMD_BLOB_OFF_SUITE] : 0;
		if (suite != 1 && suite != 2)
			tap_result(0, "%s: suite %u in key blob", v->name, suite);
		else if (!avail[suite])
			tap_skip("suite not available", v->name);
		else
			fn(v, suite);
	}
	vec_close(vf);
	tap_result(nvec >= 60, "read %u vectors from %s", nvec, path);
	tap_trailing_plan();
	return tap_finish();
}

#endif
