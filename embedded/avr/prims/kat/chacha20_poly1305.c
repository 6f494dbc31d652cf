// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * On-target known answers for the AVR ChaCha20 and Poly1305 (../chacha20.*,
 * ../poly1305.*): RFC 8439 sections 2.3.2, 2.4.2, 2.5.2, A.1 and A.3, plus
 * Poly1305 cases with all-ones keys and messages (longest carry chains) and
 * random ones, whose tags come from a big-integer reference. Also: the
 * stream equals the block function, incremental Poly1305 at every split
 * equals one-shot; the one-call MAC's cycle count does not depend on the key
 * or the message. TAP 13 on the console; plan last; exit code = failures.
 * Runner regions (not a test): 1 = one ChaCha20 block, 2 = Poly1305 of 16
 * bytes (init, one block, final), 3 = Poly1305 of 128 bytes, 4 and 5 = the
 * one-call dmd_poly1305 of 16 and 128 bytes.
 */
#include <string.h>

#include <avr/io.h>

#include <diamond/chacha20.h>
#include <diamond/poly1305.h>
#include "board.h"
#include "kat_tap.h"

static uint8_t msg[400], buf[400];

static void chacha_case(const char *name, const char *key, const char *iv,
			const char *expect)
{
	uint8_t k[32], v[16], want[64], out[64], s[64];

	kat_unhex_P(k, key);
	kat_unhex_P(v, iv);
	kat_unhex_P(want, expect);
	dmd_chacha20_block(out, k, v);
	dmd_chacha20_stream(s, 64, k, v);
	kat_report(!memcmp(out, want, 64) && !memcmp(s, want, 64), name);
}

static void poly_tag(uint8_t tag[16], const uint8_t key[32],
		     const uint8_t *m, size_t n)
{
	struct dmd_poly1305 ctx;

	dmd_poly1305_init(&ctx, key);
	dmd_poly1305_update(&ctx, m, n);
	dmd_poly1305_final(&ctx, tag);
}

static void poly_case_n(const char *name, const char *key, const uint8_t *m,
			size_t n, const char *expect)
{
	uint8_t k[32], want[16], tag[16];
	int ok;

	kat_unhex_P(k, key);
	kat_unhex_P(want, expect);
	poly_tag(tag, k, m, n);
	ok = !memcmp(tag, want, 16);
	/* The one-call MAC (its own assembly path) gives the same answer. */
	memset(tag, 0, 16);
	dmd_poly1305(k, m, n, tag);
	kat_report(ok && !memcmp(tag, want, 16), name);
}

#define poly_case(key, m, tag) do {					\
	size_t n_ = kat_unhex_P(msg, m);					\
	poly_case_n(PSTR("poly1305: edge or random case"), key, msg, n_, tag); \
} while (0)

static const char ietf_text[] PROGMEM =
	"Any submission to the IETF intended by the Contributor for "
	"publication as all or part of an IETF Internet-Draft or RFC and any "
	"statement made within the context of an IETF activity is considered "
	"an \"IETF Contribution\". Such statements include oral statements in "
	"IETF sessions, as well as written and electronic communications made "
	"at any time or place, which are addressed to";

static const char jabberwock[] PROGMEM =
	"'Twas brillig, and the slithy toves\nDid gyre and gimble in the "
	"wabe:\nAll mimsy were the borogoves,\nAnd the mome raths outgrabe.";

static const char sunscreen[] PROGMEM =
	"Ladies and Gentlemen of the class of '99: If I could offer you "
	"only one tip for the future, sunscreen would be it.";

static size_t text_P(uint8_t *out, const char *s)
{
	size_t n = strlen_P(s);

	memcpy_P(out, s, n);
	return n;
}

static void test_chacha20(void)
{
	uint8_t k[32], v[16], want[128], blk[64];
	size_t n, i, len;
	int ok;

	chacha_case(PSTR("chacha20: RFC 8439 2.3.2 block function"),
		    PSTR("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
		    PSTR("01000000000000090000004a00000000"),
		    PSTR("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
			 "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"));
	chacha_case(PSTR("chacha20: RFC 8439 A.1 #1"),
		    PSTR("0000000000000000000000000000000000000000000000000000000000000000"),
		    PSTR("00000000000000000000000000000000"),
		    PSTR("76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
			 "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"));
	chacha_case(PSTR("chacha20: RFC 8439 A.1 #2"),
		    PSTR("0000000000000000000000000000000000000000000000000000000000000000"),
		    PSTR("01000000000000000000000000000000"),
		    PSTR("9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
			 "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"));
	chacha_case(PSTR("chacha20: RFC 8439 A.1 #3"),
		    PSTR("0000000000000000000000000000000000000000000000000000000000000001"),
		    PSTR("01000000000000000000000000000000"),
		    PSTR("3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
			 "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"));
	chacha_case(PSTR("chacha20: RFC 8439 A.1 #4"),
		    PSTR("00ff000000000000000000000000000000000000000000000000000000000000"),
		    PSTR("02000000000000000000000000000000"),
		    PSTR("72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
			 "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"));
	chacha_case(PSTR("chacha20: RFC 8439 A.1 #5"),
		    PSTR("0000000000000000000000000000000000000000000000000000000000000000"),
		    PSTR("00000000000000000000000000000002"),
		    PSTR("c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
			 "8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"));

	/* RFC 8439 2.4.2: encryption with counter 1. */
	kat_unhex_P(k, PSTR("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"));
	kat_unhex_P(v, PSTR("01000000000000000000004a00000000"));
	n = text_P(msg, sunscreen);
	dmd_chacha20_stream(buf, n, k, v);
	for (i = 0; i < n; i++)
		buf[i] ^= msg[i];
	kat_unhex_P(msg, PSTR("6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
			  "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
			  "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
			  "5af90bbf74a35be6b40b8eedf2785e42874d"));
	kat_report(!memcmp(buf, msg, n), PSTR("chacha20: RFC 8439 2.4.2 encryption"));

	/* Every length 0..200 is a prefix; nothing written past len. */
	for (i = 0; i < 32; i++)
		k[i] = (uint8_t)(7 * i + 1);
	dmd_chacha20_stream(msg, 256, k, v);
	ok = 1;
	for (len = 0; len <= 200; len++) {
		memset(buf, 0x5a, len + 1);
		dmd_chacha20_stream(buf, len, k, v);
		ok &= !memcmp(buf, msg, len) && buf[len] == 0x5a;
	}
	kat_report(ok, PSTR("chacha20: stream of every length 0..200 is a prefix, nothing past len"));

	/* The counter wraps 0xffffffff -> 0 without touching the nonce. */
	v[0] = v[1] = v[2] = v[3] = 0xff;
	dmd_chacha20_stream(want, 128, k, v);
	v[0] = v[1] = v[2] = v[3] = 0;
	dmd_chacha20_block(blk, k, v);
	kat_report(!memcmp(want + 64, blk, 64), PSTR("chacha20: counter wraps without touching the nonce"));
}

static void test_poly1305(void)
{
	uint8_t k[32], tag[16], ref[16];
	struct dmd_poly1305 ctx;
	size_t n, s, s2;
	int ok;

	n = text_P(msg, PSTR("Cryptographic Forum Research Group"));
	poly_case_n(PSTR("poly1305: RFC 8439 2.5.2"),
		    PSTR("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
		    msg, n, PSTR("a8061dc1305136c6c22b8baf0c0127a9"));
	memset(msg, 0, 64);
	poly_case_n(PSTR("poly1305: RFC 8439 A.3 #1"),
		    PSTR("0000000000000000000000000000000000000000000000000000000000000000"),
		    msg, 64, PSTR("00000000000000000000000000000000"));
	n = text_P(msg, ietf_text);
	poly_case_n(PSTR("poly1305: RFC 8439 A.3 #2"),
		    PSTR("0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e"),
		    msg, n, PSTR("36e5f6b5c5e06070f0efca96227a863e"));
	poly_case_n(PSTR("poly1305: RFC 8439 A.3 #3"),
		    PSTR("36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000"),
		    msg, n, PSTR("f3477e7cd95417af89a6b8794c310cf0"));
	n = text_P(msg, jabberwock);
	poly_case_n(PSTR("poly1305: RFC 8439 A.3 #4"),
		    PSTR("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"),
		    msg, n, PSTR("4541669a7eaaee61e708dc7cbcc5eb62"));
	poly_case(PSTR("0200000000000000000000000000000000000000000000000000000000000000"),
		  PSTR("ffffffffffffffffffffffffffffffff"),
		  PSTR("03000000000000000000000000000000"));
	poly_case(PSTR("02000000000000000000000000000000ffffffffffffffffffffffffffffffff"),
		  PSTR("02000000000000000000000000000000"),
		  PSTR("03000000000000000000000000000000"));
	poly_case(PSTR("0100000000000000000000000000000000000000000000000000000000000000"),
		  PSTR("fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff"
		       "11000000000000000000000000000000"),
		  PSTR("05000000000000000000000000000000"));
	poly_case(PSTR("0100000000000000000000000000000000000000000000000000000000000000"),
		  PSTR("fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe"
		       "01010101010101010101010101010101"),
		  PSTR("00000000000000000000000000000000"));
	poly_case(PSTR("0200000000000000000000000000000000000000000000000000000000000000"),
		  PSTR("fdffffffffffffffffffffffffffffff"),
		  PSTR("faffffffffffffffffffffffffffffff"));
	poly_case(PSTR("0100000000000000040000000000000000000000000000000000000000000000"),
		  PSTR("e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
		       "0000000000000000000000000000000001000000000000000000000000000000"),
		  PSTR("14000000000000005500000000000000"));
	poly_case(PSTR("0100000000000000040000000000000000000000000000000000000000000000"),
		  PSTR("e33594d7505e43b900000000000000003394d7505e4379cd0100000000000000"
		       "00000000000000000000000000000000"),
		  PSTR("13000000000000000000000000000000"));
	/* All-ones keys and messages, random cases (big-integer reference). */
	poly_case(PSTR("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
		  PSTR("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
		  PSTR("900fe32bc15fa8d7bca8efe4c7e37eb1"));
	poly_case(PSTR("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
		  PSTR("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
		  PSTR("86fa6a437bf4ec24a274504dc37495bc"));
	poly_case(PSTR("ffffffffffffffffffffffffffffffff00000000000000000000000000000000"),
		  PSTR("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
		  PSTR("9a514d0a5a9b209c6a3dd0a4f64d95ae"));
	poly_case(PSTR("9f41bd5bcbb0f1d7bda6ec8707d777c6f13fa60de6281c5f78de3f618b1a923f"),
		  PSTR("03"),
		  PSTR("d3a31fee4903a268b48eac659fa3d0ca"));
	poly_case(PSTR("bb3768472eeadec46328c3cc12239e9e71202100f8df0135c637f5fb2adf2a4a"),
		  PSTR("50f6328ae0ada0342ef0f7b032f7f7"),
		  PSTR("ff1b9f6ea9a85e3a721b8a2e4feb32ad"));
	poly_case(PSTR("e4624c055c6a2aef254310544dd19a960098adb556104f5ad14e7bb2502f7b78"),
		  PSTR("b42d0e41f9f005f3bf5bd867048cc96b"),
		  PSTR("0b88a92cbffd563b56d15bd543a36dd0"));
	poly_case(PSTR("5d6094d702730bb52e9ff4f4321ec13eedd1f17658835ae48640c6761b96bfc7"),
		  PSTR("cc5edc4b096ef2fa173557839c5ceb2557"),
		  PSTR("9e86ad8f1d353a04c8aa3872be98e3da"));
	poly_case(PSTR("46ecb38b174faf514e2dcc14a026b8b04fff7b29b80c14fc9988ec67083cbd98"),
		  PSTR("58d34074a66b250efaeaa308cd7e55d63521fbbb90f321a1e5c9691b2b6f5f"),
		  PSTR("cb5fce187c51f418fd9bc141b868a08b"));
	poly_case(PSTR("260fd86b4b2474ecff9eda2bf98574f57cb0ba517a464a7867e6251c60d2fd88"),
		  PSTR("f52da0ef7fde562e167d4583c88cde805c10c9cbc65bb196a908c24e5d8fb4ab47d57c43c5fbb0b74bf4f257a62d94da"),
		  PSTR("71763395d2725c03de41902906f5565b"));
	poly_case(PSTR("02798cc64053ab467649d180a5accc5b5946a458bcf0d46859ecd72cdeddb073"),
		  PSTR("f95df455842487fa2a32d65cefda7a48b114b8abba6a2b9dc7ef9484aaef6b4d9f8dc6dda345b8fe07322896709fa62e38c2af2ea1b70afc78fa392a0de4221c51f72e7b318c096a775961a99c1297343cb7e75f005967f347db68dd1db0d48c5ff6098c"),
		  PSTR("3b098e2374c1168b51d12d3d6c49ba3e"));
	poly_case(PSTR("9d4d184b8b8356f3944bf55ad1216b68d090a4895e7724289861907af532f722"),
		  PSTR("9b1759d2e4a900611b5390ea9d8a2453a1e0e490606d6efa397e4a7af8b56162f6dae928989842bdfb4d7f406a0551f1fb4e7ded49247a061fa89ff5713e4b0ac822d364037a888f463eef79c8093e7d44d827b8fd494b7e9bfe7984a5dd9ae1bee51e04c2204c4888b5569d4bbb870676595caebed097210900408d74afea"),
		  PSTR("4dda1c2bd87e22acf07374cd9fcf6fd9"));
	/*
	 * The block fold's carry out of byte 4 (kept in bit 7 of h[16]) is
	 * set after the last block, and after both blocks (big-integer
	 * reference tags).
	 */
	poly_case(PSTR("a8edf079fbbfda2b314081b0969698fba195ba1d223b6def7556079a30981ccc"),
		  PSTR("7b6101fa75d6716d25b78878012907b6"),
		  PSTR("b1c91625222c3fe04b007256ac76355e"));
	poly_case(PSTR("fa41d7076f2baa1bb1b6b5af0b83519783c67887bfa46b8363432e50fc5344f3"),
		  PSTR("e99d249a5f23ae7cf4134ce2a7da085b9ed8df2905d366aff748093dff335018"),
		  PSTR("90025089bf898cd541ef101f6682acdd"));

	/*
	 * The one-call MAC's own paths: empty message (tag = s), a short
	 * partial block only, one 16-byte block (the h = 0 first block), 17
	 * bytes (first block, then a padded one), two blocks; all-ones key and
	 * block (longest carries). Tags from OpenSSL 3 (openssl mac Poly1305).
	 */
	poly_case(PSTR("24522f6c5b6551606eb9e3b3b98e916ce8c131cb61569f1981baa6c5208ffe03"),
		  PSTR(""),
		  PSTR("e8c131cb61569f1981baa6c5208ffe03"));
	poly_case(PSTR("eb3ee87b514ec2971ee430c471a8d5a77dbce64392b299d0c88a3d924840d0ff"),
		  PSTR("bcc1d12ac5"),
		  PSTR("1245ba5b2bb79a2358fb1a11a57c5b23"));
	poly_case(PSTR("90385835013560adc493346e730102bf3326188594c960ff1bc6313c77aeb219"),
		  PSTR("f7f9f1203bde15513600e6126d618b2b"),
		  PSTR("ef0bca115a8d82fd0c319f25b7d5b00a"));
	poly_case(PSTR("2f530282222e78c3103ca83e9c667486119315bd49122e4f0ab0390f78f31b46"),
		  PSTR("5cd1606e2f7dc2bf46d8ef7d0d939f82a6"),
		  PSTR("f029f366a0b2479bd0e8b5e2026feb0a"));
	poly_case(PSTR("e3ffd679b5b4247bc6acb75fab176ebac9896c233660df6de54a4db782f8261b"),
		  PSTR("5a22e7e57a549821840bdd9fbae2ebb49cd88a245c47589e07c6c2963f9000a4"),
		  PSTR("3342c7e19f6823c0d6bc24b61e675d60"));
	poly_case(PSTR("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
		  PSTR("ffffffffffffffffffffffffffffffff"),
		  PSTR("fbffff17faffff17faffff17faffff17"));
	poly_case(PSTR("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
		  PSTR("ffffffffffffffffffffffffffffff"),
		  PSTR("fbff27e6030028e6030028e6030028ee"));

	/* Incremental = one-shot for every 2-way split of 150 bytes. */
	for (s = 0; s < 32; s++)
		k[s] = (uint8_t)(0xff - 3 * s);
	for (s = 0; s < 150; s++)
		msg[s] = (uint8_t)(s * 37 + 11);
	poly_tag(ref, k, msg, 150);
	ok = 1;
	for (s = 0; s <= 150; s++) {
		dmd_poly1305_init(&ctx, k);
		dmd_poly1305_update(&ctx, msg, s);
		dmd_poly1305_update(&ctx, msg + s, 0);
		dmd_poly1305_update(&ctx, msg + s, 150 - s);
		dmd_poly1305_final(&ctx, tag);
		ok &= !memcmp(tag, ref, 16);
	}
	kat_report(ok, PSTR("poly1305: split at every point 0..150 = one-shot"));
	/* dmd_poly1305 = init, update, final at every length 0..150. */
	ok = 1;
	for (s = 0; s <= 150; s++) {
		poly_tag(ref, k, msg, s);
		memset(tag, 0, 16);
		dmd_poly1305(k, msg, s, tag);
		ok &= !memcmp(tag, ref, 16);
	}
	kat_report(ok, PSTR("poly1305: one-call MAC = init/update/final at every length 0..150"));
	ok = 1;
	for (s = 0; s <= 150; s += 7) {
		for (s2 = s; s2 <= 150; s2 += 5) {
			dmd_poly1305_init(&ctx, k);
			dmd_poly1305_update(&ctx, msg, s);
			dmd_poly1305_update(&ctx, msg + s, s2 - s);
			dmd_poly1305_update(&ctx, msg + s2, 150 - s2);
			dmd_poly1305_final(&ctx, tag);
			ok &= !memcmp(tag, ref, 16);
		}
	}
	kat_report(ok, PSTR("poly1305: 3-way splits = one-shot"));
	/* dmd_poly1305_xor: acc ^= that tag, at every length 0..150. */
	ok = 1;
	for (s = 0; s <= 150; s++) {
		poly_tag(ref, k, msg, s);
		for (s2 = 0; s2 < 16; s2++) {
			tag[s2] = (uint8_t)(s * 7 + s2 * 29);
			ref[s2] ^= tag[s2];
		}
		dmd_poly1305_xor(k, msg, s, tag);
		ok &= !memcmp(tag, ref, 16);
	}
	kat_report(ok, PSTR("poly1305: one-call MAC XORed into an accumulator at every length 0..150"));
	/* The same from a prepared key (S || clamped r || s), 0..150. */
	ok = 1;
	for (s = 0; s <= 150; s++) {
		uint8_t pk[DMD_POLY1305_PREP + 32];

		poly_tag(ref, k, msg, s);
		for (s2 = 0; s2 < 16; s2++) {
			tag[s2] = (uint8_t)(s * 5 + s2 * 31);
			ref[s2] ^= tag[s2];
		}
		memcpy(pk + DMD_POLY1305_PREP, k, 32);
		dmd_poly1305_prep(pk);
		dmd_poly1305_xor_pre(pk, msg, s, tag);
		ok &= !memcmp(tag, ref, 16);
	}
	kat_report(ok, PSTR("poly1305: prepared-key XOR form = one-call MAC at every length 0..150"));
	ok = 1;
	for (s = 0; s < sizeof(ctx); s++)
		ok &= ((uint8_t *)&ctx)[s] == 0;
	kat_report(ok, PSTR("poly1305: final zeroes the context"));
}

/*
 * Timer 1 at the CPU clock: cycles of one dmd_poly1305 of @n bytes. Out of
 * line, so every measurement runs the same instructions around the call.
 */
static __attribute__((noinline)) uint16_t timed_mac(const uint8_t *k,
						   const uint8_t *m, size_t n,
						   int xor)
{
	uint8_t tag[16];
	uint16_t t0, t1;

	memset(tag, 0, sizeof(tag));
	TCNT1 = 0;
	t0 = TCNT1;
	if (xor == 2)
		dmd_poly1305_xor_pre(k, m, n, tag);
	else if (xor)
		dmd_poly1305_xor(k, m, n, tag);
	else
		dmd_poly1305(k, m, n, tag);
	t1 = TCNT1;
	return (uint16_t)(t1 - t0);
}

/*
 * Same cycles for all-zero, all-one and mixed keys and messages of @n
 * bytes, through dmd_poly1305, (@xor 1) dmd_poly1305_xor or (@xor 2)
 * dmd_poly1305_xor_pre on the key prepared (outside the timed call).
 */
static int timing_same(size_t n, int xor)
{
	uint8_t k[DMD_POLY1305_PREP + 32];
	uint16_t ref = 0, t;
	unsigned int r;
	int ok = 1;

	for (r = 0; r < 8; r++) {
		kat_ct_fill(k + DMD_POLY1305_PREP, 32, msg, n, r);
		if (xor == 2)
			dmd_poly1305_prep(k);
		t = timed_mac(xor == 2 ? k : k + DMD_POLY1305_PREP, msg, n,
			      xor);
		if (!r)
			ref = t;
		ok &= t == ref;
	}
	board_puts(xor == 2 ? "# dmd_poly1305_xor_pre of " :
		   xor ? "# dmd_poly1305_xor of " : "# dmd_poly1305 of ");
	kat_put_uint((unsigned int)n);
	board_puts(" bytes: ");
	kat_put_uint(ref);
	board_puts(" cycles (with the call)\n");
	return ok;
}

/*
 * The one-call MAC takes the same cycles for all-zero, all-one and mixed
 * keys and messages of one length (data-dependent timing would show as a
 * difference): 16 bytes (the first-block path only), 17 and 128; and so
 * do its XOR forms, from the key or from a prepared key.
 */
static void test_timing(void)
{
	static const uint8_t lens[3] = { 16, 17, 128 };
	unsigned int l;
	int ok = 1;

	TCCR1A = 0;
	TCCR1B = 1 << CS10;
	for (l = 0; l < 3; l++) {
		ok &= timing_same(lens[l], 0);
		ok &= timing_same(lens[l], 1);
		ok &= timing_same(lens[l], 2);
	}
	TCCR1B = 0;
	kat_report(ok, PSTR("poly1305: one-call MAC and its XOR forms take the same cycles for 8 keys and messages (16, 17, 128 bytes)"));
}

static void bench(void)
{
	uint8_t k[32], v[16], out[64], tag[16];
	struct dmd_poly1305 ctx;

	memset(k, 0xa5, sizeof(k));
	memset(v, 0x3c, sizeof(v));
	board_mark_start(1);
	dmd_chacha20_block(out, k, v);
	board_mark_stop(1);
	board_mark_start(2);
	dmd_poly1305_init(&ctx, k);
	dmd_poly1305_update(&ctx, out, 16);
	dmd_poly1305_final(&ctx, tag);
	board_mark_stop(2);
	board_mark_start(3);
	dmd_poly1305_init(&ctx, k);
	dmd_poly1305_update(&ctx, msg, 128);
	dmd_poly1305_final(&ctx, tag);
	board_mark_stop(3);
	board_mark_start(4);
	dmd_poly1305(k, out, 16, tag);
	board_mark_stop(4);
	board_mark_start(5);
	dmd_poly1305(k, msg, 128, tag);
	board_mark_stop(5);
}

int main(void)
{
	board_init();
	kat_begin("ChaCha20 and Poly1305");
	test_chacha20();
	test_poly1305();
	test_timing();
	bench();
	kat_end();
}
