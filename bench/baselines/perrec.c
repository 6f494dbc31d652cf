// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The callbacks every plain per-record AEAD baseline shares (internal.h):
 * no window, no offline work, a zero aggregate tag, one epoch per close.
 */
#include "internal.h"

#include <diamond/util.h>

size_t perrec_slot(size_t rec)
{
	(void)rec;
	return 0;
}

void perrec_begin(void *ctx)
{
	((struct perrec *)ctx)->index = 0;
}

size_t perrec_offline(void *ctx, size_t k)
{
	(void)ctx;
	(void)k;
	return 0;
}

void perrec_close(void *ctx, uint8_t tag[16])
{
	dmd_wipe(tag, 16);
	((struct perrec *)ctx)->epoch++;
}

void perrec_rx_offline(void *ctx, uint32_t n)
{
	(void)ctx;
	(void)n;
}

int perrec_rx_done(struct perrec *p, int ok, uint8_t *m, uint32_t n)
{
	if (!ok) {
		dmd_wipe(m, p->rec * n);
		return -1;
	}
	p->repoch++;
	return 0;
}
