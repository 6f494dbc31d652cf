// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Reservation store (spec section 10) on a ring of NV slots.
 *
 * Slot (64 bytes): blob (40 or 56 bytes, 0xff after it), le16 check at 56,
 * 0xff, commit byte 0xa5 at 63. A slot is live when its commit byte is set,
 * its check matches and the blob parses. The newest live slot (highest
 * epoch) is the state; the ring position only spreads the wear.
 *
 * Write: program the blob and check into the next blank slot, then the
 * commit byte (one byte program, atomic on EEPROM and flash), then zero the
 * superseded slot, commit byte first. A reset in the middle leaves either
 * the old slot live (nothing was sealed under the new reservation yet) or
 * both live; boot keeps the newer and zeroes the other.
 */
#include "nvstate.h"

#include "board.h"
#include "../../core/util.h"

static uint32_t live_slot = UINT32_MAX;

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
	uint32_t len = (uint32_t)dmd_blob_size(st->suite), i;
	uint16_t c;

	for (i = 0; i < NV_SLOT_SIZE; i++)
		slot[i] = 0xff;
	dmd_blob_write(slot, st);
	c = check16(slot, len);
	slot[NV_CHECK_OFF] = (uint8_t)c;
	slot[NV_CHECK_OFF + 1] = (uint8_t)(c >> 8);
	slot[NV_COMMIT_OFF] = NV_COMMIT;
}

/* Parse slot @i into @st; DMD_OK when it is live. */
static int read_slot(uint32_t i, uint8_t *buf, struct dmd_state *st)
{
	uint32_t len;

	if (board_nv_read(i * NV_SLOT_SIZE, buf, NV_SLOT_SIZE))
		return DMD_EINVAL;
	if (buf[NV_COMMIT_OFF] != NV_COMMIT)
		return DMD_EKEY;
	len = (uint32_t)dmd_blob_size(buf[DMD_BLOB_OFF_SUITE]);
	if (!len || len > NV_CHECK_OFF ||
	    check16(buf, len) != (uint16_t)(buf[NV_CHECK_OFF] |
					    (uint16_t)buf[NV_CHECK_OFF + 1] << 8))
		return DMD_EKEY;
	return dmd_blob_parse(st, buf, len);
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
	uint32_t n = board_nv_slots(), i, best = UINT32_MAX;
	uint8_t buf[NV_SLOT_SIZE];
	struct dmd_state cand;
	int rc = DMD_EKEY;

	for (i = 0; i < n; i++) {
		if (read_slot(i, buf, &cand) != DMD_OK)
			continue;
		if (best == UINT32_MAX || cand.epoch > st->epoch) {
			*st = cand;
			best = i;
			rc = DMD_OK;
		}
	}
	dmd_wipe(&cand, sizeof(cand));
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
