/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Byte-order helpers, wiping and constant-time comparison for the portable
 * core. Freestanding: only <stddef.h> and <stdint.h>.
 *
 * Every load widens each byte to the result type before shifting: on AVR
 * `int` is 16 bits, so `b[3] << 24` on a promoted uint8_t would be undefined.
 */
#ifndef DIAMOND_CORE_UTIL_H
#define DIAMOND_CORE_UTIL_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t dmd_load16_le(const uint8_t *b)
{
	return (uint16_t)((uint16_t)b[0] | (uint16_t)b[1] << 8);
}

static inline void dmd_store16_le(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static inline uint32_t dmd_load32_le(const uint8_t *b)
{
	return (uint32_t)b[0] | ((uint32_t)b[1] << 8) |
	       ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
}

static inline uint32_t dmd_load32_be(const uint8_t *b)
{
	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) |
	       ((uint32_t)b[2] << 8) | (uint32_t)b[3];
}

static inline void dmd_store32_le(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

static inline void dmd_store32_be(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

static inline uint64_t dmd_load64_le(const uint8_t *b)
{
	return (uint64_t)dmd_load32_le(b) | ((uint64_t)dmd_load32_le(b + 4) << 32);
}

static inline void dmd_store64_le(uint8_t *b, uint64_t v)
{
#if defined(__AVR__)
	/*
	 * avr-gcc calls a library routine for any 64-bit shift, even by 32
	 * (and then has to save registers around it); the 32-bit halves of a
	 * uint64_t on this little-endian core cost nothing.
	 */
	union {
		uint64_t v;
		uint32_t w[2];
	} u = { v };

	dmd_store32_le(b, u.w[0]);
	dmd_store32_le(b + 4, u.w[1]);
#else
	dmd_store32_le(b, (uint32_t)v);
	dmd_store32_le(b + 4, (uint32_t)(v >> 32));
#endif
}

/*
 * Zero n bytes at p. Out of line and through a volatile pointer, so the
 * compiler cannot drop it as a dead store before a buffer goes out of scope.
 */
void dmd_wipe(void *p, size_t n);

/*
 * 1 if a[0..n) == b[0..n), else 0. The time depends on n only: differences
 * are OR-accumulated and the final zero test has no branch. Out of line so
 * the optimiser sees no caller context it could use to exit early.
 */
int dmd_ct_equal(const uint8_t *a, const uint8_t *b, size_t n);

/*
 * Zero at least @n bytes of stack below the caller (AVR rounds @n up to
 * 16). The public sender and receiver entry points call it last, so the
 * spilled temporaries of the primitives (AES round state above all) do not
 * outlive the call.
 */
void dmd_wipe_stack_n(size_t n);

/*
 * dmd_wipe_stack() wipes DMD_STACK_WIPE bytes: the depth of the deepest
 * path that runs key schedules or streams (begin, precompute, a slot
 * expanded on the fly, close, dmd_open), with margin. A port sets it to its
 * measured depth; 0 turns all stack wipes off.
 *
 * A seal from the window runs no key schedule and no stream: XOR with the
 * slot's keystream, one universal hash, the aggregate. It wipes only its own
 * measured depth, DMD_STACK_WIPE_WINDOW, or DMD_STACK_WIPE_WINDOW_HASH when
 * the aggregate is a SHA-256 chain (deeper). The depth counts from the
 * seal's own frame (use_slot() is inlined into it and keeps only pointers
 * and lengths there) down along dmd_uh_tag (6 bytes of stack arguments) ->
 * dmd_poly1305 / ghash_tag -> dmd_ghash_* (or dmd_agg_add -> dmd_sha256),
 * or straight to dmd_poly1305_xor (a Diamond2 record folded into an XOR
 * aggregate, tag.h; on the AVR dmd_poly1305_xor_pre from the slot's
 * prepared key, sender.c: 21 bytes of pushes and return address, as
 * shallow).
 * avr-gcc -fstack-usage figures include the 3-byte return address on the
 * ATmega2560; an assembly function adds its return address and pushes by
 * hand. A frame that zeroes itself before it returns needs no cover: the
 * AVR dmd_poly1305() keeps r, h and the products in one such frame
 * (poly1305.S). The AVR values below are those sums rounded up, checked by
 * painting the stack in simavr (the distance from the wipe's start down to
 * the deepest byte a seal leaves changed and non-zero, any record length up
 * to the window's); the measured depths are in Documentation/performance.md,
 * "Measured choices".
 */
#ifndef DMD_STACK_WIPE
#if defined(__AVR__)
#define DMD_STACK_WIPE 384	/* 8 KB SRAM: the deepest seal path */
#else
#define DMD_STACK_WIPE 4096	/* the host's deepest path, with margin */
#endif
#endif

#if DMD_STACK_WIPE == 0
#undef DMD_STACK_WIPE_WINDOW
#undef DMD_STACK_WIPE_WINDOW_GHASH
#undef DMD_STACK_WIPE_WINDOW_HASH
#define DMD_STACK_WIPE_WINDOW 0
#define DMD_STACK_WIPE_WINDOW_GHASH 0
#define DMD_STACK_WIPE_WINDOW_HASH 0
#elif defined(__AVR__)
#ifndef DMD_STACK_WIPE_WINDOW
#define DMD_STACK_WIPE_WINDOW 32	/* Poly1305 tag */
#endif
#ifndef DMD_STACK_WIPE_WINDOW_GHASH
#define DMD_STACK_WIPE_WINDOW_GHASH 144	/* GHASH tag */
#endif
#ifndef DMD_STACK_WIPE_WINDOW_HASH
#define DMD_STACK_WIPE_WINDOW_HASH 384	/* SHA-256 chain */
#endif
#else
#define DMD_STACK_WIPE_WINDOW DMD_STACK_WIPE
#define DMD_STACK_WIPE_WINDOW_GHASH DMD_STACK_WIPE
#define DMD_STACK_WIPE_WINDOW_HASH DMD_STACK_WIPE
#endif

static inline void dmd_wipe_stack(void)
{
	if (DMD_STACK_WIPE > 0)
		dmd_wipe_stack_n(DMD_STACK_WIPE);
}
#endif
