// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mac-kat: SKINNY-64-192, ZMAC, PMAC1 and PMAC2x (bench/baselines/
 * skinny64.h, zmac.h, pmac.h) against every answer of vectors/
 * skinny-macs.txt (1,009 key and message pairs, five MACs; the file says
 * where the answers come from), SKINNY-64-192 against the SKINNY paper's
 * vector, and what the answers cannot show: ZMAC as the paper defines it
 * agrees with the reference wherever the reference absorbs the whole
 * message and catches the bytes the reference drops; an empty message is
 * read nowhere (the ASan build catches a read) and tags as one padded
 * block, in these MACs and in SuperSonic; a flipped message bit changes
 * every tag; a half tag is the whole one's first half. Usage: test_skinny_macs VECTORS. TAP on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmac.h"
#include "skinny64.h"
#include "skinny64_vectors.h"
#include "skinny_macs.h"
#include "supersonic.h"
#include "tap.h"
#include "zmac.h"

#define NMACS	SKINNY_MACS
#define MAXLEN	1024

struct vec {
	size_t len;
	uint8_t key[16], m[MAXLEN], tag[NMACS][32];
};

static struct vec *vecs;
static size_t nvecs;

/* Hex field @h of exactly @n bytes into @out; 0 on a malformed field. */
static int unhex(const char *h, uint8_t *out, size_t n)
{
	size_t i;
	unsigned int v;

	if (strlen(h) != 2 * n)
		return 0;
	for (i = 0; i < n; i++) {
		if (sscanf(h + 2 * i, "%2x", &v) != 1)
			return 0;
		out[i] = (uint8_t)v;
	}
	return 1;
}

static int parse(char *line, struct vec *v)
{
	char *f[8], *save = NULL;
	unsigned int i;
	int ok;

	for (i = 0; i < 8; i++) {
		f[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!f[i])
			return 0;
	}
	v->len = strtoul(f[0], NULL, 10);
	if (v->len > MAXLEN)
		return 0;
	ok = unhex(f[1], v->key, 16) && unhex(f[2], v->m, v->len);
	for (i = 0; i < NMACS; i++)
		ok = ok && unhex(f[3 + i], v->tag[i], skinny_mac_taglen[i]);
	return ok;
}

static int load(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int ok = f != NULL;

	vecs = calloc(1100, sizeof(*vecs));
	while (ok && vecs && getline(&line, &cap, f) > 0) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		ok = nvecs < 1100 && parse(line, &vecs[nvecs]);
		nvecs += ok;
	}
	free(line);
	if (f)
		fclose(f);
	return ok && vecs && nvecs > 0;
}

static void test_answers(unsigned int i)
{
	size_t j, good = 0;
	uint8_t t[32];

	for (j = 0; j < nvecs; j++) {
		skinny_mac(i, vecs[j].key, vecs[j].m, vecs[j].len, t);
		if (!memcmp(t, vecs[j].tag[i], skinny_mac_taglen[i]))
			good++;
		else if (good + 5 > j)
			tap_diag("%s: wrong tag for the %zu-byte message", skinny_mac_names[i],
				 vecs[j].len);
	}
	tap_result(good == nvecs && nvecs == 1009, "%s: %zu of %zu answers (of 1009)",
		   skinny_mac_names[i], good, nvecs);
}

static void test_skinny64(void)
{
	uint8_t c[8];

	skinny64_192_encrypt(skinny64_tk, skinny64_pt, c);
	tap_result(!memcmp(c, skinny64_ct, 8), "SKINNY-64-192: the SKINNY paper's vector");
	skinny64_192_encrypt_swapped(skinny64_tk, skinny64_pt, c);
	tap_result(!memcmp(c, skinny64_ct_swapped, 8),
		   "SKINNY-64-192, rows little-endian: the reference's output");
}

/*
 * ZMAC as the paper defines it: the reference's tags wherever the last
 * chunk is short; where it is full, other tags, and a change in the bytes
 * the reference drops changes them.
 */
static void test_zmac_paper(const struct skinny_tbc *e, unsigned int i)
{
	size_t chunk = e->n + e->t - 1, j, same = 0, full = 0, caught = 0;
	uint8_t t[32], u[32], m[MAXLEN];

	for (j = 0; j < nvecs; j++) {
		const struct vec *v = &vecs[j];

		zmac(e, ZMAC_AS_PAPER, v->key, v->m, v->len, t, 2 * e->n);
		if (v->len % chunk) {
			same += !memcmp(t, v->tag[i], 2 * e->n);
			continue;
		}
		full++;
		caught += memcmp(t, v->tag[i], 2 * e->n) != 0;
	}
	tap_result(same + full == nvecs && caught == full && full > 0,
		   "%s as the paper: the reference's tag for all %zu short last chunks, "
		   "another for all %zu full ones", skinny_mac_names[i], same, full);
	memcpy(m, vecs[chunk].m, chunk);
	zmac(e, ZMAC_AS_REFERENCE, vecs[chunk].key, m, chunk, t, 2 * e->n);
	m[chunk - 1] ^= 0x80;
	zmac(e, ZMAC_AS_REFERENCE, vecs[chunk].key, m, chunk, u, 2 * e->n);
	tap_result(!memcmp(t, u, 2 * e->n),
		   "%s as the reference: a %zu-byte message's last byte never reaches the tag",
		   skinny_mac_names[i], chunk);
	zmac(e, ZMAC_AS_PAPER, vecs[chunk].key, m, chunk, t, 2 * e->n);
	m[chunk - 1] ^= 0x80;
	zmac(e, ZMAC_AS_PAPER, vecs[chunk].key, m, chunk, u, 2 * e->n);
	tap_result(memcmp(t, u, 2 * e->n) != 0,
		   "%s as the paper: it does", skinny_mac_names[i]);
}

/* An empty message at the very end of an allocation: ASan sees any read. */
static void test_empty(void)
{
	static const uint8_t key[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	static const uint8_t one = 0x80;
	uint8_t *end = malloc(1), t[32], u[32], w[32];
	struct supersonic_key k;
	unsigned int i, ok = 1;

	for (i = 0; i < NMACS; i++) {
		skinny_mac(i, key, end + 1, 0, t);
		skinny_mac(i, key, end + 1, 0, u);
		skinny_mac(i, key, &one, 1, w);
		ok &= !memcmp(t, u, skinny_mac_taglen[i]) && memcmp(t, w, skinny_mac_taglen[i]) != 0;
	}
	tap_result(ok, "ZMAC, PMAC1, PMAC2x: an empty message reads nothing, tags alike twice, "
		   "unlike the message 80");
	ok = 1;
	for (i = 2; i <= 3; i++) {
		supersonic_init(&k, key, i);
		supersonic_mac(&k, end + 1, 0, t, t + 16);
		supersonic_mac(&k, end + 1, 0, u, u + 16);
		supersonic_mac(&k, &one, 1, w, w + 16);
		ok &= !memcmp(t, u, 32) && memcmp(t, w, 32) != 0;
	}
	supersonic_wipe(&k);
	tap_result(ok, "SuperSonic-256/384: an empty message reads nothing (one padded chunk), "
		   "tags alike twice, unlike the message 80");
	free(end);
}

/* ZMAC's and PMAC2x's half tags (e->n bytes) are their whole tags' first half. */
static void test_half_tags(void)
{
	static const struct skinny_tbc *const es[2] = { &skinny_tbc_128_256, &skinny_tbc_64_192 };
	uint8_t t[32], h[32];
	unsigned int i, ok = 1;
	size_t j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < nvecs; j += 37) {
			const struct vec *v = &vecs[j];
			size_t n = es[i]->n;

			zmac(es[i], ZMAC_AS_REFERENCE, v->key, v->m, v->len, t, 2 * n);
			zmac(es[i], ZMAC_AS_REFERENCE, v->key, v->m, v->len, h, n);
			ok &= !memcmp(t, h, n);
			pmac2x(es[i], v->key, v->m, v->len, t, 2 * n);
			pmac2x(es[i], v->key, v->m, v->len, h, n);
			ok &= !memcmp(t, h, n);
		}
	tap_result(ok, "ZMAC, PMAC2x: a half tag is the whole tag's first half (every 37th pair)");
}

/* A flipped bit anywhere in a 100-byte message changes every tag. */
static void test_flips(void)
{
	uint8_t m[100], t[32], u[32];
	unsigned int i, ok = 1;
	size_t b;

	memcpy(m, vecs[0].m, 16);
	for (b = 16; b < sizeof(m); b++)
		m[b] = (uint8_t)(b * 7);
	for (i = 0; i < NMACS; i++) {
		skinny_mac(i, vecs[0].key, m, sizeof(m), t);
		for (b = 0; b < 8 * sizeof(m); b += 13) {
			m[b / 8] ^= (uint8_t)(1u << (b % 8));
			skinny_mac(i, vecs[0].key, m, sizeof(m), u);
			m[b / 8] ^= (uint8_t)(1u << (b % 8));
			ok &= memcmp(t, u, skinny_mac_taglen[i]) != 0;
		}
	}
	tap_result(ok, "a flipped message bit (every 13th of 800) changes every tag");
}

int main(int argc, char **argv)
{
	unsigned int i;

	tap_header();
	if (argc != 2 || !load(argv[1])) {
		tap_result(0, "read the vectors (%s)", argc == 2 ? argv[1] : "no file given");
		tap_trailing_plan();
		return TAP_EXIT_FAIL;
	}
	test_skinny64();
	for (i = 0; i < NMACS; i++)
		test_answers(i);
	test_zmac_paper(&skinny_tbc_128_256, 0);
	test_zmac_paper(&skinny_tbc_64_192, 1);
	test_empty();
	test_flips();
	test_half_tags();
	free(vecs);
	tap_trailing_plan();
	return tap_finish();
}
