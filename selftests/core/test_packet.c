// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The packet framing and the tag grid (spec section 14) through the
 * portable core, against vectors/packet.txt (tools/vectors/gen-vectors
 * --packet: OpenSSL and a bit-serial GHASH, no code of the core):
 *
 *   d1-..., d2-...  the sender emits every packet byte for byte (once
 *                   with a window of precomputed slots, once without),
 *                   its reservation is the vector's next, each unit's Z_u
 *                   and tau* match, the tags on the air are S[0:12], and
 *                   the receiver releases every record of every unit
 *   parse-...       dmd_packet_parse(): verdict and fields
 *   cand-...        dmd_packet_candidates(): verdict and positions
 *   rx-...          dmd_grid_open() at the vector's position: which tags
 *                   verify, which records are released, their plaintext,
 *                   and every other output buffer wiped
 *   key-...         dmd_psender_init(): the keys packet mode refuses
 *
 * Then properties that need no vector: every byte of every packet of a
 * unit, flipped alone, holds back the damaged record and nothing else; and
 * the parse of every length at every width reads no byte past the packet
 * and accounts for every byte it keeps.
 *
 *   test_packet VECTORS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/chain.h>
#include <diamond/packet.h>
#include <diamond/stream.h>
#include <diamond/util.h>
#include "tap.h"
#include "lib/kvrec.h"
#include "lib/unit_key.h"

static int code_of(const char *expect)
{
	static const struct {
		const char *name;
		int code;
	} codes[] = { { "ok", DMD_OK },		  { "EFORMAT", DMD_EFORMAT },
		      { "ESIZE", DMD_ESIZE },	  { "EKEY", DMD_EKEY },
		      { "ESKIP", DMD_ESKIP },	  { "EFULL", DMD_EFULL },
		      { "EEXPIRED", DMD_EEXPIRED }, { "EBADMSG", DMD_EBADMSG } };
	unsigned int i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (expect && !strcmp(expect, codes[i].name))
			return codes[i].code;
	return 1;
}

static int load_key(struct dmd_state *st)
{
	uint8_t b[DMD_BLOB2_MAX + 1];
	size_t n = unhex(b, sizeof(b), get("key") ? get("key") : "");

	return dmd_blob_parse(st, b, n);
}

/* ---- d1-..., d2-...: the sender, then the receiver on its packets ---- */

struct sealed_pkt {
	uint8_t b[DMD_PKT_MAX];
	size_t n;
};

static struct sealed_pkt got[64];
static uint8_t want_pt[64][DMD_PKT_MAX_RECORD];
static size_t want_len[64];

/* Seal every "rec" of the vector; 1 if every packet is the vector's. */
static int seal_all(const struct dmd_state *st, unsigned int a, uint32_t addr,
		    size_t window_slots, struct dmd_state *reserve)
{
	static uint8_t window[8 * (DMD_KEY_MAX + 64 + 32)];
	struct dmd_psender ps;
	uint8_t want[DMD_PKT_MAX + 1];
	const char *rec;
	unsigned int j, n_anchor;
	size_t wn, ws = window_slots * dmd_slot_size(st->suite, 32);
	char *sp;
	int ok = 1;

	if (dmd_psender_init(&ps, st, a, addr, ws ? window : NULL, ws, 32) ||
	    dmd_psender_begin(&ps, reserve))
		return 0;
	for (j = 0; (rec = get_nth("rec", j)); j++) {
		strtoul(rec, &sp, 10);
		n_anchor = (unsigned int)strtoul(sp, &sp, 10);
		while (*sp == ' ')
			sp++;
		want_len[j] = unhex(want_pt[j], sizeof(want_pt[j]), sp);
		dmd_sender_precompute(&ps.s, window_slots);
		if (dmd_psender_seal(&ps, want_pt[j], want_len[j],
				     (int)n_anchor, got[j].b, sizeof(got[j].b),
				     &got[j].n) != DMD_OK)
			ok = 0;
		wn = unhex(want, sizeof(want), get_nth("pkt", j));
		if (wn != got[j].n || memcmp(want, got[j].b, wn))
			ok = 0;
	}
	/* One record past b is refused, and the state is the reservation. */
	if (dmd_psender_seal(&ps, want_pt[0], 1, 0, want, sizeof(want), &wn) !=
	    DMD_EFULL)
		ok = 0;
	dmd_psender_wipe(&ps);
	return ok;
}

/* Z_u, tau* and S[0:12] of unit @u against the vector's lines. */
static int unit_values(const struct dmd_state *st, unsigned int u)
{
	uint8_t r[DMD_KEY_MAX], z[256], tau[DMD_GRID_TAGS][DMD_TAG_SIZE];
	uint8_t want[256], s[DMD_GRID_TAGS * 16], t[2];
	unsigned int rr, m, k;
	const char *v;
	int ok = 1;

	unit_key(st, st->epoch, u, r, NULL);
	dmd_stream_prefix(st->suite, r, DMD_DOMAIN_GRID, z, sizeof(z));
	v = strchr(get_nth("z", u), ' ') + 1;
	ok &= unhex(want, sizeof(want), v) == 256 && !memcmp(want, z, 256);
	dmd_grid_taus(st->suite, r, st->epoch, u, tau);
	v = strchr(get_nth("tau", u), ' ') + 1;
	ok &= unhex(want, sizeof(want), v) == 128 && !memcmp(want, tau, 128);
	v = strchr(get_nth("tags", u), ' ') + 1;
	ok &= unhex(s, sizeof(s), v) == 128;
	/* Each tag on the air is its S truncated, in the order it rides. */
	for (rr = 0; rr < DMD_GRID_UNIT; rr++) {
		m = dmd_packet_tags(rr, t);
		for (k = 0; k < m; k++)
			ok &= !memcmp(got[u * 16 + rr].b + got[u * 16 + rr].n -
					      (m - k) * DMD_PKT_TAG_SIZE,
				      s + 16 * t[k], DMD_PKT_TAG_SIZE);
	}
	return ok;
}

/* The receiver on unit @u as sent: every tag verifies, all released. */
static int unit_opens(const struct dmd_state *st, unsigned int a,
		      unsigned int u)
{
	static uint8_t pt[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD];
	struct dmd_grid_unit g;
	struct dmd_grid_verdict v;
	struct dmd_packet p;
	uint8_t r[DMD_KEY_MAX];
	unsigned int rr, j;
	int ok = 1;

	memset(&g, 0, sizeof(g));
	for (rr = 0; rr < DMD_GRID_UNIT; rr++) {
		j = u * DMD_GRID_UNIT + rr;
		ok &= dmd_packet_parse(&p, got[j].b, got[j].n, a) == DMD_OK &&
		      p.jm == j % 64 && p.anchored == (got[j].b[a] >> 6 & 1);
		dmd_grid_unit_add(&g, &p);
		g.pt[rr] = pt[rr];
	}
	unit_key(st, st->epoch, u, r, NULL);
	ok &= dmd_grid_open(st->suite, r, st->epoch, u, &g, 0, &v, NULL) ==
	      DMD_OK;
	ok &= v.verified == 0xff && v.released == 0xffff;
	for (rr = 0; rr < DMD_GRID_UNIT; rr++) {
		j = u * DMD_GRID_UNIT + rr;
		ok &= g.len[rr] == want_len[j] &&
		      !memcmp(pt[rr], want_pt[j], want_len[j]);
	}
	return ok;
}

/*
 * d<s>-a1-b32 .. d<s>-a4-b32 seal one key's records at four widths: after
 * the address their packets are the same bytes (spec 14.2: no tag or key
 * depends on the address).
 */
static void same_but_address(const char *name, unsigned int a)
{
	static struct sealed_pkt first[32];
	static unsigned int first_a;
	unsigned int j;
	int ok = 1;

	if (strlen(name) != 9 || strcmp(name + 5, "-b32"))
		return;
	if (a == 1) {
		memcpy(first, got, sizeof(first));
		first_a = 1;
		return;
	}
	for (j = 0; j < 32; j++)
		ok &= first_a && got[j].n - a == first[j].n - 1 &&
		      !memcmp(got[j].b + a, first[j].b + 1, first[j].n - 1);
	tap_result(ok, "%s: the packets of A = 1 but for the address", name);
}

static void seal_vector(const char *name)
{
	struct dmd_state st, reserve, next;
	uint8_t b[DMD_BLOB2_MAX], nb[DMD_BLOB2_MAX + 1];
	unsigned int a = (unsigned int)strtoul(get("a"), NULL, 10), u;
	uint32_t addr = (uint32_t)strtoul(get("addr"), NULL, 16);
	size_t nn;
	int ok;

	if (load_key(&st) != DMD_OK) {
		tap_result(0, "%s: key", name);
		return;
	}
	ok = seal_all(&st, a, addr, 0, &reserve);
	tap_result(ok, "%s: packets, slots expanded as sealed", name);
	ok = seal_all(&st, a, addr, 3, &reserve);
	nn = unhex(nb, sizeof(nb), get("next"));
	dmd_blob2_write(b, &reserve);
	ok &= dmd_blob_parse(&next, nb, nn) == DMD_OK &&
	      nn == dmd_blob2_size(st.suite) && !memcmp(b, nb, nn);
	tap_result(ok, "%s: packets from a window, reservation is next", name);
	same_but_address(name, a);
	for (u = 0; get_nth("z", u); u++) {
		tap_result(unit_values(&st, u), "%s: unit %u: Z_u, tau*, tags",
			   name, u);
		tap_result(unit_opens(&st, a, u), "%s: unit %u opens whole",
			   name, u);
	}
}

/* ---- parse-... ---- */

static void parse_vector(const char *name)
{
	uint8_t pkt[512];
	size_t n = unhex(pkt, sizeof(pkt), get("pkt"));
	unsigned int a = (unsigned int)strtoul(get("a"), NULL, 10);
	struct dmd_packet p;
	unsigned int addr, an, jm, m;
	unsigned long len;
	int rc = dmd_packet_parse(&p, pkt, n, a), ok;

	ok = rc == code_of(get("expect"));
	if (ok && rc == DMD_OK) {
		ok = sscanf(get("fields"), "%x %u %u %lu %u", &addr, &an, &jm,
			    &len, &m) == 5 &&
		     p.addr == addr && p.anchored == an && p.jm == jm &&
		     p.len == len && p.m == m && p.rec == pkt + n - len -
		     m * DMD_PKT_TAG_SIZE && p.tags == p.rec + len;
	}
	tap_result(ok, "%s: %s", name, get("expect"));
}

/* ---- cand-... ---- */

static void cand_vector(const char *name)
{
	struct dmd_pkt_cursor c = { 0 };
	struct dmd_packet p = { 0 };
	struct dmd_pkt_pos out[DMD_PKT_CANDIDATES];
	unsigned long long e;
	unsigned int n = 0, k, ctl, j;
	const char *s;
	int rc, ok, used;

	c.b = (uint32_t)strtoul(get("b"), NULL, 10);
	sscanf(get("cursor"), "%llu %u", &e, &c.unit);
	c.epoch = e;
	c.max_skip = (uint32_t)strtoul(get("skip"), NULL, 10);
	if (get("held")) {
		c.held = 1;
		c.held_epoch = strtoull(get("held"), NULL, 10);
	}
	sscanf(get("ctl"), "%x", &ctl);
	p.anchored = !!(ctl & DMD_PKT_CTL_N);
	p.jm = ctl & DMD_PKT_CTL_J;
	if (get("anchor"))
		p.anchor = (uint32_t)strtoul(get("anchor"), NULL, 10);
	rc = dmd_packet_candidates(&c, &p, out, &n);
	ok = rc == code_of(get("expect"));
	if (ok && rc == DMD_OK) {
		s = get("cand");
		for (k = 0; sscanf(s, " %llu:%u%n", &e, &j, &used) == 2;
		     k++, s += used)
			ok &= k < n && out[k].epoch == e && out[k].index == j;
		ok &= k == n;
	}
	tap_result(ok, "%s: %s (%u candidates)", name, get("expect"), n);
}

/* ---- rx-... ---- */

static void rx_vector(const char *name)
{
	static uint8_t in[DMD_GRID_UNIT][DMD_PKT_MAX + 1];
	static uint8_t pt[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD + 1];
	uint8_t want[DMD_PKT_MAX_RECORD + 1], r[DMD_KEY_MAX];
	unsigned int a = (unsigned int)strtoul(get("a"), NULL, 10), u, k;
	unsigned int before, vt, rel, rr;
	unsigned long long e;
	struct dmd_grid_unit g;
	struct dmd_grid_verdict v;
	struct dmd_packet p;
	struct dmd_state st;
	const char *s;
	size_t n, i;
	int ok = load_key(&st) == DMD_OK, rc;

	sscanf(get("at"), "%llu %u", &e, &u);
	sscanf(get("before"), "%x", &before);
	sscanf(get("vtags"), "%x", &vt);
	sscanf(get("rel"), "%x", &rel);
	memset(&g, 0, sizeof(g));
	for (k = 0; (s = get_nth("in", k)); k++) {
		n = unhex(in[k], sizeof(in[k]), s);
		ok &= dmd_packet_parse(&p, in[k], n, a) == DMD_OK;
		dmd_grid_unit_add(&g, &p);
		memset(pt[p.jm % 16], 0xa5, sizeof(pt[0]));
		g.pt[p.jm % 16] = pt[p.jm % 16];
	}
	unit_key(&st, e, u, r, NULL);
	rc = dmd_grid_open(st.suite, r, e, u, &g, (uint16_t)before, &v, NULL);
	ok &= rc == (vt ? DMD_OK : DMD_EBADMSG);
	ok &= v.verified == vt && v.released == rel;
	for (rr = 0; rr < DMD_GRID_UNIT; rr++) {
		if (!g.rec[rr])
			continue;
		if (rel >> rr & 1)
			continue;
		/* Not released: the keystream it held is wiped. */
		for (i = 0; i < g.len[rr]; i++)
			ok &= pt[rr][i] == 0;
	}
	for (k = 0; (s = get_nth("pt", k)); k++) {
		rr = (unsigned int)strtoul(s, (char **)&s, 10);
		n = unhex(want, sizeof(want), s + 1);
		ok &= rr < 16 && (rel >> rr & 1) && n == g.len[rr] &&
		      !memcmp(pt[rr], want, n);
	}
	tap_result(ok, "%s: tags %02x, released %04x", name, vt, rel);
}

/* ---- key-... ---- */

static void key_vector(const char *name)
{
	struct dmd_psender ps;
	struct dmd_state st;
	int rc = load_key(&st);

	if (rc == DMD_OK)
		rc = dmd_psender_init(&ps, &st, 1, 1, NULL, 0, 0);
	tap_result(rc == code_of(get("expect")), "%s: %s", name,
		   get("expect"));
}

/* ---- properties ---- */

/*
 * Every byte of every packet of unit 0 of d2-a1-b32 after its control
 * byte and anchor (got[] as just sealed), flipped alone: a record byte
 * holds back that record alone, a tag byte nothing.
 */
static void flip_every_byte(const struct dmd_state *st, unsigned int a)
{
	static uint8_t pt[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD];
	struct dmd_grid_unit g;
	struct dmd_grid_verdict v;
	struct dmd_packet p;
	uint8_t r[DMD_KEY_MAX], save, t[2];
	unsigned int rr, q, bad = 0, tried = 0;
	uint16_t want;
	size_t i;

	unit_key(st, st->epoch, 0, r, NULL);
	for (rr = 0; rr < DMD_GRID_UNIT; rr++)
		for (i = a + 1 + (rr ? 0 : DMD_PKT_ANCHOR_SIZE); i < got[rr].n;
		     i++) {
			save = got[rr].b[i];
			got[rr].b[i] ^= 0x01;
			memset(&g, 0, sizeof(g));
			for (q = 0; q < DMD_GRID_UNIT; q++) {
				if (dmd_packet_parse(&p, got[q].b, got[q].n,
						     a) != DMD_OK)
					bad++;
				dmd_grid_unit_add(&g, &p);
				g.pt[q] = pt[q];
			}
			dmd_grid_open(st->suite, r, st->epoch, 0, &g, 0, &v,
				      NULL);
			/*
			 * A record byte: its row and column fail, the other
			 * records each keep one tag. A tag byte: that tag
			 * fails, every record keeps its other one.
			 */
			want = i < got[rr].n - dmd_packet_tags(rr, t) *
						       DMD_PKT_TAG_SIZE ?
				       (uint16_t)~(1u << rr) : 0xffff;
			if (v.released != want)
				bad++;
			got[rr].b[i] = save;
			tried++;
		}
	tap_result(!bad && tried > 256,
		   "each of %u bytes after the control byte flipped alone: "
		   "only a damaged record is held back", tried);
}

/*
 * dmd_packet_parse() on every length 0 .. 300 at every A, each packet in a
 * buffer of exactly its length (ASan's check-core-asan catches a read past
 * it), with every control byte: a packet that parses accounts for each of
 * its bytes, one that does not parses as the spec's arithmetic says.
 */
static void parse_every_length(void)
{
	unsigned int a, ctl, fixed, m, bad = 0, n = 0;
	uint8_t t[2], *pkt;
	struct dmd_packet p;
	size_t pl, i;
	long len;
	int rc, want;

	for (a = 1; a <= DMD_PKT_ADDR_MAX; a++)
		for (pl = 0; pl <= 300; pl++)
			for (ctl = 0; ctl < 256; ctl += 7, n++) {
				pkt = malloc(pl ? pl : 1);
				for (i = 0; i < pl; i++)
					pkt[i] = (uint8_t)(i * 13 + ctl);
				if (pl > a)
					pkt[a] = (uint8_t)ctl;
				m = dmd_packet_tags(ctl % 16, t);
				fixed = a + 1 + (ctl & DMD_PKT_CTL_N ? 4 : 0);
				len = (long)pl - fixed - 12 * (long)m;
				want = pl < a + 1 || ctl & DMD_PKT_CTL_F ||
				       len < 0 ? DMD_EFORMAT :
				       len > DMD_PKT_MAX_RECORD ? DMD_ESIZE :
				       DMD_OK;
				rc = dmd_packet_parse(&p, pkt, pl, a);
				if (rc != want ||
				    (rc == DMD_OK &&
				     (p.rec != pkt + fixed || p.len != (size_t)len ||
				      p.tags + 12 * p.m != pkt + pl)))
					bad++;
				free(pkt);
			}
	tap_result(!bad, "parse: %u packets of every length and width, each "
		   "byte accounted for", n);
}

/* The sender's and the receiver's refusals of their arguments. */
static void api_refusals(void)
{
	struct dmd_state st = { .suite = 2, .b = 32, .device_id = 9 };
	struct dmd_psender ps;
	struct dmd_grid_unit g = { 0 };
	struct dmd_grid_verdict v;
	uint8_t m[DMD_PKT_MAX_RECORD + 1] = { 0 }, pkt[DMD_PKT_MAX + 8];
	uint8_t r[DMD_KEY_MAX] = { 0 };
	size_t n;
	int ok = 1;

	ok &= dmd_psender_init(&ps, &st, 0, 0, NULL, 0, 0) == DMD_EINVAL;
	ok &= dmd_psender_init(&ps, &st, 5, 0, NULL, 0, 0) == DMD_EINVAL;
	ok &= dmd_psender_init(&ps, &st, 1, 0x100, NULL, 0, 0) == DMD_EINVAL;
	ok &= dmd_psender_init(&ps, &st, 3, 0x1000000, NULL, 0, 0) ==
	      DMD_EINVAL;
	ok &= dmd_psender_init(&ps, &st, 4, 0xffffffff, NULL, 0, 0) == DMD_OK;
	/* Before begin: no epoch is open. */
	ok &= dmd_psender_seal(&ps, m, 1, 0, pkt, sizeof(pkt), &n) ==
	      DMD_EINVAL;
	ok &= dmd_psender_begin(&ps, NULL) == DMD_OK;
	ok &= dmd_psender_seal(&ps, m, DMD_PKT_MAX_RECORD + 1, 0, pkt,
			       sizeof(pkt), &n) == DMD_ESIZE;
	/* Record 0: A + 1 + 4 + 16 bytes; one less is DMD_ESPACE. */
	ok &= dmd_psender_seal(&ps, m, 16, 0, pkt, 4 + 1 + 4 + 15, &n) ==
	      DMD_ESPACE;
	ok &= dmd_psender_seal(&ps, m, 16, 0, pkt, 4 + 1 + 4 + 16, &n) ==
	      DMD_OK && n == 25 && pkt[4] == DMD_PKT_CTL_N;
	ok &= dmd_psender_seal(&ps, NULL, 1, 0, pkt, sizeof(pkt), &n) ==
	      DMD_EINVAL;
	ok &= dmd_psender_seal(&ps, NULL, 0, 0, pkt, sizeof(pkt), &n) ==
	      DMD_OK && n == 5 && pkt[4] == 1;
	/* A new epoch abandons this one: its record 0 is anchored again. */
	ok &= dmd_psender_begin(&ps, NULL) == DMD_OK &&
	      dmd_psender_seal(&ps, m, 0, 0, pkt, sizeof(pkt), &n) == DMD_OK &&
	      n == 9 && pkt[4] == DMD_PKT_CTL_N && pkt[5] == 1;
	dmd_psender_wipe(&ps);
	/* A record over 222 bytes is refused before any key is used. */
	g.rec[3] = m;
	g.len[3] = DMD_PKT_MAX_RECORD + 1;
	g.pt[3] = pkt;
	ok &= dmd_grid_open(2, r, 0, 0, &g, 0, &v, NULL) == DMD_ESIZE;
	g.len[3] = 1;
	g.pt[3] = NULL;
	ok &= dmd_grid_open(2, r, 0, 0, &g, 0, &v, NULL) == DMD_EINVAL;
	ok &= dmd_grid_open(3, r, 0, 0, &g, 0, &v, NULL) == DMD_EINVAL;
	/* Nothing complete to try: no tag verifies, nothing is released. */
	g.pt[3] = pkt;
	ok &= dmd_grid_open(2, r, 0, 0, &g, 0, &v, NULL) == DMD_EBADMSG &&
	      !v.verified && !v.released;
	tap_result(ok, "api: refusals of the sender and of dmd_grid_open()");
}

int main(int argc, char **argv)
{
	struct dmd_state last;
	unsigned int last_a = 0;
	const char *name;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: test_packet vectors/packet.txt\n");
		return 2;
	}
	vf = fopen(argv[1], "r");
	if (!vf) {
		perror(argv[1]);
		return 1;
	}
	tap_header();
	while ((rc = rec_next()) > 0) {
		name = get("name");
		if (!name) {
			tap_result(0, "a record without a name");
			continue;
		}
		if (!strncmp(name, "parse-", 6)) {
			parse_vector(name);
		} else if (!strncmp(name, "cand-", 5)) {
			cand_vector(name);
		} else if (!strncmp(name, "rx-", 3)) {
			rx_vector(name);
		} else if (!strncmp(name, "key-", 4)) {
			key_vector(name);
		} else if (name[0] == 'd') {
			seal_vector(name);
			if (!strcmp(name, "d2-a1-b32")) {
				load_key(&last);
				last_a = 1;
				flip_every_byte(&last, last_a);
			}
		} else {
			tap_result(0, "%s: unknown vector", name);
		}
	}
	if (rc < 0)
		tap_result(0, "%s: a line without '='", argv[1]);
	parse_every_length();
	api_refusals();
	rec_clear();
	fclose(vf);
	tap_trailing_plan();
	return tap_finish();
}
