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
 *    first 16 bytes of each input are the nonce (all zero here), the rest
 *    the message; messages of 0, 17, 127, 128 and 129 bytes.
 *
 * A message is "abc" times @reps, then the @mlen bytes of @msg, then
 * zeros up to @len bytes (when @len is longer). Keys, nonces (@nlen
 * bytes, left-padded with zeros to 16) and tags are raw bytes.
 */
#ifndef DIAMOND_BENCH_VMAC_VECTORS_H
#define DIAMOND_BENCH_VMAC_VECTORS_H

#include <stddef.h>

#ifndef KAT_FLASH
#define KAT_FLASH
#endif

#define VMAC_KAT_MAXLEN	320	/* the longest message with @reps < 1000 */

struct vmac_vec {
	unsigned char taglen;
	char key[17];
	unsigned char nlen;
	char nonce[9];
	unsigned long reps;
	unsigned short len;
	unsigned char mlen;
	char msg[18];
	char tag[17];
};

#define ABC_KEY		"abcdefghijklmnop"
#define K00		"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
#define KA09		"a09b5cd!f#07K\0\0\0"
#define ABC_NONCE	8, "bcdefghi"
#define ZERO		1, ""
#define S1		"\x01\x01\x01\x01\x02\x03\x02\x02\x02\x04\x01\x07\x04\x01\x04\x03"

static const struct vmac_vec vmac_vecs[] KAT_FLASH = {
	{  8, ABC_KEY, ABC_NONCE, 0, 0, 0, "", "\x25\x76\xbe\x1c\x56\xd8\xb8\x1b" },
	{ 16, ABC_KEY, ABC_NONCE, 0, 0, 0, "", "\x47\x27\x66\xc7\x0f\x74\xed\x23\x48\x1d\x6d\x7d\xe4\xe8\x0d\xac" },
	{  8, ABC_KEY, ABC_NONCE, 1, 0, 0, "", "\x2d\x37\x6c\xf5\xb1\x81\x3c\xe5" },
	{ 16, ABC_KEY, ABC_NONCE, 1, 0, 0, "", "\x4e\xe8\x15\xa0\x6a\x1d\x71\xed\xd3\x6f\xc7\x5d\x51\x18\x8a\x42" },
	{  8, ABC_KEY, ABC_NONCE, 16, 0, 0, "", "\xe8\x42\x1f\x61\xd5\x73\xd2\x98" },
	{ 16, ABC_KEY, ABC_NONCE, 16, 0, 0, "", "\x09\xf2\xc8\x0c\x8e\x10\x07\xa0\xc1\x2f\xae\x19\xfe\x45\x04\xae" },
	{  8, ABC_KEY, ABC_NONCE, 100, 0, 0, "", "\x44\x92\xdf\x6c\x5c\xac\x1b\xbe" },
	{ 16, ABC_KEY, ABC_NONCE, 100, 0, 0, "", "\x66\x43\x88\x17\x15\x48\x50\xc6\x1d\x8a\x41\x21\x64\x80\x3b\xcb" },
	{  8, ABC_KEY, ABC_NONCE, 1000000, 0, 0, "", "\x09\xba\x59\x7d\xd7\x60\x11\x13" },
	{ 16, ABC_KEY, ABC_NONCE, 1000000, 0, 0, "", "\x2b\x6b\x02\x28\x8f\xfc\x46\x1b\x75\x48\x5d\xe8\x93\xc6\x29\xdc" },
	{  8, K00, ZERO, 0, 0, 0, "", "\x54\x7b\xa4\x77\x35\x80\x58\x07" },
	{  8, K00, ZERO, 0, 128, 16, S1, "\xa1\x8c\x68\xae\xd3\x3c\xf5\xce" },
	{  8, K00, ZERO, 0, 128, 3, "abc", "\x2d\x14\xbd\x81\x73\xb0\x27\xc9" },
	{  8, K00, ZERO, 16, 128, 0, "", "\x19\x0b\x47\x98\x8c\x95\x1a\x8d" },
	{  8, ABC_KEY, ZERO, 0, 0, 0, "", "\x84\x8f\x55\x9e\x26\xa1\x89\x3b" },
	{  8, ABC_KEY, ZERO, 0, 128, 16, S1, "\xc2\x74\x8d\xf6\xb0\xab\x5e\xab" },
	{  8, ABC_KEY, ZERO, 0, 128, 3, "abc", "\xdf\x09\x7b\x3d\x42\x68\x15\x11" },
	{  8, ABC_KEY, ZERO, 16, 128, 0, "", "\xd4\xfa\x8f\xed\xe1\x8f\x32\x8b" },
	{  8, KA09, ZERO, 0, 17, 17, "bcefijlmoprstuwxz", "\x5f\xa1\x4e\x42\xea\x0f\xa5\xab" },
	{  8, KA09, ZERO, 0, 127, 15, "rmbtcolk]%927!A", "\x60\x67\xe8\x1d\xbc\x98\x31\x25" },
	{  8, KA09, ZERO, 0, 129, 15, "pt*7li!#w0z/4An", "\x41\xeb\x65\x95\x47\x9b\xae\xc4" },
};

/* The message of @v (a copy of the row in RAM) into @m; returns its length. */
static inline size_t vmac_vec_message(const struct vmac_vec *v, unsigned char *m)
{
	size_t n = 0, i;

	for (i = 0; i < 3 * (size_t)v->reps; i++)
		m[n++] = (unsigned char)("abc"[i % 3]);
	for (i = 0; i < v->mlen; i++)
		m[n++] = (unsigned char)v->msg[i];
	while (n < v->len)
		m[n++] = 0;
	return n;
}

#endif
