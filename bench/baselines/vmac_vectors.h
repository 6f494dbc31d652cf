/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Known answers of VMAC-64 and VMAC-128 (vmac.h), shared by the host's
 * vmac-kat and the boards' mac-kat:
 *
 *  - draft-krovetz-vmac-01's appendix: key "abcdefghijklmnop", nonce
 *    "bcdefghi", the message "abc" repeated 0, 1, 16, 100 and 1,000,000
 *    times, both tag lengths;
 *  - the Linux kernel's vmac64(aes) test vectors (crypto/testmgr.h,
 *    vmac64_aes_tv_template, until the template's removal in 2025): the
 *    first 16 bytes of each input are the nonce, the rest the message;
 *    messages of 0, 17, 127, 128 and 129 bytes.
 *
 * A message is "abc" times @reps, then the hex @msg, then zeros up to @len
 * bytes (when @len is longer). Hex is lower case.
 */
#ifndef DIAMOND_BENCH_VMAC_VECTORS_H
#define DIAMOND_BENCH_VMAC_VECTORS_H

#include <stddef.h>

#ifndef KAT_FLASH
#define KAT_FLASH
#endif

#define VMAC_KAT_MAXLEN	320	/* the longest message without @reps */

struct vmac_vec {
	unsigned char taglen;
	char key[33];
	char nonce[33];
	unsigned long reps;
	unsigned short len;
	char msg[40];
	char tag[33];
};

#define ABC_KEY		"6162636465666768696a6b6c6d6e6f70"
#define ABC_NONCE	"6263646566676869"
#define K00		"000102030405060708090a0b0c0d0e0f"
#define KA09		"6130396235636421662330374b000000"
#define S1		"01010101020302020204010704010403"

static const struct vmac_vec vmac_vecs[] KAT_FLASH = {
	{  8, ABC_KEY, ABC_NONCE, 0, 0, "", "2576be1c56d8b81b" },
	{ 16, ABC_KEY, ABC_NONCE, 0, 0, "", "472766c70f74ed23481d6d7de4e80dac" },
	{  8, ABC_KEY, ABC_NONCE, 1, 0, "", "2d376cf5b1813ce5" },
	{ 16, ABC_KEY, ABC_NONCE, 1, 0, "", "4ee815a06a1d71edd36fc75d51188a42" },
	{  8, ABC_KEY, ABC_NONCE, 16, 0, "", "e8421f61d573d298" },
	{ 16, ABC_KEY, ABC_NONCE, 16, 0, "", "09f2c80c8e1007a0c12fae19fe4504ae" },
	{  8, ABC_KEY, ABC_NONCE, 100, 0, "", "4492df6c5cac1bbe" },
	{ 16, ABC_KEY, ABC_NONCE, 100, 0, "", "66438817154850c61d8a412164803bcb" },
	{  8, ABC_KEY, ABC_NONCE, 1000000, 0, "", "09ba597dd7601113" },
	{ 16, ABC_KEY, ABC_NONCE, 1000000, 0, "", "2b6b02288ffc461b75485de893c629dc" },
	{  8, K00, "00", 0, 0, "", "547ba47735805807" },
	{  8, K00, "00", 0, 128, S1, "a18c68aed33cf5ce" },
	{  8, K00, "00", 0, 128, "616263", "2d14bd8173b027c9" },
	{  8, K00, "00", 16, 128, "", "190b47988c951a8d" },
	{  8, ABC_KEY, "00", 0, 0, "", "848f559e26a1893b" },
	{  8, ABC_KEY, "00", 0, 128, S1, "c2748df6b0ab5eab" },
	{  8, ABC_KEY, "00", 0, 128, "616263", "df097b3d42681511" },
	{  8, ABC_KEY, "00", 16, 128, "", "d4fa8fede18f328b" },
	{  8, KA09, "00", 0, 17, "62636566696a6c6d6f707273747577787a", "5fa14e42ea0fa5ab" },
	{  8, KA09, "00", 0, 127, "726d6274636f6c6b5d253932372141", "6067e81dbc983125" },
	{  8, KA09, "00", 0, 129, "70742a376c69212377307a2f34416e", "41eb6595479baec4" },
};

/*
 * The message of @v (a copy of the row in RAM) into @m, which holds
 * max(@len, 3 @reps + the hex's bytes); returns its length.
 */
static inline size_t vmac_vec_message(const struct vmac_vec *v, unsigned char *m)
{
	size_t n = 0, i;
	const char *h = v->msg;

	for (i = 0; i < 3 * (size_t)v->reps; i++)
		m[n++] = (unsigned char)("abc"[i % 3]);
	for (; h[0] && h[1]; h += 2) {
		int hi = h[0] <= '9' ? h[0] - '0' : h[0] - 'a' + 10;
		int lo = h[1] <= '9' ? h[1] - '0' : h[1] - 'a' + 10;

		m[n++] = (unsigned char)(hi << 4 | lo);
	}
	while (n < v->len)
		m[n++] = 0;
	return n;
}

#endif
