#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Generate embedded/avr/prims/ghash_mul.S (python3 ghash_mul.py > ghash_mul.S).

GHASH multiply for the ATmega2560 by 4-bit tables of H (Shoup's method,
two tables so that a step consumes a whole byte of Y).

Bit order (SP 800-38D): byte 0 of a block holds x^0 (bit 7) .. x^7 (bit
0), byte 15 holds x^120 .. x^127. With Y = sum_k Y_k x^(8k), Horner from
the last byte gives Y H = (..((T[Y_15]) x^8 + T[Y_14]) x^8 ..) + T[Y_0],
where T[b] = b(x) H for the byte b as a polynomial of degree < 8. T[b]
splits by nibbles: T[b] = Thi[b >> 4] + Tlo[b & 15], Thi[n] = n(x) H and
Tlo[n] = n(x) x^4 H (bit 3 of a nibble is its lowest power). Both tables
are 16 entries of 16 bytes in one 512-byte, 256-aligned block of SRAM, so
an entry's address is a fixed high byte and a low byte (n << 4).

Times x^8 is a move of every byte one place up (byte 15, o, drops out)
plus the reduction of o x^128 = o(x) (1 + x + x^2 + x^7), a 15-bit value
in bytes 0 and 1: R[o], 256 two-byte entries in flash (R0, R1: two
256-aligned tables read by lpm with ZH fixed). The accumulator sits in
16 registers and the byte move is a renaming: the register that held o
receives R0[o] and becomes byte 0; no instruction moves a byte.

Constant time on the AVR: no data cache, LD takes 2 cycles and LPM 3
whatever the address, and every step runs the same instructions whatever
Y and H are (the table indices are data, the instruction stream is not).
The table holds multiples of H: dmd_ghash_mul_wipe() zeroes it. Entry 0
of each table is zero and never written (the wipe and .bss keep it so).

Context layout (include/diamond/ghash.h): H and Y as uint32 big-endian
words, so GCM byte j lives at offset 4 (j / 4) + 3 - j % 4.
"""

out = []


def emit(s):
    out.append('\t' + s)


def off(j):
    return 4 * (j // 4) + 3 - j % 4


def rtab():
    """R[o] for o x^128, o's bit 7 - j = coefficient of x^(120 + j)."""
    r0, r1 = [], []
    for o in range(256):
        v = 0       # 16-bit, bit 15 - i = coefficient of x^i
        for j in range(8):
            if o & (0x80 >> j):
                for e in (0, 1, 2, 7):
                    v ^= 0x8000 >> (j + e)
        r0.append(v >> 8)
        r1.append(v & 0xff)
    return r0, r1


ZR = ['r%d' % i for i in range(2, 18)]     # accumulator / H, 16 registers
T, YB, M = 'r18', 'r19', 'r20'


def table_byte_lines(name, vals):
    print('\t.global %s' % name)
    print('\t.type %s, @object' % name)
    print('%s:' % name)
    for i in range(0, 256, 16):
        print('\t.byte ' + ', '.join('0x%02x' % v for v in vals[i:i + 16]))
    print('\t.size %s, 256' % name)


def prologue():
    for r in ZR + ['r28', 'r29']:
        emit('push %s' % r)


def epilogue():
    for r in reversed(ZR + ['r28', 'r29']):
        emit('pop %s' % r)
    emit('ret')


def gen_table():
    """void dmd_avr_ghash_table(const uint32_t h[4])."""
    print('''
/*
 * void dmd_avr_ghash_table(const uint32_t h[4]);
 * Thi[n] = n(x) H, Tlo[n] = n(x) x^4 H into dmd_avr_ghash_tab. The powers
 * H x^0 .. x^7 are the entries 8, 4, 2, 1 of Thi, then of Tlo (one shift
 * a step: right by one bit, 0xe1 into byte 0 when x^127 drops out, by a
 * mask, not a branch); every other entry is a Gray-code walk over them
 * (one XOR of a stored power, one store). Fixed addresses and counts.
 */
	.section .text.dmd_avr_ghash_table, "ax", @progbits
	.global dmd_avr_ghash_table
	.type dmd_avr_ghash_table, @function
dmd_avr_ghash_table:''')
    prologue()
    emit('movw r30, r24')
    for j in range(16):
        emit('ldd %s, Z+%d' % (ZR[j], off(j)))
    emit('ldi r27, hi8(dmd_avr_ghash_tab)')
    for p in range(8):
        tbl = 0 if p < 4 else 256
        ent = 8 >> (p % 4)
        emit('; H x^%d -> %s[%d]' % (p, 'Thi' if p < 4 else 'Tlo', ent))
        emit('ldi r26, lo8(dmd_avr_ghash_tab + %d)' % (tbl + 16 * ent))
        if tbl:
            emit('ldi r27, hi8(dmd_avr_ghash_tab + 256)')
        for j in range(16):
            emit('st X+, %s' % ZR[j])
        if p == 7:
            break
        emit('lsr %s' % ZR[0])
        for j in range(1, 16):
            emit('ror %s' % ZR[j])
        emit('sbc %s, %s' % (M, M))
        emit('andi %s, 0xe1' % M)
        emit('eor %s, %s' % (ZR[0], M))
    gray = [i ^ (i >> 1) for i in range(16)]
    for tbl in (0, 256):
        emit('; %s: Gray-code walk from entry 0 (zero)' % ('Thi' if tbl == 0 else 'Tlo'))
        for j in range(16):
            emit('clr %s' % ZR[j])
        for i in range(1, 16):
            g, prev = gray[i], gray[i - 1]
            bit = g ^ prev
            emit('ldi r26, lo8(dmd_avr_ghash_tab + %d)' % (tbl + 16 * bit))
            emit('ldi r27, hi8(dmd_avr_ghash_tab + %d)' % tbl)
            for j in range(16):
                emit('ld %s, X+' % T)
                emit('eor %s, %s' % (ZR[j], T))
            if g & (g - 1):
                emit('ldi r26, lo8(dmd_avr_ghash_tab + %d)' % (tbl + 16 * g))
                for j in range(16):
                    emit('st X+, %s' % ZR[j])
    emit('clr %s' % T)
    emit('clr %s' % M)
    epilogue()
    print('\n'.join(out))
    out.clear()
    print('\t.size dmd_avr_ghash_table, .-dmd_avr_ghash_table')


def gen_mul():
    """void dmd_avr_ghash_mul(uint32_t y[4], const uint8_t blk[16])."""
    print('''
/*
 * void dmd_avr_ghash_mul(uint32_t y[4], const uint8_t blk[16]);
 * y = (y + blk) H with the tables of dmd_avr_ghash_table(). Straight
 * line: per byte of y + blk (15 down to 0) one R lookup (lpm), the two
 * table entries XORed in (ld), the same instructions for every value.
 * The scratch registers that held data are cleared before return.
 */
	.section .text.dmd_avr_ghash_mul, "ax", @progbits
	.global dmd_avr_ghash_mul
	.type dmd_avr_ghash_mul, @function
dmd_avr_ghash_mul:''')
    prologue()
    emit('movw r28, r24\t\t; Y = y')
    emit('movw r24, r22\t\t; r25:r24 = blk')
    z = list(ZR)         # z[i] = register of accumulator byte i
    for k in range(15, -1, -1):
        emit('; byte %d' % k)
        emit('ldd %s, Y+%d' % (YB, off(k)))
        emit('movw r30, r24')
        emit('ldd %s, Z+%d' % (T, k))
        emit('eor %s, %s' % (YB, T))
        if k < 15:
            o = z[15]
            z = [o] + z[:15]
            emit('mov r30, %s' % o)
            emit('ldi r31, hi8(dmd_avr_ghash_r0)')
            emit('lpm %s, Z' % o)
            emit('ldi r31, hi8(dmd_avr_ghash_r1)')
            emit('lpm %s, Z' % T)
            emit('eor %s, %s' % (z[1], T))
        emit('mov r26, %s' % YB)
        emit('andi r26, 0xf0')
        emit('ldi r27, hi8(dmd_avr_ghash_tab)')
        for i in range(16):
            if k == 15:
                emit('ld %s, X+' % z[i])
            else:
                emit('ld %s, X+' % T)
                emit('eor %s, %s' % (z[i], T))
        emit('mov r26, %s' % YB)
        emit('swap r26')
        emit('andi r26, 0xf0')
        emit('ldi r27, hi8(dmd_avr_ghash_tab + 256)')
        for i in range(16):
            emit('ld %s, X+' % T)
            emit('eor %s, %s' % (z[i], T))
    for j in range(16):
        emit('std Y+%d, %s' % (off(j), z[j]))
    emit('clr %s' % T)
    emit('clr %s' % YB)
    emit('clr r26')
    emit('clr r30')
    epilogue()
    print('\n'.join(out))
    out.clear()
    print('\t.size dmd_avr_ghash_mul, .-dmd_avr_ghash_mul')


def main():
    print('/* SPDX-License-Identifier: GPL-2.0 OR MIT */')
    print('/* Generated by ghash_mul.py (which explains the method): do not edit. */')
    print('''
/* ---- R[o] = o(x) x^128 mod P: bytes 0 and 1, 256-aligned in the low 64 KiB ---- */
	.section .progmem.data.dmd_avr_ghash_r, "a", @progbits
	.balign 256''')
    r0, r1 = rtab()
    table_byte_lines('dmd_avr_ghash_r0', r0)
    table_byte_lines('dmd_avr_ghash_r1', r1)
    print('''
/* ---- Thi (256 bytes) then Tlo (256), 256-aligned in SRAM ---- */
	.section .bss.dmd_avr_ghash_tab, "aw", @nobits
	.balign 256
	.global dmd_avr_ghash_tab
	.type dmd_avr_ghash_tab, @object
dmd_avr_ghash_tab:
	.skip 512
	.size dmd_avr_ghash_tab, 512''')
    gen_table()
    gen_mul()


main()
