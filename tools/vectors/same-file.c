// SPDX-License-Identifier: GPL-2.0 OR MIT
/* same-file: compare a generated file with its generator's output now. */
#define _POSIX_C_SOURCE 200809L
#include "same-file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* FILE's bytes (generated headers hold no NUL); NULL when unreadable. */
static char *slurp(const char *tool, const char *file, size_t *len)
{
	char *text = NULL;
	size_t cap = 0;
	FILE *f = fopen(file, "r");
	ssize_t r;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", tool, file, strerror(errno));
		return NULL;
	}
	r = getdelim(&text, &cap, '\0', f);
	fclose(f);
	*len = r > 0 ? (size_t)r : 0;
	return text;
}

int same_file(const char *tool, const char *file, const char *source,
	      generator_fn gen, const void *ctx)
{
	char *want = NULL, *have;
	size_t want_len = 0, have_len = 0;
	FILE *mem = open_memstream(&want, &want_len);
	int rc;

	if (!mem)
		return 2;
	rc = gen(mem, ctx);
	fclose(mem);
	if (rc) {
		free(want);
		return 2;
	}
	have = slurp(tool, file, &have_len);
	rc = !have || have_len != want_len || memcmp(have, want, want_len);
	if (rc && have)
		fprintf(stderr, "%s: %s differs from what %s generates\n",
			tool, file, source);
	free(have);
	free(want);
	return rc;
}
