// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The portable core against vectors/blob.txt (spec sections 2 and 13):
 * provisioning in each generation writes the vector's version 2 blob
 * byte for byte (with a "g" line: provisioned with that group size), an
 * accepted blob parses and is written back as version 2, its "next" (a
 * version 1 blob too: spec section 2), and every damaged or ill-formed
 * blob is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include "tap.h"

struct bvec {
	char name[64], expect[16];
	uint8_t root[DMD_ROOT_SIZE], blob[128], next[128];
	size_t blob_len, next_len;
	unsigned int suite, agg, gen, g;
	unsigned long b, dev;
	int has_root, has_params;
};

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int v;

	while (n < max && sscanf(s + 2 * n, "%2x", &v) == 1)
		out[n++] = (uint8_t)v;
	return n;
}

/* One blank-line separated record; 0 at the end of the file. */
static int next_vec(FILE *f, struct bvec *v)
{
	char line[512], key[16], val[400];
	int any = 0;

	memset(v, 0, sizeof(*v));
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (line[0] == '\n') {
			if (any)
				return 1;
			continue;
		}
		val[0] = 0;
		if (sscanf(line, "%15s = %399[^\n]", key, val) < 1)
			continue;
		any = 1;
		if (!strcmp(key, "name"))
			snprintf(v->name, sizeof(v->name), "%s", val);
		else if (!strcmp(key, "expect"))
			snprintf(v->expect, sizeof(v->expect), "%s", val);
		else if (!strcmp(key, "blob"))
			v->blob_len = unhex(val, v->blob, sizeof(v->blob));
		else if (!strcmp(key, "next"))
			v->next_len = unhex(val, v->next, sizeof(v->next));
		else if (!strcmp(key, "root"))
			v->has_root = unhex(val, v->root, DMD_ROOT_SIZE) ==
				      DMD_ROOT_SIZE;
		else if (!strcmp(key, "g"))
			v->g = (unsigned int)strtoul(val, NULL, 10);
		else if (!strcmp(key, "params"))
			v->has_params = sscanf(val, "%u %u %lu %lu %u",
					       &v->suite, &v->agg, &v->b,
					       &v->dev, &v->gen) == 5;
	}
	return any;
}

static void check_ok(const struct bvec *v)
{
	struct dmd_state st, p;
	uint8_t out[DMD_BLOB2_MAX];
	int ok;

	ok = dmd_blob_parse(&p, v->blob, v->blob_len) == DMD_OK;
	if (v->next_len) {
		dmd_blob2_write(out, &p);
		ok = ok && v->next_len == dmd_blob2_size(p.suite) &&
		     !memcmp(out, v->next, v->next_len);
	}
	tap_result(ok, "%s: accepted", v->name);
	if (!v->has_params)
		return;
	memset(&st, 0, sizeof(st));
	st.suite = (uint8_t)v->suite;
	st.agg = (uint8_t)v->agg;
	st.b = (uint32_t)v->b;
	st.device_id = (uint32_t)v->dev;
	st.gen = (uint16_t)v->gen;
	st.group = (uint16_t)v->g;	/* not an input of E_0 (spec 5.1) */
	ok = v->has_root && dmd_derive_initial(&st, v->root) == DMD_OK;
	if (ok)
		dmd_blob2_write(out, &st);
	tap_result(ok && v->blob_len == dmd_blob2_size(st.suite) &&
		   !memcmp(out, v->blob, v->blob_len),
		   "%s: provisioning writes this blob", v->name);
}

int main(int argc, char **argv)
{
	struct bvec v;
	struct dmd_state st;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: test_blobs vectors/blob.txt\n");
		return 2;
	}
	tap_header();
	while (next_vec(f, &v)) {
		if (!strcmp(v.expect, "ok"))
			check_ok(&v);
		else
			tap_result(!strcmp(v.expect, "EKEY") &&
				   dmd_blob_parse(&st, v.blob, v.blob_len) ==
				   DMD_EKEY, "%s: refused (%s)", v.name,
				   v.expect);
	}
	fclose(f);
	tap_trailing_plan();
	return tap_finish();
}
