// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamond_grid: the packet radio's tag grid in diamond.ko through raw
 * AF_ALG (Documentation/kernel-api.rst "Packet radio: the tag grid",
 * spec section 14), on both suites, against vectors/packet.txt and the
 * portable core's receiver (dmd_grid_open()) as the reference:
 *
 * - rx-...: each receiver vector at its position (a "before" bitmap
 *   through the restore form's window; a whole unit released before is
 *   decided in the kernel: -EKEYEXPIRED);
 * - d...: every sealed epoch unit by unit: all released, the cursor moves
 *   past each unit and into the next epoch, a replay is -EKEYEXPIRED;
 * - key-...: authsize 12 refuses the keys packet mode refuses
 *   (-EKEYREJECTED), in both orders of setkey and setauthsize;
 * - every loss class (each record, each row, each column, each carrier,
 *   random patterns with a printed seed), a forged bit in each tag, a
 *   damaged byte in each record: the kernel's verdict, released records
 *   and plaintext are the core's, and nothing else leaves;
 * - copies and replays release nothing twice; give-up decides a unit
 *   (with and without tags); units out of order in the window, across
 *   epochs, and a unit past the window moving the cursor;
 * - the restore form (and its refusals), authsize 16 against a grid
 *   state (-EOPNOTSUPP, -EBUSY), and every malformed control table or
 *   ciphertext with its errno, after which the genuine unit still opens;
 * - DIAMOND_ALG_GET_WRAPPED (a wrap key in a session keyring of the
 *   program's own): the blob with no grid state, -EOPNOTSUPP with one.
 *
 *   diamond_grid [diamond.txt]   (packet.txt is looked for beside it,
 *                                 beside the program, or $DMD_PACKET_VECTORS)
 * TAP 13; exit 4 when the diamond algorithms are not available.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/keyctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <diamond/chain.h>
#include <diamond/packet.h>
#include <diamond/stream.h>
#include <diamond/util.h>
#include "lib/kvrec.h"
#include "lib/unit_key.h"
#include "tap.h"
#include "afalg.h"
#include "dmd_keys.h"
#include "dmd_test.h"

#ifndef SOL_ALG
#define SOL_ALG			279
#endif

#define TBL		DMD_GRID_TABLE_SIZE
#define REQ_MAX		(TBL + DMD_GRID_UNIT * (2 + DMD_PKT_MAX_RECORD) + \
			 DMD_GRID_TAGS * DMD_PKT_TAG_SIZE + 64)
#define EPOCHS		10	/* sealed for the window tests */
#define B		32	/* their b: two units an epoch */

/* One request: a unit as the core holds it, at (e, u), with flags. */
struct greq {
	uint64_t e;
	uint32_t u;
	uint8_t flags;
	struct dmd_grid_unit g;
};

/* What came back: errno, the table's out fields, each record's output. */
struct gout {
	int err;
	uint16_t released, unit_rel;
	uint8_t verified, state, unit_ver;
	uint64_t e_c;
	uint32_t u_c;
	uint8_t pt[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD];
	int zero_tags;		/* the tags' places came back zero */
};

static uint8_t pkts[EPOCHS * B][DMD_PKT_MAX];
static size_t pkt_len[EPOCHS * B];
static uint8_t plain[EPOCHS * B][DMD_PKT_MAX_RECORD];
static size_t plain_len[EPOCHS * B];

static uint16_t held_of(const struct dmd_grid_unit *g)
{
	uint16_t h = 0;
	unsigned int r;

	for (r = 0; r < DMD_GRID_UNIT; r++)
		if (g->rec[r])
			h |= 1u << r;
	return h;
}

static uint8_t tags_of(const struct dmd_grid_unit *g)
{
	uint8_t t = 0;
	unsigned int i;

	for (i = 0; i < DMD_GRID_TAGS; i++)
		if (g->tag[i])
			t |= 1u << i;
	return t;
}

/* The request's bytes: the control table, then records, then tags. */
static size_t build(const struct greq *q, uint8_t *in)
{
	size_t n = TBL;
	unsigned int r, t;
	uint8_t tags = tags_of(&q->g);

	memset(in, 0, TBL);
	dmd_store32_le(in + DMD_GRID_OFF_UNIT, q->u);
	dmd_store16_le(in + DMD_GRID_OFF_HELD, held_of(&q->g));
	in[DMD_GRID_OFF_TAGS] = tags;
	in[DMD_GRID_OFF_FLAGS] = q->flags;
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!q->g.rec[r])
			continue;
		dmd_store16_le(in + n, (uint16_t)q->g.len[r]);
		memcpy(in + n + 2, q->g.rec[r], q->g.len[r]);
		n += 2 + q->g.len[r];
	}
	for (t = 0; t < DMD_GRID_TAGS; t++) {
		if (!q->g.tag[t])
			continue;
		memcpy(in + n, q->g.tag[t], DMD_PKT_TAG_SIZE);
		n += DMD_PKT_TAG_SIZE;
	}
	if (!tags) {		/* a give-up only: 12 zero bytes */
		memset(in + n, 0, DMD_PKT_TAG_SIZE);
		n += DMD_PKT_TAG_SIZE;
	}
	return n;
}

/* A raw decrypt (or encrypt) of @in; the output into @out. */
static ssize_t raw(int tfm, int enc, uint64_t e, size_t assoc,
		   const uint8_t *in, size_t n, uint8_t *out)
{
	uint8_t iv[8];

	dmd_store64_le(iv, e);
	return afalg_aead_once(tfm, enc, iv, sizeof(iv), (uint32_t)assoc, in,
			       n, out, enc ? n + DMD_PKT_TAG_SIZE :
					     n - DMD_PKT_TAG_SIZE);
}

static void op(int tfm, const struct greq *q, struct gout *o)
{
	static uint8_t in[REQ_MAX], out[REQ_MAX];
	size_t n = build(q, in), pos = TBL, i, tail;
	ssize_t got;
	unsigned int r;

	memset(o, 0, sizeof(*o));
	memset(out, 0xa5, sizeof(out));
	got = raw(tfm, 0, q->e, TBL, in, n, out);
	if (got < 0) {
		o->err = (int)got;
		return;
	}
	if ((size_t)got != n - DMD_PKT_TAG_SIZE ||
	    memcmp(out, in, DMD_GRID_OFF_RELEASED)) {
		o->err = -EPROTO;
		return;
	}
	o->released = dmd_load16_le(out + DMD_GRID_OFF_RELEASED);
	o->verified = out[DMD_GRID_OFF_VERIFIED];
	o->state = out[DMD_GRID_OFF_STATE];
	o->unit_rel = dmd_load16_le(out + DMD_GRID_OFF_UNIT_REL);
	o->unit_ver = out[DMD_GRID_OFF_UNIT_VER];
	o->e_c = dmd_load64_le(out + DMD_GRID_OFF_CUR_EPOCH);
	o->u_c = dmd_load32_le(out + DMD_GRID_OFF_CUR_UNIT);
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		if (!q->g.rec[r])
			continue;
		if (dmd_load16_le(out + pos) != q->g.len[r])
			o->err = -EPROTO;
		memcpy(o->pt[r], out + pos + 2, q->g.len[r]);
		pos += 2 + q->g.len[r];
	}
	o->zero_tags = 1;
	tail = (size_t)got > pos ? (size_t)got - pos : 0;
	for (i = 0; i < tail; i++)
		o->zero_tags &= !out[pos + i];
}

/*
 * The restore form: the version 2 blob (e + 1, E_{e+1}) of @st's key, the
 * cursor (e, u_c, R_{e,16u_c}) and a window whose entry @d is @rel / @ver.
 */
static size_t restore_blob(const struct dmd_state *st, uint64_t e,
			   uint32_t uc, unsigned int d, uint16_t rel,
			   uint8_t ver, uint8_t *out)
{
	struct dmd_state nx = *st;
	uint8_t r[DMD_KEY_MAX], en[DMD_KEY_MAX], *c;
	size_t k = dmd_key_size(st->suite), n = dmd_blob2_size(st->suite);

	unit_key(st, e, uc, r, en);
	nx.epoch = e + 1;
	memcpy(nx.key, en, sizeof(nx.key));
	dmd_blob2_write(out, &nx);
	c = out + n;
	memset(c, 0, DMD_GRID_CURSOR_SIZE(k));
	dmd_store64_le(c, e);
	dmd_store32_le(c + 8, uc);
	memcpy(c + 12, r, k);
	dmd_store16_le(c + 12 + k + 2 * d, rel);
	c[12 + k + 2 * DMD_GRID_WINDOW + d] = ver;
	return n + DMD_GRID_CURSOR_SIZE(k);
}

/* A tfm of @suite, authsize 12 set before (or after) the key. */
static int grid_tfm(unsigned int suite, const uint8_t *key, size_t len,
		    int authsize_first, int *err)
{
	int fd = afalg_bind(dmd_alg_name(suite));

	if (fd < 0) {
		*err = fd;
		return fd;
	}
	*err = authsize_first ?
		       afalg_setauthsize(fd, DMD_PKT_TAG_SIZE) ?:
				       afalg_setkey(fd, key, len) :
		       afalg_setkey(fd, key, len) ?:
				       afalg_setauthsize(fd, DMD_PKT_TAG_SIZE);
	if (*err) {
		afalg_close(fd);
		return -1;
	}
	return fd;
}

/* The unit @u of epoch index @ei of the sealed packets (a = 1). */
static void unit_of(unsigned int ei, uint32_t u, struct dmd_grid_unit *g)
{
	struct dmd_packet p;
	unsigned int r, j;

	memset(g, 0, sizeof(*g));
	for (r = 0; r < DMD_GRID_UNIT; r++) {
		j = ei * B + u * DMD_GRID_UNIT + r;
		if (dmd_packet_parse(&p, pkts[j], pkt_len[j], 1) == DMD_OK)
			dmd_grid_unit_add(g, &p);
	}
}

/* Drop records @lost and tags @lost_tags from @g. */
static void drop(struct dmd_grid_unit *g, uint16_t lost, uint8_t lost_tags)
{
	unsigned int i;

	for (i = 0; i < DMD_GRID_UNIT; i++)
		if (lost >> i & 1)
			g->rec[i] = NULL;
	for (i = 0; i < DMD_GRID_TAGS; i++)
		if (lost_tags >> i & 1)
			g->tag[i] = NULL;
	/* A tag rides in its carrier: lost with it. */
	for (i = 0; i < DMD_GRID_TAGS; i++)
		if (!g->rec[i < 4 ? 4 * i + 3 : i + 8])
			g->tag[i] = NULL;
}

/* The sealed plaintext of record @r of unit (ei, u). */
static int pt_is(const struct gout *o, unsigned int ei, uint32_t u,
		 unsigned int r)
{
	unsigned int j = ei * B + u * DMD_GRID_UNIT + r;

	return !memcmp(o->pt[r], plain[j], plain_len[j]);
}

/*
 * The kernel against the core on unit @g at (e, u) with @before: errno,
 * tags, released records and their plaintext, zeros elsewhere.
 */
static int agrees(const struct dmd_state *st, int tfm, const struct greq *q,
		  uint16_t before, struct gout *o)
{
	static uint8_t ref[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD];
	static uint8_t copy[DMD_GRID_UNIT][DMD_PKT_MAX_RECORD];
	struct dmd_grid_unit g = q->g;
	struct dmd_grid_verdict v;
	uint8_t r[DMD_KEY_MAX];
	unsigned int i, k;
	int rc, ok;

	for (i = 0; i < DMD_GRID_UNIT; i++) {
		if (g.rec[i]) {	/* the core decrypts into pt: keep rec */
			memcpy(copy[i], g.rec[i], g.len[i]);
			g.rec[i] = copy[i];
		}
		g.pt[i] = ref[i];
	}
	unit_key(st, q->e, q->u, r, NULL);
	rc = dmd_grid_open(st->suite, r, q->e, q->u, &g, before, &v, NULL);
	op(tfm, q, o);
	/* No tag at all is no request but a give-up's (kernel-api.rst). */
	ok = o->err == (!tags_of(&q->g) ? -EINVAL :
			rc == DMD_OK	 ? 0 :
					   -EBADMSG);
	if (!ok)
		tap_diag("kernel %s, core %d, held %04x tags %02x",
			 dmd_errname(o->err), rc, held_of(&q->g),
			 tags_of(&q->g));
	if (rc != DMD_OK || !ok)
		return ok;
	ok &= o->verified == v.verified && o->released == v.released &&
	      o->zero_tags;
	for (i = 0; i < DMD_GRID_UNIT; i++) {
		if (!q->g.rec[i])
			continue;
		for (k = 0; k < q->g.len[i]; k++)
			ok &= o->pt[i][k] ==
			      (v.released >> i & 1 ? ref[i][k] : 0);
	}
	if (!ok)
		tap_diag("kernel %s tags %02x rel %04x; core %d tags %02x rel %04x",
			 dmd_errname(o->err), o->verified, o->released, rc,
			 v.verified, v.released);
	return ok;
}

/* ---- rx-..., d..., key-... vectors ---- */

static int load_state(struct dmd_state *st, uint8_t *blob, size_t *len)
{
	*len = unhex(blob, DMD_BLOB2_MAX, get("key") ? get("key") : "");
	return dmd_blob_parse(st, blob, *len);
}

static void rx_vector(const char *name, const int *avail)
{
	static uint8_t in[DMD_GRID_UNIT + 4][DMD_PKT_MAX + 1];
	uint8_t blob[DMD_BLOB2_MAX + 128], want[DMD_PKT_MAX_RECORD + 1];
	unsigned int a = (unsigned int)strtoul(get("a"), NULL, 10), u, k;
	unsigned int before, vt, rel, rr;
	unsigned long long e;
	struct dmd_state st;
	struct dmd_packet p;
	struct greq q;
	struct gout o;
	const char *s;
	size_t n, bl;
	int tfm, err, ok;

	if (load_state(&st, blob, &bl) != DMD_OK || !avail[st.suite]) {
		tap_skip("suite not available", name);
		return;
	}
	sscanf(get("at"), "%llu %u", &e, &u);
	sscanf(get("before"), "%x", &before);
	sscanf(get("vtags"), "%x", &vt);
	sscanf(get("rel"), "%x", &rel);
	memset(&q, 0, sizeof(q));
	q.e = e;
	q.u = u;
	for (k = 0; (s = get_nth("in", k)) && k < DMD_GRID_UNIT + 4; k++) {
		n = unhex(in[k], sizeof(in[k]), s);
		if (dmd_packet_parse(&p, in[k], n, a) == DMD_OK &&
		    !q.g.rec[p.jm % DMD_GRID_UNIT])	/* the first copy */
			dmd_grid_unit_add(&q.g, &p);
	}
	if (before == 0xffff) {
		/* Released whole: decided, the cursor is past it. */
		bl = restore_blob(&st, e, u + 1 < st.b / 16 ? u + 1 : u, 0, 0,
				  0, blob);
		tfm = grid_tfm(st.suite, blob, bl, 1, &err);
		if (u + 1 < st.b / 16 && tfm >= 0)
			op(tfm, &q, &o);
		else
			o.err = err;
		tap_result(tfm >= 0 && o.err == -EKEYEXPIRED,
			   "%s: a unit released whole is decided: %s", name,
			   dmd_errname(o.err));
		afalg_close(tfm);
		return;
	}
	if (before)
		bl = restore_blob(&st, e, 0, u, (uint16_t)before, 0, blob);
	tfm = grid_tfm(st.suite, blob, bl, 1, &err);
	if (tfm < 0) {
		tap_result(0, "%s: tfm: %s", name, dmd_errname(err));
		return;
	}
	op(tfm, &q, &o);
	ok = o.err == (vt ? 0 : -EBADMSG);
	if (vt) {
		ok &= o.verified == vt && o.released == rel && o.zero_tags;
		for (rr = 0; rr < DMD_GRID_UNIT; rr++) {
			if (!q.g.rec[rr] || rel >> rr & 1)
				continue;
			for (n = 0; n < q.g.len[rr]; n++)
				ok &= !o.pt[rr][n];
		}
		for (k = 0; (s = get_nth("pt", k)); k++) {
			rr = (unsigned int)strtoul(s, (char **)&s, 10);
			n = unhex(want, sizeof(want), s + 1);
			ok &= rr < 16 && (rel >> rr & 1) && n == q.g.len[rr] &&
			      !memcmp(o.pt[rr], want, n);
		}
	}
	tap_result(ok, "%s: %s, tags %02x, released %04x", name,
		   dmd_errname(o.err), o.verified, o.released);
	afalg_close(tfm);
}

static void seal_vector(const char *name, const int *avail)
{
	static uint8_t pk[64][DMD_PKT_MAX + 1], want[64][DMD_PKT_MAX_RECORD];
	static size_t want_len[64];
	uint8_t blob[DMD_BLOB2_MAX];
	unsigned int a = (unsigned int)strtoul(get("a"), NULL, 10), j, u, r;
	unsigned int nu;
	struct dmd_state st;
	struct dmd_packet p;
	const char *s;
	char *sp;
	struct greq q;
	struct gout o;
	size_t bl, n;
	int tfm, err, ok = 1;

	if (load_state(&st, blob, &bl) != DMD_OK || !avail[st.suite]) {
		tap_skip("suite not available", name);
		return;
	}
	tfm = grid_tfm(st.suite, blob, bl, strchr(name, '2') != NULL, &err);
	if (tfm < 0) {
		tap_result(0, "%s: tfm: %s", name, dmd_errname(err));
		return;
	}
	for (j = 0; (s = get_nth("rec", j)) && j < 64; j++) {
		strtoul(s, &sp, 10);
		strtoul(sp, &sp, 10);
		while (*sp == ' ')
			sp++;
		want_len[j] = unhex(want[j], sizeof(want[j]), sp);
	}
	nu = j / DMD_GRID_UNIT;
	for (u = 0; u < nu; u++) {
		memset(&q, 0, sizeof(q));
		q.e = st.epoch;
		q.u = u;
		for (r = 0; r < DMD_GRID_UNIT; r++) {
			j = u * DMD_GRID_UNIT + r;
			n = unhex(pk[j], sizeof(pk[j]), get_nth("pkt", j));
			if (dmd_packet_parse(&p, pk[j], n, a) == DMD_OK)
				dmd_grid_unit_add(&q.g, &p);
		}
		op(tfm, &q, &o);
		ok &= !o.err && o.verified == 0xff && o.released == 0xffff &&
		      o.state == DMD_GRID_DECIDED && o.zero_tags;
		ok &= u + 1 < st.b / 16 ?
			      o.e_c == st.epoch && o.u_c == u + 1 :
			      o.e_c == st.epoch + 1 && o.u_c == 0;
		for (r = 0; r < DMD_GRID_UNIT; r++) {
			j = u * DMD_GRID_UNIT + r;
			ok &= q.g.len[r] == want_len[j] &&
			      !memcmp(o.pt[r], want[j], want_len[j]);
		}
		if (!ok)
			tap_diag("unit %u: %s tags %02x rel %04x cursor %llu:%u",
				 u, dmd_errname(o.err), o.verified, o.released,
				 (unsigned long long)o.e_c, o.u_c);
	}
	tap_result(ok && nu, "%s: %u units released whole, cursor past each",
		   name, nu);
	/* Unit 0 again: decided, its keys gone. */
	memset(&q, 0, sizeof(q));
	q.e = st.epoch;
	for (r = 0; r < DMD_GRID_UNIT; r++)
		if (dmd_packet_parse(&p, pk[r], unhex(pk[r], sizeof(pk[r]),
						       get_nth("pkt", r)),
				     a) == DMD_OK)
			dmd_grid_unit_add(&q.g, &p);
	op(tfm, &q, &o);
	tap_result(o.err == -EKEYEXPIRED, "%s: unit 0 replayed -> %s", name,
		   dmd_errname(o.err));
	afalg_close(tfm);
}

static void key_vector(const char *name, const int *avail)
{
	uint8_t blob[DMD_BLOB2_MAX];
	const char *expect = get("expect");
	int want = expect && !strcmp(expect, "ok") ? 0 : -EKEYREJECTED;
	size_t bl;
	int fd, e1, e2;

	bl = unhex(blob, sizeof(blob), get("key"));
	if (bl < DMD_BLOB_OFF_SUITE + 1 || blob[DMD_BLOB_OFF_SUITE] > 2 ||
	    !avail[blob[DMD_BLOB_OFF_SUITE]]) {
		tap_skip("suite not available", name);
		return;
	}
	fd = grid_tfm(blob[DMD_BLOB_OFF_SUITE], blob, bl, 1, &e1);
	afalg_close(fd);
	fd = grid_tfm(blob[DMD_BLOB_OFF_SUITE], blob, bl, 0, &e2);
	afalg_close(fd);
	tap_result(e1 == want && e2 == want,
		   "%s: authsize 12 then key -> %s, key then authsize 12 -> %s",
		   name, dmd_errname(e1), dmd_errname(e2));
}

static const char *packet_path(int argc, char **argv)
{
	static char buf[4096];
	const char *env = getenv("DMD_PACKET_VECTORS");
	char tmp[4096];

	if (env && *env)
		return env;
	if (argc > 1) {
		snprintf(tmp, sizeof(tmp), "%s", argv[1]);
		snprintf(buf, sizeof(buf), "%s/packet.txt", dirname(tmp));
		if (!access(buf, R_OK))
			return buf;
	}
	snprintf(tmp, sizeof(tmp), "%s", argv[0]);
	snprintf(buf, sizeof(buf), "%s/packet.txt", dirname(tmp));
	if (!access(buf, R_OK))
		return buf;
	return access("vectors/packet.txt", R_OK) ? "../../vectors/packet.txt" :
						    "vectors/packet.txt";
}

static int run_vectors(const char *path, const int *avail)
{
	const char *name;
	int rc;

	if (kv_open(path)) {
		tap_result(0, "open %s", path);
		return -1;
	}
	while ((rc = rec_next()) > 0) {
		name = get("name");
		if (!name)
			continue;
		if (!strncmp(name, "rx-", 3))
			rx_vector(name, avail);
		else if (name[0] == 'd' && (name[1] == '1' || name[1] == '2'))
			seal_vector(name, avail);
		else if (!strncmp(name, "key-", 4))
			key_vector(name, avail);
	}
	rec_clear();
	fclose(vf);
	return rc;
}

/* ---- properties, on epochs sealed here ---- */

/* Seal EPOCHS epochs of B records (a = 1) from a random packet key. */
static int seal_epochs(struct dmd_rng *rng, unsigned int suite,
		       struct dmd_state *st, uint8_t *blob, size_t *bl)
{
	struct dmd_psender ps;
	struct dmd_state reserve;
	unsigned int ei, j, i;

	*bl = dmd_make_blob(rng, blob, suite, DMD_AGG_XOR, B, 40);
	if (dmd_blob_parse(st, blob, *bl) != DMD_OK ||
	    dmd_psender_init(&ps, st, 1, 5, NULL, 0, 0) != DMD_OK)
		return 0;
	for (ei = 0; ei < EPOCHS; ei++) {
		if (dmd_psender_begin(&ps, &reserve) != DMD_OK)
			return 0;
		for (i = 0; i < B; i++) {
			j = ei * B + i;
			plain_len[j] = 1 + dmd_rand_below(rng, 40);
			dmd_rand_bytes(rng, plain[j], plain_len[j]);
			if (dmd_psender_seal(&ps, plain[j], plain_len[j], 0,
					     pkts[j], sizeof(pkts[j]),
					     &pkt_len[j]) != DMD_OK)
				return 0;
		}
	}
	dmd_psender_wipe(&ps);
	return 1;
}

static void fresh(int *tfm, unsigned int suite, const uint8_t *blob,
		  size_t bl)
{
	int err;

	afalg_close(*tfm);
	*tfm = grid_tfm(suite, blob, bl, 1, &err);
}

/* Each loss class, forged tags, damaged records: the core's verdict. */
static void loss_classes(struct dmd_rng *rng, unsigned int suite,
			 const struct dmd_state *st, const uint8_t *blob,
			 size_t bl)
{
	static uint8_t dmg[DMD_GRID_UNIT][DMD_PKT_MAX];
	unsigned int i, n = 0, bad = 0, r;
	struct greq q = { .e = st->epoch };
	struct gout o;
	uint16_t lost;
	int tfm = -1;

	/* each record; each row; each column; pairs; random patterns */
	for (i = 0; i < 16 + 4 + 4 + 40; i++) {
		lost = i < 16 ? 1u << i :
		       i < 20 ? 0xfu << 4 * (i - 16) :
		       i < 24 ? 0x1111u << (i - 20) :
		       i < 34 ? (uint16_t)(1u << dmd_rand_below(rng, 16) |
					   1u << dmd_rand_below(rng, 16)) :
				(uint16_t)dmd_rand(rng);
		unit_of(0, 0, &q.g);
		drop(&q.g, lost, 0);
		fresh(&tfm, suite, blob, bl);
		n++;
		bad += tfm < 0 || !agrees(st, tfm, &q, 0, &o);
	}
	tap_result(!bad, "suite%u: %u loss patterns (each record, row, column, pairs, random): the core's verdict",
		   suite, n);
	/* a forged bit in each tag, a damaged byte in each record */
	for (n = bad = 0, i = 0; i < DMD_GRID_TAGS + DMD_GRID_UNIT; i++) {
		unit_of(0, 0, &q.g);
		r = i < DMD_GRID_TAGS ? i : i - DMD_GRID_TAGS;
		if (i < DMD_GRID_TAGS) {
			memcpy(dmg[r], q.g.tag[r], DMD_PKT_TAG_SIZE);
			dmg[r][dmd_rand_below(rng, DMD_PKT_TAG_SIZE)] ^=
				(uint8_t)(1u << dmd_rand_below(rng, 8));
			q.g.tag[r] = dmg[r];
		} else {
			memcpy(dmg[r], q.g.rec[r], q.g.len[r]);
			dmg[r][dmd_rand_below(rng, (uint32_t)q.g.len[r])] ^= 0x40;
			q.g.rec[r] = dmg[r];
		}
		fresh(&tfm, suite, blob, bl);
		n++;
		bad += tfm < 0 || !agrees(st, tfm, &q, 0, &o);
		if (i < DMD_GRID_TAGS)
			bad += o.verified & 1u << r ? 1 : 0;
		else
			bad += o.released & 1u << r ? 1 : 0;
	}
	tap_result(!bad, "suite%u: each tag forged, each record damaged: that tag fails, that record stays, the rest as the core",
		   suite);
	afalg_close(tfm);
}

static int cursor_is(const struct gout *o, uint64_t e, uint32_t u)
{
	return o->e_c == e && o->u_c == u;
}

/* Copies, replays and late records; give-up with and without tags. */
static void replays_give_up(unsigned int suite, const struct dmd_state *st,
			    const uint8_t *blob, size_t bl)
{
	struct greq q = { .e = st->epoch };
	struct gout o;
	unsigned int r;
	size_t i;
	int tfm = -1, ok;

	fresh(&tfm, suite, blob, bl);
	unit_of(0, 0, &q.g);
	drop(&q.g, 1u << 5, 0);
	op(tfm, &q, &o);
	ok = !o.err && o.released == 0xffdf && !o.state &&
	     cursor_is(&o, st->epoch, 0) && pt_is(&o, 0, 0, 0);
	tap_result(ok, "suite%u: record 5 lost: 0xffdf released, unit open",
		   suite);
	op(tfm, &q, &o);
	ok = !o.err && o.verified == 0xdd && !o.released &&
	     o.unit_rel == 0xffdf;
	for (r = 0; r < DMD_GRID_UNIT; r++)
		for (i = 0; q.g.rec[r] && i < q.g.len[r]; i++)
			ok &= !o.pt[r][i];
	tap_result(ok, "suite%u: the same packets again: tags verify, nothing released twice (zeros)",
		   suite);
	unit_of(0, 0, &q.g);
	op(tfm, &q, &o);
	tap_result(!o.err && o.released == 0x0020 && pt_is(&o, 0, 0, 5) &&
			   o.state == DMD_GRID_DECIDED &&
			   cursor_is(&o, st->epoch, 1),
		   "suite%u: the late record 5: it alone released, the unit decided, cursor %llu:%u",
		   suite, (unsigned long long)o.e_c, o.u_c);
	op(tfm, &q, &o);
	tap_result(o.err == -EKEYEXPIRED, "suite%u: a copy of the decided unit -> %s",
		   suite, dmd_errname(o.err));

	/* give-up */
	fresh(&tfm, suite, blob, bl);
	unit_of(0, 0, &q.g);
	drop(&q.g, 1u << 5, 0);
	q.flags = DMD_GRID_GIVE_UP;
	op(tfm, &q, &o);
	tap_result(!o.err && o.released == 0xffdf &&
			   o.state == DMD_GRID_DECIDED &&
			   cursor_is(&o, st->epoch, 1),
		   "suite%u: GIVE_UP with record 5 lost: released, decided, cursor past it",
		   suite);
	q.flags = 0;
	unit_of(0, 0, &q.g);
	op(tfm, &q, &o);
	tap_result(o.err == -EKEYEXPIRED, "suite%u: record 5 after the give-up -> %s",
		   suite, dmd_errname(o.err));
	memset(&q.g, 0, sizeof(q.g));
	q.u = 1;
	q.flags = DMD_GRID_GIVE_UP;
	op(tfm, &q, &o);
	tap_result(!o.err && !o.released && o.state == DMD_GRID_DECIDED &&
			   cursor_is(&o, st->epoch + 1, 0),
		   "suite%u: a give-up without tags decides unit 1: cursor %llu:%u",
		   suite, (unsigned long long)o.e_c, o.u_c);
	unit_of(0, 1, &q.g);
	q.flags = 0;
	op(tfm, &q, &o);
	tap_result(o.err == -EKEYEXPIRED, "suite%u: unit 1 after its give-up -> %s",
		   suite, dmd_errname(o.err));
	q.e = st->epoch + 1;
	q.u = 0;
	unit_of(1, 0, &q.g);
	op(tfm, &q, &o);
	tap_result(!o.err && o.released == 0xffff && pt_is(&o, 1, 0, 7),
		   "suite%u: the next epoch opens after the give-ups", suite);
	afalg_close(tfm);
}

/* The window: out of order, across epochs; a unit past it. */
static void window(unsigned int suite, const struct dmd_state *st,
		   const uint8_t *blob, size_t bl)
{
	struct greq q;
	struct gout o;
	int tfm = -1, ok;

	fresh(&tfm, suite, blob, bl);
	memset(&q, 0, sizeof(q));
	q.e = st->epoch + 1;
	q.u = 1;
	unit_of(1, 1, &q.g);
	op(tfm, &q, &o);
	ok = !o.err && o.released == 0xffff && !o.state &&
	     cursor_is(&o, st->epoch, 0) && pt_is(&o, 1, 1, 3);
	q.e = st->epoch;
	q.u = 1;
	unit_of(0, 1, &q.g);
	op(tfm, &q, &o);
	ok &= !o.err && !o.state && cursor_is(&o, st->epoch, 0);
	q.e = st->epoch + 1;
	q.u = 0;
	unit_of(1, 0, &q.g);
	op(tfm, &q, &o);
	ok &= !o.err && !o.state && cursor_is(&o, st->epoch, 0);
	q.e = st->epoch;
	q.u = 0;
	unit_of(0, 0, &q.g);
	op(tfm, &q, &o);
	ok &= !o.err && o.state == DMD_GRID_DECIDED &&
	      cursor_is(&o, st->epoch + 2, 0);
	tap_result(ok, "suite%u: units 3, 1, 2, 0 of the window (across epochs): released, then the cursor past all four (%llu:%u)",
		   suite, (unsigned long long)o.e_c, o.u_c);
	q.e = st->epoch + 1;
	q.u = 1;
	unit_of(1, 1, &q.g);
	op(tfm, &q, &o);
	tap_result(o.err == -EKEYEXPIRED, "suite%u: unit 3 again -> %s",
		   suite, dmd_errname(o.err));

	/* d = 16: past the window; the cursor moves to it */
	fresh(&tfm, suite, blob, bl);
	q.e = st->epoch + 8;
	q.u = 0;
	unit_of(8, 0, &q.g);
	drop(&q.g, 1u << 2, 0);
	op(tfm, &q, &o);
	ok = !o.err && o.released == 0xfffb && !o.state &&
	     cursor_is(&o, st->epoch + 8, 0) && pt_is(&o, 8, 0, 9);
	q.e = st->epoch + 7;
	q.u = 1;
	unit_of(7, 1, &q.g);
	op(tfm, &q, &o);
	ok &= o.err == -EKEYEXPIRED;
	q.e = st->epoch + 8;
	q.u = 0;
	unit_of(8, 0, &q.g);
	op(tfm, &q, &o);
	ok &= !o.err && o.released == 0x0004 && cursor_is(&o, st->epoch + 8, 1);
	tap_result(ok, "suite%u: a unit 16 past the cursor moves it there (the units before decided), then opens on",
		   suite);
	/* forged units ahead change nothing */
	fresh(&tfm, suite, blob, bl);
	q.e = st->epoch + 5;
	q.u = 1;
	unit_of(4, 1, &q.g);	/* another epoch's unit: a wrong position */
	op(tfm, &q, &o);
	ok = o.err == -EBADMSG;
	q.e = st->epoch;
	q.u = 0;
	unit_of(0, 0, &q.g);
	op(tfm, &q, &o);
	ok &= !o.err && cursor_is(&o, st->epoch, 1);
	tap_result(ok, "suite%u: a unit at the wrong position -> EBADMSG, nothing moved",
		   suite);
	afalg_close(tfm);
}

/* The restore form, and authsize 16 against a grid state. */
static void restore(unsigned int suite, const struct dmd_state *st)
{
	uint8_t blob[DMD_BLOB2_MAX + 128], out[64];
	struct greq q = { .e = st->epoch };
	struct dmd_state bad = *st;
	struct gout o;
	size_t bl;
	int tfm, err, ok;

	bl = restore_blob(st, st->epoch, 0, 0, 0xffdf, 0xdd, blob);
	tfm = grid_tfm(suite, blob, bl, 0, &err);
	unit_of(0, 0, &q.g);
	if (tfm >= 0)
		op(tfm, &q, &o);
	tap_result(tfm >= 0 && !o.err && o.released == 0x0020 &&
			   pt_is(&o, 0, 0, 5) && cursor_is(&o, st->epoch, 1),
		   "suite%u: restored window 0xffdf: the unit releases record 5 alone",
		   suite);
	afalg_close(tfm);

	/* restored, authsize 16 first: epochs refused until authsize 12 */
	tfm = afalg_bind(dmd_alg_name(suite));
	ok = tfm >= 0 && !afalg_setkey(tfm, blob, bl);
	memset(out, 0, sizeof(out));
	err = (int)afalg_aead_once(tfm, 0, "\0\0\0\0\0\0\0\0", 8, 0, out,
				   2 + 16 + 16, out, 64);
	ok &= err == -EOPNOTSUPP;
	ok &= afalg_setauthsize(tfm, 16) == -EBUSY;
	ok &= !afalg_setauthsize(tfm, DMD_PKT_TAG_SIZE);
	op(tfm, &q, &o);
	ok &= !o.err && o.released == 0x0020;
	tap_result(ok, "suite%u: a grid state under authsize 16: request EOPNOTSUPP, setauthsize(16) EBUSY",
		   suite);
	afalg_close(tfm);

	bl = restore_blob(st, st->epoch, 0, 0, 0xffff, 0, blob);
	tfm = grid_tfm(suite, blob, bl, 1, &err);
	ok = tfm < 0 && err == -EINVAL;
	afalg_close(tfm);
	bl = restore_blob(st, st->epoch, 0, 0, 1, 0, blob);
	dmd_store64_le(blob + dmd_blob2_size(suite), st->epoch + 1);
	tfm = grid_tfm(suite, blob, bl, 1, &err);
	ok &= tfm < 0 && err == -EINVAL;
	afalg_close(tfm);
	bl = restore_blob(st, st->epoch, 0, 0, 1, 0, blob);
	dmd_store32_le(blob + dmd_blob2_size(suite) + 8, B / 16);
	tfm = grid_tfm(suite, blob, bl, 1, &err);
	ok &= tfm < 0 && err == -EINVAL;
	afalg_close(tfm);
	bad.group = 16;		/* b = 32 in groups of 16: not a packet key */
	bl = restore_blob(&bad, st->epoch, 0, 0, 1, 0, blob);
	tfm = grid_tfm(suite, blob, bl, 0, &err);
	ok &= tfm < 0 && err == -EKEYREJECTED;
	afalg_close(tfm);
	tap_result(ok, "suite%u: restore refused: unit decided, wrong epoch, unit past b -> EINVAL; not a packet key -> EKEYREJECTED",
		   suite);
}

/* Every malformed request, each with its errno, nothing changed. */
static void bad_input(unsigned int suite, const struct dmd_state *st,
		      const uint8_t *blob, size_t bl)
{
	static uint8_t in[REQ_MAX], mod[REQ_MAX], out[REQ_MAX];
	struct greq q = { .e = st->epoch };
	struct gout o;
	size_t n;
	int tfm = -1, ok = 1, err;
	unsigned int i;
	struct {
		const char *what;
		int off;	/* byte to change, -1: none */
		uint8_t val;
		int assoc_delta, len_delta;
		uint64_t e;
		int want;
	} cases[] = {
		{ "assoclen 31", -1, 0, -1, 0, 0, -EINVAL },
		{ "assoclen 33", -1, 0, 1, 0, 0, -EINVAL },
		{ "reserved byte 8", 8, 1, 0, 0, 0, -EINVAL },
		{ "reserved byte 31", 31, 0x80, 0, 0, 0, -EINVAL },
		{ "flag 0x02", DMD_GRID_OFF_FLAGS, 2, 0, 0, 0, -EINVAL },
		{ "unit 2 of b = 32", DMD_GRID_OFF_UNIT, 2, 0, 0, 0, -EINVAL },
		{ "record 7 not held", DMD_GRID_OFF_HELD, 0x7f, 0, 0, 0,
		  -EINVAL },
		{ "a tag fewer present", DMD_GRID_OFF_TAGS, 0x7f, 0, 0, 0,
		  -EINVAL },
		{ "one byte short", -1, 0, 0, -1, 0, -EINVAL },
		{ "record 0 of 223 bytes", TBL, 223, 0, 0, 0, -EMSGSIZE },
		{ "tags 0 without GIVE_UP", DMD_GRID_OFF_TAGS, 0, 0, 0, 0,
		  -EINVAL },
		{ "epoch behind", -1, 0, 0, 0, 1, -EKEYEXPIRED },
		{ "epoch 4097 ahead", -1, 0, 0, 0, 2, -ERANGE },
	};

	fresh(&tfm, suite, blob, bl);
	unit_of(0, 0, &q.g);
	n = build(&q, in);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t e = cases[i].e == 1 ? st->epoch - 1 :
			     cases[i].e == 2 ? st->epoch + 4097 : st->epoch;
		size_t m = n + cases[i].len_delta, assoc = TBL;

		memcpy(mod, in, n);
		if (cases[i].assoc_delta < 0) {
			assoc = TBL - 1;
		} else if (cases[i].assoc_delta > 0) {
			memmove(mod + TBL + 1, mod + TBL, n - TBL);
			mod[TBL] = 0;
			m++;
			assoc = TBL + 1;
		}
		if (cases[i].off >= 0)
			mod[cases[i].off] = cases[i].val;
		err = (int)raw(tfm, 0, e, assoc, mod, m, out);
		if (err != cases[i].want) {
			ok = 0;
			tap_diag("%s: %s, want %s", cases[i].what,
				 dmd_errname(err), dmd_errname(cases[i].want));
		}
	}
	/* a give-up only with a record, or a placeholder not zero */
	memset(mod, 0, TBL + 12);
	mod[DMD_GRID_OFF_FLAGS] = DMD_GRID_GIVE_UP;
	mod[TBL + 5] = 1;
	ok &= raw(tfm, 0, st->epoch, TBL, mod, TBL + 12, out) == -EINVAL;
	mod[TBL + 5] = 0;
	mod[DMD_GRID_OFF_HELD] = 1;
	ok &= raw(tfm, 0, st->epoch, TBL, mod, TBL + 12, out) == -EINVAL;
	ok &= raw(tfm, 1, st->epoch, TBL, in, n, out) == -EOPNOTSUPP;
	ok &= afalg_setauthsize(tfm, 8) == -EINVAL;
	op(tfm, &q, &o);
	ok &= !o.err && o.released == 0xffff && cursor_is(&o, st->epoch, 1);
	tap_result(ok, "suite%u: %zu malformed requests, each its errno; encrypt EOPNOTSUPP; then the unit opens",
		   suite, sizeof(cases) / sizeof(cases[0]) + 2);
	afalg_close(tfm);
}

/*
 * DIAMOND_ALG_GET_WRAPPED: a grid tfm with an empty grid state exports its
 * blob; once a unit is pending it has no wrapped form (-EOPNOTSUPP).
 */
static void export_refused(unsigned int suite, const struct dmd_state *st,
			   const uint8_t *blob, size_t bl, int have_wkey)
{
	uint8_t w[DMD_WRAP_MAX + 64];
	struct greq q = { .e = st->epoch };
	socklen_t len;
	struct gout o;
	int tfm, sock, n1 = 0, n2 = 0;

	if (!have_wkey) {
		tap_skip("no session keyring for the wrap key", "export");
		return;
	}
	tfm = afalg_bind_type(AFALG_DIAMOND_TYPE, dmd_alg_name(suite));
	if (tfm < 0 || afalg_setauthsize(tfm, DMD_PKT_TAG_SIZE) ||
	    afalg_setkey(tfm, blob, bl)) {
		tap_result(0, "suite%u: a grid tfm of type diamond", suite);
		afalg_close(tfm);
		return;
	}
	sock = afalg_accept(tfm);
	len = sizeof(w);
	n1 = getsockopt(sock, SOL_ALG, DIAMOND_ALG_GET_WRAPPED, w, &len) ?
		     -errno : (int)len;
	afalg_close(sock);
	unit_of(0, 0, &q.g);
	drop(&q.g, 1u << 5, 0);
	op(tfm, &q, &o);
	sock = afalg_accept(tfm);
	len = sizeof(w);
	n2 = getsockopt(sock, SOL_ALG, DIAMOND_ALG_GET_WRAPPED, w, &len) ?
		     -errno : (int)len;
	afalg_close(sock);
	tap_result(n1 == (int)DMD_WRAP_SIZE(DMD_BLOB2_SIZE(dmd_key_size(suite))) &&
			   !o.err && n2 == -EOPNOTSUPP,
		   "suite%u: export: %d bytes with no grid state, then %s",
		   suite, n1, dmd_errname(n2));
	afalg_close(tfm);
}

int main(int argc, char **argv)
{
	const char *path = packet_path(argc, argv);
	int avail[3] = { 0 };
	uint8_t blob[DMD_BLOB2_MAX];
	struct dmd_state st;
	struct dmd_rng rng;
	unsigned int suite;
	size_t bl;
	int have_wkey;

	tap_header();
	avail[1] = dmd_suite_available(1);
	avail[2] = dmd_suite_available(2);
	if (!avail[1] && !avail[2]) {
		tap_trailing_plan();
		return TAP_EXIT_SKIP;
	}
	/* A session keyring of our own, with a wrap key, for the export. */
	memset(blob, 0x5a, DMD_WRAP_KEY_SIZE);
	have_wkey = dmd_keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0) >= 0 &&
		    dmd_key_add(DMD_KEY_TYPE, "diamond:wrap", blob,
				DMD_WRAP_KEY_SIZE, KEY_SPEC_SESSION_KEYRING) >= 0;
	rng.s = dmd_seed();
	tap_diag("seed %llu (DMD_SEED to repeat)", (unsigned long long)rng.s);
	if (run_vectors(path, avail) < 0)
		tap_result(0, "read %s", path);
	for (suite = 1; suite <= 2; suite++) {
		if (!avail[suite])
			continue;
		if (!tap_result(seal_epochs(&rng, suite, &st, blob, &bl),
				"suite%u: %u epochs of %u records sealed by the core",
				suite, EPOCHS, B))
			continue;
		loss_classes(&rng, suite, &st, blob, bl);
		replays_give_up(suite, &st, blob, bl);
		window(suite, &st, blob, bl);
		restore(suite, &st);
		bad_input(suite, &st, blob, bl);
		export_refused(suite, &st, blob, bl, have_wkey);
	}
	tap_trailing_plan();
	return tap_finish();
}
