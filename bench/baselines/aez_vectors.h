/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Known answers of AEZ v5 (bench/baselines/aez.c), tau = 16 bytes (the
 * bench's) unless the row says otherwise, for bench-kat on the host.
 *
 * aez_vecs: derived by running Ted Krovetz's AEZ v5 AES-NI reference code
 * (encrypt.c, "Last modified 21 March 2017", as carried in the
 * github.com/david415/aez crate) outside the tree, with aez_setup() and
 * aez_encrypt(); its aez_decrypt() accepted each. The inputs are patterns:
 * key byte i = i (klen bytes; 32 and 16 go through BLAKE2b Extract, 48 is
 * used directly), nonce byte i = 0xa0 + i, AD byte i = 0x40 + i (adlen
 * -1: no AD string at all, 0: one empty string), message byte
 * i = 7i + 3 mod 256. ct is the whole AEZ ciphertext (len + tau bytes).
 *
 * aez_vecs_x: entries of the testdata of github.com/Yawning/aez (a Go
 * implementation, also from the reference code), no AD, taken verbatim.
 */
#ifndef DIAMOND_BENCH_AEZ_VECTORS_H
#define DIAMOND_BENCH_AEZ_VECTORS_H

struct aez_vec {
	unsigned char klen, nlen;
	short adlen;
	unsigned short len;
	unsigned char tau;
	const char *ct;
};

static const struct aez_vec aez_vecs[] = {
	{ 32, 16, 0, 0, 16,
	  "8713cd7eb0feeb4eb6c069b0c1584c86" },
	{ 32, 16, 13, 1, 16,
	  "8c242816c511de55a45055c196be24284e" },
	{ 32, 16, 32, 15, 16,
	  "dd829a1d633070b61abbda0f6da1a1976e557fbd9018a407169d4a67c4b168" },
	{ 32, 16, 0, 16, 16,
	  "37ffc052120a59107c432c0cc6f0807b176bd0a27190346bba9aaa37ff47a78c" },
	{ 32, 16, 13, 17, 16,
	  "f874294c8bc25d173dab78beab6bfbdaeb28943ff9a850073ca3bfbea8964b8d"
	  "d1" },
	{ 32, 16, 32, 31, 16,
	  "0bb773b8d607153b43c7e2ff07bd44e1ac1a597b75255cf939290740407f8bcb"
	  "577e7b5ee034fdaa269a61610ff179" },
	{ 32, 16, 0, 32, 16,
	  "e3fddc5a6311c98c0e7999913da2c72a60b51835c1f37009a703106bc36d6bc6"
	  "48f14d01fbb5fb1c27872b0b3cebe61b" },
	{ 32, 16, 13, 33, 16,
	  "5a0c43c43c473718fc23a5519d40e17f2f600acea0120b8bb10967fc3904796d"
	  "933ed3289af63d3fd22b9186e9feae45f8" },
	{ 32, 16, 32, 64, 16,
	  "a748c5c951a6351a0dfa7b488bd0e686ea5ba9a26946b203f30744703dd0df88"
	  "994de97c0956cbf8f6cef818e99d78e8c8bfd21b7647b9d6cf27ad45620e651d"
	  "5ea148836080d503ef00368c682cdb59" },
	{ 32, 16, 0, 95, 16,
	  "8b9b0f457b998659ca054c6a807cfbef9e36bf17e9a7e7a16784372c911926a7"
	  "668560622215fe8dc1c32446dd894eb63e9a4ae07fcee2ab40be69a3f2f9dfe0"
	  "53eafc5cb0244b0a4841ba1c13e61f633246fe84225c1c081557865b1f20b942"
	  "16a32aea9969c0b8e2cf2dca5d2db3" },
	{ 32, 16, 13, 128, 16,
	  "019956a033c56b07bceae7a6910180d2e257e53163636a4496719fa83c1b8b86"
	  "3f3c6de92f59bdb026df103f41790105a95970821b2bd538bac7a887ac21e0ff"
	  "600f02103c859b6fc24add69fd74dbb9b3e4a530764081ce3ed4bccce265f077"
	  "77d03da76328a9c61d5f313a8817658188c580a9c454d3d5ce532e01955fc347"
	  "446520d54edc23c9362e40f989056bee" },
	{ 32, 16, 32, 256, 16,
	  "3a8bbc40f28cf827cc94607317a9bd6b28373d581e7c2c7976d0d4e6b8e9e9d2"
	  "c15249854db230ec0223bb9ebcd2ecd346c2c13a7e447aaeb3fc7439036118f4"
	  "3bbbbc5819cb78c20617dd789b591b75fc55aa8eb388d6bbd4da464b6f59e0e6"
	  "b1e6a8821590aad0d524cd905770377b8499417319feb4fa1764e260681aa58a"
	  "fa4533aabd2a334e8d13505138017477e5e37f0346da3eac59c8b212de39145e"
	  "d00c2ab3d887069a0873b48ebfbf845deabc2b32a0782448c2c843ab9acec799"
	  "df1add698a54e73c1fbd10a0d69dbfa050bdb79fcd06678772df461381b7c20d"
	  "0acc2445c373a59d2427d5bac5c2dde3f5a056c626d1551251d52dd0ffd2082f"
	  "dcfabc93a6121b5006235b1e0f3d7898" },
	{ 48, 12, -1, 17, 16,
	  "df975a232c865c4474775eac3ac64faf1ffd123fb2aaf2b89d3ec86b463fb0e3"
	  "60" },
	{ 48, 16, 40, 64, 16,
	  "d0cfd9118dd130b4c9dc3050cd29d7986dfc68f61fc281ac5249b43177a8dd59"
	  "ca616004fab2cc771297ededde2a2001907b0cdb6075d4401a30fef94d53b6c5"
	  "82d90766c24f96046f5ed827dfa88393" },
	{ 16, 1, -1, 0, 16,
	  "0756c05a88bbe0a92ec8077804a1b98e" },
	{ 16, 0, 7, 95, 16,
	  "bbf2f0500a4c5f7a4ff6a4dd54649232c3b43d75561864f89c38f36e72a8f7dc"
	  "7e01d90d986a95ed4643ec8f750f4e079da3ffd5665e24e188c9b6e045f872e9"
	  "d76d76354b04ed0b30d895b4cffd3c6debb82420dea7faf7cacfc9c2abfbd143"
	  "65f6dee3196375d477d2b6cb646849" },
	/* Other tag lengths: AEZ-tiny under 16 bytes (24, 16, 10 rounds). */
	{ 32, 16, 0, 1, 0,
	  "c3" },
	{ 32, 16, 0, 2, 0,
	  "eb1d" },
	{ 32, 16, 0, 3, 0,
	  "c3434d" },
	{ 32, 16, 0, 15, 0,
	  "07fd3adf7f593e68e17b991941cf85" },
	{ 32, 16, 0, 1, 1,
	  "2ad9" },
	{ 32, 16, 0, 14, 1,
	  "cce6226956b03257129ea6fab52543" },
	{ 32, 16, 0, 5, 8,
	  "50823c1349e98a067bbd01f423" },
	{ 32, 16, 0, 40, 4,
	  "a45f8ae0fb2fd28afc705846611b9e5e728ffd715463b1354dc99e3b2aef773f"
	  "605903cbebceaa654bf950e7" },
};

struct aez_xvec {
	const char *key, *nonce, *pt, *ct;
};

static const struct aez_xvec aez_vecs_x[] = {
	{ "4a0aac50f6578832b02cb99032258482",
	  "5c2b639ecf3bc07c4613f0582535d85e",
	  "76bbe998284c91ec55b4b5ed72cd9dfafd728ab635fe8e0fba3dc232d9ba16fb",
	  "bc432ee691dde8d69de6ecee9fe87287ae82a225b7729571b2e95fdd38bb0e12"
	  "ed5b7af1a137e8816c9a47c9927bac78" },
	{ "f2ff1296e30225f15f8c6154acf68ef058babb7c4d149d39c3593ef0a28b0f1a"
	  "dbcc82f1a1c94753a5531d834468a88a",
	  "98905f44c2221ce9d852c52f96a1c5a9",
	  "f1b900f6d143a289ce0b3bf4cd598702709bf424ba8c0ef1144261480cc5c442",
	  "ccc8a68697e372e34400c1546d2e9d38b5a027f73e3e6c4d54c0505a60a3f0d4"
	  "9dbf164ea0301c7d7520777e70c24bfa" },
};

#endif
