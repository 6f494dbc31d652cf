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
 * every tag. Usage: test_skinny_macs VECTORS. TAP on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmac.h"
#include "skinny64.h"
#include "supersonic.h"
#include "tap.h"
#include "zmac.h"

#define NMACS	5
#define MAXLEN	1024

struct vec {
	size_t len;
	uint8_t key[16], m[MAXLEN], tag[NMACS][32];
};

static const char *const mac_names[NMACS] = {
	"ZMAC on SKINNY-128-256", "ZMAC on SKINNY-64-192", "PMAC1 on SKINNY-128-256",
	"PMAC2x on SKINNY-128-256", "PMAC2x on SKINNY-64-192",
};
static const size_t tag_len[NMACS] = { 32, 16, 16, 32, 16 };

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
		ok = ok && unhex(f[3 + i], v->tag[i], tag_len[i]);
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

static void run_mac(unsigned int i, const uint8_t *key, const uint8_t *m,
		    size_t len, uint8_t *tag)
{
	switch (i) {
	case 0: zmac(&skinny_tbc_128_256, ZMAC_AS_REFERENCE, key, m, len, tag); break;
	case 1: zmac(&skinny_tbc_64_192, ZMAC_AS_REFERENCE, key, m, len, tag); break;
	case 2: pmac1(key, m, len, tag); break;
	case 3: pmac2x(&skinny_tbc_128_256, key, m, len, tag); break;
	default: pmac2x(&skinny_tbc_64_192, key, m, len, tag); break;
	}
}

static void test_answers(unsigned int i)
{
	size_t j, good = 0;
	uint8_t t[32];

	for (j = 0; j < nvecs; j++) {
		run_mac(i, vecs[j].key, vecs[j].m, vecs[j].len, t);
		if (!memcmp(t, vecs[j].tag[i], tag_len[i]))
			good++;
		else if (good + 5 > j)
			tap_diag("%s: wrong tag for the %zu-byte message", mac_names[i],
				 vecs[j].len);
	}
	tap_result(good == nvecs && nvecs == 1009, "%s: %zu of %zu answers (of 1009)",
		   mac_names[i], good, nvecs);
}

static void test_skinny64(void)
{
	static const uint8_t tk[24] = {
		0xed, 0x00, 0xc8, 0x5b, 0x12, 0x0d, 0x68, 0x61, 0x87, 0x53, 0xe2, 0x4b,
		0xfd, 0x90, 0x8f, 0x60, 0xb2, 0xdb, 0xb4, 0x1b, 0x42, 0x2d, 0xfc, 0xd0,
	};
	static const uint8_t pt[8] = { 0x53, 0x0c, 0x61, 0xd3, 0x5e, 0x86, 0x63, 0xc3 };
	static const uint8_t ct[8] = { 0xdd, 0x2c, 0xf1, 0xa8, 0xf3, 0x30, 0x30, 0x3c };
	/* the reference's skinny_64_192_encrypt() on the same bytes */
	static const uint8_t ref[8] = { 0x0a, 0x69, 0x16, 0x22, 0xc2, 0xd0, 0x52, 0x0c };
	uint8_t c[8];

	skinny64_192_encrypt(tk, pt, c);
	tap_result(!memcmp(c, ct, 8), "SKINNY-64-192: the SKINNY paper's vector");
	skinny64_192_encrypt_swapped(tk, pt, c);
	tap_result(!memcmp(c, ref, 8), "SKINNY-64-192, rows little-endian: the reference's output");
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

		zmac(e, ZMAC_AS_PAPER, v->key, v->m, v->len, t);
		if (v->len % chunk) {
			same += !memcmp(t, v->tag[i], 2 * e->n);
			continue;
		}
		full++;
		caught += memcmp(t, v->tag[i], 2 * e->n) != 0;
	}
	tap_result(same + full == nvecs && caught == full && full > 0,
		   "%s as the paper: the reference's tag for all %zu short last chunks, "
		   "another for all %zu full ones", mac_names[i], same, full);
	memcpy(m, vecs[chunk].m, chunk);
	zmac(e, ZMAC_AS_REFERENCE, vecs[chunk].key, m, chunk, t);
	m[chunk - 1] ^= 0x80;
	zmac(e, ZMAC_AS_REFERENCE, vecs[chunk].key, m, chunk, u);
	tap_result(!memcmp(t, u, 2 * e->n),
		   "%s as the reference: a %zu-byte message's last byte never reaches the tag",
		   mac_names[i], chunk);
	zmac(e, ZMAC_AS_PAPER, vecs[chunk].key, m, chunk, t);
	m[chunk - 1] ^= 0x80;
	zmac(e, ZMAC_AS_PAPER, vecs[chunk].key, m, chunk, u);
	tap_result(memcmp(t, u, 2 * e->n) != 0,
		   "%s as the paper: it does", mac_names[i]);
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
		run_mac(i, key, end + 1, 0, t);
		run_mac(i, key, end + 1, 0, u);
		run_mac(i, key, &one, 1, w);
		ok &= !memcmp(t, u, tag_len[i]) && memcmp(t, w, tag_len[i]) != 0;
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
		run_mac(i, vecs[0].key, m, sizeof(m), t);
		for (b = 0; b < 8 * sizeof(m); b += 13) {
			m[b / 8] ^= (uint8_t)(1u << (b % 8));
			run_mac(i, vecs[0].key, m, sizeof(m), u);
			m[b / 8] ^= (uint8_t)(1u << (b % 8));
			ok &= memcmp(t, u, tag_len[i]) != 0;
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
	free(vecs);
	tap_trailing_plan();
	return tap_finish();
}
