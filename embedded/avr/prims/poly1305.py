#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Generate embedded/avr/prims/poly1305.S (python3 poly1305.py > poly1305.S).

Key setup (dmd_poly1305_init), the block loop and the final reduction; the
buffering of partial blocks stays in poly1305.c.

Poly1305 block loop and final reduction for the ATmega2560 on the radix-8
context of core/poly1305.h (r[16] s[16] h[17] buf[16] buf_len).

Multiplication with the reduction folded in. Write r = R0 + R1 2^32 +
R2 2^64 + R3 2^96 (32-bit words). The clamp makes R1, R2, R3 multiples of
4, so 2^128 R_k = 2^130 R_k / 4 = 5 R_k / 4 = S_k (mod p) is an integer,
S_k = R_k + (R_k >> 2) < 2^29. With A = h + m = A0 + A1 2^32 + A2 2^64 +
A3 2^96 + a16 2^128, the product A r (mod p) is

    sum_i A_i T_i + a16 (S1 2^32 + S2 2^64 + S3 2^96 + R0 2^128)

where T_i is r rotated by i words with the words that wrap past 2^128
replaced by S: T_0 = (R0 R1 R2 R3), T_1 = (S3 R0 R1 R2), T_2 = (S2 S3 R0
R1), T_3 = (S1 S2 S3 R0). With the 28-byte string z = S1 S2 S3 R0 R1 R2 R3,
byte t of T_i is z[12 - 4i + t]. So the product is 19 byte columns, not
33, and the reduction is a fold of only the bits at 2^130 and up of a
160-bit number. Bounds: h < 5 * 2^128 after a block, so a16 <= 6; each
A_i T_i < 2^32 2^124 and the a16 term < 2^159: the sum F < 2^160 (20 bytes);
the a16 term is a16 z[p - 4] at byte p = 4..19.

Columns are computed by product scanning with a 3-byte accumulator, in two
passes of two row words (A0 A1, then A2 A3 and a16) held in registers. The
z bytes a pass needs in one column are 8 consecutive bytes that slide by one
per column, so they stay in an 8-register window and each column loads
exactly one new byte (operand caching). Pass 1 leaves its column bytes on the
stack, pass 2 adds them in.

Reduction: F = F_lo + 2^128 t, t < 2^32; h = F_lo + (t & 3) 2^128 +
5 (t >> 2), computed as c = (t & ~3) + (t >> 2) < 2^33 added into F_lo.
Pass 2 leaves t (columns 16..19) in the dead A2 registers. c is added into bytes
0..4 of h only: the carry k out of byte 4 is not run through bytes 5..15
(11 loads and stores) but kept in bit 7 of h[16] (t & 3 uses bits 0..1), so
the stored h means h[0..15] + k 2^40 + (h[16] & 0x7f) 2^128 < 5 2^128. The
next block adds k at byte 5 of A = h + m in registers (a second adc chain,
12 cycles), the final before its reduction. The deferred form is private to
poly1305.S: init stores h = 0, nothing else reads h.
"""

out = []


def emit(s):
    out.append('\t' + s)


ZERO = 'r21'
A16 = 'r22'
HIBIT = 'r23'
AREG = ['r%d' % i for i in range(2, 10)]
WIN = ['r%d' % i for i in range(10, 18)]

# ctx offsets
R_OFF, S_OFF, H_OFF = 0, 16, 32
# frame offsets (Y + 1 is the first byte)
F_S, F_AHI, F_P = 1, 13, 21
FRAME = 40


def zsrc(idx):
    """Address of z[idx]: S on the frame, R in the context."""
    if idx < 12:
        return 'Y+%d' % (F_S + idx)
    return 'Z+%d' % (R_OFF + idx - 12)


def gen_pass(rows, second):
    """Product scanning over the row words in @rows (a bytes in AREG)."""
    acc = ['r18', 'r19', 'r20']
    for r in acc:
        emit('clr %s' % r)
    window = {}        # slot -> z index held
    ncols = 20 if second else 19
    for p in range(ncols):
        emit('; column %d' % p)
        terms = []     # (a register, z index)
        for k, i in enumerate(rows):
            for jp in range(4):
                t = p - jp
                if 0 <= t < 16:
                    terms.append((AREG[4 * k + jp], 12 - 4 * i + t))
        if second:
            # add the column byte of pass 1
            emit('ldd r0, Y+%d' % (F_P + p))
            emit('add %s, r0' % acc[0])
            emit('adc %s, %s' % (acc[1], ZERO))
            # a16 (S1 2^32 + S2 2^64 + S3 2^96 + R0 2^128): z[p - 4] at
            # byte p, taken before the window slides past it
            if p >= 4:
                if window.get((p - 4) % 8) == p - 4:
                    emit('mul %s, %s' % (A16, WIN[(p - 4) % 8]))
                else:
                    emit('ldd r0, %s' % zsrc(p - 4))
                    emit('mul %s, r0' % A16)
                emit('add %s, r0' % acc[0])
                emit('adc %s, r1' % acc[1])
                emit('adc %s, %s' % (acc[2], ZERO))
        need = sorted({z for _, z in terms})
        assert not need or need[-1] - need[0] < 8
        for z in need:
            if window.get(z % 8) != z:
                window[z % 8] = z
                emit('ldd %s, %s' % (WIN[z % 8], zsrc(z)))
        for a, z in terms:
            emit('mul %s, %s' % (a, WIN[z % 8]))
            emit('add %s, r0' % acc[0])
            emit('adc %s, r1' % acc[1])
            emit('adc %s, %s' % (acc[2], ZERO))
        if second and p < 16:
            emit('std Z+%d, %s' % (H_OFF + p, acc[0]))
        elif second:
            # t = F >> 128 stays in registers for the fold: byte jp of
            # A2 was last used in column jp + 15
            emit('mov %s, %s' % (AREG[p - 16], acc[0]))
        else:
            emit('std Y+%d, %s' % (F_P + p, acc[0]))
        acc = acc[1:] + acc[:1]
        if p != ncols - 1:
            emit('clr %s' % acc[2])
    if not second:
        # F_pass1 < 2^158: byte 19 is the last
        emit('std Y+%d, %s' % (F_P + 19, acc[0]))


def gen_blocks():
    print('''
/*
 * void dmd_avr_poly1305_blocks(struct dmd_poly1305 *ctx, const uint8_t *m,
 *                              size_t nblocks, uint8_t hibit);
 *
 * h = (h + m_j + hibit 2^128) r mod 2^130 - 5 (partly reduced: h < 5 2^128)
 * for nblocks >= 1 blocks of 16 bytes. Constant time: the only branch is
 * the loop over the public block count; every load address is fixed or
 * steps over the message; products are MUL (fixed two cycles); carries run
 * through adc, never a branch (the deferred fold carry k too: lsl, adc,
 * ror). The 40-byte frame (S, A2 A3, pass-1 columns:
 * key- and message-derived) is zeroed before return.
 */
	.global dmd_avr_poly1305_blocks
	.type dmd_avr_poly1305_blocks, @function
dmd_avr_poly1305_blocks:''')
    saved = ['r%d' % i for i in range(2, 18)] + ['r28', 'r29']
    for r in saved:
        emit('push %s' % r)
    emit('in r28, 0x3d')
    emit('in r29, 0x3e')
    emit('sbiw r28, %d' % FRAME)
    emit('in r0, 0x3f')
    emit('cli')
    emit('out 0x3e, r29')
    emit('out 0x3f, r0')
    emit('out 0x3d, r28')
    emit('movw r30, r24\t\t; Z = ctx')
    emit('movw r26, r22\t\t; X = m')
    emit('movw r24, r20\t\t; nblocks')
    emit('mov %s, r18' % HIBIT)
    emit('clr %s' % ZERO)
    # S_k = R_k + (R_k >> 2), k = 1..3, to the frame
    for k in range(1, 4):
        for b in range(4):
            emit('ldd r%d, Z+%d' % (10 + b, R_OFF + 4 * k + b))
        emit('movw r14, r10')
        emit('movw r16, r12')
        for _ in range(2):
            emit('lsr r17')
            emit('ror r16')
            emit('ror r15')
            emit('ror r14')
        emit('add r10, r14')
        emit('adc r11, r15')
        emit('adc r12, r16')
        emit('adc r13, r17')
        for b in range(4):
            emit('std Y+%d, r%d' % (F_S + 4 * (k - 1) + b, 10 + b))
    out.append('1:')
    emit('; A = h + m + hibit 2^128: A0 A1 to registers, A2 A3 to the frame')
    A = AREG + WIN
    for i in range(16):
        emit('ldd %s, Z+%d' % (A[i], H_OFF + i))
        emit('ld r0, X+')
        emit('%s %s, r0' % ('add' if i == 0 else 'adc', A[i]))
    # ldd, mov and andi leave the carry alone
    emit('ldd %s, Z+%d' % (A16, H_OFF + 16))
    emit('mov r19, %s' % A16)
    emit('andi %s, 0x7f' % A16)
    emit('adc %s, %s' % (A16, HIBIT))
    emit('; the fold carry k of the last block (bit 7 of h16) at 2^40')
    emit('lsl r19')
    for i in range(5, 16):
        emit('adc %s, %s' % (A[i], ZERO))
    emit('adc %s, %s' % (A16, ZERO))
    for i in range(8, 16):
        emit('std Y+%d, %s' % (F_AHI + i - 8, A[i]))
    emit('; pass 1: A0 A1')
    gen_pass([0, 1], False)
    emit('; pass 2: A2 A3 and a16')
    for i in range(8):
        emit('ldd %s, Y+%d' % (AREG[i], F_AHI + i))
    gen_pass([2, 3], True)
    emit('; fold: h = F_lo + (t & 3) 2^128 + (t & ~3) + (t >> 2), t in r2..r5')
    emit('mov %s, r2' % 'r18')
    emit('andi r18, 3')
    emit('movw r6, r2')
    emit('movw r8, r4')
    for _ in range(2):
        emit('lsr r9')
        emit('ror r8')
        emit('ror r7')
        emit('ror r6')
    emit('sub r2, r18')
    emit('clr r10')
    emit('add r2, r6')
    emit('adc r3, r7')
    emit('adc r4, r8')
    emit('adc r5, r9')
    emit('adc r10, %s' % ZERO)
    c = ['r2', 'r3', 'r4', 'r5', 'r10']
    for i in range(5):
        emit('ldd r11, Z+%d' % (H_OFF + i))
        emit('%s r11, %s' % ('add' if i == 0 else 'adc', c[i]))
        emit('std Z+%d, r11' % (H_OFF + i))
    emit('; the carry k out of byte 4 is not propagated: it goes to bit 7 of h16')
    emit('clr r19			; eor: the carry stays')
    emit('ror r19')
    emit('or r18, r19')
    emit('std Z+%d, r18' % (H_OFF + 16))
    emit('sbiw r24, 1')
    emit('breq 2f')
    emit('rjmp 1b')
    out.append('2:')
    for i in range(FRAME):
        emit('std Y+%d, %s' % (1 + i, ZERO))
    emit('adiw r28, %d' % FRAME)
    emit('in r0, 0x3f')
    emit('cli')
    emit('out 0x3e, r29')
    emit('out 0x3f, r0')
    emit('out 0x3d, r28')
    for r in reversed(saved):
        emit('pop %s' % r)
    emit('clr r1')
    emit('ret')
    print('\n'.join(out))
    out.clear()
    print('\t.size dmd_avr_poly1305_blocks, .-dmd_avr_poly1305_blocks')


def gen_finish():
    print('''
/*
 * void dmd_avr_poly1305_finish(struct dmd_poly1305 *ctx, uint8_t tag[16]);
 *
 * tag = (h mod p + s) mod 2^128, then all 66 bytes of ctx are zeroed.
 * h < 5 2^128 on entry (after adding the deferred fold carry, bit 7 of h16,
 * at byte 5): folding (h16 >> 2) 5 back in leaves h < 2^130 + 5
 * < 2p, so one conditional subtraction of p suffices; it is h + 5 - 2^130,
 * whose low 128 bits are those of h + 5. The choice is a mask from bit 130
 * of h + 5 (lsr, neg), not a branch. Constant time: straight-line code.
 */
	.global dmd_avr_poly1305_finish
	.type dmd_avr_poly1305_finish, @function
dmd_avr_poly1305_finish:''')
    saved = ['r%d' % i for i in range(2, 18)]
    for r in saved:
        emit('push %s' % r)
    emit('movw r30, r24\t\t; Z = ctx')
    emit('movw r26, r22\t\t; X = tag')
    H = ['r%d' % i for i in range(2, 18)] + ['r18']
    for i in range(17):
        emit('ldd %s, Z+%d' % (H[i], H_OFF + i))
    # the deferred fold carry k (bit 7 of h16) at 2^40
    emit('mov r19, r18')
    emit('andi r18, 0x7f')
    emit('lsl r19')
    for i in range(5, 17):
        emit('adc %s, r1' % H[i])
    # c = (h16 >> 2) * 5, h16 &= 3
    emit('mov r19, r18')
    emit('lsr r19')
    emit('lsr r19')
    emit('mov r20, r19')
    emit('lsl r19')
    emit('lsl r19')
    emit('add r19, r20')
    emit('andi r18, 3')
    emit('add r2, r19')
    for i in range(1, 17):
        emit('adc %s, r1' % H[i])
    # bit 130 of h + 5
    emit('ldi r20, 5')
    emit('mov r19, r2')
    emit('add r19, r20')
    for i in range(1, 17):
        emit('mov r19, %s' % H[i])
        emit('adc r19, r1')
    emit('lsr r19')
    emit('lsr r19')
    emit('neg r19\t\t\t; 0xff when h >= p')
    emit('and r20, r19')
    emit('add r2, r20')
    for i in range(1, 16):
        emit('adc %s, r1' % H[i])
    for i in range(16):
        emit('ldd r19, Z+%d' % (S_OFF + i))
        emit('%s %s, r19' % ('add' if i == 0 else 'adc', H[i]))
    for i in range(16):
        emit('st X+, %s' % H[i])
    for i in range(66):
        emit('st Z+, r1')
    for r in reversed(saved):
        emit('pop %s' % r)
    emit('ret')
    print('\n'.join(out))
    out.clear()
    print('\t.size dmd_avr_poly1305_finish, .-dmd_avr_poly1305_finish')


def gen_init():
    print('''
/*
 * void dmd_poly1305_init(struct dmd_poly1305 *ctx, const uint8_t key[32]);
 *
 * r = clamp(key[0..15]), s = key[16..31], h = 0, buf_len = 0. The clamp
 * clears the top four bits of r[3], r[7], r[11], r[15] and the low two bits
 * of r[4], r[8], r[12]: fixed masks, straight-line code. Only call-clobbered
 * registers: no frame, nothing of the key left on the stack.
 */
	.global dmd_poly1305_init
	.type dmd_poly1305_init, @function
dmd_poly1305_init:''')
    emit('movw r30, r24\t\t; Z = ctx')
    emit('movw r26, r22\t\t; X = key')
    for i in range(32):
        emit('ld r18, X+')
        if i in (3, 7, 11, 15):
            emit('andi r18, 15')
        elif i in (4, 8, 12):
            emit('andi r18, 252')
        emit('st Z+, r18')
    for i in range(17):
        emit('st Z+, r1')
    emit('std Z+%d, r1\t\t; buf_len' % 16)
    emit('ret')
    print('\n'.join(out))
    out.clear()
    print('\t.size dmd_poly1305_init, .-dmd_poly1305_init')


print('''/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Generated by poly1305.py in this directory; edit that, not this file.
 * Poly1305 (RFC 8439) for the ATmega2560; see poly1305.py for the method
 * and poly1305.c for the C API around it.
 */
	.text''')
gen_init()
gen_blocks()
gen_finish()
