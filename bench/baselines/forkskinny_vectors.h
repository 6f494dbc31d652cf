/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Known answers of SKINNY-128 and ForkSkinny-128 (skinny128.h,
 * forkskinny.h), shared by the host's bench-kat and the boards'
 * bench-fw-kat (bench/fw/kat_fw.c); on the AVR the table is in flash.
 *
 * SKINNY-128-256 and -384: the test vectors of the SKINNY paper (Beierle
 * et al., ePrint 2016/660, appendix B).
 *
 * ForkSkinny-128-256 and -384: C0 (left) and C1 (right) as computed by
 * the reference forkskinny.c of the ForkAE round-2 submission package
 * (github.com/byt3bit/forkae at 39939e6, directory software/ref), built outside
 * this tree with its extra_api.h set to the full tweakeys (16 + 16 and
 * 16 + 32 bytes, 21/27 and 25/31 rounds). The same build of that package
 * reproduces all 1089 entries of the submission's LWC_AEAD_KAT files of
 * PAEF-ForkSkinny-128-288, PAEF-ForkSkinny-128-256 and SAEF-ForkSkinny-
 * 128-256, so its forkcipher is the submitted one. Rows: all zero, the
 * counting tweakey and input, a key-only tweakey (Sonikku's FC(K, 0, 0)),
 * three from a fixed LCG.
 */
#ifndef DIAMOND_BENCH_FORKSKINNY_VECTORS_H
#define DIAMOND_BENCH_FORKSKINNY_VECTORS_H

#ifndef KAT_FLASH
#define KAT_FLASH
#endif

/* ntk 2 or 3; c0 empty for a plain SKINNY row (its ciphertext in c1). */
struct skinny_vec {
	unsigned char ntk, fork;
	char tweakey[97], in[33], c0[33], c1[33];
};

static const struct skinny_vec skinny_vecs[] KAT_FLASH = {
	{ 2, 0, "009cec81605d4ac1d2ae9e3085d7a1f31ac123ebfc00fddcf01046ceeddfcab3",
	  "3a0c47767a26a68dd382a695e7022e25",
	  "", "b731d98a4bde147a7ed4a6f16b9b587f" },
	{ 3, 0, "df889548cfc7ea52d296339301797449ab588a34a47f1ab2dfe9c8293fbea9a5ab1afac2611012cd8cef952618c3ebe8",
	  "a3994b66ad85a3459f44e92b08f550cb",
	  "", "94ecf589e2017c601b38c6346a10dcfa" },
	{ 2, 1, "0000000000000000000000000000000000000000000000000000000000000000",
	  "00000000000000000000000000000000",
	  "2d95443b6eb3ad88fd9e77a582f0a69a", "9ced140351dc571420a0470346bb9b29" },
	{ 2, 1, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	  "a0c9f039789526b939fc95ab1d4397da", "05cfcecf8030398a62ea0f75da870d4f" },
	{ 2, 1, "000102030405060708090a0b0c0d0e0f00000000000000000000000000000000",
	  "00000000000000000000000000000000",
	  "3f0afb364c727758242566c886c4599e", "53ddb8e3991c7e65422404427e9e2508" },
	{ 2, 1, "71471d94ec8993c744bcd8cfcb3cc5a66819a8e6caa4e23b69bd418941da1edc",
	  "4ed83613c682494c19e2740ea94a4f39",
	  "bfb44001a3a16a3523d9c4d243015a47", "4a8e02f08ceb283701550d2c0bd2d25f" },
	{ 2, 1, "4920c6ae776db8be592551547a3428e1414d180a3571de14f241770bea0537b5",
	  "dd78a93a16592a906bb244a8f2e6cb5a",
	  "85aede24abdc6fed9a716344700c5400", "849431e58ebf168b5e559871e03472e4" },
	{ 2, 1, "837eba11f2b0cb3609b3d85e48c5f4325cf848225fc0afc9d53e111e624a8060",
	  "4d4314c0b59687cb950f8f9e79e2ffc8",
	  "fc1a5c05972f093ca9253f8364f8dc34", "5c7691472bac041490a2053cda722b42" },
	{ 3, 1, "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
	  "00000000000000000000000000000000",
	  "2ac92cd3cf1d7691fe183a6839def8bd", "6090c6f23e0b0f51559ec90fe17c738f" },
	{ 3, 1, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
	  "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	  "7d3f4637271272fd7e222edfa64bf445", "231cca0481c80a371861caf41ac2f904" },
	{ 3, 1, "000102030405060708090a0b0c0d0e0f0000000000000000000000000000000000000000000000000000000000000000",
	  "00000000000000000000000000000000",
	  "e06d0b08631b6fc79a15d9a6d7f301be", "fd26bc8f6383edf66ed519792deffccc" },
	{ 3, 1, "71471d94ec8993c744bcd8cfcb3cc5a66819a8e6caa4e23b69bd418941da1edc4ed83613c682494c19e2740ea94a4f39",
	  "4920c6ae776db8be592551547a3428e1",
	  "389eae8759524fb13126a63c15d8e15b", "4361e29ea9af6e3ff48b726c3ae7d9af" },
	{ 3, 1, "414d180a3571de14f241770bea0537b5dd78a93a16592a906bb244a8f2e6cb5a837eba11f2b0cb3609b3d85e48c5f432",
	  "5cf848225fc0afc9d53e111e624a8060",
	  "e59970e5c93f17d3284e760782c62994", "519f71c2a06e5dc371ebd25f7fde8487" },
	{ 3, 1, "4d4314c0b59687cb950f8f9e79e2ffc8fd789cfd0afbc080d0a0b14e83b7be0bd5741fae367b8aebce2d956336b5cf8e",
	  "fad19c64cf60d4ce95b01bd00b85fe73",
	  "85e3d14f8d301f193ba3893e5f33f2dc", "8e710c88dfb86e868fe94aa499788093" },
};

#endif
