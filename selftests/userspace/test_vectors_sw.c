// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vectors/diamond.txt through libdiamond's gateway with the software
 * backend: each vector's key becomes a state file, each step is one epoch
 * opened with diamond_gw_open_epoch(), and the result, the plaintext and
 * the state file afterwards must match the vector.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diamond/core.h>
#include <diamond/libdiamond.h>

#include "lib/vecfile.h"
#include "tap.h"

/* A stored blob rewritten as version 1 (the vectors' form), in place. */
static size_t v1_of(uint8_t *blob, size_t len)
{
	struct dmd_state st;

	if (dmd_blob_parse(&st, blob, len))
		return 0;
	dmd_blob_write(blob, &st);
	return dmd_blob_size(st.suite);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "vectors/diamond.txt";
	struct diamond_gw_opts o = { .backend = DIAMOND_BACKEND_SOFTWARE };
	char dir[] = "/tmp/diamond-vec.XXXXXX", cmd[100], msg[200];
	struct diamond_epoch_body body;
	struct diamond_params p;
	struct diamond_store *st;
	struct diamond_gw *gw;
	struct vec_file *vf;
	const struct vec *v;
	uint8_t blob[DIAMOND_BLOB_MAX], *pt, *buf;
	unsigned int i, nvec = 0;
	size_t len;
	int rc, want, ok;

	tap_header();
	vf = vec_open(path);
	if (!vf || !mkdtemp(dir)) {
		printf("not ok 1 open %s\n1..1\n", path);
		return 1;
	}
	o.state_dir = dir;
	while ((v = vec_next(vf))) {
		nvec++;
		if (diamond_blob_info(v->key.p, v->key.len, &p)) {
			tap_result(0, "%s: key blob parses", v->name);
			continue;
		}
		/* A fresh state dir per vector: devices may repeat ids. */
		snprintf(cmd, sizeof(cmd), "rm -f %s/*.state", dir);
		if (system(cmd))
			tap_diag("rm failed");
		diamond_store_open(&st, dir, 0);
		rc = diamond_store_create(st, v->key.p, v->key.len);
		if (rc || diamond_gw_new(&gw, &o, NULL, msg, sizeof(msg))) {
			tap_result(0, "%s: state setup", v->name);
			diamond_store_close(st);
			continue;
		}
		ok = 1;
		for (i = 0; i < v->nsteps; i++) {
			const struct vec_step *s = &v->step[i];

			/* The assembler's layout: AD || body || T. */
			buf = malloc(s->ad.len + s->ct.len + 1);
			pt = malloc(s->ct.len + 1);
			memcpy(buf, s->ad.p, s->ad.len);
			memcpy(buf + s->ad.len, s->ct.p, s->ct.len);
			body.device_id = p.device_id;
			body.suite = p.suite;
			body.epoch = s->epoch;
			body.count = 0;
			body.ad = buf;
			body.adlen = s->ad.len;
			body.ct = buf + s->ad.len;
			body.ct_len = s->ct.len;
			want = vec_expect_errno(s->expect);
			/* libdiamond's own code for DMD_EFULL (libdiamond.h) */
			if (want == -ENOSPC)
				want = -DIAMOND_EEXHAUSTED;
			rc = s->ct.len >= DIAMOND_TAG_SIZE ?
			     diamond_gw_open_epoch(gw, &body, pt) : -EINVAL;
			if (rc != want) {
				tap_diag("%s step %u: got %d (%s), want %s",
					 v->name, i, rc, diamond_strerror(rc),
					 s->expect);
				ok = 0;
			}
			if (!rc && !want && (s->pt.len != s->ct.len - 16 ||
					     memcmp(pt, s->pt.p, s->pt.len))) {
				tap_diag("%s step %u: plaintext differs", v->name, i);
				ok = 0;
			}
			/*
			 * The store keeps version 2 whatever it read (spec
			 * section 2); "next" has the version of the key.
			 */
			if (!rc && !want && s->next.len) {
				if (diamond_store_load(st, p.device_id, blob, &len) ||
				    blob[4] != DMD_BLOB2_VERSION ||
				    (v->key.p[4] != DMD_BLOB2_VERSION &&
				     (len = v1_of(blob, len)) == 0) ||
				    len != s->next.len ||
				    memcmp(blob, s->next.p, len)) {
					tap_diag("%s step %u: state file != next",
						 v->name, i);
					ok = 0;
				}
			}
			free(buf);
			free(pt);
		}
		tap_result(ok, "%s (%u steps)", v->name, v->nsteps);
		diamond_gw_free(gw);
		diamond_store_close(st);
	}
	vec_close(vf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_diag("rm failed");
	if (!nvec)
		tap_result(0, "no vectors in %s", path);
	tap_trailing_plan();
	return tap_finish();
}
