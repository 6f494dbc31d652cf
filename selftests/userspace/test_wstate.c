// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libdiamond units for custody mode (issue 20 items 2-3): the wrapped
 * state file (userspace.rst section 3, version 4) round trips with and
 * without a DMDW blob and with a cursor and its runs; every bit flip,
 * every truncation and a trailing byte are caught; a clear reader is told
 * the key is not here (ENOKEY); a DMDW blob of another device, generation
 * or length is refused; the file never holds the device key; a
 * group-size field of b is read back as it was written.
 * Usage: test_wstate SCRATCH_DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <diamond/core.h>
#include <diamond/libdiamond.h>

#include "tap.h"
#include "lib/files.h"
#include "../../userspace/lib/internal.h"

/* A provisioned state of device @id (suite 2, b 8, group @g). */
static void state(uint32_t id, uint16_t g, struct dmd_state *st)
{
	struct diamond_params p = { .suite = 2, .agg = 0, .b = 8,
				    .device_id = id, .group_size = g };
	uint8_t root[32], blob[DIAMOND_BLOB_MAX];
	size_t len;

	memset(root, 0x5a, sizeof(root));
	if (diamond_provision(root, &p, blob, &len) ||
	    dmd_blob_parse(st, blob, len) != DMD_OK)
		tap_diag("provisioning device %u failed", id);
}

/* A DMDW blob as the module would export @w's (header, then noise). */
static size_t fake_dmdw(const struct dlib_wstate *w, uint8_t *out)
{
	size_t inner = dmd_blob2_size(w->st.suite) +
		       (w->cursor ? 12 + dmd_key_size(w->st.suite) : 0), i;

	dlib_wst_header(w, out);
	for (i = DLIB_DMDW_HDR; i < DLIB_DMDW_HDR + 24 + inner + 16; i++)
		out[i] = (uint8_t)(i * 37 + 11);
	return i;
}

static int same(const struct dlib_wstate *a, const struct dlib_wstate *b)
{
	return a->st.suite == b->st.suite && a->st.agg == b->st.agg &&
	       a->st.b == b->st.b && a->st.group == b->st.group &&
	       a->st.gen == b->st.gen && a->st.device_id == b->st.device_id &&
	       a->st.epoch == b->st.epoch && a->cursor == b->cursor &&
	       a->c == b->c && a->len == b->len &&
	       !memcmp(a->blob, b->blob, a->len);
}

/* Every bit flip, truncation and an extension of @path's file caught. */
static void damage(struct diamond_store *s, const char *path, uint32_t id,
		   const char *what)
{
	uint8_t file[400], f2[401];
	struct dlib_wstate w;
	struct dlib_decided dec = { 0 };
	int n = file_bytes(path, file, sizeof(file)), i, bit, rc, bad = 0;

	for (i = 0; i < n; i++)
		for (bit = 0; bit < 8; bit++) {
			memcpy(f2, file, (size_t)n);
			f2[i] ^= (uint8_t)(1 << bit);
			put_bytes(path, f2, (size_t)n);
			rc = dlib_store_load_w(s, id, &w, &dec);
			if (rc != -EUCLEAN && rc != -EXDEV)
				bad++;
		}
	tap_result(!bad, "%s: all %d single-bit flips caught (%d missed)", what,
		   n * 8, bad);
	for (i = 0, bad = 0; i < n; i++) {
		put_bytes(path, file, (size_t)i);
		if (dlib_store_load_w(s, id, &w, &dec) != -EUCLEAN)
			bad++;
	}
	tap_result(!bad, "%s: all %d truncations -> EUCLEAN (%d missed)", what,
		   n, bad);
	memcpy(f2, file, (size_t)n);
	f2[n] = 0;
	put_bytes(path, f2, (size_t)n + 1);
	tap_result(dlib_store_load_w(s, id, &w, &dec) == -EUCLEAN,
		   "%s: a trailing byte -> EUCLEAN", what);
	put_bytes(path, file, (size_t)n);
	free(dec.run);
}

/* No 8 bytes of the device key anywhere in the file. */
static int holds_key(const char *path, const struct dmd_state *st)
{
	uint8_t file[400];
	int n = file_bytes(path, file, sizeof(file)), i;

	for (i = 0; i + 8 <= n; i++)
		if (!memcmp(file + i, st->key, 8) ||
		    !memcmp(file + i, st->key + 8, 8))
			return 1;
	return 0;
}

static void by_reference(struct diamond_store *s, const char *dir)
{
	struct dlib_wstate w, r;
	struct dmd_state st;
	uint8_t blob[DIAMOND_BLOB_MAX];
	char path[600];
	size_t len;
	int rc;

	state(21, 0, &st);
	dlib_wst_from_state(&w, &st, 0, 0);
	rc = dlib_store_save_w(s, &w, NULL);
	rc = rc ? rc : dlib_store_load_w(s, 21, &r, NULL);
	tap_result(!rc && same(&w, &r) && !r.len,
		   "v4 without a blob (keyed by reference) round trips");
	diamond_store_path(s, 21, path, sizeof(path));
	tap_result(!holds_key(path, &st), "v4 file holds no byte run of E_e");
	tap_result(diamond_store_load(s, 21, blob, &len) == -ENOKEY,
		   "a clear reader of a v4 file: ENOKEY");
	damage(s, path, 21, "v4 without blob");
	(void)dir;
}

static void wrapped(struct diamond_store *s)
{
	uint8_t dmdw[DLIB_DMDW_MAX], other[DLIB_DMDW_MAX];
	struct dlib_wstate w, r, t;
	struct dmd_state st;
	char path[600];
	size_t n;
	int rc;

	state(22, 0, &st);
	st.epoch = 5;
	dlib_wst_from_state(&w, &st, 0, 0);
	n = fake_dmdw(&w, dmdw);
	tap_result(n == 56 + 64 + 16, "suite 2 DMDW without cursor: %zu bytes",
		   n);
	rc = dlib_wst_adopt(&w, dmdw, n);
	rc = rc ? rc : dlib_store_save_w(s, &w, NULL);
	rc = rc ? rc : dlib_store_load_w(s, 22, &r, NULL);
	tap_result(!rc && same(&w, &r) && r.len == n && r.st.epoch == 5,
		   "v4 with a DMDW blob round trips (%d)", rc);
	diamond_store_path(s, 22, path, sizeof(path));
	damage(s, path, 22, "v4 with blob");

	/* Blobs of another device, generation, length, or damaged header. */
	t = w;
	t.st.device_id = 23;
	fake_dmdw(&t, other);
	tap_result(dlib_wst_adopt(&w, other, n) == -EUCLEAN,
		   "a DMDW blob of another device is refused");
	t = w;
	t.st.gen = 1;
	t.st.epoch = 1ull << 32;
	fake_dmdw(&t, other);
	tap_result(dlib_wst_adopt(&w, other, n) == -EUCLEAN,
		   "a DMDW blob of another generation is refused");
	tap_result(dlib_wst_adopt(&w, dmdw, n - 1) == -EUCLEAN &&
		   dlib_wst_adopt(&w, dmdw, DLIB_DMDW_HDR - 1) == -EUCLEAN,
		   "a DMDW blob of the wrong length is refused");
	memcpy(other, dmdw, n);
	other[7] = 1;
	tap_result(dlib_wst_adopt(&w, other, n) == -EUCLEAN,
		   "a DMDW header with a reserved byte set is refused");
	t = w;
	t.st.epoch = 9;
	fake_dmdw(&t, other);
	rc = dlib_wst_adopt(&w, other, n);
	tap_result(!rc && w.st.epoch == 9, "an export's header moves the epoch");
}

static void cursor(struct diamond_store *s)
{
	uint8_t dmdw[DLIB_DMDW_MAX];
	struct dlib_decided dec = { 0 }, got = { 0 };
	struct dlib_wstate w, r;
	struct dmd_state st;
	char path[600];
	size_t n;
	int rc;

	state(24, 2, &st);		/* b 8, g 2: groups 0..3 */
	st.epoch = 3;			/* a cursor into epoch 2 */
	dlib_wst_from_state(&w, &st, 1, 2);
	n = fake_dmdw(&w, dmdw);
	tap_result(n == 56 + 64 + 12 + 32 + 16 && n == DLIB_DMDW_MAX,
		   "the largest DMDW: %zu bytes", n);
	dlib_dec_add(&dec, 1, 0);
	dlib_dec_add(&dec, 1, -ENOMSG);
	rc = dlib_wst_adopt(&w, dmdw, n);
	rc = rc ? rc : dlib_store_save_w(s, &w, &dec);
	rc = rc ? rc : dlib_store_load_w(s, 24, &r, &got);
	tap_result(!rc && same(&w, &r) && got.nrun == 2 && got.run[0].n == 1 &&
		   !got.run[0].err && got.run[1].err == -ENOMSG,
		   "v4 with a cursor and its runs round trips (%d)", rc);
	diamond_store_path(s, 24, path, sizeof(path));
	damage(s, path, 24, "v4 with cursor");
	dlib_wst_from_state(&r, &st, 1, 4);
	fake_dmdw(&r, dmdw);
	tap_result(dlib_wst_adopt(&w, dmdw, n) == -EUCLEAN,
		   "a header whose cursor is past q(b) is refused");
	free(dec.run);
	free(got.run);
}

/*
 * A device whose blob has g = b in its group-size field (spec section 2:
 * as 0 does, and written back as it was read): its state file round trips
 * with the field as it was, and no cursor goes with it (no groups).
 */
static void group_is_b(struct diamond_store *s)
{
	uint8_t dmdw[DLIB_DMDW_MAX];
	struct dlib_wstate w, r;
	struct dmd_state st;
	size_t n;
	int rc;

	state(25, 0, &st);
	st.group = (uint16_t)st.b;
	st.epoch = 3;
	dlib_wst_from_state(&w, &st, 0, 0);
	n = fake_dmdw(&w, dmdw);
	rc = dlib_wst_adopt(&w, dmdw, n);
	rc = rc ? rc : dlib_store_save_w(s, &w, NULL);
	rc = rc ? rc : dlib_store_load_w(s, 25, &r, NULL);
	tap_result(!rc && same(&w, &r) && r.st.group == r.st.b,
		   "v4 of a group-size field b round trips, the field kept (%d)",
		   rc);
	dlib_wst_from_state(&r, &st, 1, 1);
	n = fake_dmdw(&r, dmdw);
	tap_result(dlib_wst_adopt(&w, dmdw, n) == -EUCLEAN,
		   "a header with a cursor and g = b is refused");
}

int main(int argc, char **argv)
{
	struct diamond_store *s;

	if (argc != 2)
		return 2;
	tap_header();
	if (diamond_store_open(&s, argv[1], DIAMOND_STORE_CREATE)) {
		tap_result(0, "state directory %s", argv[1]);
		return tap_finish();
	}
	by_reference(s, argv[1]);
	wrapped(s);
	cursor(s);
	group_is_b(s);
	diamond_store_close(s);
	tap_trailing_plan();
	return tap_finish();
}
