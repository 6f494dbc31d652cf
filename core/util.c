/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#include "util.h"

#if !defined(__AVR__)
/*
 * A machine word that may alias any object (GCC/Clang), so the word stores
 * below are defined on a buffer of any type. AVR keeps the byte loop: its
 * stores are byte stores anyway.
 */
typedef uintptr_t __attribute__((__may_alias__)) wipe_word;
#endif

/*
 * Bytes up to a word boundary, whole words, then the tail bytes. Every
 * store is volatile and the function is out of line, so no store can be
 * dropped as dead. The branches depend on the address and length only.
 */
void dmd_wipe(void *p, size_t n)
{
	volatile uint8_t *v = (volatile uint8_t *)p;
#if !defined(__AVR__)
	volatile wipe_word *w;

	for (; n && ((uintptr_t)v & (sizeof(*w) - 1)); n--)
		*v++ = 0;
	w = (volatile wipe_word *)(uintptr_t)v;
	for (; n >= 4 * sizeof(*w); n -= 4 * sizeof(*w), w += 4) {
		w[0] = 0;
		w[1] = 0;
		w[2] = 0;
		w[3] = 0;
	}
	for (; n >= sizeof(*w); n -= sizeof(*w))
		*w++ = 0;
	v = (volatile uint8_t *)(uintptr_t)w;
#else
	/* Byte stores, eight a step: about 2.5 cycles a byte instead of 8. */
	for (; n >= 8; n -= 8, v += 8) {
		v[0] = 0;
		v[1] = 0;
		v[2] = 0;
		v[3] = 0;
		v[4] = 0;
		v[5] = 0;
		v[6] = 0;
		v[7] = 0;
	}
#endif
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
	volatile uintptr_t *w = scratch;
	volatile uintptr_t *const end = scratch + sizeof(scratch) / sizeof(scratch[0]);

	/* Four stores a step: this runs at every API exit. */
	for (; end - w >= 4; w += 4) {
		w[0] = 0;
		w[1] = 0;
		w[2] = 0;
		w[3] = 0;
	}
	while (w < end)
		*w++ = 0;
}
#else
void dmd_wipe_stack(void)
{
}
#endif
