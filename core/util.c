/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#include <diamond/util.h>

#if defined(__AVR__)
/* Zero 16 bytes at Z per step, %0 steps. */
#define AVR_ZERO_16_LOOP                                                  \
	"1:\n\t"                                                           \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"st Z+, __zero_reg__\n\tst Z+, __zero_reg__\n\t"                   \
	"sbiw %0, 1\n\t"                                                   \
	"brne 1b"
#endif

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
	/*
	 * Sixteen `st Z+` a step, then the tail: fewer cycles a byte than the
	 * volatile C loop (Documentation/performance.md, "Measured choices").
	 * The asm's memory clobber keeps the stores.
	 */
	size_t k = n >> 4;

	if (k)
		__asm__ __volatile__(
			AVR_ZERO_16_LOOP
			: "+w"(k), "+z"(v)
			:
			: "memory");
	/*
	 * The n % 16 tail as 8, 4, 2 and 1 stores by the bits of n (a public
	 * length): 2 cycles a byte and 2 a bit, not the C loop's 8 a byte.
	 */
	__asm__ __volatile__(
		"sbrs %[n], 3\n\t"
		"rjmp 4f\n\t"
		".rept 8\n\t"
		"st Z+, __zero_reg__\n\t"
		".endr\n"
		"4:\tsbrs %[n], 2\n\t"
		"rjmp 5f\n\t"
		".rept 4\n\t"
		"st Z+, __zero_reg__\n\t"
		".endr\n"
		"5:\tsbrs %[n], 1\n\t"
		"rjmp 6f\n\t"
		"st Z+, __zero_reg__\n\t"
		"st Z+, __zero_reg__\n"
		"6:\tsbrc %[n], 0\n\t"
		"st Z+, __zero_reg__"
		: "+z"(v)
		: [n] "r"((uint8_t)n)
		: "memory");
	return;
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

#if defined(__AVR__)
/*
 * Move SP down by the wipe size (rounded up to 16), zero the bytes between
 * the new and the old SP, move SP back. The zeroed bytes lie above SP all
 * the while, so an interrupt pushes below them, never into them. SP is
 * written the way avr-gcc's prologues do: SPH with interrupts off, SREG
 * (and so the I flag) restored one instruction before SPL.
 */
__attribute__((noinline)) void dmd_wipe_stack_n(size_t n)
{
	size_t k = (n + 15) >> 4;

	if (!k)
		return;
	__asm__ __volatile__(
		"in r30, __SP_L__\n\t"
		"in r31, __SP_H__\n\t"
		"movw r26, r30\n\t"
		"sub r30, %A1\n\t"
		"sbc r31, %B1\n\t"
		"in __tmp_reg__, __SREG__\n\t"
		"cli\n\t"
		"out __SP_H__, r31\n\t"
		"out __SREG__, __tmp_reg__\n\t"
		"out __SP_L__, r30\n\t"
		"adiw r30, 1\n\t"
		AVR_ZERO_16_LOOP "\n\t"
		"in __tmp_reg__, __SREG__\n\t"
		"cli\n\t"
		"out __SP_H__, r27\n\t"
		"out __SREG__, __tmp_reg__\n\t"
		"out __SP_L__, r26"
		: "+w"(k)
		: "r"(k << 4)
		: "r26", "r27", "r30", "r31", "memory");
}
#else
/*
 * A volatile array of @n bytes (VLA) below the caller's frame, zeroed with
 * word stores. noinline (GCC) so the array really lies below the caller.
 */
__attribute__((noinline)) void dmd_wipe_stack_n(size_t n)
{
	size_t words = (n + sizeof(uintptr_t) - 1) / sizeof(uintptr_t);
	volatile uintptr_t scratch[words ? words : 1];
	volatile uintptr_t *w = scratch;
	volatile uintptr_t *const end = scratch + words;

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
#endif
