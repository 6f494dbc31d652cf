#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Generate embedded/avr/prims/poly1305.S (python3 poly1305.py > poly1305.S).

Poly1305 for the ATmega2560: the one-call MAC dmd_poly1305(), and key setup
(dmd_poly1305_init), block loop and final reduction for the incremental API
on the radix-8 context of include/diamond/poly1305.h (r[16] s[16] h[17] buf[16]
buf_len), whose buffering of partial blocks stays in poly1305.c.

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
frame, pass 2 adds them in.

dmd_avr_poly1305_xor_pre() (a sender's window slot, poly1305.h) reads S1 S2
S3 and the clamped r from the key itself, as dmd_avr_poly1305_prep() left
them there when the slot was precomputed: no S on its frame, no clamping.
Otherwise z lives in two places: S1 S2 S3 (computed once per call) on the frame, R
read straight from the key (or the context's r) and clamped as it is loaded
(andi on the window registers that receive the clamped bytes, r16..r19), so
no copy of r is made. h lives on the frame between blocks, in the 20 bytes
that pass 1 uses for its columns (h is read into A before pass 1 writes).

Reduction: F = F_lo + 2^128 t, t < 2^32; h = F_lo + (t & 3) 2^128 +
5 (t >> 2), computed as c = (t & ~3) + (t >> 2) < 2^33 added into F_lo.
Pass 2 leaves t (columns 16..19) in the dead A2 registers. c is added into bytes
0..4 of h only: the carry k out of byte 4 is not run through bytes 5..15
(11 loads and stores) but kept in bit 7 of h[16] (t & 3 uses bits 0..1), so
the stored h means h[0..15] + k 2^40 + (h[16] & 0x7f) 2^128 < 5 2^128. The
next block adds k at byte 5 of A = h + m in registers (a second adc chain,
12 cycles), the final before its reduction. The deferred form is private to
poly1305.S: init stores h = 0, nothing else reads h.

The first block of dmd_poly1305() starts from h = 0: A = m + 2^128 is
loaded without reading h, so h needs no zeroing (only a message shorter than
16 bytes, which has no first full block, zeroes it). It has a body of its
own: a16 = 1, so its terms are z bytes added without a multiply, and pass 2
reads A2 A3 from the message, not from the frame.
"""

out = []


def emit(s):
    out.append('\t' + s)


def label(s):
    out.append(s + ':')


# Registers of the block body. The window registers of slots 0, 3, 4, 7
# receive the clamped bytes of r (z indices 15, 16, 19, 20, 23, 24, 27),
# so they are r16..r19, where andi works.
AREG = ['r%d' % i for i in range(2, 10)]
WIN = ['r16', 'r10', 'r11', 'r17', 'r18', 'r12', 'r13', 'r19']
ACC = ['r20', 'r21', 'r22']
A16 = 'r23'
ZERO = 'r14'
HIBIT = 'r15'
# r24:r25 block counter, X message, Y frame, Z key (or context)

# key / context offsets: r (unclamped in the key) at 0, s at 16
R_OFF, S_OFF, CTX_H = 0, 16, 32
# frame offsets (Y + 1 is the first byte)
F_S = 1        # S1 S2 S3, 12 bytes
F_AHI = 13     # A2 A3 (8 bytes); before that the padded last block (16)
F_W = 29       # h (17 bytes) between blocks, pass-1 columns (20) in one
F_TAG = 49     # tag pointer (dmd_poly1305)
F_REST = 51    # len % 16 not yet hashed (dmd_poly1305)
F_XOR = 52     # 1: XOR the tag into its destination (dmd_poly1305_xor)
F_AW = 53      # non-zero: A2 A3 or a padded block were written at F_AHI
FRAME = 53
WIPE = F_TAG - 1   # bytes 1..48 held key- or message-derived values

CLAMP = {3: 15, 7: 15, 11: 15, 15: 15, 4: 252, 8: 252, 12: 252}
SAVED = ['r%d' % i for i in range(2, 18)] + ['r28', 'r29']


# dmd_avr_poly1305_xor_pre: Z points at S1 S2 S3 || clamped r || s, made
# by dmd_avr_poly1305_prep() when the key was precomputed
PRE = False
PK_R, PK_S = 12, 28


def zload(reg, idx):
    """reg = z[idx]: S from the frame, R from Z, clamped (PRE: both from Z,
    r clamped already)."""
    if PRE:
        emit('ldd %s, Z+%d' % (reg, idx if idx < 12 else PK_R + idx - 12))
        return
    if idx < 12:
        emit('ldd %s, Y+%d' % (reg, F_S + idx))
        return
    b = idx - 12
    emit('ldd %s, Z+%d' % (reg, R_OFF + b))
    if b in CLAMP:
        assert reg in ('r16', 'r17', 'r18', 'r19'), (reg, idx)
        emit('andi %s, %d' % (reg, CLAMP[b]))


def gen_pass(rows, second, first=False):
    """Product scanning over the row words in @rows (a bytes in AREG).

    With @first (the first block of a one-call MAC, h = 0, a full block),
    a16 = 1: its terms are z bytes added, no multiply.
    """
    acc = list(ACC)
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
            emit('ldd r0, Y+%d' % (F_W + p))
            emit('add %s, r0' % acc[0])
            emit('adc %s, %s' % (acc[1], ZERO))
            # a16 (S1 2^32 + S2 2^64 + S3 2^96 + R0 2^128): z[p - 4] at
            # byte p, taken before the window slides past it
            if p >= 4:
                assert window.get((p - 4) % 8) == p - 4
                if first:
                    emit('add %s, %s' % (acc[0], WIN[(p - 4) % 8]))
                    emit('adc %s, %s' % (acc[1], ZERO))
                else:
                    emit('mul %s, %s' % (A16, WIN[(p - 4) % 8]))
                    emit('add %s, r0' % acc[0])
                    emit('adc %s, r1' % acc[1])
                emit('adc %s, %s' % (acc[2], ZERO))
        need = sorted({z for _, z in terms})
        assert not need or need[-1] - need[0] < 8
        for z in need:
            if window.get(z % 8) != z:
                window[z % 8] = z
                zload(WIN[z % 8], z)
        for a, z in terms:
            emit('mul %s, %s' % (a, WIN[z % 8]))
            emit('add %s, r0' % acc[0])
            emit('adc %s, r1' % acc[1])
            emit('adc %s, %s' % (acc[2], ZERO))
        if second and p >= 16:
            # t = F >> 128 stays in registers for the fold: byte jp of
            # A2 was last used in column jp + 15
            emit('mov %s, %s' % (AREG[p - 16], acc[0]))
        else:
            emit('std Y+%d, %s' % (F_W + p, acc[0]))
        acc = acc[1:] + acc[:1]
        if p != ncols - 1:
            emit('clr %s' % acc[2])
    if not second:
        # F_pass1 < 2^158: byte 19 is the last
        emit('std Y+%d, %s' % (F_W + 19, acc[0]))


def gen_setup_s():
    """S_k = R_k + (R_k >> 2), k = 1..3, from Z (clamped) to the frame."""
    for k in range(1, 4):
        for b in range(4):
            zload('r%d' % (16 + b), 12 + 4 * k + b)
        emit('movw r20, r16')
        emit('movw r22, r18')
        for _ in range(2):
            emit('lsr r23')
            emit('ror r22')
            emit('ror r21')
            emit('ror r20')
        emit('add r16, r20')
        emit('adc r17, r21')
        emit('adc r18, r22')
        emit('adc r19, r23')
        for b in range(4):
            emit('std Y+%d, r%d' % (F_S + 4 * (k - 1) + b, 16 + b))


def gen_prologue():
    for r in SAVED:
        emit('push %s' % r)
    emit('in r28, 0x3d')
    emit('in r29, 0x3e')
    emit('sbiw r28, %d' % FRAME)
    emit('in r0, 0x3f')
    emit('cli')
    emit('out 0x3e, r29')
    emit('out 0x3f, r0')
    emit('out 0x3d, r28')


def gen_a_first():
    emit('; A = m + 2^128 (h = 0): A0 A1 to registers, A2 A3 read in pass 2')
    for i in range(8):
        emit('ld %s, X+' % AREG[i])


def gen_a_general():
    emit('; A = h + m + hibit 2^128: A0 A1 to registers, A2 A3 to the frame')
    emit('ldi r20, 1')
    emit('std Y+%d, r20\t\t; F_AHI to be wiped' % F_AW)
    A = AREG + WIN
    for i in range(16):
        emit('ldd %s, Y+%d' % (A[i], F_W + i))
        emit('ld r0, X+')
        emit('%s %s, r0' % ('add' if i == 0 else 'adc', A[i]))
    # ldd, mov and andi leave the carry alone
    emit('ldd %s, Y+%d' % (A16, F_W + 16))
    emit('mov r20, %s' % A16)
    emit('andi %s, 0x7f' % A16)
    emit('adc %s, %s' % (A16, HIBIT))
    emit('; the fold carry k of the last block (bit 7 of h16) at 2^40')
    emit('lsl r20')
    for i in range(5, 16):
        emit('adc %s, %s' % (A[i], ZERO))
    emit('adc %s, %s' % (A16, ZERO))
    for i in range(8, 16):
        emit('std Y+%d, %s' % (F_AHI + i - 8, A[i]))


def gen_body(first=False):
    emit('; pass 1: A0 A1')
    gen_pass([0, 1], False)
    emit('; pass 2: A2 A3 and a16')
    for i in range(8):
        if first:
            emit('ld %s, X+' % AREG[i])
        else:
            emit('ldd %s, Y+%d' % (AREG[i], F_AHI + i))
    gen_pass([2, 3], True, first)
    emit('; fold: h = F_lo + (t & 3) 2^128 + (t & ~3) + (t >> 2), t in r2..r5')
    emit('mov r16, r2')
    emit('andi r16, 3')
    emit('movw r6, r2')
    emit('movw r8, r4')
    for _ in range(2):
        emit('lsr r9')
        emit('ror r8')
        emit('ror r7')
        emit('ror r6')
    emit('sub r2, r16')
    emit('clr r17')
    emit('add r2, r6')
    emit('adc r3, r7')
    emit('adc r4, r8')
    emit('adc r5, r9')
    emit('adc r17, %s' % ZERO)
    c = ['r2', 'r3', 'r4', 'r5', 'r17']
    for i in range(5):
        emit('ldd r18, Y+%d' % (F_W + i))
        emit('%s r18, %s' % ('add' if i == 0 else 'adc', c[i]))
        emit('std Y+%d, r18' % (F_W + i))
    emit('; the carry k out of byte 4 is not propagated: it goes to bit 7 of h16')
    emit('clr r19			; eor: the carry stays')
    emit('ror r19')
    emit('or r16, r19')
    emit('std Y+%d, r16' % (F_W + 16))


def gen_finish_math(hsrc, xor_flag=None, L='.Lp'):
    """h (deferred form) from @hsrc to registers, tag = (h mod p + s) to X.

    Needs r1 = 0, Z = key or context (s at Z+16), X = tag. With @xor_flag
    (a frame offset), the tag is XORed into X instead when that byte is
    non-zero (a public mode, so a branch).
    """
    H = ['r%d' % i for i in range(2, 18)] + ['r18']
    for i in range(17):
        emit('ldd %s, %s+%d' % (H[i], hsrc[0], hsrc[1] + i))
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
    # bit 130 of h + 5: h16 plus the carry out of h[0..15] + 5, which is
    # set unless h[0..15] < 2^128 - 5 (a compare chain: the borrow, no sum)
    emit('ldi r20, 5')
    emit('ldi r19, 0xfb')
    emit('cp r2, r19')
    emit('ldi r19, 0xff')
    for i in range(1, 16):
        emit('cpc %s, r19' % H[i])
    emit('mov r19, %s\t\t; mov, inc leave the borrow' % H[16])
    emit('inc r19')
    emit('sbc r19, r1')
    emit('lsr r19')
    emit('lsr r19')
    emit('neg r19\t\t\t; 0xff when h >= p')
    emit('and r20, r19')
    emit('add r2, r20')
    for i in range(1, 16):
        emit('adc %s, r1' % H[i])
    for i in range(16):
        emit('ldd r19, Z+%d' % ((PK_S if PRE else S_OFF) + i))
        emit('%s %s, r19' % ('add' if i == 0 else 'adc', H[i]))
    if xor_flag is not None:
        emit('ldd r19, Y+%d\t\t; mode' % xor_flag)
        emit('tst r19')
        emit('breq %s_store' % L)
        for i in range(16):
            emit('ld r19, X')
            emit('eor %s, r19' % H[i])
            emit('st X+, %s' % H[i])
        emit('rjmp %s_exit' % L)
        label(L + '_store')
    for i in range(16):
        emit('st X+, %s' % H[i])


def flush(name):
    print('\n'.join(out))
    out.clear()
    print('\t.size %s, .-%s' % (name, name))


def gen_mac():
    print('''
/*
 * void dmd_poly1305(const uint8_t key[32], const uint8_t *m, size_t len,
 *                   uint8_t tag[16]);
 * void dmd_poly1305_xor(const uint8_t key[32], const uint8_t *m, size_t len,
 *                       uint8_t acc[16]);
 * void dmd_avr_poly1305_blocks(struct dmd_poly1305 *ctx, const uint8_t *m,
 *                              size_t nblocks, uint8_t hibit);
 *
 * One block body serves both. dmd_poly1305 (T flag set) reads r (clamping
 * it) and s from the key, runs the full blocks, then the last partial block
 * padded with 0x01 and zeros on the frame, and writes the tag;
 * dmd_poly1305_xor the same, but XORs the tag into acc (a frame byte
 * says which: the mode is public, the store loops are straight-line).
 * dmd_avr_poly1305_blocks (T clear) runs nblocks >= 1 blocks on ctx: h is
 * copied to the frame and back, r read from ctx (already clamped; clamping
 * again changes nothing).
 *
 * Block: h = (h + m_j + hibit 2^128) r mod 2^130 - 5 (partly reduced:
 * h < 5 2^128). Constant time: the branches are the loops over the public
 * block count and the public length of the last block; every load address
 * is fixed or steps over the message; products are MUL (fixed two cycles);
 * carries run through adc, never a branch (the deferred fold carry k too:
 * lsl, adc, ror). The frame bytes 1..48 (S, A2 A3 and the padded block, h
 * and the pass-1 columns: key- and message-derived) are zeroed before
 * return; A2 A3 and the padded block only when written (a frame flag: the
 * first block of a one-call MAC reads A2 A3 from the message).
 */
	.global dmd_poly1305
	.type dmd_poly1305, @function
dmd_poly1305:''')
    gen_prologue()
    emit('std Y+%d, r1\t\t; mode: store the tag' % F_XOR)
    emit('std Y+%d, r1\t\t; F_AHI not written yet' % F_AW)
    emit('rjmp .Lp_onecall')
    flush('dmd_poly1305')
    print('''
	.global dmd_poly1305_xor
	.type dmd_poly1305_xor, @function
dmd_poly1305_xor:''')
    gen_prologue()
    emit('ldi r16, 1')
    emit('std Y+%d, r16\t\t; mode: XOR the tag in' % F_XOR)
    emit('std Y+%d, r1\t\t; F_AHI not written yet' % F_AW)
    label('.Lp_onecall')
    emit('set\t\t\t; T: one-call MAC')
    emit('std Y+%d, r18\t\t; tag' % F_TAG)
    emit('std Y+%d, r19' % (F_TAG + 1))
    emit('mov r16, r20')
    emit('andi r16, 15')
    emit('std Y+%d, r16\t\t; len %% 16' % F_REST)
    emit('movw r30, r24\t\t; Z = key')
    emit('movw r26, r22\t\t; X = m')
    emit('movw r24, r20')
    for _ in range(4):
        emit('lsr r25')
        emit('ror r24')
    emit('clr %s' % ZERO)
    emit('clr %s' % HIBIT)
    emit('inc %s' % HIBIT)
    gen_setup_s()
    emit('sbiw r24, 1\t\t; blocks after this one')
    emit('brcc 1f')
    emit('jmp .Lp_empty\t\t; beyond rjmp: the first-block body is between')
    label('1')
    gen_a_first()
    gen_body(True)
    emit('jmp .Lp_next')
    flush('dmd_poly1305_xor')

    print('''
	.global dmd_avr_poly1305_blocks
	.type dmd_avr_poly1305_blocks, @function
dmd_avr_poly1305_blocks:''')
    gen_prologue()
    emit('std Y+%d, r1\t\t; F_AHI not written yet' % F_AW)
    emit('clt\t\t\t; T clear: context blocks')
    emit('movw r30, r24\t\t; Z = ctx')
    emit('movw r26, r22\t\t; X = m')
    emit('movw r24, r20\t\t; nblocks')
    emit('mov %s, r18' % HIBIT)
    emit('clr %s' % ZERO)
    gen_setup_s()
    for i in range(17):
        emit('ldd r16, Z+%d' % (CTX_H + i))
        emit('std Y+%d, r16' % (F_W + i))
    label('.Lp_next')
    emit('sbiw r24, 1')
    emit('brcc 1f')
    emit('rjmp .Lp_done')
    label('1')
    gen_a_general()
    gen_body()
    emit('rjmp .Lp_next')

    label('.Lp_done')
    emit('brts .Lp_tail')
    for i in range(17):
        emit('ldd r16, Y+%d' % (F_W + i))
        emit('std Z+%d, r16' % (CTX_H + i))
    emit('rjmp .Lp_exit')

    gen_tail_exit('.Lp')
    flush('dmd_avr_poly1305_blocks')



def gen_tail_exit(L):
    """The last partial block, the final, the frame wipe and the return of
    a one-call MAC, with labels @L_empty (no full block), @L_tail, @L_final
    and @L_exit; the block loop is at @L_next."""
    label(L + '_empty')
    emit('; no full block: h = 0')
    for i in range(17):
        emit('std Y+%d, %s' % (F_W + i, ZERO))
    label(L + '_tail')
    emit('ldd r16, Y+%d' % F_REST)
    emit('tst r16')
    emit('breq %s_final' % L)
    emit('std Y+%d, %s\t\t; once' % (F_REST, ZERO))
    emit('; the last n = len % 16 bytes, 0x01, zeros: a block of hibit 0')
    emit('movw r24, r30')
    emit('movw r30, r28')
    emit('adiw r30, %d' % F_AHI)
    emit('ldi r17, 15')
    emit('sub r17, r16\t\t; 15 - n zeros')
    label('2')
    emit('ld r0, X+')
    emit('st Z+, r0')
    emit('dec r16')
    emit('brne 2b')
    emit('ldi r16, 1')
    emit('st Z+, r16')
    emit('tst r17')
    emit('breq 4f')
    label('3')
    emit('st Z+, %s' % ZERO)
    emit('dec r17')
    emit('brne 3b')
    label('4')
    emit('movw r30, r24\t\t; Z = key')
    emit('movw r26, r28')
    emit('adiw r26, %d\t\t; X = the padded block' % F_AHI)
    emit('clr %s' % HIBIT)
    emit('ldi r24, 1')
    emit('clr r25')
    emit('rjmp %s_next' % L)

    label(L + '_final')
    emit('clr r1')
    emit('ldd r26, Y+%d\t\t; X = tag' % F_TAG)
    emit('ldd r27, Y+%d' % (F_TAG + 1))
    gen_finish_math(('Y', F_W), F_XOR, L)

    label(L + '_exit')
    emit('clr r1')
    emit('; S and h (F_W): always written. F_AHI only by a block after the')
    emit('; first (or any context block) or the padded last block: a public')
    emit('; branch on the block count, which the one-block path skips')
    for i in range(WIPE):
        if PRE and F_S <= 1 + i < F_AHI:
            continue        # no S on the frame
        if not F_AHI <= 1 + i < F_W:
            emit('std Y+%d, r1' % (1 + i))
    emit('ldd r16, Y+%d' % F_AW)
    emit('tst r16')
    emit('breq 1f')
    for i in range(F_AHI, F_W):
        emit('std Y+%d, r1' % i)
    label('1')
    emit('adiw r28, %d' % FRAME)
    emit('in r0, 0x3f')
    emit('cli')
    emit('out 0x3e, r29')
    emit('out 0x3f, r0')
    emit('out 0x3d, r28')
    for r in reversed(SAVED):
        emit('pop %s' % r)
    emit('ret')


def gen_pre():
    """dmd_avr_poly1305_prep and dmd_avr_poly1305_xor_pre."""
    global PRE
    print('''
/*
 * void dmd_avr_poly1305_prep(uint8_t pk[44]);
 *
 * pk = S1 S2 S3 (12 bytes) || r (16) || s (16), r given unclamped: clamps
 * r in place and writes S_k = R_k + (R_k >> 2), what dmd_poly1305() computes
 * on its frame at every call. Ahead of time (a sender's precompute), so
 * that dmd_avr_poly1305_xor_pre() need not. Only call-clobbered registers:
 * nothing of the key on the stack. Straight-line code.
 */
	.global dmd_avr_poly1305_prep
	.type dmd_avr_poly1305_prep, @function
dmd_avr_poly1305_prep:''')
    emit('movw r30, r24\t\t; Z = pk')
    for b in sorted(CLAMP):
        emit('ldd r18, Z+%d' % (PK_R + b))
        emit('andi r18, %d' % CLAMP[b])
        emit('std Z+%d, r18' % (PK_R + b))
    for k in range(1, 4):
        for b in range(4):
            emit('ldd r%d, Z+%d' % (18 + b, PK_R + 4 * k + b))
        emit('movw r22, r18')
        emit('movw r24, r20')
        for _ in range(2):
            emit('lsr r25')
            emit('ror r24')
            emit('ror r23')
            emit('ror r22')
        emit('add r18, r22')
        emit('adc r19, r23')
        emit('adc r20, r24')
        emit('adc r21, r25')
        for b in range(4):
            emit('std Z+%d, r%d' % (4 * (k - 1) + b, 18 + b))
    emit('ret')
    flush('dmd_avr_poly1305_prep')

    PRE = True
    print('''
/*
 * void dmd_avr_poly1305_xor_pre(const uint8_t pk[44], const uint8_t *m,
 *                               size_t len, uint8_t acc[16]);
 *
 * dmd_poly1305_xor() with the key as dmd_avr_poly1305_prep() left it: S and
 * the clamped r are read from pk, not computed on the frame (no S there to
 * compute or to wipe). The same blocks, tail, final and wipe otherwise,
 * with labels of its own.
 */
	.global dmd_avr_poly1305_xor_pre
	.type dmd_avr_poly1305_xor_pre, @function
dmd_avr_poly1305_xor_pre:''')
    gen_prologue()
    emit('ldi r16, 1')
    emit('std Y+%d, r16\t\t; mode: XOR the tag in' % F_XOR)
    emit('std Y+%d, r1\t\t; F_AHI not written yet' % F_AW)
    emit('set\t\t\t; T: one-call MAC')
    emit('std Y+%d, r18\t\t; acc' % F_TAG)
    emit('std Y+%d, r19' % (F_TAG + 1))
    emit('mov r16, r20')
    emit('andi r16, 15')
    emit('std Y+%d, r16\t\t; len %% 16' % F_REST)
    emit('movw r30, r24\t\t; Z = pk')
    emit('movw r26, r22\t\t; X = m')
    emit('movw r24, r20')
    for _ in range(4):
        emit('lsr r25')
        emit('ror r24')
    emit('clr %s' % ZERO)
    emit('clr %s' % HIBIT)
    emit('inc %s' % HIBIT)
    emit('sbiw r24, 1\t\t; blocks after this one')
    emit('brcc 1f')
    emit('jmp .Lq_empty')
    label('1')
    gen_a_first()
    gen_body(True)
    label('.Lq_next')
    emit('sbiw r24, 1')
    emit('brcc 1f')
    emit('jmp .Lq_tail')
    label('1')
    gen_a_general()
    gen_body()
    emit('rjmp .Lq_next')
    gen_tail_exit('.Lq')
    flush('dmd_avr_poly1305_xor_pre')
    PRE = False

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
 * dmd_poly1305 ends with the same code on its frame's h.
 */
	.global dmd_avr_poly1305_finish
	.type dmd_avr_poly1305_finish, @function
dmd_avr_poly1305_finish:''')
    saved = ['r%d' % i for i in range(2, 18)]
    for r in saved:
        emit('push %s' % r)
    emit('movw r30, r24\t\t; Z = ctx')
    emit('movw r26, r22\t\t; X = tag')
    gen_finish_math(('Z', CTX_H))
    for i in range(66):
        emit('st Z+, r1')
    for r in reversed(saved):
        emit('pop %s' % r)
    emit('ret')
    flush('dmd_avr_poly1305_finish')


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
        if i in CLAMP:
            emit('andi r18, %d' % CLAMP[i])
        emit('st Z+, r18')
    for i in range(17):
        emit('st Z+, r1')
    emit('std Z+%d, r1\t\t; buf_len' % 16)
    emit('ret')
    flush('dmd_poly1305_init')


print('''/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Generated by poly1305.py in this directory; edit that, not this file.
 * Poly1305 (RFC 8439) for the ATmega2560; see poly1305.py for the method
 * and poly1305.c for the C API around it.
 */
	.text''')
gen_init()
gen_mac()
gen_finish()
gen_pre()
