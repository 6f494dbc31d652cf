// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sender a firmware runs (device.h): reserve before use (spec section
 * 10), seal, and the frames of spec section 8, each header written by
 * core/frame.c and sent ahead of its payload.
 */
#include "device.h"

#include <diamond/frame.h>
#include <diamond/util.h>
#include "nvstate.h"

/*
 * Every boot starts with zeros on the link: a frame cut by a power loss
 * still announces its full length, and the gateway would take the next
 * boot's first bytes as its payload. More zeros than the longest frame
 * (a record of @pre_len bytes, or a tag frame) end the cut frame inside
 * them; the gateway then resynchronises on the next sync word.
 */
#define PREAMBLE_MIN 64

static void send_preamble(dmd_link_fn out, size_t pre_len, size_t adlen)
{
	static const uint8_t preamble_zeros[16];
	size_t tag_frame = adlen + DMD_TAG_SIZE;
	size_t n = pre_len > tag_frame ? pre_len : tag_frame;

	n += DMD_FRAME_HDR + 1;
	n = n < PREAMBLE_MIN ? PREAMBLE_MIN : n;
	for (; n > sizeof(preamble_zeros); n -= sizeof(preamble_zeros))
		out(preamble_zeros, sizeof(preamble_zeros));
	out(preamble_zeros, n);
}

int dmd_device_start(struct dmd_device *d, uint8_t *window,
		     size_t window_size, size_t pre_len, dmd_link_fn out,
		     const uint8_t *ad, size_t adlen)
{
	struct dmd_state st;
	uint32_t g;
	int rc;

	if (!d || !out || (!ad && adlen) || adlen > DMD_MAX_AD)
		return DMD_EINVAL;
	d->out = out;
	d->ad = ad;
	d->adlen = adlen;
	send_preamble(out, pre_len, adlen);
	if (nv_load(&st) != DMD_OK) {
		rc = DMD_EKEY;
	} else {
		/* Group size from the blob: 0 stands for g = b. */
		g = st.group ? st.group : st.b;
		rc = dmd_sender_init_groups(&d->snd, &st, window, window_size,
					    pre_len, g);
	}
	dmd_wipe(&st, sizeof(st));
	/* A device that did not start seals nothing, whatever is called. */
	if (rc != DMD_OK) {
		dmd_wipe(&d->snd, sizeof(d->snd));
		d->out = NULL;
	}
	return rc;
}

/* One frame of the open epoch: header, @payload, then @tail (a tag). */
static int send_frame(struct dmd_device *d, uint8_t type, uint32_t index,
		      const uint8_t *payload, size_t len, const uint8_t *tail,
		      size_t tail_len)
{
	struct dmd_frame f = {
		.type = type,
		.suite = d->snd.st.suite,
		.device_id = d->snd.st.device_id,
		.epoch = d->snd.epoch,
		.index = (uint16_t)index,
		.len = (uint16_t)(len + tail_len),
	};
	uint8_t hdr[DMD_FRAME_HDR];

	if (dmd_frame_header(hdr, &f))
		return DMD_EFORMAT;
	d->out(hdr, sizeof(hdr));
	if (len)
		d->out(payload, len);
	if (tail_len)
		d->out(tail, tail_len);
	return DMD_OK;
}

/* Reserve before use: E_{e+1} is durable before slot 0 of e is used. */
static int begin_epoch(struct dmd_device *d)
{
	struct dmd_state reserve;
	int rc;

	rc = dmd_sender_begin(&d->snd, &reserve);
	if (rc == DMD_OK && nv_store(&reserve) != DMD_OK)
		rc = DMD_ENVSTORE;
	dmd_wipe(&reserve, sizeof(reserve));
	if (rc == DMD_OK)
		dmd_sender_precompute(&d->snd, (size_t)-1);
	return rc;
}

/* The group tag frame of the group the last seal filled (AD || G_i). */
static int send_group_tag(struct dmd_device *d)
{
	uint8_t tag[DMD_TAG_SIZE];
	uint32_t group;
	int rc;

	rc = dmd_sender_close_group(&d->snd, d->ad, d->adlen, tag, &group);
	if (rc == DMD_OK)
		rc = send_frame(d, DMD_FRAME_GROUP, group, d->ad, d->adlen,
				tag, sizeof(tag));
	dmd_wipe(tag, sizeof(tag));
	return rc;
}

int dmd_device_seal(struct dmd_device *d, uint8_t *rec, size_t len)
{
	uint32_t index;
	int rc;

	if (!d || !d->out || (!rec && len))
		return DMD_EINVAL;
	if (!d->snd.open && (rc = begin_epoch(d)) != DMD_OK)
		return rc;
	/* In place: no second record buffer in the AVR's 8 KiB. */
	rc = dmd_sender_seal(&d->snd, rec, len, rec, &index);
	if (rc == DMD_OK)
		rc = send_frame(d, DMD_FRAME_RECORD, index, rec, len, NULL, 0);
	if (rc == DMD_OK && dmd_sender_group_due(&d->snd))
		rc = send_group_tag(d);
	if (rc == DMD_OK && d->snd.index >= d->snd.st.b)
		rc = dmd_device_close(d);
	return rc;
}

int dmd_device_close(struct dmd_device *d)
{
	uint8_t tag[DMD_TAG_SIZE];
	uint32_t count;
	int rc;

	if (!d || !d->out)
		return DMD_EINVAL;
	if (!d->snd.open)
		return DMD_OK;
	rc = dmd_sender_close(&d->snd, d->ad, d->adlen, tag, &count);
	if (rc == DMD_OK)
		rc = send_frame(d, DMD_FRAME_TAG, count, d->ad, d->adlen,
				tag, sizeof(tag));
	dmd_wipe(tag, sizeof(tag));
	return rc;
}

size_t dmd_device_idle(struct dmd_device *d, size_t slots)
{
	return d && d->snd.open ? dmd_sender_precompute(&d->snd, slots) : 0;
}

unsigned int dmd_device_suite(const struct dmd_device *d)
{
	return d->snd.st.suite;
}

uint64_t dmd_device_epoch(const struct dmd_device *d)
{
	return d->snd.open ? d->snd.epoch : d->snd.st.epoch;
}

void dmd_device_wipe(struct dmd_device *d)
{
	if (d)
		dmd_sender_wipe(&d->snd);
}
