/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Wear-levelled store of the device's reservation blob (spec section 10)
 * in a ring of NV slots. Exactly one slot holds a live blob after every
 * completed write; the superseded one is overwritten with zeros, so an old
 * epoch key never survives (forward security). Layout and wear figures are
 * in Documentation/embedded.rst.
 */
#ifndef DIAMOND_EMBEDDED_NVSTATE_H
#define DIAMOND_EMBEDDED_NVSTATE_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>

/*
 * Slot (128 bytes): a version 2 blob (48 or 64 bytes; its CRC-32 is the
 * slot's check), 0xff up to the commit byte 0xa5 at 127, written last.
 */
#define NV_SLOT_SIZE	128
#define NV_COMMIT_OFF	127
#define NV_COMMIT	0xa5

/*
 * The layout of firmware before blob version 2, read once after an update
 * (Documentation/embedded.rst): 64-byte slots holding a version 1 blob, a
 * le16 check at 56 and the commit byte at 63.
 */
#define NV_V1_SLOT_SIZE	64
#define NV_V1_CHECK_OFF	56
#define NV_V1_COMMIT_OFF 63

/*
 * Find the newest valid blob, zero every other non-blank slot (a write or
 * a kill that a reset interrupted) and load it into @st. DMD_EKEY when no
 * slot holds a valid blob (unprovisioned device, or a damaged blob: its
 * CRC fails and it is never used). Without a version 2 slot, the newest
 * live slot of the version 1 layout is loaded and left in place; the next
 * nv_store() writes it over as version 2 and kills it.
 */
int nv_load(struct dmd_state *st);

/*
 * Persist @st as the new live blob, then kill the previous one. Returns
 * only after the write has completed; DMD_EINVAL on a store error.
 */
int nv_store(const struct dmd_state *st);

/*
 * Factory provisioning on the device itself (the Arduino library's key
 * header; a programmer writing an `fw-nv image` is the other way): write
 * @blob (a key blob, diamondctl provision) as the first state, but only
 * into a store that holds nothing at all, every byte 0xff, as a new part
 * or an erased one. A store holding anything is never written:
 * NV_IN_USE, and the device goes on from the state it has, so restarting
 * a firmware that carries a blob never brings an old key back. DMD_EKEY:
 * @blob does not parse (or only opens); DMD_EINVAL: a store error.
 */
#define NV_IN_USE	1
int nv_provision(const uint8_t *blob, size_t len);

/* Build one slot image for @st (used by the host image tool as well). */
void nv_slot_image(uint8_t slot[NV_SLOT_SIZE], const struct dmd_state *st);
/* A version 1 layout slot, as firmware in the field wrote it (tests). */
void nv_v1_slot_image(uint8_t slot[NV_V1_SLOT_SIZE],
		      const struct dmd_state *st);

#endif
