/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Known answers of SuperSonic (supersonic.h), shared by the host's
 * bench-kat and the boards' bench-fw-kat; on the AVR the table is in flash.
 * Key 00 01 .. 0f, message byte i = 0x20 + i, lengths around the chunk
 * boundaries (46, 62 bytes) and the record sizes; tag = C0 || C1.
 *
 * Computed outside this tree by the Sonikku authors' reference code, the
 * functions supersonic_384_forkskinny() and supersonic_256_forkskinny()
 * of its sonics_ref sources (the MAC constants SONICS_384_P_SIZE etc. in
 * sonics_ref.h; found through the public code index, the repository name
 * was not given), on ForkSkinny through a thin adapter to the ForkAE
 * reference forkskinny.c of forkskinny_vectors.h (the reference expects
 * Southern Storm's ForkSkinny API: left output = C0, right = C1).
 * BabySonic and DarkSonic are not here: the code index holds only their
 * prototypes (in sonics_ref.h), not their bodies, and the paper's text is
 * not available either (Documentation/performance.md, the Sonikku
 * subsection, lists what was searched).
 */
#ifndef DIAMOND_BENCH_SONIKKU_VECTORS_H
#define DIAMOND_BENCH_SONIKKU_VECTORS_H

#ifndef KAT_FLASH
#define KAT_FLASH
#endif

#define SUPERSONIC_KAT_MAXLEN	200

struct supersonic_vec {
	unsigned char ntk;		/* 3: ForkSkinny-128-384, 2: -256 */
	unsigned short len;
	char tag[65];
};

static const struct supersonic_vec supersonic_vecs[] KAT_FLASH = {
	{ 3,   1, "c58ef6fafeae317ef13cd85158ecaa8ab606d29207e917940e104d0a072eaf11" },
	{ 3,  15, "8b628b2efaa69e2482916c2a116fb6affec4d3376550d4c2112a15c9c42b8895" },
	{ 3,  16, "1a812de9c16bbf1e6973222e46c25d8aa3f6add91030793e349f12008dc894e3" },
	{ 3,  31, "2d17287f0f74be3e636cffc55c282581479472a99d6f0e0b4a48755147373744" },
	{ 3,  46, "79e8d61443ecd9641722e863adc3d14082c577fd267408afef5480f1d59048f5" },
	{ 3,  47, "774bb026a18752b178449f29087fd9690aa3c54c24713c05b3c96722adfb43cd" },
	{ 3,  62, "49e10aee276356022ce9b81d128c714be96f62eb31aa432668572cf1e8339869" },
	{ 3,  63, "326698c1f37764cf536df753bdaa28db0ca39fa145b0f7e1236596bca2abb044" },
	{ 3,  64, "dfcf3054ecf63d6bd1a499b04b780651ff35077883105663b2e7ad0dbace42ac" },
	{ 3,  92, "7d44fa735071461e2d2b000d9b42c173cb17ced9330645732c08068b865f8cb4" },
	{ 3,  95, "efb8d10c73adea2f6f0b075cc30cfa837fae89c668ce2f19c98efd50c69f2183" },
	{ 3, 124, "35cf92c7a72aa552758a695d98d532e3898e9e6e11f9ec048071635220d37a53" },
	{ 3, 128, "985d447e8a0a41579c634a12dfe3a5067a74941ae91e4fbb478b19bf78e04938" },
	{ 3, 200, "299a603c7289a738c58fdb93201d9423fbf9333312ac1fdb443b18778f89f294" },
	{ 2,   1, "4fe686fc9d56a36d780e03be6c1bcc35e543956e2e1e45414603a8dc313c91a7" },
	{ 2,  15, "4987ed05415cf1341223e2a21372649b25c780f0d9d21b3d63f72efaa0588dbd" },
	{ 2,  16, "79f05abe2d19b5e61fd28e333edfbd4e4ea07cfbc4ac6500e20314ecb88e38f4" },
	{ 2,  31, "1c0cae333a35e574322cfe8f2ad8bc64908d3a2916a79b15c4679ddda78c4a7e" },
	{ 2,  46, "f0fa0f8540c98bbb7defed9191f32e9d1ffe5cf117fb023e921ef1935a04ac5a" },
	{ 2,  47, "1262ff51cf1f08b4976597043e1a13b14242ef25c059500bee0fb70b8dad0302" },
	{ 2,  62, "290ec84aa3c9a2d5e181d9e9e1311ca4cfee89169d083e6edc2d65b259279e2e" },
	{ 2,  63, "d91228506797168be93d99ab55002d4c92bebb7d20cb44c0fd28fd370cc7be59" },
	{ 2,  64, "9c6c8d5e51547edd91870c1e57c8aa04e0b3fc49a08f6b90ab41f1047f01f1de" },
	{ 2,  92, "72b3f14e027cef043a5dd19abc880c994e036f6813a61d0eba8fb6b04a737599" },
	{ 2,  95, "89d6cc3d881334808efe36aa461cf432241ecbcad255cb56788d98d68d630e7c" },
	{ 2, 124, "9e03c3cf65d2a6e1f5f09262556cacbc144f0d7b3b21688aad5f8212e428303f" },
	{ 2, 128, "aec77d91692995f54fd84ebccf0121286e87e2f0c159a7855641c080b1fe5a31" },
	{ 2, 200, "44fe69d0fcd76ba72a9f6596456843414d0b95ee12395e37ce03eef124daa0b2" },
};

#endif
