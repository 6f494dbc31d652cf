/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Poly1305 one-time authenticator, exactly RFC 8439 section 2.5: key is
 * r || s, r is clamped by init. Incremental: any split of the message gives
 * the same tag.
 */
#ifndef DIAMOND_CORE_POLY1305_H
#define DIAMOND_CORE_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#define DMD_POLY1305_KEY_SIZE	32
#define DMD_POLY1305_TAG_SIZE	16

/*
 * Limb radix, chosen at compile time (a build may force it with
 * -DDMD_POLY1305_RADIX=8|26|44; the host tests build all three):
 *   8   bytes with 8x8->16 products, which AVR multiplies in hardware;
 *   26  five 26-bit limbs with 32x32->64 products (one UMULL/UMLAL on
 *       Cortex-M4), for every other target;
 *   44  three 44/44/42-bit limbs with 64x64->128 products, for 64-bit
 *       hosts whose compiler inlines unsigned __int128 multiplies.
 */
#ifndef DMD_POLY1305_RADIX
#if defined(__AVR__)
#define DMD_POLY1305_RADIX 8
#elif defined(__SIZEOF_INT128__) && (defined(__x86_64__) || defined(__aarch64__))
#define DMD_POLY1305_RADIX 44
#else
#define DMD_POLY1305_RADIX 26
#endif
#endif

#if DMD_POLY1305_RADIX == 8
/* h[0..15] are bytes and h[16] holds bits 128 and up (a few bits). */
struct dmd_poly1305 {
	uint8_t r[16];
	uint8_t s[16];
	uint8_t h[17];
	uint8_t buf[16];
	uint8_t buf_len;
};
#elif DMD_POLY1305_RADIX == 26
struct dmd_poly1305 {
	uint32_t r[5];
	uint32_t h[5];
	uint32_t s[4];
	uint8_t buf[16];
	uint8_t buf_len;
};
#elif DMD_POLY1305_RADIX == 44
struct dmd_poly1305 {
	uint64_t r[3];
	uint64_t h[3];
	uint32_t s[4];
	uint8_t buf[16];
	uint8_t buf_len;
};
#else
#error "DMD_POLY1305_RADIX must be 8, 26 or 44"
#endif

void dmd_poly1305_init(struct dmd_poly1305 *ctx, const uint8_t key[32]);
void dmd_poly1305_update(struct dmd_poly1305 *ctx, const uint8_t *m,
			 size_t len);
/* Write the tag and wipe ctx. */
void dmd_poly1305_final(struct dmd_poly1305 *ctx, uint8_t tag[16]);

/*
 * The tag of @m in one call: the same as init, update(m, len), final, but
 * @key stays the caller's (the AVR assembly reads r and s from it and keeps
 * no context).
 */
void dmd_poly1305(const uint8_t key[32], const uint8_t *m, size_t len,
		  uint8_t tag[16]);
/* acc ^= the tag of @m: dmd_poly1305() folded into an XOR aggregate. */
void dmd_poly1305_xor(const uint8_t key[32], const uint8_t *m, size_t len,
		      uint8_t acc[16]);

/*
 * DMD_POLY1305_PREP: bytes a key may carry ahead of r || s, precomputed by
 * dmd_poly1305_prep() (0: none, the key is r || s as it is). The AVR keeps
 * S_k = R_k + (R_k >> 2), k = 1..3, there (embedded/avr/prims/poly1305.py),
 * so that a one-call MAC from a sender's window slot does not compute them
 * online. pk is prep bytes || r || s; dmd_poly1305_prep() fills the prep
 * bytes and clamps r in place (the same key for Poly1305). The two-file
 * sender (dist/sender/) has no assembly: DMD_AVR_PORTABLE leaves the AVR
 * on the portable radix-8 C, without prepared keys.
 */
#if defined(__AVR__) && !defined(DMD_AVR_PORTABLE)
#define DMD_POLY1305_PREP 12
void dmd_avr_poly1305_prep(uint8_t *pk);
void dmd_avr_poly1305_xor_pre(const uint8_t *pk, const uint8_t *m,
			      size_t len, uint8_t acc[16]);
#define dmd_poly1305_prep(pk) dmd_avr_poly1305_prep(pk)
/* dmd_poly1305_xor() with the key prepared: @pk as above. */
#define dmd_poly1305_xor_pre(pk, m, len, acc) \
	dmd_avr_poly1305_xor_pre(pk, m, len, acc)
#else
#define DMD_POLY1305_PREP 0
#endif

#endif
