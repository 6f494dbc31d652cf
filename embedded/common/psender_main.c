// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sensor firmware in packet mode (spec section 14): seal simulated
 * readings, one packet each, through pdevice.c (the packet twin of
 * sender_main.c's device.c).
 *
 * The radio configuration (spec 14.2: address width A and short address)
 * is given at build time, as the key is given to a sketch at build time
 * (the Arduino library's key header): PKT_A and PKT_ADDR. It sits beside
 * the key, which the firmware reads from NV as ever; the blob is not
 * touched by it.
 *
 * Each boot seals RECORDS_PER_BOOT readings: epochs of b records, each
 * reserved in NV before its first seal, the tags riding in the records'
 * packets; the epoch open at the end of a boot is abandoned (the next
 * boot begins a new one, with an anchor). Reading n of position (e, j) is
 * sensor_read(.., device_id, PKT_SAMPLE(e, j), first of the boot), which
 * embedded/tools/pkt-check.c recomputes to check what it decrypts.
 *
 * Build-time parameters: SENDER_SUITE, PKT_A, PKT_ADDR, REC_LEN,
 * RECORDS_PER_BOOT, WINDOW_BYTES, IDLE_SLOTS.
 */
#include <diamond/core.h>
#include "board.h"
#include "pdevice.h"
#include "sensor.h"

#ifndef SENDER_SUITE
#error "SENDER_SUITE must be 1 or 2"
#endif
#ifndef PKT_A
#error "PKT_A (address width, 1 .. 4) and PKT_ADDR configure packet mode"
#endif
#ifndef REC_LEN
#define REC_LEN 16
#endif
#ifndef RECORDS_PER_BOOT
#define RECORDS_PER_BOOT 40
#endif
#ifndef IDLE_SLOTS
#define IDLE_SLOTS 2
#endif

/* The sample number of position (e, j): unique while b <= 2^16. */
#define PKT_SAMPLE(e, j) ((uint32_t)(e) << 16 | (uint32_t)(j))

/* Exit codes, as sender_main.c's. */
#define EXIT_UNPROVISIONED	3
#define EXIT_WRONG_SUITE	4
#define EXIT_NV_FAILED		5
#define EXIT_CORE		6

static uint8_t window[WINDOW_BYTES];
static struct dmd_pdevice dev;
static const struct dmd_radio radio = { .a = PKT_A, .addr = PKT_ADDR };

static void fail(const char *why, int code)
{
	board_puts(why);
	dmd_pdevice_wipe(&dev);
	board_exit(code);
}

int main(void)
{
	uint8_t rec[REC_LEN];
	uint64_t e;
	uint32_t n, j;
	int rc;

	board_init();
	rc = dmd_pdevice_start(&dev, &radio, window, sizeof(window), REC_LEN,
			       board_out);
	if (rc == DMD_EKEY)
		fail("# no packet-mode key in NV: provision the device\n",
		     EXIT_UNPROVISIONED);
	if (rc != DMD_OK)
		fail("# sender init failed\n", EXIT_CORE);
	if (dmd_pdevice_suite(&dev) != SENDER_SUITE)
		fail("# NV blob is for the other suite\n", EXIT_WRONG_SUITE);

	for (n = 0; n < RECORDS_PER_BOOT; n++) {
		dmd_pdevice_next(&dev, &e, &j);
		sensor_read(rec, sizeof(rec), dev.ps.s.st.device_id,
			    PKT_SAMPLE(e, j), n == 0);
		board_mark_start(1);
		rc = dmd_pdevice_seal(&dev, rec, sizeof(rec));
		board_mark_stop(1);
		if (rc == DMD_ENVSTORE)
			fail("# NV write failed\n", EXIT_NV_FAILED);
		if (rc != DMD_OK)
			fail("# seal failed\n", EXIT_CORE);
		/* Idle until the next sample: refill the window. */
		dmd_pdevice_idle(&dev, IDLE_SLOTS);
	}
	dmd_pdevice_wipe(&dev);
	board_exit(0);
}
