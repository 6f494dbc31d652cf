/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Reader for vectors/diamond.txt (Documentation/spec.rst section 13), shared
 * by the host tests, the kernel selftests and the userspace tests.
 */
#ifndef DIAMOND_VECFILE_H
#define DIAMOND_VECFILE_H

#include <stddef.h>
#include <stdint.h>

#define VEC_MAX_STEPS 8

struct vec_buf {
	uint8_t *p;
	size_t len;
};

struct vec_step {
	uint64_t epoch;
	struct vec_buf ad, pt, ct, next;
	char expect[16];	/* "ok", "EBADMSG", ... */
};

struct vec {
	char name[64];
	struct vec_buf key;
	unsigned int nsteps;
	struct vec_step step[VEC_MAX_STEPS];
};

struct vec_file;

/* NULL on error (message on stderr). */
struct vec_file *vec_open(const char *path);
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
