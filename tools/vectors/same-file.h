/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * same-file: does a generated file in the tree still hold what its
 * generator writes now? vec2c --check and wrap2c --check both ask it.
 */
#ifndef DIAMOND_TOOLS_SAME_FILE_H
#define DIAMOND_TOOLS_SAME_FILE_H

#include <stdio.h>

/* A generator: writes the file's text to OUT; 0 on success. */
typedef int (*generator_fn)(FILE *out, const void *ctx);

/*
 * Run GEN(CTX) into memory and compare its output with FILE: 0 when
 * they are the same bytes, 1 when they differ or FILE cannot be read
 * (a line on stderr names TOOL, FILE and SOURCE, what it is generated
 * from), 2 when the generator failed.
 */
int same_file(const char *tool, const char *file, const char *source,
	      generator_fn gen, const void *ctx);

#endif
