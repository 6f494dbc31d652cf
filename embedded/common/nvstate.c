// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Reservation store (spec section 10) on a ring of NV slots.
 *
 * Slot (128 bytes): a version 2 blob (48 or 64 bytes, spec section 2),
 * 0xff after it, commit byte 0xa5 at 127. A slot is live when its commit
 * byte is set and the blob parses, CRC-32 included. The newest live slot
 * (highest epoch) is the state; the ring position only spreads the wear.
 *
 * Write: program the blob into the next blank slot, then the commit byte
 * (one byte program, atomic on EEPROM and flash), then zero the superseded
 * slot, commit byte first. A reset in the middle leaves either the old slot
 * live (nothing was sealed under the new reservation yet) or both live;
 * boot keeps the newer and zeroes the other.
 *
 * Firmware before blob version 2 kept a version 1 blob in 64-byte slots.
 * When no version 2 slot is live, boot reads that layout; its live slot
 * stays the state (and the 128-byte slot around it is treated as live)
 * until the first nv_store() writes version 2 elsewhere and kills it.
 */
#include "nvstate.h"

#include <diamond/util.h>
#include "board_nv.h"

static uint32_t live_slot = UINT32_MAX;

/* The version 1 layout's check (read, and written for tests only). */
static uint16_t check16(const uint8_t *p, uint32_t n)
{
	uint8_t a = 0x5a, b = 0x3c;	/* an all-zero slot never checks */

	while (n--) {
		a = (uint8_t)(a + *p++);
		b = (uint8_t)(b + a);
	}
	return (uint16_t)(a | (uint16_t)b << 8);
}

void nv_slot_image(uint8_t slot[NV_SLOT_SIZE], const struct dmd_state *st)
{
	uint32_t i;

	for (i = 0; i < NV_SLOT_SIZE; i++)
		slot[i] = 0xff;
	dmd_blob2_write(slot, st);
	slot[NV_COMMIT_OFF] = NV_COMMIT;
}

void nv_v1_slot_image(uint8_t slot[NV_V1_SLOT_SIZE],
		      const struct dmd_state *st)
{
	uint32_t i;
	uint16_t c;

	for (i = 0; i < NV_V1_SLOT_SIZE; i++)
		slot[i] = 0xff;
	dmd_blob_write(slot, st);
	c = check16(slot, (uint32_t)dmd_blob_size(st->suite));
	slot[NV_V1_CHECK_OFF] = (uint8_t)c;
	slot[NV_V1_CHECK_OFF + 1] = (uint8_t)(c >> 8);
	slot[NV_V1_COMMIT_OFF] = NV_COMMIT;
}

/* Parse slot @i into @st; DMD_OK when it is live. */
static int read_slot(uint32_t i, uint8_t *buf, struct dmd_state *st)
{
	if (board_nv_read(i * NV_SLOT_SIZE, buf, NV_SLOT_SIZE))
		return DMD_EINVAL;
	if (buf[NV_COMMIT_OFF] != NV_COMMIT ||
	    buf[DMD_BLOB_OFF_VERSION] != DMD_BLOB2_VERSION)
		return DMD_EKEY;
	return dmd_blob_parse(st, buf, dmd_blob2_size(buf[DMD_BLOB_OFF_SUITE]));
}

/* Version 1 layout slot @i (64-byte units) into @st; DMD_OK when live. */
static int read_v1_slot(uint32_t i, uint8_t *buf, struct dmd_state *st)
{
	uint32_t len;

	if (board_nv_read(i * NV_V1_SLOT_SIZE, buf, NV_V1_SLOT_SIZE))
		return DMD_EINVAL;
	if (buf[NV_V1_COMMIT_OFF] != NV_COMMIT ||
	    buf[DMD_BLOB_OFF_VERSION] != DMD_BLOB_VERSION)
		return DMD_EKEY;
	len = (uint32_t)dmd_blob_size(buf[DMD_BLOB_OFF_SUITE]);
	if (!len || len > NV_V1_CHECK_OFF ||
	    check16(buf, len) != (uint16_t)(buf[NV_V1_CHECK_OFF] |
					    (uint16_t)buf[NV_V1_CHECK_OFF + 1] << 8))
		return DMD_EKEY;
	return dmd_blob_parse(st, buf, len);
}

/* Newest live slot of one layout; UINT32_MAX, with @st untouched, if none. */
static uint32_t newest(int (*read)(uint32_t, uint8_t *, struct dmd_state *),
		       uint32_t n, uint8_t *buf, struct dmd_state *st)
{
	uint32_t i, best = UINT32_MAX;
	struct dmd_state cand;

	for (i = 0; i < n; i++) {
		if (read(i, buf, &cand) != DMD_OK)
			continue;
		if (best == UINT32_MAX || cand.epoch > st->epoch) {
			*st = cand;
			best = i;
		}
	}
	dmd_wipe(&cand, sizeof(cand));
	return best;
}

static int slot_is(const uint8_t *buf, uint8_t v)
{
	uint32_t i;

	for (i = 0; i < NV_SLOT_SIZE; i++)
		if (buf[i] != v)
			return 0;
	return 1;
}

static const uint8_t zeros[NV_SLOT_SIZE];

/* Commit byte first: from then on the slot can never be taken as live. */
static int kill_slot(uint32_t i)
{
	uint32_t off = i * NV_SLOT_SIZE;

	return board_nv_program(off + NV_COMMIT_OFF, zeros, 1) ||
	       board_nv_program(off, zeros, NV_SLOT_SIZE);
}

int nv_load(struct dmd_state *st)
{
	uint32_t n = board_nv_slots(), i, best;
	uint8_t buf[NV_SLOT_SIZE];
	int rc = DMD_OK;

	best = newest(read_slot, n, buf, st);
	if (best == UINT32_MAX) {
		best = newest(read_v1_slot, n * (NV_SLOT_SIZE / NV_V1_SLOT_SIZE),
			      buf, st);
		if (best != UINT32_MAX)
			best /= NV_SLOT_SIZE / NV_V1_SLOT_SIZE;
	}
	if (best == UINT32_MAX)
		rc = DMD_EKEY;
	/* Scrub: only the live slot may hold anything but zeros or 0xff. */
	for (i = 0; i < n; i++) {
		if (i == best || board_nv_read(i * NV_SLOT_SIZE, buf, NV_SLOT_SIZE))
			continue;
		if (!slot_is(buf, 0) && !slot_is(buf, 0xff) && kill_slot(i))
			rc = DMD_EINVAL;
	}
	dmd_wipe(buf, sizeof(buf));
	live_slot = best;
	return rc;
}

/* The next blank slot after the live one, erasing a sector when entering it. */
static int next_slot(uint32_t *out)
{
	uint32_t n = board_nv_slots(), per = board_nv_sector_slots(), i, tries;
	uint8_t buf[NV_SLOT_SIZE];

	i = live_slot == UINT32_MAX ? 0 : (live_slot + 1) % n;
	for (tries = 0; tries < n; tries++, i = (i + 1) % n) {
		if (i == live_slot)
			continue;
		if (i % per == 0 && (live_slot == UINT32_MAX ||
				     live_slot / per != i / per)) {
			if (board_nv_erase_sector(i / per))
				return -1;
			*out = i;
			return 0;
		}
		if (board_nv_read(i * NV_SLOT_SIZE, buf, NV_SLOT_SIZE))
			return -1;
		if (slot_is(buf, 0xff)) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

int nv_store(const struct dmd_state *st)
{
	uint8_t img[NV_SLOT_SIZE];
	uint32_t i, off;
	int err;

	if (next_slot(&i))
		return DMD_EINVAL;
	off = i * NV_SLOT_SIZE;
	nv_slot_image(img, st);
	err = board_nv_program(off, img, NV_COMMIT_OFF) ||
	      board_nv_program(off + NV_COMMIT_OFF, img + NV_COMMIT_OFF, 1);
	dmd_wipe(img, sizeof(img));
	if (err)
		return DMD_EINVAL;
	/* The new reservation is durable; the old state must not survive. */
	if (live_slot != UINT32_MAX && kill_slot(live_slot))
		return DMD_EINVAL;
	live_slot = i;
	return DMD_OK;
}

/* Every byte of the store 0xff: nothing was ever provisioned or used. */
static int store_blank(uint8_t *buf)
{
	uint32_t i, n = board_nv_slots();

	for (i = 0; i < n; i++) {
		if (board_nv_read(i * NV_SLOT_SIZE, buf, NV_SLOT_SIZE))
			return -1;
		if (!slot_is(buf, 0xff))
			return 0;
	}
	return 1;
}

int nv_provision(const uint8_t *blob, size_t len)
{
	uint8_t buf[NV_SLOT_SIZE];
	struct dmd_state st;
	int rc, blank;

	rc = dmd_blob_parse(&st, blob, len);
	if (rc == DMD_OK && (st.flags & DMD_BLOB_FLAG_OPEN_ONLY))
		rc = DMD_EKEY;
	blank = rc == DMD_OK ? store_blank(buf) : 0;
	if (blank < 0)
		rc = DMD_EINVAL;
	else if (rc == DMD_OK && !blank)
		rc = NV_IN_USE;
	if (rc == DMD_OK) {
		live_slot = UINT32_MAX;
		rc = nv_store(&st);
	}
	dmd_wipe(&st, sizeof(st));
	dmd_wipe(buf, sizeof(buf));
	return rc;
}
