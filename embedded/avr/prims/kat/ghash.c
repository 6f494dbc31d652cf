// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * On-target known answers for the AVR GHASH multiplier (../ghash_mul.*),
 * which replaces the portable one on this board only, so the host tests do
 * not cover it: GHASH of McGrew and Viega's GCM test cases 2 to 4 (the same
 * values as selftests/core/test_prims_kat.c), products of assorted H and Y
 * against a bit-serial reference (SP 800-38D, Algorithm 1), every entry of
 * the reduction table against the polynomial and its alignment and address
 * (the constant-time lookup relies on them), the SRAM tables zeroed by
 * dmd_ghash_final, and the same Timer 1 cycle count for different keys
 * and data. TAP 13 on the console; plan last; exit code = failures.
 * Runner regions (not a test): 1 = dmd_ghash_init (the tables), 2 = one
 * block, 3 = dmd_ghash_final (with the table wipe).
 */
#include <string.h>

#include <avr/io.h>

#include <diamond/ghash.h>
#include "board.h"
#include "kat_tap.h"

/* ../ghash_mul.S */
extern const uint8_t dmd_avr_ghash_r0[256] PROGMEM;
extern const uint8_t dmd_avr_ghash_r1[256] PROGMEM;
extern uint8_t dmd_avr_ghash_tab[512];

static void ghash_of(uint8_t out[16], const uint8_t h[16], const uint8_t *a,
		     size_t an, const uint8_t *c, size_t cn)
{
	struct dmd_ghash g;
	uint8_t lens[16];

	memset(lens, 0, sizeof(lens));
	lens[6] = (uint8_t)((an * 8) >> 8);
	lens[7] = (uint8_t)(an * 8);
	lens[14] = (uint8_t)((cn * 8) >> 8);
	lens[15] = (uint8_t)(cn * 8);
	dmd_ghash_init(&g, h);
	dmd_ghash_update_padded(&g, a, an);
	dmd_ghash_update_padded(&g, c, cn);
	dmd_ghash_update_padded(&g, lens, 16);
	dmd_ghash_final(&g, out);
}

static void gcm_case(const char *name, const char *h_P, const char *a_P,
		     const char *c_P, const char *want_P)
{
	uint8_t h[16], a[20], c[64], want[16], got[16];
	size_t an, cn;

	kat_unhex_P(h, h_P);
	an = kat_unhex_P(a, a_P);
	cn = kat_unhex_P(c, c_P);
	kat_unhex_P(want, want_P);
	ghash_of(got, h, a, an, c, cn);
	kat_report(!memcmp(got, want, 16), name);
}

static void test_gcm(void)
{
	static const char h1[] PROGMEM = "66e94bd4ef8a2c3b884cfa59ca342b2e";
	static const char h3[] PROGMEM = "b83b533708bf535d0aa6e52980d53b78";
	static const char c3[] PROGMEM =
		"42831ec2217774244b7221b784d0d49c"
		"e3aa212f2c02a4e035c17e2329aca12e"
		"21d514b25466931c7d8f6a5aac84aa05"
		"1ba30b396a0aac973d58e091473f5985";
	static const char c4[] PROGMEM =
		"42831ec2217774244b7221b784d0d49c"
		"e3aa212f2c02a4e035c17e2329aca12e"
		"21d514b25466931c7d8f6a5aac84aa05"
		"1ba30b396a0aac973d58e091";

	gcm_case(PSTR("ghash: GCM test case 2"), h1, PSTR(""),
		 PSTR("0388dace60b6a392f328c2b971b2fe78"),
		 PSTR("f38cbb1ad69223dcc3457ae5b6b0f885"));
	gcm_case(PSTR("ghash: GCM test case 3"), h3, PSTR(""), c3,
		 PSTR("7f1b32b81b820d02614f8895ac1d4eac"));
	gcm_case(PSTR("ghash: GCM test case 4 (A of 20 bytes, C of 60)"), h3,
		 PSTR("feedfacedeadbeeffeedfacedeadbeefabaddad2"), c4,
		 PSTR("698e57f70e6ecc7fd9463b7260a9ae5f"));
}

/* SP 800-38D Algorithm 1, bit by bit: z = x * y. */
static void mul_ref(uint8_t z[16], const uint8_t x[16], const uint8_t y[16])
{
	uint8_t v[16], carry;
	unsigned int i, j;

	memset(z, 0, 16);
	memcpy(v, y, 16);
	for (i = 0; i < 128; i++) {
		if (x[i / 8] & (0x80 >> (i % 8)))
			for (j = 0; j < 16; j++)
				z[j] ^= v[j];
		carry = v[15] & 1;
		for (j = 15; j > 0; j--)
			v[j] = (uint8_t)(v[j] >> 1 | v[j - 1] << 7);
		v[0] >>= 1;
		if (carry)
			v[0] ^= 0xe1;
	}
}

/* One block from Y = 0 is X * H: twelve pairs, edge bits among them. */
static void test_products(void)
{
	struct dmd_ghash g;
	uint8_t h[16], x[16], got[16], want[16];
	unsigned int r, i;
	int ok = 1;

	for (r = 0; r < 12; r++) {
		for (i = 0; i < 16; i++) {
			h[i] = (uint8_t)(r * 37 + i * 101 + 7);
			x[i] = (uint8_t)(r * 59 + i * 13 + 1);
		}
		if (r == 0) {		/* x^0 * x^127, x^127 * x^127 */
			memset(h, 0, 16);
			memset(x, 0, 16);
			h[15] = 1;
			x[0] = 0x80;
		} else if (r == 1) {
			memset(h, 0, 16);
			memset(x, 0, 16);
			h[15] = 1;
			x[15] = 1;
		} else if (r == 2) {
			memset(h, 0xff, 16);
			memset(x, 0xff, 16);
		}
		dmd_ghash_init(&g, h);
		dmd_ghash_update_padded(&g, x, 16);
		dmd_ghash_final(&g, got);
		mul_ref(want, x, h);
		ok &= !memcmp(got, want, 16);
	}
	kat_report(ok, PSTR("ghash: X * H = the bit-serial product for 12 pairs"));
}

/* R[o] = o x^128 mod x^128 + x^7 + x^2 + x + 1, from mul_ref. */
static void test_rtable(void)
{
	uint_farptr_t a0 = pgm_get_far_address(dmd_avr_ghash_r0);
	uint_farptr_t a1 = pgm_get_far_address(dmd_avr_ghash_r1);
	uint8_t o[16], x8[16], want[16];
	unsigned int v;
	int ok = 1;

	memset(x8, 0, 16);
	x8[1] = 0x80;		/* x^8 */
	for (v = 0; v < 256; v++) {
		memset(o, 0, 16);
		o[15] = (uint8_t)v;	/* x^120 .. x^127 */
		mul_ref(want, o, x8);
		ok &= pgm_read_byte(&dmd_avr_ghash_r0[v]) == want[0] &&
		      pgm_read_byte(&dmd_avr_ghash_r1[v]) == want[1];
		ok &= !want[2] && !want[15];
	}
	kat_report(ok, PSTR("ghash: reduction table = o x^128 mod P, all 256"));
	kat_report(a0 < 0x10000 && a1 < 0x10000 && !(a0 & 0xff) && !(a1 & 0xff),
		   PSTR("ghash: reduction tables 256-byte aligned in the low 64 KiB (lpm, ZH fixed)"));
	kat_report(!((uintptr_t)dmd_avr_ghash_tab & 0xff),
		   PSTR("ghash: SRAM tables 256-byte aligned (ld, XH fixed)"));
}

static void test_wipe(void)
{
	uint8_t h[16], out[16];
	unsigned int i;
	int ok = 1;

	memset(h, 0x5a, sizeof(h));
	ghash_of(out, h, h, 16, h, 16);
	for (i = 0; i < 512; i++)
		ok &= !dmd_avr_ghash_tab[i];
	kat_report(ok, PSTR("ghash: final zeroes the 512 bytes of H tables"));
}

/* Timer 1 at the CPU clock: cycles of init, 3 blocks and final. */
static uint16_t timed_run(const uint8_t h[16], const uint8_t d[48])
{
	struct dmd_ghash g;
	uint8_t out[16];
	uint16_t t0, t1;

	TCNT1 = 0;
	t0 = TCNT1;
	dmd_ghash_init(&g, h);
	dmd_ghash_update_padded(&g, d, 48);
	dmd_ghash_final(&g, out);
	t1 = TCNT1;
	return (uint16_t)(t1 - t0);
}

/*
 * The same cycle count for all-zero, all-one and mixed keys and data
 * (an index- or data-dependent time would show as a difference here).
 */
static void test_timing(void)
{
	uint8_t h[16], d[48];
	uint16_t ref = 0;
	int ok = kat_same_cycles(timed_run, h, sizeof(h), d, sizeof(d), &ref);

	board_puts("# init + 3 blocks + final: ");
	kat_put_uint(ref);
	board_puts(" cycles (with calls)\n");
	kat_report(ok && ref > 1000, PSTR("ghash: init, blocks and final take the same cycles for 8 keys and data"));
}

static void bench(void)
{
	struct dmd_ghash g;
	uint8_t h[16], d[16], out[16];

	memset(h, 0xa5, sizeof(h));
	memset(d, 0x3c, sizeof(d));
	board_mark_start(1);
	dmd_ghash_init(&g, h);
	board_mark_stop(1);
	board_mark_start(2);
	dmd_ghash_update_padded(&g, d, 16);
	board_mark_stop(2);
	board_mark_start(3);
	dmd_ghash_final(&g, out);
	board_mark_stop(3);
}

int main(void)
{
	board_init();
	kat_begin("GHASH");
	test_gcm();
	test_products();
	test_rtable();
	test_wipe();
	test_timing();
	bench();
	kat_end();
}
