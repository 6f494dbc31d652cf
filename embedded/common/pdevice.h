/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A sensor's sender in packet mode (spec section 14), as a firmware uses
 * it: the packet twin of device.h, on the same reservation ring.
 *
 *   dmd_pdevice_start()  once per boot: load the reservation blob from NV
 *                        (nvstate.c), take the radio configuration (the
 *                        address width A and the short address, spec
 *                        14.2: beside the key, never in the blob);
 *   dmd_pdevice_seal()   per reading: seal it and send one packet.
 *
 * There is no close: packet mode has no epoch tag (spec 14.3), the tags
 * ride in the packets of the last records they cover. An epoch holds b
 * records; the seal after the b-th begins the next one. The first seal of
 * every epoch, the first of a boot included, reserves it in NV before
 * anything is sealed (spec section 10), so a power loss never reuses a
 * key index; a boot abandons the epoch it finds open, and its first
 * packet is record 0 of a new epoch, with the anchor (and three more
 * anchors follow, PDEV_BOOT_ANCHORS).
 *
 * On the link (the UART standing in for the radio) each packet goes out
 * as one length byte, standing in for the PHY's length, then the packet.
 * A length byte of 0 is no packet: each boot starts with PDEV_PREAMBLE of
 * them, so a packet a power loss cut (which still announced its length)
 * ends inside them and the reader finds the next length byte.
 */
#ifndef DIAMOND_EMBEDDED_PDEVICE_H
#define DIAMOND_EMBEDDED_PDEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/packet.h>
#include "device.h"

/* Longer than the longest packet and its length byte. */
#define PDEV_PREAMBLE	(DMD_PKT_MAX + 1)

/*
 * After a boot the first PDEV_BOOT_ANCHORS packets PDEV_ANCHOR_STEP apart
 * (records 0, 4, 8, 12 of the new epoch) carry the anchor (spec 14.1 lets
 * any record carry it). A gateway finds a boot's packets only through an
 * anchor (spec 14.5): with record 0's alone, losing that one packet loses
 * the boot's epoch up to the next anchor (b records). Four anchors spread
 * over the first unit cost 12 bytes a boot, and it takes four losses, or
 * a burst of 13 packets, to lose them all.
 */
#define PDEV_BOOT_ANCHORS	4
#define PDEV_ANCHOR_STEP	4

/* The radio configuration of spec 14.2, kept beside the key blob. */
struct dmd_radio {
	uint32_t addr;		/* the short address, < 2^(8a) */
	uint8_t a;		/* its width on the air, 1 .. 4 */
};

struct dmd_pdevice {
	struct dmd_psender ps;
	dmd_link_fn out;
	uint8_t sent;		/* packets sent this boot, up to the anchors' */
};

/*
 * Send the preamble, load the state from NV and set up a packet sender
 * over @window (records of @pre_len bytes sealed fully offline) for
 * @radio. DMD_EKEY: no valid blob in NV, or a key packet mode refuses
 * (dmd_packet_key_check()); DMD_EINVAL: a bad @radio or no window slot.
 * After a failed start every other call returns DMD_EINVAL.
 */
int dmd_pdevice_start(struct dmd_pdevice *d, const struct dmd_radio *radio,
		      uint8_t *window, size_t window_size, size_t pre_len,
		      dmd_link_fn out);

/*
 * Seal the @len bytes at @rec as the next record and send its packet.
 * Reserves the epoch first when none is open or the open one is full
 * (DMD_ENVSTORE when NV fails, DMD_EFULL when the device's epochs are
 * used up). DMD_ESIZE: @len is over DMD_PKT_MAX_RECORD.
 */
int dmd_pdevice_seal(struct dmd_pdevice *d, const uint8_t *rec, size_t len);

/* Precompute up to @slots window slots (idle time); returns how many. */
size_t dmd_pdevice_idle(struct dmd_pdevice *d, size_t slots);

/* The suite of the provisioned key (1 or 2). */
unsigned int dmd_pdevice_suite(const struct dmd_pdevice *d);
/* The position (epoch, index) the next record goes to. */
void dmd_pdevice_next(const struct dmd_pdevice *d, uint64_t *epoch,
		      uint32_t *index);

/* Erase the keys, the accumulators and the window. */
void dmd_pdevice_wipe(struct dmd_pdevice *d);

#endif
