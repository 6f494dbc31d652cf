// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * On-target known answers for the AVR AES-128 (../aes128.*), which replaces
 * the portable bitsliced one on this board only, so the host tests do not
 * cover it: FIPS-197 Appendix A.1 (key expansion), B and C.1 (cipher),
 * SP 800-38A F.5.1 (CTR), and counter carries across 32 bits and across
 * all 128 bits with a partial final block (expected values from `openssl
 * enc -aes-128-ctr` and `-aes-128-ecb` on the host). The S-box table is
 * checked entry by entry against GF(2^8) inversion and the affine map,
 * and for the alignment and address its constant-time lookup relies on;
 * Timer 1 shows the same cycle count for different keys and data.
 * TAP 13 on the console; plan last; exit code = failures.
 * Runner regions (not a test): 1 = key expansion, 2 = one block,
 * 3 = 64 bytes of CTR keystream (4 blocks).
 */
#include <string.h>

#include <avr/io.h>

#include <diamond/aes128.h>
#include "board.h"
#include "kat_tap.h"

/* ../aes128.S */
extern const uint8_t dmd_avr_aes_sbox[256] PROGMEM;

/* Byte i of the schedule dmd_aes128_init left in the context. */
static const uint8_t *schedule(const struct dmd_aes128 *ctx)
{
	return (const uint8_t *)ctx->rk;
}

static void block_case(const char *name, const char *key, const char *pt,
		       const char *expect)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], p[16], want[16], c[16];
	int ok;

	kat_unhex_P(k, key);
	kat_unhex_P(p, pt);
	kat_unhex_P(want, expect);
	dmd_aes128_init(&ctx, k);
	dmd_aes128_encrypt(&ctx, c, p);
	ok = !memcmp(c, want, 16);
	dmd_aes128_encrypt(&ctx, p, p);		/* in place */
	ok &= !memcmp(p, want, 16);
	kat_report(ok, name);
}

/* FIPS-197 A.1: round keys 0, 1 and 10 of key 2b7e1516... */
static void test_expansion(void)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], want[16];
	size_t i;
	int ok;

	kat_unhex_P(k, PSTR("2b7e151628aed2a6abf7158809cf4f3c"));
	dmd_aes128_init(&ctx, k);
	ok = !memcmp(schedule(&ctx), k, 16);
	kat_unhex_P(want, PSTR("a0fafe1788542cb123a339392a6c7605"));
	ok &= !memcmp(schedule(&ctx) + 16, want, 16);
	kat_unhex_P(want, PSTR("d014f9a8c9ee2589e13f0cc8b6630ca6"));
	ok &= !memcmp(schedule(&ctx) + 160, want, 16);
	kat_report(ok, PSTR("aes128: FIPS-197 A.1 key expansion (round keys 0, 1, 10)"));
	dmd_aes128_wipe(&ctx);
	ok = 1;
	for (i = 0; i < 176; i++)
		ok &= schedule(&ctx)[i] == 0;
	kat_report(ok, PSTR("aes128: wipe zeroes the 176-byte schedule"));
}

static void test_blocks(void)
{
	block_case(PSTR("aes128: FIPS-197 C.1"),
		   PSTR("000102030405060708090a0b0c0d0e0f"),
		   PSTR("00112233445566778899aabbccddeeff"),
		   PSTR("69c4e0d86a7b0430d8cdb78070b4c55a"));
	block_case(PSTR("aes128: FIPS-197 Appendix B"),
		   PSTR("2b7e151628aed2a6abf7158809cf4f3c"),
		   PSTR("3243f6a8885a308d313198a2e0370734"),
		   PSTR("3925841d02dc09fbdc118597196a0b32"));
	block_case(PSTR("aes128: zero key, zero block (openssl -aes-128-ecb)"),
		   PSTR("00000000000000000000000000000000"),
		   PSTR("00000000000000000000000000000000"),
		   PSTR("66e94bd4ef8a2c3b884cfa59ca342b2e"));
}

/*
 * Keystream of len bytes from counter iv under key, checked against
 * expect (hex, len bytes) and the counter left behind against next; no
 * byte past len is written.
 */
static int ctr_ok(const char *key, const char *iv, size_t len,
		  const char *expect, const char *next)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], ctr[16], want_ctr[16], want[80], out[81];

	kat_unhex_P(k, key);
	kat_unhex_P(ctr, iv);
	kat_unhex_P(want, expect);
	kat_unhex_P(want_ctr, next);
	memset(out, 0x5a, sizeof(out));
	dmd_aes128_init(&ctx, k);
	dmd_aes128_ctr(&ctx, ctr, out, len);
	dmd_aes128_wipe(&ctx);
	return !memcmp(out, want, len) && out[len] == 0x5a &&
	       !memcmp(ctr, want_ctr, 16);
}

static void test_ctr_sp800_38a(void)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], ctr[16], pt[64], ct[64], ks[64];
	size_t i;

	/* F.5.1 CTR-AES128.Encrypt: ciphertext = plaintext ^ keystream. */
	kat_unhex_P(k, PSTR("2b7e151628aed2a6abf7158809cf4f3c"));
	kat_unhex_P(ctr, PSTR("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"));
	kat_unhex_P(pt, PSTR("6bc1bee22e409f96e93d7e117393172a"
			 "ae2d8a571e03ac9c9eb76fac45af8e51"
			 "30c81c46a35ce411e5fbc1191a0a52ef"
			 "f69f2445df4f9b17ad2b417be66c3710"));
	kat_unhex_P(ct, PSTR("874d6191b620e3261bef6864990db6ce"
			 "9806f66b7970fdff8617187bb9fffdff"
			 "5ae4df3edbd5d35e5b4f09020db03eab"
			 "1e031dda2fbe03d1792170a0f3009cee"));
	dmd_aes128_init(&ctx, k);
	dmd_aes128_ctr(&ctx, ctr, ks, 64);
	dmd_aes128_wipe(&ctx);
	for (i = 0; i < 64; i++)
		ks[i] ^= pt[i];
	kat_report(!memcmp(ks, ct, 64), PSTR("aes128: SP 800-38A F.5.1 CTR-AES128.Encrypt, 4 blocks"));
	kat_unhex_P(ks, PSTR("f0f1f2f3f4f5f6f7f8f9fafbfcfdff03"));
	kat_report(!memcmp(ctr, ks, 16), PSTR("aes128: SP 800-38A F.5.1 counter left at block 5"));
}

static void test_ctr_carry(void)
{
	static const char key[] PROGMEM = "2b7e151628aed2a6abf7158809cf4f3c";

	kat_report(ctr_ok(key, PSTR("000102030405060708090a0bfffffffe"), 48,
		      PSTR("08ff81431e8af8811d931e7bef271fc4"
			   "bdb7c0ef49717942fc68eeb17692fcf4"
			   "eef89e9494c1082ab27d4d9095feff60"),
		      PSTR("000102030405060708090a0c00000001")),
	       PSTR("aes128: CTR carry out of the low 32 bits (openssl)"));
	kat_report(ctr_ok(key, PSTR("fffffffffffffffffffffffffffffffe"), 48,
		      PSTR("d1b714b6fbf5fff1289aee2a4c4eeda3"
			   "8af2860142f786f409307c1a3f7eaaac"
			   "7df76b0c1ab899b33e42f047b91b546f"),
		      PSTR("00000000000000000000000000000001")),
	       PSTR("aes128: CTR wraps all 128 bits (openssl)"));
	kat_report(ctr_ok(key, PSTR("fffffffffffffffffffffffffffffffe"), 37,
		      PSTR("d1b714b6fbf5fff1289aee2a4c4eeda3"
			   "8af2860142f786f409307c1a3f7eaaac"
			   "7df76b0c1a"),
		      PSTR("00000000000000000000000000000001")),
	       PSTR("aes128: CTR partial final block, tail discarded, counter past it"));
	kat_report(ctr_ok(key, PSTR("fffffffffffffffffffffffffffffffe"), 0, PSTR(""),
		      PSTR("fffffffffffffffffffffffffffffffe")),
	       PSTR("aes128: CTR of 0 bytes writes nothing, counter unchanged"));
}

/* Every length 0..80 is a prefix of the 80-byte stream, nothing past len. */
static void test_ctr_lengths(void)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], ctr[16], ref[80], out[81];
	size_t len, i;
	int ok = 1;

	for (i = 0; i < 16; i++)
		k[i] = (uint8_t)(11 * i + 5);
	dmd_aes128_init(&ctx, k);
	memset(ctr, 0xff, 16);
	dmd_aes128_ctr(&ctx, ctr, ref, 80);
	for (len = 0; len <= 80; len++) {
		memset(ctr, 0xff, 16);
		memset(out, 0x5a, sizeof(out));
		dmd_aes128_ctr(&ctx, ctr, out, len);
		ok &= !memcmp(out, ref, len) && out[len] == 0x5a;
		ok &= ctr[15] == (uint8_t)(0xff + (len + 15) / 16);
	}
	dmd_aes128_wipe(&ctx);
	kat_report(ok, PSTR("aes128: CTR of every length 0..80 is a prefix, nothing past len"));
}

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	uint8_t r = 0;

	while (b) {
		if (b & 1)
			r ^= a;
		a = (uint8_t)(a << 1 ^ (a & 0x80 ? 0x1b : 0));
		b >>= 1;
	}
	return r;
}

static uint8_t rotl8(uint8_t x, unsigned int n)
{
	return (uint8_t)(x << n | x >> (8 - n));
}

/* FIPS-197 5.1.1: the inverse (x^254, 0 -> 0), then the affine map. */
static uint8_t sbox_ref(uint8_t x)
{
	uint8_t inv = 1;
	unsigned int i;

	for (i = 0; i < 254; i++)
		inv = gf_mul(inv, x);
	if (!x)
		inv = 0;
	return inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^
	       rotl8(inv, 4) ^ 0x63;
}

static void test_sbox(void)
{
	uint_farptr_t at = pgm_get_far_address(dmd_avr_aes_sbox);
	unsigned int x;
	int ok = 1;

	for (x = 0; x < 256; x++)
		ok &= pgm_read_byte(&dmd_avr_aes_sbox[x]) == sbox_ref((uint8_t)x);
	kat_report(ok, PSTR("aes128: S-box table = GF(2^8) inverse + affine map, all 256"));
	kat_report(at < 0x10000 && !(at & 0xff),
	       PSTR("aes128: S-box 256-byte aligned in the low 64 KiB (lpm, ZH fixed)"));
}

/* Timer 1 at the CPU clock: cycles of one init, one block, 3 CTR blocks. */
static uint16_t timed_run(const uint8_t k[16], const uint8_t d[16])
{
	struct dmd_aes128 ctx;
	uint8_t ctr[16], out[48];
	uint16_t t0, t1;

	memcpy(ctr, d, 16);
	TCNT1 = 0;
	t0 = TCNT1;
	dmd_aes128_init(&ctx, k);
	dmd_aes128_encrypt(&ctx, out, d);
	dmd_aes128_ctr(&ctx, ctr, out, 48);
	t1 = TCNT1;
	dmd_aes128_wipe(&ctx);
	return (uint16_t)(t1 - t0);
}

/*
 * The same cycle count for all-zero, all-one and mixed keys and data
 * (data-dependent timing would show as a difference here).
 */
static void test_timing(void)
{
	uint8_t k[16], d[16];
	uint16_t ref = 0;
	int ok = kat_same_cycles(timed_run, k, sizeof(k), d, sizeof(d), &ref);

	board_puts("# init + 4 blocks: ");
	kat_put_uint(ref);
	board_puts(" cycles (with calls)\n");
	kat_report(ok && ref > 1000, PSTR("aes128: init, block and CTR take the same cycles for 8 keys and blocks"));
}

static void bench(void)
{
	struct dmd_aes128 ctx;
	uint8_t k[16], ctr[16], out[64];

	memset(k, 0xa5, sizeof(k));
	memset(ctr, 0x3c, sizeof(ctr));
	board_mark_start(1);
	dmd_aes128_init(&ctx, k);
	board_mark_stop(1);
	board_mark_start(2);
	dmd_aes128_encrypt(&ctx, out, ctr);
	board_mark_stop(2);
	board_mark_start(3);
	dmd_aes128_ctr(&ctx, ctr, out, 64);
	board_mark_stop(3);
	dmd_aes128_wipe(&ctx);
}

int main(void)
{
	board_init();
	kat_begin("AES-128");
	test_sbox();
	test_expansion();
	test_blocks();
	test_ctr_sp800_38a();
	test_ctr_carry();
	test_ctr_lengths();
	test_timing();
	bench();
	kat_end();
}
