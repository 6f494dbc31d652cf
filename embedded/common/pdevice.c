// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet sender a firmware runs (pdevice.h): reserve before use (spec
 * section 10), seal with dmd_psender_*, one length byte and the packet on
 * the link.
 */
#include "pdevice.h"

#include <diamond/util.h>
#include "nvstate.h"

static void pdev_preamble(dmd_link_fn out)
{
	static const uint8_t zeros[16];
	size_t n;

	for (n = PDEV_PREAMBLE; n > sizeof(zeros); n -= sizeof(zeros))
		out(zeros, sizeof(zeros));
	out(zeros, n);
}

int dmd_pdevice_start(struct dmd_pdevice *d, const struct dmd_radio *radio,
		      uint8_t *window, size_t window_size, size_t pre_len,
		      dmd_link_fn out)
{
	struct dmd_state st;
	int rc;

	if (!d || !radio || !out)
		return DMD_EINVAL;
	d->out = out;
	d->sent = 0;
	pdev_preamble(out);
	rc = nv_load(&st);
	if (rc == DMD_OK)
		rc = dmd_psender_init(&d->ps, &st, radio->a, radio->addr,
				      window, window_size, pre_len);
	dmd_wipe(&st, sizeof(st));
	/* A device that did not start seals nothing, whatever is called. */
	if (rc != DMD_OK) {
		dmd_wipe(&d->ps, sizeof(d->ps));
		d->out = NULL;
	}
	return rc;
}

/* Reserve before use: E_{e+1} is durable before slot 0 of e is used. */
static int pdev_begin_epoch(struct dmd_pdevice *d)
{
	struct dmd_state reserve;
	int rc;

	rc = dmd_psender_begin(&d->ps, &reserve);
	if (rc == DMD_OK && nv_store(&reserve) != DMD_OK)
		rc = DMD_ENVSTORE;
	dmd_wipe(&reserve, sizeof(reserve));
	if (rc == DMD_OK)
		dmd_sender_precompute(&d->ps.s, (size_t)-1);
	return rc;
}

#define PDEV_LAST_ANCHOR	(PDEV_ANCHOR_STEP * (PDEV_BOOT_ANCHORS - 1))

/* Is the boot's next packet one of its first anchors (PDEV_BOOT_ANCHORS)? */
static int pdev_boot_anchor(const struct dmd_pdevice *d)
{
	return d->sent <= PDEV_LAST_ANCHOR && d->sent % PDEV_ANCHOR_STEP == 0;
}

int dmd_pdevice_seal(struct dmd_pdevice *d, const uint8_t *rec, size_t len)
{
	/* The length byte, then the packet: one write to the link. */
	uint8_t pkt[1 + DMD_PKT_MAX];
	size_t n;
	int rc;

	if (!d || !d->out || (!rec && len))
		return DMD_EINVAL;
	if (len > DMD_PKT_MAX_RECORD)
		return DMD_ESIZE;
	if ((!d->ps.s.open || d->ps.s.index >= d->ps.s.st.b) &&
	    (rc = pdev_begin_epoch(d)) != DMD_OK)
		return rc;
	rc = dmd_psender_seal(&d->ps, rec, len, pdev_boot_anchor(d), pkt + 1,
			      DMD_PKT_MAX, &n);
	if (rc != DMD_OK)
		return rc;
	if (d->sent <= PDEV_LAST_ANCHOR)
		d->sent++;
	pkt[0] = (uint8_t)n;
	d->out(pkt, n + 1);
	return DMD_OK;
}

size_t dmd_pdevice_idle(struct dmd_pdevice *d, size_t slots)
{
	return d && d->ps.s.open ? dmd_sender_precompute(&d->ps.s, slots) : 0;
}

unsigned int dmd_pdevice_suite(const struct dmd_pdevice *d)
{
	return d->ps.s.st.suite;
}

void dmd_pdevice_next(const struct dmd_pdevice *d, uint64_t *epoch,
		      uint32_t *index)
{
	const struct dmd_sender *s = &d->ps.s;

	if (s->open && s->index < s->st.b) {
		*epoch = s->epoch;
		*index = s->index;
	} else {
		*epoch = s->st.epoch;
		*index = 0;
	}
}

void dmd_pdevice_wipe(struct dmd_pdevice *d)
{
	if (d)
		dmd_psender_wipe(&d->ps);
}
