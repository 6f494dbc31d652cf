/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A sensor's sender, as a firmware uses it: three calls.
 *
 *   dmd_device_start()  once per boot: load the reservation blob from NV
 *                       (nvstate.c) and set up the precompute window;
 *   dmd_device_seal()   per reading: seal it and write its record frame
 *                       (and a group tag frame when it fills a group);
 *   dmd_device_close()  end the epoch: write its tag frame. The gateway
 *                       releases an epoch's records only once its tag
 *                       (or their group's) has arrived.
 *
 * The first seal of an epoch reserves it in NV before anything is sealed
 * (spec section 10): E_{e+1} is durable before slot 0 of epoch e is used,
 * so a power loss at any point costs at most the epoch it interrupts and
 * never reuses a key index. An epoch that reaches b records is closed by
 * the seal that filled it. dmd_device_idle() refills the window while the
 * device waits (the offline half of the scheme); seal refills what it
 * needs itself.
 *
 * Frames (spec section 8) go out through @out as header then payload, so
 * no frame buffer is needed.
 */
#ifndef DIAMOND_EMBEDDED_DEVICE_H
#define DIAMOND_EMBEDDED_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <diamond/core.h>

/* dmd_device_seal(), _close(): the NV store refused the reservation. */
#define DMD_ENVSTORE	(-32)

typedef void (*dmd_link_fn)(const uint8_t *p, size_t n);

struct dmd_device {
	struct dmd_sender snd;
	dmd_link_fn out;
	const uint8_t *ad;	/* associated data of every tag frame */
	size_t adlen;
};

/*
 * Send the boot preamble (zeros that end a frame a power loss cut), load
 * the state from NV and set up a sender over @window (records of
 * @pre_len bytes are sealed fully offline). DMD_EKEY: no valid blob in NV
 * (unprovisioned, or a damaged blob, which is never used); DMD_EINVAL:
 * the window holds no slot. @ad (@adlen bytes, kept by reference) is sent
 * in every tag frame and bound into its tag. After a failed start every
 * other call returns DMD_EINVAL.
 */
int dmd_device_start(struct dmd_device *d, uint8_t *window,
		     size_t window_size, size_t pre_len, dmd_link_fn out,
		     const uint8_t *ad, size_t adlen);

/*
 * Seal the @len bytes at @rec as the next record, in place (@rec holds
 * the ciphertext afterwards), and send its frame. Reserves a new epoch
 * first when none is open (DMD_ENVSTORE when NV fails, DMD_EFULL when the
 * device's epochs are used up). DMD_ESIZE: @len is over DMD_MAX_RECORD.
 */
int dmd_device_seal(struct dmd_device *d, uint8_t *rec, size_t len);

/* Close the open epoch and send its tag frame; DMD_OK when none is open. */
int dmd_device_close(struct dmd_device *d);

/* Precompute up to @slots window slots (idle time); returns how many. */
size_t dmd_device_idle(struct dmd_device *d, size_t slots);

/* The suite of the provisioned key (1 or 2). */
unsigned int dmd_device_suite(const struct dmd_device *d);
/* The epoch the next record goes into. */
uint64_t dmd_device_epoch(const struct dmd_device *d);

/* Erase the keys and the window (power down, or before a reset). */
void dmd_device_wipe(struct dmd_device *d);

#endif
