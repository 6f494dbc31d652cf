// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sensor firmware: seal simulated readings into Diamond record frames and
 * one tag frame per epoch, as spec sections 8 and 10 describe.
 *
 * Boot: load the reservation blob (e, E_e) from NV. Each epoch: begin
 * (derives E_{e+1}, R_{e,0}), persist the blob for e + 1 and only then
 * seal; fill the precompute window, then per record read the sensor, seal
 * (online: one XOR and one universal hash), send the frame and refill a few
 * slots while idle. The steps are device.c's (dmd_device_*), the three
 * calls every firmware makes, the Arduino library's included. With a
 * group size g < b in the blob (spec section 5.1) a group tag frame
 * follows each full group that ends before b. The epoch
 * is flushed after RECORDS_PER_EPOCH records (a short epoch, well under b)
 * so the gateway sees data at a bounded delay.
 *
 * Build-time parameters: SENDER_SUITE, REC_LEN, RECORDS_PER_EPOCH,
 * EPOCHS_PER_BOOT (0 = run forever), WINDOW_BYTES, IDLE_SLOTS.
 */
#include <diamond/core.h>
#include "board.h"
#include "device.h"
#include "sensor.h"

#ifndef SENDER_SUITE
#error "SENDER_SUITE must be 1 or 2"
#endif
#ifndef REC_LEN
#define REC_LEN 16
#endif
#ifndef RECORDS_PER_EPOCH
#define RECORDS_PER_EPOCH 8
#endif
#ifndef EPOCHS_PER_BOOT
#define EPOCHS_PER_BOOT 4
#endif
#ifndef IDLE_SLOTS
#define IDLE_SLOTS 2
#endif
#ifndef BOARD_NAME
#define BOARD_NAME "dev"
#endif

/* Exit codes of the sensor firmware (besides 0 = done). */
#define EXIT_UNPROVISIONED	3
#define EXIT_WRONG_SUITE	4
#define EXIT_NV_FAILED		5
#define EXIT_CORE		6

static uint8_t window[WINDOW_BYTES];
static struct dmd_device dev;

static const char ad[] = "board=" BOARD_NAME;

static void fail(const char *why, int code)
{
	board_puts(why);
	dmd_device_wipe(&dev);
	board_exit(code);
}

/* A seal or close that failed: the NV store's own exit code, or the core's. */
static void check(int rc, const char *what)
{
	if (rc == DMD_ENVSTORE)
		fail("# NV write failed\n", EXIT_NV_FAILED);
	if (rc != DMD_OK)
		fail(what, EXIT_CORE);
}

int main(void)
{
	uint8_t rec[REC_LEN];
	uint32_t epochs = 0, j, sample;
	uint8_t flags = 1;
	int rc;

	board_init();
	/* Sends the boot preamble first: 64 zeros here (device.c). */
	rc = dmd_device_start(&dev, window, sizeof(window), REC_LEN, board_out,
			      (const uint8_t *)ad, sizeof(ad) - 1);
	if (rc == DMD_EKEY)
		fail("# no reservation blob in NV: provision the device\n",
		     EXIT_UNPROVISIONED);
	if (rc != DMD_OK)
		fail("# sender init failed\n", EXIT_CORE);
	if (dmd_device_suite(&dev) != SENDER_SUITE)
		fail("# NV blob is for the other suite\n", EXIT_WRONG_SUITE);

	while (!EPOCHS_PER_BOOT || epochs < EPOCHS_PER_BOOT) {
		/* The first seal reserves the epoch in NV (device.h). */
		for (j = 0; j < RECORDS_PER_EPOCH && j < dev.snd.st.b; j++) {
			sample = (uint32_t)dmd_device_epoch(&dev) *
				 RECORDS_PER_EPOCH + j;
			sensor_read(rec, sizeof(rec), dev.snd.st.device_id,
				    sample, flags);
			flags = 0;
			check(dmd_device_seal(&dev, rec, sizeof(rec)),
			      "# seal failed\n");
			/* Idle until the next sample: refill the window. */
			dmd_device_idle(&dev, IDLE_SLOTS);
		}
		check(dmd_device_close(&dev), "# close failed\n");
		epochs++;
	}
	dmd_device_wipe(&dev);
	board_exit(0);
}
