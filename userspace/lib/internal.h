/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * libdiamond internals: shared by the files of userspace/lib, never
 * installed. Names here carry the _diamond_ prefix (the library's middle
 * tier); file-static helpers have short plain names.
 */
#ifndef LIBDIAMOND_INTERNAL_H
#define LIBDIAMOND_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../../include/diamond/core.h"
#include "../../include/diamond/libdiamond.h"
#include "../../core/util.h"

/* One limit for sender and gateway (libdiamond.h, spec.h). */
_Static_assert(DIAMOND_MAX_BODY == DMD_MAX_BODY,
	       "libdiamond.h and spec.h disagree on the largest epoch body");
#define DIAMOND_DEFAULT_MAX_BODY	DIAMOND_MAX_BODY
#define DIAMOND_DEFAULT_MAX_TFMS	256

/* Map a portable-core DMD_E* code to the errno the kernel would return. */
int _diamond_core_errno(int dmd_rc);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()): the core's dmd_crc32. */
uint32_t _diamond_crc32(const uint8_t *p, size_t len);

/* Wipe then free; @p may be NULL. */
void _diamond_free_secret(void *p, size_t len);

/* fsync the directory that holds @path. */
int _diamond_fsync_parent(const char *path);

/*
 * The state after a verified epoch: (epoch + 1, E_{epoch+1}) derived from
 * @st by epoch updates, as the kernel's tfm does internally.
 */
void _diamond_state_advance(struct dmd_state *st, uint64_t epoch);

/*
 * One device at the gateway: the mirror of its state file, its epoch
 * assembler and, with the kernel backend, its keyed tfm.
 */
struct _diamond_dev {
	uint32_t id;
	uint8_t verified_once;
	struct dmd_state st;		/* == the state file's contents */
	struct diamond_asm *asm_;	/* NULL until a record arrives */
	void *tfm;			/* backend handle or NULL */
	struct _diamond_dev *lru_prev, *lru_next;	/* devices with a tfm */
};

/*
 * A verification backend. open() verifies @body against d->st with
 * @max_skip and writes the plaintext body into @pt; it never changes d->st
 * (the gateway advances it once the new state is durable). release()
 * closes d->tfm; open() may set d->tfm.
 */
struct _diamond_backend {
	const char *name;
	int (*open)(struct _diamond_dev *d, const struct diamond_epoch_body *body,
		    uint8_t *pt, uint32_t max_skip);
	void (*release)(struct _diamond_dev *d);
};

extern const struct _diamond_backend _diamond_backend_kernel;
extern const struct _diamond_backend _diamond_backend_software;

/* Epoch checks both backends make before any cryptography (spec 9.1-9.2). */
int _diamond_check_epoch(const struct dmd_state *st, uint64_t epoch,
			 uint32_t max_skip);

#endif
