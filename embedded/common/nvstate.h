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

#include <stdint.h>

#include "../../include/diamond/core.h"

#define NV_SLOT_SIZE	64
#define NV_CHECK_OFF	56	/* le16 check over the blob */
#define NV_COMMIT_OFF	63	/* written last */
#define NV_COMMIT	0xa5

/*
 * Find the newest valid blob, zero every other non-blank slot (a write or
 * a kill that a reset interrupted) and load it into @st. DMD_EKEY when no
 * slot holds a valid blob (unprovisioned device).
 */
int nv_load(struct dmd_state *st);

/*
 * Persist @st as the new live blob, then kill the previous one. Returns
 * only after the write has completed; DMD_EINVAL on a store error.
 */
int nv_store(const struct dmd_state *st);

/* Build one slot image for @st (used by the host image tool as well). */
void nv_slot_image(uint8_t slot[NV_SLOT_SIZE], const struct dmd_state *st);

#endif
