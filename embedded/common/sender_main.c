// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sensor firmware: seal simulated readings into Diamond record frames and
 * one tag frame per epoch, as spec sections 8 and 10 describe.
 *
 * Boot: load the reservation blob (e, E_e) from NV. Each epoch: begin
 * (derives E_{e+1}, R_{e,0}), persist the blob for e + 1 and only then
 * seal; fill the precompute window, then per record read the sensor, seal
 * (online: one XOR and one universal hash), send the frame and refill a few
 * slots while idle. With a group size g < b in the blob (spec section 5.1)
 * a group tag frame follows each full group that ends before b. The epoch
 * is flushed after RECORDS_PER_EPOCH records (a short epoch, well under b)
 * so the gateway sees data at a bounded delay.
 *
 * Build-time parameters: SENDER_SUITE, REC_LEN, RECORDS_PER_EPOCH,
 * EPOCHS_PER_BOOT (0 = run forever), WINDOW_BYTES, IDLE_SLOTS.
 */
#include <diamond/core.h>
#include <diamond/frame.h>
#include <diamond/util.h>
#include "board.h"
#include "nvstate.h"
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
static struct dmd_sender snd;

static const char ad[] = "board=" BOARD_NAME;

/*
 * Sent at every boot: a frame cut by a power loss still announces its full
 * length, and without this the gateway would take the next boot's first
 * bytes as its payload. More zeros than the longest frame of this firmware
 * (20 + 16 + AD) guarantee the cut frame ends inside them; the gateway
 * then resynchronises on the next sync word.
 */
static const uint8_t boot_preamble[64];

static void fail(const char *why, int code)
{
	board_puts(why);
	dmd_sender_wipe(&snd);
	board_exit(code);
}

/*
 * One frame of the open epoch (core/frame.c writes the header): header,
 * @payload, then @tail (a tag frame's T), each straight to the link, so no
 * frame buffer is needed.
 */
static void send_frame(uint8_t type, uint32_t index, const uint8_t *payload,
		       size_t len, const uint8_t *tail, size_t tail_len)
{
	struct dmd_frame f = {
		.type = type,
		.suite = SENDER_SUITE,
		.device_id = snd.st.device_id,
		.epoch = snd.epoch,
		.index = (uint16_t)index,
		.len = (uint16_t)(len + tail_len),
	};
	uint8_t hdr[DMD_FRAME_HDR];

	if (dmd_frame_header(hdr, &f))
		fail("# frame out of range\n", EXIT_CORE);
	board_out(hdr, sizeof(hdr));
	if (len)
		board_out(payload, len);
	if (tail_len)
		board_out(tail, tail_len);
}

/* The group tag frame of the group the last seal filled (AD || G_i). */
static void send_group_tag(void)
{
	uint8_t tag[DMD_TAG_SIZE];
	uint32_t group;

	if (dmd_sender_close_group(&snd, (const uint8_t *)ad, sizeof(ad) - 1,
				   tag, &group))
		fail("# close failed\n", EXIT_CORE);
	send_frame(DMD_FRAME_GROUP, group, (const uint8_t *)ad, sizeof(ad) - 1,
		   tag, sizeof(tag));
}

int main(void)
{
	struct dmd_state st, reserve;
	uint8_t rec[REC_LEN], c[REC_LEN], tag[DMD_TAG_SIZE];
	uint32_t epochs = 0, j, index, count;
	uint8_t flags = 1;

	board_init();
	board_out(boot_preamble, sizeof(boot_preamble));
	if (nv_load(&st) != DMD_OK)
		fail("# no reservation blob in NV: provision the device\n",
		     EXIT_UNPROVISIONED);
	if (st.suite != SENDER_SUITE)
		fail("# NV blob is for the other suite\n", EXIT_WRONG_SUITE);
	/* Group size from the blob: 0 stands for g = b (no group tags). */
	if (dmd_sender_init_groups(&snd, &st, window, sizeof(window), REC_LEN,
				   st.group ? st.group : st.b))
		fail("# sender init failed\n", EXIT_CORE);
	dmd_wipe(&st, sizeof(st));

	while (!EPOCHS_PER_BOOT || epochs < EPOCHS_PER_BOOT) {
		/* Reserve before use: E_{e+1} is durable before slot 0. */
		if (dmd_sender_begin(&snd, &reserve))
			fail("# epoch space exhausted\n", EXIT_CORE);
		if (nv_store(&reserve) != DMD_OK)
			fail("# NV write failed\n", EXIT_NV_FAILED);
		dmd_wipe(&reserve, sizeof(reserve));
		dmd_sender_precompute(&snd, (size_t)-1);

		for (j = 0; j < RECORDS_PER_EPOCH && j < snd.st.b; j++) {
			sensor_read(rec, sizeof(rec), snd.st.device_id,
				    (uint32_t)snd.epoch * RECORDS_PER_EPOCH + j,
				    flags);
			flags = 0;
			if (dmd_sender_seal(&snd, rec, sizeof(rec), c, &index))
				fail("# seal failed\n", EXIT_CORE);
			send_frame(DMD_FRAME_RECORD, index, c, sizeof(c),
				   NULL, 0);
			if (dmd_sender_group_due(&snd))
				send_group_tag();
			/* Idle until the next sample: refill the window. */
			dmd_sender_precompute(&snd, IDLE_SLOTS);
		}
		if (dmd_sender_close(&snd, (const uint8_t *)ad, sizeof(ad) - 1,
				     tag, &count))
			fail("# close failed\n", EXIT_CORE);
		send_frame(DMD_FRAME_TAG, count, (const uint8_t *)ad,
			   sizeof(ad) - 1, tag, sizeof(tag));
		epochs++;
	}
	dmd_sender_wipe(&snd);
	board_exit(0);
}
