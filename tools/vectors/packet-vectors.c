// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet-radio vectors (vectors/packet.txt, Documentation/spec.rst
 * section 14), for gen-vectors --packet. Every value is computed here from
 * the spec text with the reference pieces of ref-prims.c (OpenSSL and a
 * bit-serial GHASH): the packets a sender emits, each unit's Z_u, tau* and
 * full tags, the receiver's parse, its candidate positions (found by
 * walking positions one by one in stream order, not by the core's
 * arithmetic) and the verdicts of a unit's tags when packets are lost,
 * damaged, replayed or placed at a wrong position. Nothing of the portable
 * core is used, so the core's host test checks against an independent
 * computation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "packet-vectors.h"
#include "ref-prims.h"

#define UNIT		16	/* records per unit, a 4x4 grid */
#define TAGS		8	/* 4 row tags, then 4 column tags */
#define TRUNC		12	/* bytes of a tag on the air */
#define MAX_LEN		222	/* DMD_PKT_MAX_RECORD */
#define MAX_PKT		255
#define MAX_B		64	/* the epochs sealed here */
#define EPOCH_LAST	0xfffffffffffffffdull

static FILE *out;

/* Deterministic content, a generator of its own (xorshift64). */
static uint64_t rng = 0x6a09e667f3bcc909ull;

static void fill(uint8_t *p, size_t n)
{
	while (n--) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		*p++ = (uint8_t)(rng >> 24);
	}
}

static void hex_raw(const uint8_t *p, size_t n)
{
	while (n--)
		fprintf(out, "%02x", *p++);
}

static void hex(const char *name, const uint8_t *p, size_t n)
{
	fprintf(out, "%-6s =%s", name, n ? " " : "");
	hex_raw(p, n);
	fputc('\n', out);
}

static void key_line(const char *name, const struct state *st, int gen,
		     int group)
{
	uint8_t b[64];

	hex(name, b, blob2(b, st, gen, group));
}

/* ---- the sender, straight from section 14 ---- */

/* Tags riding in the packet of r (section 14.1): their t, in order. */
static int tags_of(int r, int t[2])
{
	if (r == 3 || r == 7 || r == 11) {
		t[0] = r / 4;
		return 1;
	}
	if (r >= 12 && r <= 14) {
		t[0] = r - 8;
		return 1;
	}
	if (r == 15) {
		t[0] = 3;
		t[1] = 7;
		return 2;
	}
	return 0;
}

/* Does tag t cover record r of its unit? */
static int covers(int t, int r)
{
	return t < 4 ? r / 4 == t : r % 4 == t - 4;
}

/* Z_u and the eight tau*_{u,t} from R_{e,16u} (section 14.3). */
static void grid_taus(int suite, const uint8_t *r, uint64_t e, uint32_t u,
		      uint8_t z[256], uint8_t tau[TAGS][16])
{
	int t;

	stream(suite, r, 3, z, 256);
	for (t = 0; t < TAGS; t++)
		uh_tag(suite, z + 32 * t, NULL, 0, e,
		       GRIDF | (uint32_t)t << 16 | UNIT * u, tau[t]);
}

struct sealed {
	struct state st;	/* at the start of the epoch sealed */
	struct state next;	/* the reservation: e + 1 */
	uint64_t e;
	uint32_t b;
	int a;
	uint32_t addr;
	size_t len[MAX_B];
	int anchor[MAX_B];
	uint8_t pt[MAX_B][MAX_LEN], ct[MAX_B][MAX_LEN];
	uint8_t pkt[MAX_B][MAX_PKT];
	size_t pl[MAX_B];
	uint8_t z[MAX_B / UNIT][256], tau[MAX_B / UNIT][TAGS][16];
	uint8_t s[MAX_B / UNIT][TAGS][16];
};

static size_t header(uint8_t *p, int a, uint32_t addr, uint32_t j, int anchor,
		     uint64_t e)
{
	size_t n = (size_t)a;

	put_le(p, addr, a);
	p[n++] = (uint8_t)((anchor ? 0x40 : 0) | (j % 64));
	if (anchor) {
		put_le(p + n, e & 0xffffffffu, 4);
		n += 4;
	}
	return n;
}

/* Seal one whole epoch of x->st (b records, x->len, x->anchor, x->pt). */
static void seal_epoch(struct sealed *x)
{
	uint8_t r[32], hp[32], ks[MAX_LEN], sigma[16];
	uint32_t j, u;
	int i, k, t[2], m, rr;
	size_t n;

	x->next = x->st;
	x->e = x->st.epoch;
	epoch_update(x->st.suite, x->next.key, r);
	x->next.epoch++;
	for (j = 0; j < x->b; j++) {
		u = j / UNIT;
		rr = (int)(j % UNIT);
		if (!rr)
			grid_taus(x->st.suite, r, x->e, u, x->z[u], x->s[u]);
		if (!rr)
			memcpy(x->tau[u], x->s[u], sizeof(x->tau[u]));
		slot(x->st.suite, r, hp, ks, x->len[j]);
		for (n = 0; n < x->len[j]; n++)
			x->ct[j][n] = x->pt[j][n] ^ ks[n];
		uh_tag(x->st.suite, hp, x->ct[j], x->len[j], x->e, j, sigma);
		for (i = 0; i < TAGS; i++)
			if (covers(i, rr))
				for (k = 0; k < 16; k++)
					x->s[u][i][k] ^= sigma[k];
		n = header(x->pkt[j], x->a, x->addr, j, x->anchor[j] || !j,
			   x->e);
		memcpy(x->pkt[j] + n, x->ct[j], x->len[j]);
		n += x->len[j];
		m = tags_of(rr, t);
		for (i = 0; i < m; i++, n += TRUNC)
			memcpy(x->pkt[j] + n, x->s[u][t[i]], TRUNC);
		x->pl[j] = n;
	}
}

static struct sealed sx;

static void seal_print(const char *name, const char *what)
{
	uint32_t j, u;

	fprintf(out, "\n# %s\nname   = %s\n", what, name);
	key_line("key", &sx.st, (int)(sx.st.epoch >> 32), 0);
	fprintf(out, "a      = %d\naddr   = %x\n", sx.a, sx.addr);
	seal_epoch(&sx);
	for (j = 0; j < sx.b; j++) {
		fprintf(out, "rec    = %u %d ", j, sx.anchor[j] || !j);
		hex_raw(sx.pt[j], sx.len[j]);
		fputc('\n', out);
		hex("pkt", sx.pkt[j], sx.pl[j]);
	}
	for (u = 0; u < sx.b / UNIT; u++) {
		fprintf(out, "z      = %u ", u);
		hex_raw(sx.z[u], 256);
		fprintf(out, "\ntau    = %u ", u);
		hex_raw(&sx.tau[u][0][0], TAGS * 16);
		fprintf(out, "\ntags   = %u ", u);
		hex_raw(&sx.s[u][0][0], TAGS * 16);
		fputc('\n', out);
	}
	key_line("next", &sx.next, (int)(sx.st.epoch >> 32), 0);
}

static struct state pmake(int suite, uint32_t b, uint32_t dev, uint64_t e)
{
	struct state st = { suite, 0, b, dev, e, { 0 } };

	fill(st.key, ksize(suite));
	return st;
}

static void fill_records(uint32_t b, size_t len)
{
	uint32_t j;

	for (j = 0; j < b; j++) {
		sx.len[j] = len;
		sx.anchor[j] = 0;
		fill(sx.pt[j], len);
	}
}

/*
 * Per suite: one key sealed at A = 1, 2, 3 and 4 (the same records, so
 * the packets differ in their address bytes alone: no tag covers the
 * address), a generation 1 epoch (anchor = e mod 2^32) with a second
 * anchor mid-unit, and one unit of every length edge.
 */
static const uint32_t addrs[] = { 0x05, 0xbeef, 0x123456, 0x89abcdef };

static void seals(int suite)
{
	struct state st = pmake(suite, 32, 0x0d0c0b0a, 7);
	uint8_t pt[MAX_B][MAX_LEN];
	static const size_t edge[UNIT] = { 0, 1, 15, 17, 16, 16, 16, 16,
					   16, 16, 16, 16, 16, 16, 16, 222 };
	char name[64], what[160];
	uint32_t j;
	int a;

	fill_records(32, 16);
	memcpy(pt, sx.pt, sizeof(pt));
	for (a = 1; a <= 4; a++) {
		sx.st = st;
		sx.b = 32;
		sx.a = a;
		sx.addr = addrs[a - 1];
		memcpy(sx.pt, pt, sizeof(pt));
		snprintf(name, sizeof(name), "d%d-a%d-b32", suite, a);
		snprintf(what, sizeof(what),
			 "suite %d, A = %d: an epoch of 32 records of 16 bytes, "
			 "two units", suite, a);
		seal_print(name, what);
	}

	sx.st = pmake(suite, 16, 0x0d0c0b0a, (1ull << 32) + 0x1234567);
	sx.b = 16;
	sx.a = 2;
	sx.addr = 0x0102;
	fill_records(16, 16);
	sx.anchor[9] = 1;
	snprintf(name, sizeof(name), "d%d-gen1-anchors", suite);
	seal_print(name, "generation 1, b = 16: anchors carry e mod 2^32; "
		   "record 9 anchored too");

	sx.st = pmake(suite, 16, 0x0d0c0b0a, 3);
	sx.b = 16;
	sx.a = 4;
	sx.addr = 0xfedcba98;
	for (j = 0; j < UNIT; j++) {
		sx.len[j] = edge[j];
		sx.anchor[j] = j == 15;
		fill(sx.pt[j], edge[j]);
	}
	snprintf(name, sizeof(name), "d%d-lengths", suite);
	seal_print(name, "records of 0, 1, 15, 17 and 222 bytes; record 15 "
		   "anchored at A = 4: 255 bytes, the longest packet");
}

/* ---- the receiver's parse (section 14.5, steps 1 and 2) ---- */

static void parse_case(const char *name, const char *what, int a,
		       const uint8_t *p, size_t pl)
{
	int n, r, m, k, t[2];
	uint32_t addr;
	long len;

	fprintf(out, "\n# %s\nname   = parse-%s\na      = %d\n", what, name, a);
	hex("pkt", p, pl);
	if (pl < (size_t)a + 1 || p[a] & 0x80) {
		fprintf(out, "expect = EFORMAT\n");
		return;
	}
	n = !!(p[a] & 0x40);
	if (n && pl < (size_t)a + 5) {
		fprintf(out, "expect = EFORMAT\n");
		return;
	}
	r = p[a] % UNIT;
	m = tags_of(r, t);
	len = (long)pl - a - 1 - 4 * n - TRUNC * m;
	if (len < 0) {
		fprintf(out, "expect = EFORMAT\n");
		return;
	}
	if (len > MAX_LEN) {
		fprintf(out, "expect = ESIZE\n");
		return;
	}
	fprintf(out, "expect = ok\n");
	for (addr = 0, k = a; k--;)
		addr = addr << 8 | p[k];
	fprintf(out, "fields = %x %d %d %ld %d\n", addr, n, p[a] & 63, len, m);
}

static void parses(void)
{
	uint8_t p[300];

	fill(p, sizeof(p));
	p[1] = 0x05;
	parse_case("plain", "A = 1, record 5, 16 bytes", 1, p, 1 + 1 + 16);
	p[1] = 0x80 | 0x05;
	parse_case("f1", "F = 1: reserved, dropped", 1, p, 18);
	p[1] = 0xff;
	parse_case("f1-all", "F = 1 with N and j mod 64 = 63", 1, p, 40);
	parse_case("empty", "no control byte (PL = A)", 1, p, 1);
	parse_case("a4-short", "A = 4, PL = 4", 4, p, 4);
	p[2] = 0x40;
	parse_case("anchor-short", "N = 1, PL = A + 4", 2, p, 6);
	parse_case("anchor-empty", "N = 1, PL = A + 5: an empty record 0", 2,
		   p, 7);
	p[1] = 0x0f;
	parse_case("r15-short", "record 15 (two tags) one byte short of them",
		   1, p, 1 + 1 + 23);
	parse_case("r15-empty", "record 15, empty, two tags", 1, p,
		   1 + 1 + 24);
	p[1] = 0x03;
	parse_case("r3-222", "record 3 (a row tag), 222 bytes", 1, p,
		   1 + 1 + 222 + 12);
	parse_case("r3-223", "record 3, 223 bytes", 1, p, 1 + 1 + 223 + 12);
	p[3] = 0x40 | 0x3f;
	parse_case("a3-r63-anchor-222", "A = 3, N = 1, j mod 64 = 63 (r = "
		   "15), 222 bytes: 254", 3, p, 3 + 1 + 4 + 222 + 24);
	parse_case("a3-r63-anchor-223", "the same, 223 bytes", 3, p,
		   3 + 1 + 4 + 223 + 24);
	p[1] = 0x0c;
	parse_case("r12-col", "record 12 carries column tag 4", 1, p,
		   1 + 1 + 16 + 12);
}

/* ---- candidate positions (section 14.5), one position at a time ---- */

struct cand_case {
	const char *name, *what;
	uint32_t b;
	uint64_t ec;
	uint32_t uc;
	uint32_t max_skip;
	int held;
	uint64_t eh;
	int jm;
	int anchored;
	uint32_t anchor;
};

static void cand_print(const struct cand_case *c)
{
	uint64_t pe[4], e, ea;
	uint32_t pj[4], i;
	int n = 0, k, dup;

	fprintf(out, "\n# %s\nname   = cand-%s\nb      = %u\n", c->what,
		c->name, c->b);
	fprintf(out, "cursor = %llu %u\nskip   = %u\n",
		(unsigned long long)c->ec, c->uc, c->max_skip);
	if (c->held)
		fprintf(out, "held   = %llu\n", (unsigned long long)c->eh);
	fprintf(out, "ctl    = %02x\n", (c->anchored ? 0x40 : 0) | c->jm);
	if (c->anchored)
		fprintf(out, "anchor = %u\n", c->anchor);
	if ((uint32_t)c->jm >= c->b) {
		fprintf(out, "expect = EFORMAT\n");
		return;
	}
	if (c->anchored) {
		ea = c->ec + (uint32_t)(c->anchor - (uint32_t)c->ec);
		if (ea - c->ec > c->max_skip) {
			fprintf(out, "expect = ESKIP\n");
			return;
		}
		if (ea > EPOCH_LAST) {
			fprintf(out, "expect = EFULL\n");
			return;
		}
		for (i = ea == c->ec ? UNIT * c->uc : 0; i < c->b && n < 3; i++)
			if (i % 64 == (uint32_t)c->jm) {
				pe[n] = ea;
				pj[n++] = i;
			}
	} else {
		/* Stream order from the cursor's first record. */
		e = c->ec;
		i = UNIT * c->uc;
		while (n < 3 && e <= EPOCH_LAST && e - c->ec <= c->max_skip) {
			if (i % 64 == (uint32_t)c->jm) {
				pe[n] = e;
				pj[n++] = i;
			}
			if (++i == c->b) {
				i = 0;
				e++;
			}
		}
		if (c->held && c->eh > c->ec) {
			for (dup = 0, k = 0; k < n; k++)
				dup |= pe[k] == c->eh && pj[k] == (uint32_t)c->jm;
			if (!dup) {
				pe[n] = c->eh;
				pj[n++] = (uint32_t)c->jm;
			}
		}
	}
	if (!n) {
		fprintf(out, "expect = EEXPIRED\n");
		return;
	}
	fprintf(out, "expect = ok\ncand   =");
	for (k = 0; k < n; k++)
		fprintf(out, " %llu:%u", (unsigned long long)pe[k], pj[k]);
	fputc('\n', out);
}

static const struct cand_case cands[] = {
	{ "b32-near", "b = 32: one index per epoch has j mod 64 = 5", 32, 10,
	  0, 4096, 0, 0, 5, 0, 0 },
	{ "b1024-near", "b = 1024: three indices of epoch 10", 1024, 10, 0,
	  4096, 0, 0, 5, 0, 0 },
	{ "b1024-unit5", "the cursor at unit 5 (record 80): 133, 197, 261",
	  1024, 10, 5, 4096, 0, 0, 5, 0, 0 },
	{ "b1024-own-unit", "j mod 64 inside the cursor's unit", 1024, 10, 5,
	  4096, 0, 0, 20, 0, 0 },
	{ "b1024-epoch-end", "the cursor at the last unit: the next epoch's "
	  "indices follow", 1024, 10, 63, 4096, 0, 0, 1, 0, 0 },
	{ "held-epoch", "an anchored epoch 14 held: a fourth candidate", 1024,
	  10, 5, 4096, 1, 14, 5, 0, 0 },
	{ "held-listed", "the held epoch's position is already listed", 32, 10,
	  0, 4096, 1, 11, 5, 0, 0 },
	{ "held-behind", "a held epoch at the cursor's adds nothing", 32, 10, 0,
	  4096, 1, 10, 5, 0, 0 },
	{ "after-100-lost", "100 records lost after record 30: record 130 is "
	  "the second candidate", 1024, 0, 1, 4096, 0, 0, 130 % 64, 0, 0 },
	{ "skip-bound", "max_skip = 1 drops the third candidate", 16, 10, 0, 1,
	  0, 0, 3, 0, 0 },
	{ "jm-past-b", "b = 32 and j mod 64 = 40: no index has it", 32, 10, 0,
	  4096, 0, 0, 40, 0, 0 },
	{ "last-epoch", "at 2^64 - 3 nothing follows", 32, EPOCH_LAST, 0, 4096,
	  0, 0, 3, 0, 0 },
	{ "last-epoch-expired", "at 2^64 - 3, past every index 3 mod 64", 32,
	  EPOCH_LAST, 1, 4096, 0, 0, 3, 0, 0 },
	{ "anchor", "an anchor three epochs on", 1024, 10, 5, 4096, 0, 0, 0, 1,
	  13 },
	{ "anchor-cursor", "an anchor of the cursor's epoch: at or after the "
	  "cursor", 1024, 10, 5, 4096, 0, 0, 0, 1, 10 },
	{ "anchor-expired", "an anchor of the cursor's epoch, past its index",
	  32, 10, 1, 4096, 0, 0, 0, 1, 10 },
	{ "anchor-skip-max", "an anchor exactly max_skip on", 32, 10, 0, 4096,
	  0, 0, 0, 1, 10 + 4096 },
	{ "anchor-skip-past", "an anchor max_skip + 1 on", 32, 10, 0, 4096, 0,
	  0, 0, 1, 10 + 4097 },
	{ "anchor-behind", "an anchor one epoch behind the cursor names "
	  "2^32 - 1 epochs on", 32, 10, 0, 4096, 0, 0, 0, 1, 9 },
	{ "anchor-wrap", "the cursor at 2^32 - 2, an anchor of low bits 1: "
	  "epoch 2^32 + 1", 32, 0xfffffffeull, 0, 4096, 0, 0, 0, 1, 1 },
	{ "anchor-gen2", "generation 2: the anchor is the low 32 bits", 32,
	  (2ull << 32) + 40, 0, 4096, 0, 0, 0, 1, 41 },
	{ "anchor-full", "an anchor past 2^64 - 3", 32, EPOCH_LAST - 1, 0, 4096,
	  0, 0, 0, 1, (uint32_t)(EPOCH_LAST + 1) },
};

/* ---- unit verification (section 14.5): verdicts per tag and record ---- */

struct placed {
	const uint8_t *pkt[UNIT];
	size_t pl[UNIT];
};

/* R_{e,16u} from @st (the state at the start of an epoch <= e). */
static void unit_key(const struct state *st, uint64_t e, uint32_t u,
		     uint8_t r[32])
{
	struct state x = *st;
	uint8_t hp[32];
	uint32_t j;

	epoch_update(x.suite, x.key, r);
	for (; x.epoch < e; x.epoch++)
		epoch_update(x.suite, x.key, r);
	for (j = 0; j < UNIT * u; j++)
		slot(x.suite, r, hp, NULL, 0);
}

/* Which tags verify, and what that releases, for packets placed at (e, u). */
static void verdict(const char *name, const char *what, const struct sealed *x,
		    const struct placed *p, uint64_t e, uint32_t u,
		    unsigned int before)
{
	uint8_t r[32], z[256], tau[TAGS][16], hp[32], ks[MAX_LEN];
	uint8_t sigma[UNIT][16], pt[UNIT][MAX_LEN], s[16];
	size_t off[UNIT], len[UNIT], n;
	unsigned int vt = 0, rel = 0, held = 0;
	int rr, t, k, m, tt[2], ok;

	fprintf(out, "\n# %s\nname   = %s\n", what, name);
	key_line("key", &x->st, (int)(x->st.epoch >> 32), 0);
	fprintf(out, "a      = %d\nat     = %llu %u\nbefore = %04x\n", x->a,
		(unsigned long long)e, u, before);
	unit_key(&x->st, e, u, r);
	grid_taus(x->st.suite, r, e, u, z, tau);
	for (rr = 0; rr < UNIT; rr++) {
		if (p->pkt[rr]) {
			hex("in", p->pkt[rr], p->pl[rr]);
			held |= 1u << rr;
			n = (size_t)x->a + 1 + (p->pkt[rr][x->a] & 0x40 ? 4 : 0);
			off[rr] = n;
			len[rr] = p->pl[rr] - n - TRUNC * (size_t)tags_of(rr, tt);
		}
		slot(x->st.suite, r, hp, ks, p->pkt[rr] ? len[rr] : 0);
		if (!p->pkt[rr])
			continue;
		uh_tag(x->st.suite, hp, p->pkt[rr] + off[rr], len[rr], e,
		       UNIT * u + (uint32_t)rr, sigma[rr]);
		for (n = 0; n < len[rr]; n++)
			pt[rr][n] = p->pkt[rr][off[rr] + n] ^ ks[n];
	}
	for (t = 0; t < TAGS; t++) {
		int carrier = t < 4 ? 4 * t + 3 : t + 8, slot_of = 0;

		ok = 1;
		for (rr = 0; rr < UNIT; rr++)
			if (covers(t, rr) && !(held >> rr & 1))
				ok = 0;
		if (!ok)
			continue;
		memcpy(s, tau[t], 16);
		for (rr = 0; rr < UNIT; rr++)
			if (covers(t, rr))
				for (k = 0; k < 16; k++)
					s[k] ^= sigma[rr][k];
		m = tags_of(carrier, tt);
		for (k = 0; k < m; k++)
			if (tt[k] == t)
				slot_of = k;
		if (!memcmp(s, p->pkt[carrier] + off[carrier] + len[carrier] +
			    TRUNC * slot_of, TRUNC))
			vt |= 1u << t;
	}
	for (t = 0; t < TAGS; t++)
		if (vt >> t & 1)
			for (rr = 0; rr < UNIT; rr++)
				if (covers(t, rr))
					rel |= 1u << rr;
	rel &= ~before;
	fprintf(out, "vtags  = %02x\nrel    = %04x\n", vt, rel);
	for (rr = 0; rr < UNIT; rr++)
		if (rel >> rr & 1) {
			fprintf(out, "pt     = %d ", rr);
			hex_raw(pt[rr], len[rr]);
			fputc('\n', out);
		}
}

static uint8_t damaged[UNIT][MAX_PKT];

/* Unit @u of sx as it arrived: @lost records missing, @bad damaged. */
static void arrive(struct placed *p, uint32_t u, unsigned int lost,
		   unsigned int bad, size_t bad_at_end)
{
	int rr;

	for (rr = 0; rr < UNIT; rr++) {
		p->pkt[rr] = lost >> rr & 1 ? NULL : sx.pkt[UNIT * u + rr];
		p->pl[rr] = sx.pl[UNIT * u + rr];
		if (!(bad >> rr & 1) || !p->pkt[rr])
			continue;
		memcpy(damaged[rr], p->pkt[rr], p->pl[rr]);
		/*
		 * The byte @bad_at_end from the end (1: the last byte; a
		 * record packet without tags ends in its ciphertext).
		 */
		if (bad_at_end < 1 || bad_at_end > p->pl[rr])
			die("damage outside the packet");
		damaged[rr][p->pl[rr] - bad_at_end] ^= 0x10;
		p->pkt[rr] = damaged[rr];
	}
}

static void receives(int suite)
{
	struct placed p;
	char name[64];
	uint64_t e;

#define RX(tag, what, ee, uu, before) do { \
	snprintf(name, sizeof(name), "rx-d%d-%s", suite, tag); \
	verdict(name, what, &sx, &p, ee, uu, before); \
} while (0)

	sx.st = pmake(suite, 32, 0x11223344, 40);
	sx.b = 32;
	sx.a = 1;
	sx.addr = 0x2a;
	fill_records(32, 16);
	seal_epoch(&sx);
	e = sx.e;
	arrive(&p, 0, 0, 0, 0);
	RX("all", "unit 0 whole: every tag verifies", e, 0, 0);
	arrive(&p, 1, 0, 0, 0);
	RX("unit1", "unit 1 whole (GTB's first index is 16)", e, 1, 0);
	arrive(&p, 0, 1u << 5, 0, 0);
	RX("lost-5", "record 5 lost: row 1 and column 1 cannot be tried; "
	   "the rest is released", e, 0, 0);
	arrive(&p, 0, 1u << 6, 0, 0);
	RX("lost-6", "record 6 lost: record 5's row fails to be tried, its "
	   "column releases it", e, 0, 0);
	arrive(&p, 0, 1u << 7, 0, 0);
	RX("lost-7", "record 7, row 1's carrier, lost: columns release 4, 5 "
	   "and 6", e, 0, 0);
	arrive(&p, 0, 0, 1u << 5, 5);
	RX("damaged-5", "record 5's ciphertext damaged: row 1 and column 1 "
	   "fail, record 5 is not released", e, 0, 0);
	arrive(&p, 0, 0, 1u << 15, 1);
	RX("damaged-tag7", "the last byte of column tag 7 damaged: row 3 "
	   "still releases record 15", e, 0, 0);
	arrive(&p, 0, 0, 1u << 15, 13);
	RX("damaged-tag3", "the last byte of row tag 3 damaged: column 7 "
	   "still releases record 15", e, 0, 0);
	arrive(&p, 0, (1u << 5) | (1u << 10), 0, 0);
	RX("lost-5-10", "records 5 and 10 lost: rows 1 and 2 and columns 1 "
	   "and 2 cannot be tried, so 6 and 9 stay with them", e, 0, 0);
	arrive(&p, 0, 1u << 3, 0, 0);
	RX("late-3-before", "record 3 lost so far: everything but 3", e, 0,
	   0);
	arrive(&p, 0, 0, 0, 0);
	RX("late-3-after", "record 3 arrives late: only 3 is released", e, 0,
	   0xfff7);
	RX("replay", "the whole unit again after its release: nothing twice",
	   e, 0, 0xffff);
	RX("wrong-epoch", "unit 0 placed at epoch e + 1 (a wrong "
	   "reconstruction): nothing verifies", e + 1, 0, 0);
	RX("wrong-unit", "unit 0 placed at unit 1: nothing verifies", e, 1,
	   0);
#undef RX
}

/* ---- keys packet mode refuses (section 14.2) ---- */

static void key_refusals(void)
{
	struct state st = pmake(1, 32, 1, 0);

	fprintf(out, "\n# packet mode needs agg = 0 (XOR)\nname   = key-agg-add\n");
	st.agg = 1;
	key_line("key", &st, 0, 0);
	fprintf(out, "expect = EKEY\n");
	st.agg = 0;
	st.b = 24;
	fprintf(out, "\n# b a multiple of 16\nname   = key-b24\n");
	key_line("key", &st, 0, 0);
	fprintf(out, "expect = EKEY\n");
	st.b = 32;
	fprintf(out, "\n# no groups: a group-size field below b\n"
		"name   = key-g16\n");
	key_line("key", &st, 0, 16);
	fprintf(out, "expect = EKEY\n");
	fprintf(out, "\n# a group-size field of b is no group\n"
		"name   = key-g-is-b\n");
	key_line("key", &st, 0, 32);
	fprintf(out, "expect = ok\n");
	st = pmake(2, 65520, 1, 0);
	fprintf(out, "\n# b = 65520, the largest\nname   = key-b65520\n");
	key_line("key", &st, 0, 0);
	fprintf(out, "expect = ok\n");
}

void generate_packet(FILE *f)
{
	size_t i;
	int suite;

	out = f;
	fprintf(out, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Diamond packet-radio vectors, Documentation/spec.rst "
		"section 14.\n"
		"# Generated by tools/vectors/gen-vectors --packet; do not "
		"edit.\n");
	for (suite = 1; suite <= 2; suite++)
		seals(suite);
	parses();
	for (i = 0; i < sizeof(cands) / sizeof(cands[0]); i++)
		cand_print(&cands[i]);
	for (suite = 1; suite <= 2; suite++)
		receives(suite);
	key_refusals();
}
