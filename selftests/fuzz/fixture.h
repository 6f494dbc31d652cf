/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The fuzz targets' world (selftests/fuzz): a state directory with three
 * devices provisioned from a fixed root, so that the seed corpus, sealed
 * at build time by seed.c, verifies in every target:
 *
 *   device 1  suite 1, xor,  b = 8,  no groups
 *   device 2  suite 2, add,  b = 8,  g = 3
 *   device 3  suite 2, hash, b = 600, g = 1 (three checkpoints, 0, 256
 *             and 512, of checkpoint.c)
 */
#ifndef DIAMOND_FUZZ_FIXTURE_H
#define DIAMOND_FUZZ_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/libdiamond.h>

#define FX_DEVICES	3

/* Device @id's parameters (1..FX_DEVICES). */
void fx_params(uint32_t id, struct diamond_params *p);
/* Its initial blob (version 2); returns the length. */
size_t fx_blob(uint32_t id, uint8_t blob[DIAMOND_BLOB_MAX]);
/*
 * Make @dir (created if missing) hold exactly the three initial states:
 * every other file in it, the spool and the quarantine go. 0 or -errno.
 */
int fx_reset(const char *dir);
/* A fresh private directory for this process ("$TMPDIR"/diamond-fuzz.*). */
const char *fx_dir(void);
/*
 * Seal @epochs epochs of device @id from its initial state, @per records
 * each (record j of epoch e is "e<e>r<j>", record 0 of every odd epoch
 * empty), with @adlen bytes of AD, frame after frame into @out. Returns
 * the length (0: @cap too small).
 */
size_t fx_seal(uint32_t id, unsigned int epochs, unsigned int per,
	       size_t adlen, uint8_t *out, size_t cap);
/* Write @len bytes to @path; 0 or -errno. */
int fx_write(const char *path, const void *p, size_t len);

#endif
