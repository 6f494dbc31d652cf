/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * AES-128 encryption (FIPS-197) for the ATmega2560, the assembly behind
 * aes128.c. The portable core's bitsliced AES (core/aes128.c) avoids tables
 * because a cache makes a table lookup's time depend on its index; on the
 * AVR it costs tens of thousands of cycles a block. This file uses the
 * S-box as a 256-byte table in flash instead.
 *
 * Why a table is constant time here: the AVR8 core has no data cache and
 * no prefetch; LPM Rd, Z takes 3 cycles and LD 2 cycles whatever the
 * address (AVR Instruction Set Manual). The table is 256-byte aligned, so
 * a lookup is "mov ZL, x; lpm y, Z" with ZH fixed: no add, no carry into
 * ZH, the same two instructions for every x. It lives in a .progmem
 * section, which the avr-libc linker scripts place before all code, in
 * the low 64 KiB that LPM reads (the known-answer firmware checks both
 * the alignment and the address). Everything else is straight-line or
 * loops a fixed number of times: xtime is "lsl x; sbc m, m; andi m, 0x1b;
 * eor x, m", no instruction, branch or address depends on key or data.
 *
 * Round keys: the plain FIPS-197 schedule, 176 bytes, round 0 first.
 * State: byte i of the block (column i / 4, row i % 4) in register
 * r(2 + i); ShiftRows moves bytes along with the S-box lookups. r1 stays
 * zero. Scratch registers that held key- or data-derived values (r0, r18,
 * r19, r20, r30) are cleared before return; the callee-saved r2..r17 get
 * the caller's values back from the stack, which holds nothing else.
 *
 *   void dmd_avr_aes128_expand(uint8_t rk[176], const uint8_t key[16]);
 *   void dmd_avr_aes128_encrypt(const uint8_t rk[176], uint8_t out[16],
 *                               const uint8_t in[16]);
 *   void dmd_avr_aes128_ctr(const uint8_t rk[176], uint8_t ctr[16],
 *                           uint8_t *out, uint16_t nblocks);
 *
 * The last writes nblocks >= 1 whole keystream blocks from the 128-bit
 * big-endian counter ctr and leaves ctr at the next unused block.
 */

#define T	r18	/* AddRoundKey byte, MixColumns column sum */
#define U	r19	/* MixColumns pair sum */
#define M	r20	/* xtime mask (andi needs r16..r31) */
#define ROUNDS	r21	/* round loop counter (public) */
#define ZL	r30
#define ZH	r31

/* ---- S-box: FIPS-197 Figure 7, 256-byte aligned in the low 64 KiB ---- */

	.section .progmem.data.dmd_avr_aes_sbox, "a", @progbits
	.balign 256
	.global dmd_avr_aes_sbox
	.type dmd_avr_aes_sbox, @object
dmd_avr_aes_sbox:
	.byte 0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76
	.byte 0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0
	.byte 0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15
	.byte 0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75
	.byte 0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84
	.byte 0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf
	.byte 0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8
	.byte 0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2
	.byte 0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73
	.byte 0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb
	.byte 0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79
	.byte 0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08
	.byte 0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a
	.byte 0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e
	.byte 0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf
	.byte 0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16
	.size dmd_avr_aes_sbox, 256

/* ---- macros ---- */

/* Save / restore the callee-saved registers r2..r17 (the state). */
	.macro push_state
	.irp r, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17
	push r\r
	.endr
	.endm

	.macro pop_state
	.irp r, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2
	pop r\r
	.endr
	.endm

/* Load the state from Z+ / store it to \ptr+ (16 x 2 cycles). */
	.macro load_state ptr
	.irp r, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17
	ld r\r, \ptr+
	.endr
	.endm

	.macro store_state ptr
	.irp r, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17
	st \ptr+, r\r
	.endr
	.endm

/* AddRoundKey: the next 16 round-key bytes at X+ (48 cycles). */
	.macro add_round_key
	.irp r, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17
	ld T, X+
	eor r\r, T
	.endr
	.endm

/* d = S(s), ZH = hi8(sbox): 4 cycles for every s. */
	.macro sbox d, s
	mov ZL, \s
	lpm \d, Z
	.endm

/*
 * SubBytes and ShiftRows together (68 cycles): new byte r + 4c is
 * S(old byte r + 4((c + r) mod 4)). Row 0 stays in place; rows 1..3 are
 * rotated through r0 (one 4-cycle, two 2-cycles, one 4-cycle).
 */
	.macro sub_shift
	sbox r2, r2
	sbox r6, r6
	sbox r10, r10
	sbox r14, r14
	/* row 1: 1 <- 5 <- 9 <- 13 <- 1 */
	sbox r0, r3
	sbox r3, r7
	sbox r7, r11
	sbox r11, r15
	mov r15, r0
	/* row 2: 2 <-> 10, 6 <-> 14 */
	sbox r0, r4
	sbox r4, r12
	mov r12, r0
	sbox r0, r8
	sbox r8, r16
	mov r16, r0
	/* row 3: 3 <- 15 <- 11 <- 7 <- 3 */
	sbox r0, r5
	sbox r5, r17
	sbox r17, r13
	sbox r13, r9
	mov r9, r0
	.endm

/* x = 2x in GF(2^8) mod x^8 + x^4 + x^3 + x + 1, no branch (4 cycles). */
	.macro xtime x
	lsl \x
	sbc M, M
	andi M, 0x1b
	eor \x, M
	.endm

/*
 * One MixColumns column (36 cycles): with t = a0 ^ a1 ^ a2 ^ a3,
 * a_i' = a_i ^ t ^ 2 (a_i ^ a_(i+1)). r0 keeps the old a0 for a3'.
 */
	.macro mix_column a0, a1, a2, a3
	mov T, \a0
	eor T, \a1
	eor T, \a2
	eor T, \a3
	mov r0, \a0
	mov U, \a0
	eor U, \a1
	xtime U
	eor \a0, U
	eor \a0, T
	mov U, \a1
	eor U, \a2
	xtime U
	eor \a1, U
	eor \a1, T
	mov U, \a2
	eor U, \a3
	xtime U
	eor \a2, U
	eor \a2, T
	eor r0, \a3
	xtime r0
	eor \a3, r0
	eor \a3, T
	.endm

	.macro mix_columns
	mix_column r2, r3, r4, r5
	mix_column r6, r7, r8, r9
	mix_column r10, r11, r12, r13
	mix_column r14, r15, r16, r17
	.endm

/* Zero the scratch registers that held key- or data-derived bytes. */
	.macro clear_scratch
	clr r0
	clr T
	clr U
	clr M
	clr ZL
	.endm

	.text

/*
 * Encrypt the block in r2..r17 under the 176 round-key bytes at X.
 * Needs ZH = hi8(dmd_avr_aes_sbox); leaves X = rk + 176; clobbers r0, T,
 * U, M, ROUNDS, ZL. About 9 x 264 + 164 cycles plus call and return.
 */
	.type aes_core, @function
aes_core:
	add_round_key
	ldi ROUNDS, 9
1:	sub_shift
	mix_columns
	add_round_key
	dec ROUNDS
	breq 4f			; the loop is longer than brne reaches
	rjmp 1b
4:	sub_shift
	add_round_key
	ret
	.size aes_core, .-aes_core

/* void dmd_avr_aes128_encrypt(const uint8_t rk[176], uint8_t out[16],
 *			       const uint8_t in[16]); out may equal in. */
	.global dmd_avr_aes128_encrypt
	.type dmd_avr_aes128_encrypt, @function
dmd_avr_aes128_encrypt:
	push_state
	movw r26, r24		; X = rk
	movw r30, r20		; Z = in
	load_state Z
	ldi ZH, hi8(dmd_avr_aes_sbox)
	rcall aes_core
	movw r30, r22		; Z = out
	store_state Z
	clear_scratch
	pop_state
	ret
	.size dmd_avr_aes128_encrypt, .-dmd_avr_aes128_encrypt

/*
 * void dmd_avr_aes128_ctr(const uint8_t rk[176], uint8_t ctr[16],
 *			   uint8_t *out, uint16_t nblocks);
 *
 * Per block: load the counter into the state, write counter + 1 back (a
 * 16-byte adc chain from the last byte: full 128-bit carry, no branch),
 * encrypt, store to Y+, rewind X to rk. r22:r23 = ctr, r24:r25 = blocks
 * left (public), Y = out (saved and restored).
 */
	.global dmd_avr_aes128_ctr
	.type dmd_avr_aes128_ctr, @function
dmd_avr_aes128_ctr:
	push_state
	push r28
	push r29
	movw r26, r24		; X = rk
	movw r28, r20		; Y = out
	movw r24, r18		; blocks
2:	movw r30, r22		; Z = ctr
	load_state Z
	sec
	.irp r, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2
	mov T, r\r
	adc T, r1
	st -Z, T
	.endr
	ldi ZH, hi8(dmd_avr_aes_sbox)
	rcall aes_core
	store_state Y
	subi r26, lo8(176)	; X = rk again
	sbci r27, hi8(176)
	sbiw r24, 1
	breq 5f
	rjmp 2b
5:
	clear_scratch
	pop r29
	pop r28
	pop_state
	ret
	.size dmd_avr_aes128_ctr, .-dmd_avr_aes128_ctr

/*
 * void dmd_avr_aes128_expand(uint8_t rk[176], const uint8_t key[16]);
 *
 * The FIPS-197 key expansion with the current round key in r2..r17:
 * w[4i] ^= SubWord(RotWord(w[4i - 1])) ^ rcon, then each later word of the
 * round XORs in the one before it; every round key is stored to X+.
 * rcon is public and doubled with xtime; ten fixed iterations.
 */
#define RCON	r24
	.global dmd_avr_aes128_expand
	.type dmd_avr_aes128_expand, @function
dmd_avr_aes128_expand:
	push_state
	movw r26, r24		; X = rk
	movw r30, r22		; Z = key
	load_state Z
	store_state X
	ldi ZH, hi8(dmd_avr_aes_sbox)
	ldi RCON, 1
	ldi ROUNDS, 10
3:	sbox T, r15		; SubWord(RotWord(w3)) ^ rcon into w0
	eor T, RCON
	eor r2, T
	sbox T, r16
	eor r3, T
	sbox T, r17
	eor r4, T
	sbox T, r14
	eor r5, T
	eor r6, r2		; w1 ^= w0
	eor r7, r3
	eor r8, r4
	eor r9, r5
	eor r10, r6		; w2 ^= w1
	eor r11, r7
	eor r12, r8
	eor r13, r9
	eor r14, r10		; w3 ^= w2
	eor r15, r11
	eor r16, r12
	eor r17, r13
	store_state X
	xtime RCON
	dec ROUNDS
	brne 3b
	clear_scratch
	pop_state
	ret
	.size dmd_avr_aes128_expand, .-dmd_avr_aes128_expand
