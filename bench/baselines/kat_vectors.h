/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Known answers of the plain AEADs and the re-keying PRF, shared by the
 * host's bench-kat (selftests/bench/test_bench_kat.c) and the boards'
 * bench-fw-kat (bench/fw/kat_fw.c), so both check the same facts. On the
 * AVR the tables live in flash (KAT_FLASH) and are read a row at a time.
 *
 *  'o' OCB3, AES-128, TAGLEN 128: RFC 7253 Appendix A, all sixteen;
 *  'c' CCM: SP 800-38C Appendix C.1-C.3, RFC 3610 packet vector 1, and
 *      the bench's configuration (12-byte nonce, 16-byte tag, no A) from
 *      OpenSSL's aes-128-ccm;
 *  'g' GCM (gcm.h: 96-bit IV, no A): test cases 1 and 2 of the GCM
 *      specification (McGrew-Viega);
 * F(K, X) = E(E(K, X), X) from bench/rekey-vectors.sh (openssl enc), and
 * UMAC-64 / UMAC-128 under K = "abcdefghijklmnop", nonce "bcdefghi": the
 * RFC 4418 section 5 messages (the 2^25-byte one needs the 128-bit L2
 * stage, not implemented) plus two record-sized ones, all as computed by
 * nettle 3.8's umac64/umac128, which reproduce the RFC's table.
 * ct is ciphertext || tag (tlen bytes), all hex.
 */
#ifndef DIAMOND_BENCH_KAT_VECTORS_H
#define DIAMOND_BENCH_KAT_VECTORS_H

#ifndef KAT_FLASH
#define KAT_FLASH
#endif

struct aead_vec {
	char mode;
	unsigned char tlen;
	char name[32];
	char key[33], nonce[31];
	char ad[81], pt[81];
	char ct[113];
};

static const struct aead_vec aead_vecs[] KAT_FLASH = {
	{ 'o', 16, "RFC 7253 A, N = ...00",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221100",
	  "",
	  "",
	  "785407bfffc8ad9edcc5520ac9111ee6" },
	{ 'o', 16, "RFC 7253 A, N = ...01",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221101",
	  "0001020304050607",
	  "0001020304050607",
	  "6820b3657b6f615a5725bda0d3b4eb3a257c9af1f8f03009" },
	{ 'o', 16, "RFC 7253 A, N = ...02",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221102",
	  "0001020304050607",
	  "",
	  "81017f8203f081277152fade694a0a00" },
	{ 'o', 16, "RFC 7253 A, N = ...03",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221103",
	  "",
	  "0001020304050607",
	  "45dd69f8f5aae72414054cd1f35d82760b2cd00d2f99bfa9" },
	{ 'o', 16, "RFC 7253 A, N = ...04",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221104",
	  "000102030405060708090a0b0c0d0e0f",
	  "000102030405060708090a0b0c0d0e0f",
	  "571d535b60b277188be5147170a9a22c3ad7a4ff3835b8c5701c1ccec8fc3358" },
	{ 'o', 16, "RFC 7253 A, N = ...05",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221105",
	  "000102030405060708090a0b0c0d0e0f",
	  "",
	  "8cf761b6902ef764462ad86498ca6b97" },
	{ 'o', 16, "RFC 7253 A, N = ...06",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221106",
	  "",
	  "000102030405060708090a0b0c0d0e0f",
	  "5ce88ec2e0692706a915c00aeb8b2396f40e1c743f52436bdf06d8fa1eca343d" },
	{ 'o', 16, "RFC 7253 A, N = ...07",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221107",
	  "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "1ca2207308c87c010756104d8840ce1952f09673a448a122c92c62241051f57356d7f3c90bb0e07f" },
	{ 'o', 16, "RFC 7253 A, N = ...08",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221108",
	  "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "",
	  "6dc225a071fc1b9f7c69f93b0f1e10de" },
	{ 'o', 16, "RFC 7253 A, N = ...09",
	  "000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221109",
	  "",
	  "000102030405060708090a0b0c0d0e0f1011121314151617",
	  "221bd0de7fa6fe993eccd769460a0af2d6cded0c395b1c3ce725f32494b9f914d85c0b1eb38357ff" },
	{ 'o', 16, "RFC 7253 A, N = ...0a",
	  "000102030405060708090a0b0c0d0e0f", "bbaa9988776655443322110a",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "bd6f6c496201c69296c11efd138a467abd3c707924b964deaffc40319af5a48540fbba186c5553c68ad9f592a79a4240" },
	{ 'o', 16, "RFC 7253 A, N = ...0b",
	  "000102030405060708090a0b0c0d0e0f", "bbaa9988776655443322110b",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "",
	  "fe80690bee8a485d11f32965bc9d2a32" },
	{ 'o', 16, "RFC 7253 A, N = ...0c",
	  "000102030405060708090a0b0c0d0e0f", "bbaa9988776655443322110c",
	  "",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "2942bfc773bda23cabc6acfd9bfd5835bd300f0973792ef46040c53f1432bcdfb5e1dde3bc18a5f840b52e653444d5df" },
	{ 'o', 16, "RFC 7253 A, N = ...0d",
	  "000102030405060708090a0b0c0d0e0f", "bbaa9988776655443322110d",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627",
	  "d5ca91748410c1751ff8a2f618255b68a0a12e093ff454606e59f9c1d0ddc54b65e8628e568bad7aed07ba06a4a69483a7035490c5769e60" },
	{ 'o', 16, "RFC 7253 A, N = ...0e",
	  "000102030405060708090a0b0c0d0e0f", "bbaa9988776655443322110e",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627",
	  "",
	  "c5cd9d1850c141e358649994ee701b68" },
	{ 'o', 16, "RFC 7253 A, N = ...0f",
	  "000102030405060708090a0b0c0d0e0f", "bbaa9988776655443322110f",
	  "",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627",
	  "4412923493c57d5de0d700f753cce0d1d2d95060122e9f15a5ddbfc5787e50b5cc55ee507bcb084e479ad363ac366b95a98ca5f3000b1479" },
	{ 'c', 4, "SP 800-38C C.1",
	  "404142434445464748494a4b4c4d4e4f", "10111213141516",
	  "0001020304050607",
	  "20212223",
	  "7162015b4dac255d" },
	{ 'c', 6, "SP 800-38C C.2",
	  "404142434445464748494a4b4c4d4e4f", "1011121314151617",
	  "000102030405060708090a0b0c0d0e0f",
	  "202122232425262728292a2b2c2d2e2f",
	  "d2a1f0e051ea5f62081a7792073d593d1fc64fbfaccd" },
	{ 'c', 8, "SP 800-38C C.3",
	  "404142434445464748494a4b4c4d4e4f", "101112131415161718191a1b",
	  "000102030405060708090a0b0c0d0e0f10111213",
	  "202122232425262728292a2b2c2d2e2f3031323334353637",
	  "e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5484392fbc1b09951" },
	{ 'c', 8, "RFC 3610 packet 1",
	  "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf", "00000003020100a0a1a2a3a4a5",
	  "0001020304050607",
	  "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e",
	  "588c979a61c663d2f066d0c2c0f989806d5f6b61dac38417e8d12cfdf926e0" },
	{ 'c', 16, "CCM N12 T16 0 B (openssl)",
	  "404142434445464748494a4b4c4d4e4f", "101112131415161718191a1b",
	  "",
	  "",
	  "538f76630f36a98a2f502d9b23d86343" },
	{ 'c', 16, "CCM N12 T16 20 B (openssl)",
	  "404142434445464748494a4b4c4d4e4f", "101112131415161718191a1b",
	  "",
	  "202122232425262728292a2b2c2d2e2f30313233",
	  "e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9e6b7442ba3a2f98d7b2bac2002389c96" },
	{ 'c', 16, "CCM N12 T16 24 B (openssl)",
	  "404142434445464748494a4b4c4d4e4f", "101112131415161718191a1b",
	  "",
	  "202122232425262728292a2b2c2d2e2f3031323334353637",
	  "e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5536382daec4bf5a71015d8031a451a92" },
	{ 'g', 16, "GCM spec test case 1",
	  "00000000000000000000000000000000", "000000000000000000000000",
	  "",
	  "",
	  "58e2fccefa7e3061367f1d57a4e7455a" },
	{ 'g', 16, "GCM spec test case 2",
	  "00000000000000000000000000000000", "000000000000000000000000",
	  "",
	  "00000000000000000000000000000000",
	  "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf" },
};

struct rekey_vec {
	char k[33], x[33], f[33];
};

static const struct rekey_vec rekey_vecs[] KAT_FLASH = {
	{ "000102030405060708090a0b0c0d0e0f",
	  "00112233445566778899aabbccddeeff",
	  "78cf9c987f9c7feb514fe4a4197b7283" },
	{ "2b7e151628aed2a6abf7158809cf4f3c",
	  "6bc1bee22e409f96e93d7e117393172a",
	  "6065fc13f94a52785b6e2bf9005f834d" },
	{ "00000000000000000000000000000000",
	  "00000000000000000000000000000000",
	  "ab4b36bdc81d8bd2bced4b05a708b422" },
	{ "ffffffffffffffffffffffffffffffff",
	  "80000000000000000000000000000001",
	  "306cba41b9247909194dcc12366f33c6" },
};

/* A message of len bytes repeating pat. */
struct umac_vec {
	char name[24], pat[4];
	unsigned long len;
	char tag64[17], tag128[33];
};

static const struct umac_vec umac_vecs[] KAT_FLASH = {
	{ "RFC 4418 empty", "a", 0ul,
	  "6e155fad26900be1", "32fedb100c79ad58f07ff7643cc60465" },
	{ "RFC 4418 'a' x 3", "a", 3ul,
	  "44b5cb542f220104", "185e4fe905cba7bd85e4c2dc3d117d8d" },
	{ "RFC 4418 'a' x 2^10", "a", 1024ul,
	  "26bf2f5d60118bd9", "7a54abe04af82d60fb298c3cbd195bcb" },
	{ "RFC 4418 'a' x 2^15", "a", 32768ul,
	  "27f8ef643b0d118d", "7b136bd911e4b734286ef2be501f2c3c" },
	{ "RFC 4418 'a' x 2^20", "a", 1048576ul,
	  "a4477e87e9f55853", "f8acfa3ac31cfeea047f7b115b03bef5" },
	{ "RFC 4418 'abc'", "abc", 3ul,
	  "d4d7b9f6bd4fbfcf", "883c3d4b97a61976ffcf232308cba5a5" },
	{ "RFC 4418 'abc' x 500", "abc", 1500ul,
	  "d4cf26ddefd5c01a", "8824a260c53c66a36c9260a62cb83aa1" },
	{ "'abc' x 31 (nettle)", "abc", 93ul,
	  "f6ffe2ac3a62cadd", "aa146611108b6c648032f51220a748eb" },
	{ "'a' x 128 (nettle)", "a", 128ul,
	  "c47a5c7b49115547", "9891d8c663f8f3fe6fe88a2522b2f1f1" },
};

#endif
