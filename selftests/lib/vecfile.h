/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Reader for vectors/diamond.txt (Documentation/spec.rst section 13), shared
 * by the host tests, the kernel selftests and the userspace tests.
 */
#ifndef DIAMOND_VECFILE_H
#define DIAMOND_VECFILE_H

#include <stddef.h>
#include <stdint.h>

#define VEC_MAX_STEPS 16

struct vec_buf {
	uint8_t *p;
	size_t len;
};

struct vec_step {
	uint64_t epoch;
	struct vec_buf ad, pt, ct, next;
	char expect[16];	/* "ok", "EBADMSG", ... */
	/* Grouped vectors (spec sections 9.1, 13): one unit per step. */
	uint32_t group;		/* non-final group index (count == 0) */
	uint32_t count;		/* n of the epoch, for its final group */
};

struct vec {
	char name[64];
	struct vec_buf key;
	uint32_t g;		/* group size; 0: no groups (g = b) */
	unsigned int nsteps;
	struct vec_step step[VEC_MAX_STEPS];
};

struct vec_file;

/*
 * NULL on error (message on stderr). vec_open() skips the vectors with a
 * group size (readers without group support); vec_open_groups() returns
 * them too.
 */
struct vec_file *vec_open(const char *path);
struct vec_file *vec_open_groups(const char *path);
/* Next vector, or NULL at the end. Valid until the next call. */
const struct vec *vec_next(struct vec_file *f);
void vec_close(struct vec_file *f);

/* Map an expect string to a DMD_E* code; 1 for an unknown name. */
int vec_expect_code(const char *expect);
/* The kernel's 0 / -errno for a core DMD_E* code (spec section 12). */
int vec_code_errno(int code);
/* The kernel's 0 / -errno for an expect string; 1 for an unknown name. */
int vec_expect_errno(const char *expect);

#endif
