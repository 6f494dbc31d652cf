/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#include "util.h"

void dmd_wipe(void *p, size_t n)
{
	volatile uint8_t *v = (volatile uint8_t *)p;

	while (n--)
		*v++ = 0;
}

int dmd_ct_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint32_t diff = 0;
	size_t i;

	for (i = 0; i < n; i++)
		diff |= (uint32_t)(a[i] ^ b[i]);
	/* diff is 0..255: diff - 1 borrows into bit 8 only when diff == 0. */
	return (int)(1 & ((diff - 1) >> 8));
}

#if DMD_STACK_WIPE > 0
/* noinline (GCC) so the array really lies below the caller's frame. */
__attribute__((noinline)) void dmd_wipe_stack(void)
{
	/* Word stores: the wipe costs DMD_STACK_WIPE / sizeof(word) writes. */
	volatile uintptr_t scratch[DMD_STACK_WIPE / sizeof(uintptr_t)];
	size_t i;

	for (i = 0; i < sizeof(scratch) / sizeof(scratch[0]); i++)
		scratch[i] = 0;
}
#else
void dmd_wipe_stack(void)
{
}
#endif
