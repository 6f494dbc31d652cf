// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * grid2c: receiver vectors of vectors/packet.txt (spec section 14.8) as
 * the C header diamond.ko's selftest runs at load
 * (kernel/diamond_grid_kat.h): each as one grid request (kernel-api.rst,
 * "Packet radio: the tag grid") on a fresh tfm keyed with the vector's
 * key, and the whole output it must give, control table included.
 *
 *   grid2c PACKETFILE                  header on stdout
 *   grid2c --check HEADER PACKETFILE   regenerate and compare with HEADER;
 *                                      exit 0 if identical, 1 otherwise
 *
 * The packets are parsed by the portable core (dmd_packet_parse()); the
 * expected output is the vector's: its tags, released records and
 * plaintexts, and the cursor a fresh tfm then stands at (past the unit
 * only when it is the key's first and every record was released).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include <diamond/packet.h>
#include <diamond/util.h>
#include "lib/kvrec.h"
#include "same-file.h"

/* The receiver vectors the module checks at load: a few, to stay quick. */
static const char *const chosen[] = {
	"rx-d1-all", "rx-d1-lost-5", "rx-d1-damaged-tag7", "rx-d1-wrong-unit",
	"rx-d2-all", "rx-d2-lost-5", "rx-d2-damaged-tag7", "rx-d2-wrong-unit",
};

#define REQ_MAX	(DMD_GRID_TABLE_SIZE + DMD_GRID_UNIT * (2 + DMD_PKT_MAX) + \
		 DMD_GRID_TAGS * DMD_PKT_TAG_SIZE)

static void bytes(FILE *out, const char *name, const uint8_t *p, size_t n)
{
	size_t i;

	fprintf(out, "static const u8 %s[] = {", name);
	for (i = 0; i < n; i++)
		fprintf(out, "%s0x%02x,", i % 12 ? " " : "\n\t", p[i]);
	fprintf(out, "\n};\n\n");
}

/* The plaintext the vector gives record @r, into @pt: its length or -1. */
static int vector_pt(unsigned int r, uint8_t *pt)
{
	const char *s;
	char *e;
	unsigned int k;

	for (k = 0; (s = get_nth("pt", k)); k++)
		if (strtoul(s, &e, 10) == r)
			return (int)unhex(pt, DMD_PKT_MAX_RECORD, e + 1);
	return -1;
}

/*
 * The request (@in: table || records || tags) and the output it must give
 * (@want) of the current record; 0, or -1 for a vector grid2c cannot use.
 */
static int request(uint8_t *in, size_t *inlen, uint8_t *want,
		   uint64_t *epoch, int *expect)
{
	static uint8_t pk[DMD_GRID_UNIT + 4][DMD_PKT_MAX + 1];
	struct dmd_grid_unit g;
	struct dmd_packet p;
	struct dmd_state st;
	uint8_t blob[DMD_BLOB2_MAX], held_tags = 0;
	unsigned long long e;
	unsigned int a, u, vt, rel, before, r, t, k;
	uint16_t held = 0;
	size_t n = DMD_GRID_TABLE_SIZE, bl;
	int decided;
	const char *s;

	bl = unhex(blob, sizeof(blob), get("key"));
	if (dmd_blob_parse(&st, blob, bl) != DMD_OK ||
	    sscanf(get("at"), "%llu %u", &e, &u) != 2 ||
	    sscanf(get("before"), "%x", &before) != 1 || before ||
	    sscanf(get("vtags"), "%x", &vt) != 1 ||
	    sscanf(get("rel"), "%x", &rel) != 1)
		return -1;
	a = (unsigned int)strtoul(get("a"), NULL, 10);
	memset(&g, 0, sizeof(g));
	for (k = 0; (s = get_nth("in", k)) && k < DMD_GRID_UNIT + 4; k++)
		if (dmd_packet_parse(&p, pk[k], unhex(pk[k], DMD_PKT_MAX, s),
				     a) == DMD_OK &&
		    !g.rec[p.jm % DMD_GRID_UNIT])
			dmd_grid_unit_add(&g, &p);
	memset(in, 0, DMD_GRID_TABLE_SIZE);
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!g.rec[r])
			continue;
		held |= (uint16_t)(1u << r);
		dmd_store16_le(in + n, (uint16_t)g.len[r]);
		memcpy(in + n + 2, g.rec[r], g.len[r]);
		memcpy(want + n, in + n, 2);
		memset(want + n + 2, 0, g.len[r]);
		if (rel >> r & 1 &&
		    vector_pt(r, want + n + 2) != (int)g.len[r])
			return -1;
		n += 2 + g.len[r];
	}
	for (t = 0; t < DMD_GRID_TAGS; t++) {
		if (!g.tag[t])
			continue;
		held_tags |= (uint8_t)(1u << t);
		memcpy(in + n, g.tag[t], DMD_PKT_TAG_SIZE);
		memset(want + n, 0, DMD_PKT_TAG_SIZE);
		n += DMD_PKT_TAG_SIZE;
	}
	if (!held_tags)
		return -1;
	dmd_store32_le(in + DMD_GRID_OFF_UNIT, u);
	dmd_store16_le(in + DMD_GRID_OFF_HELD, held);
	in[DMD_GRID_OFF_TAGS] = held_tags;
	memcpy(want, in, DMD_GRID_TABLE_SIZE);
	decided = e == st.epoch && !u && rel == 0xffff;
	dmd_store16_le(want + DMD_GRID_OFF_RELEASED, (uint16_t)rel);
	want[DMD_GRID_OFF_VERIFIED] = (uint8_t)vt;
	want[DMD_GRID_OFF_STATE] = decided ? DMD_GRID_DECIDED : 0;
	dmd_store16_le(want + DMD_GRID_OFF_UNIT_REL, (uint16_t)rel);
	want[DMD_GRID_OFF_UNIT_VER] = (uint8_t)vt;
	dmd_store64_le(want + DMD_GRID_OFF_CUR_EPOCH,
		       decided && u + 1 == st.b / DMD_GRID_UNIT ? e + 1 :
		       decided ? e : st.epoch);
	dmd_store32_le(want + DMD_GRID_OFF_CUR_UNIT,
		       decided && u + 1 < st.b / DMD_GRID_UNIT ? u + 1 : 0);
	*expect = !vt;
	*inlen = n;
	*epoch = e;
	return 0;
}

static int is_chosen(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(chosen) / sizeof(chosen[0]); i++)
		if (name && !strcmp(name, chosen[i]))
			return 1;
	return 0;
}

static int generate_from(FILE *out, const void *ctx)
{
	static uint8_t in[REQ_MAX], want[REQ_MAX], key[DMD_BLOB2_MAX];
	const char *path = ctx, *name;
	unsigned int n = 0, i;
	uint64_t epoch;
	size_t inlen, kl;
	char id[32];
	int expect, rc;

	if (kv_open(path)) {
		perror(path);
		return -1;
	}
	fprintf(out,
		"/* SPDX-License-Identifier: GPL-2.0 */\n"
		"/*\n"
		" * Receiver vectors of vectors/packet.txt (spec section 14.8) for\n"
		" * diamond.ko's selftest: each is one grid request (authsize 12) on a\n"
		" * tfm keyed with @key, which must answer @expect and, on success,\n"
		" * the whole output @out (the control table, then the records).\n"
		" * Generated by tools/vectors/grid2c: do not edit; `make\n"
		" * kernel-kat-header` regenerates it, `make check-vectors-kat` checks\n"
		" * it.\n"
		" */\n"
		"#ifndef DIAMOND_GRID_KAT_H\n"
		"#define DIAMOND_GRID_KAT_H\n\n"
		"#include <linux/errno.h>\n"
		"#include <linux/types.h>\n\n"
		"struct diamond_grid_kat {\n"
		"\tconst char *name;\n"
		"\tconst u8 *key, *in, *out;\n"
		"\tunsigned int keylen, inlen;\n"
		"\tu64 epoch;\n"
		"\tint expect;\t/* 0 or -EBADMSG */\n"
		"};\n\n");
	while ((rc = rec_next()) > 0) {
		name = get("name");
		if (!is_chosen(name))
			continue;
		if (request(in, &inlen, want, &epoch, &expect)) {
			fprintf(stderr, "grid2c: %s: not a request\n", name);
			rc = -1;
			break;
		}
		kl = unhex(key, sizeof(key), get("key"));
		fprintf(out, "/* %s */\n", name);
		snprintf(id, sizeof(id), "diamond_grid_key_%u", n);
		bytes(out, id, key, kl);
		snprintf(id, sizeof(id), "diamond_grid_in_%u", n);
		bytes(out, id, in, inlen);
		snprintf(id, sizeof(id), "diamond_grid_out_%u", n);
		bytes(out, id, want, inlen - DMD_PKT_TAG_SIZE);
		n++;
	}
	rec_clear();
	fclose(vf);
	if (rc < 0)
		return -1;
	/* The table, in the order the vectors came. */
	if (kv_open(path))
		return -1;
	fprintf(out, "static const struct diamond_grid_kat diamond_grid_kats[] = {\n");
	for (i = 0; (rc = rec_next()) > 0;) {
		name = get("name");
		if (!is_chosen(name) ||
		    request(in, &inlen, want, &epoch, &expect))
			continue;
		kl = unhex(key, sizeof(key), get("key"));
		fprintf(out,
			"\t{ \"%s\", diamond_grid_key_%u, diamond_grid_in_%u,\n"
			"\t  diamond_grid_out_%u, %zu, %zu, %llu, %s },\n",
			name, i, i, i, kl, inlen, (unsigned long long)epoch,
			expect ? "-EBADMSG" : "0");
		i++;
	}
	rec_clear();
	fclose(vf);
	fprintf(out, "};\n\n#endif /* DIAMOND_GRID_KAT_H */\n");
	return i == n && n ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--check"))
		return same_file("grid2c", argv[2], argv[3], generate_from,
				 argv[3]);
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: grid2c PACKETFILE\n"
			"       grid2c --check HEADER PACKETFILE\n");
		return 2;
	}
	return generate_from(stdout, argv[1]) ? 2 : 0;
}
