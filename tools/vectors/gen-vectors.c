// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * gen-vectors: the Diamond known-answer vectors (Documentation/spec.rst
 * section 13), computed from the spec with OpenSSL's AES, ChaCha20,
 * Poly1305 and SHA-256 and a bit-serial GF(2^128) multiply, sharing no code
 * with the portable core so that the two check each other.
 *
 *   gen-vectors [FILE]          write the vectors (default: stdout)
 *   gen-vectors --check FILE    regenerate; exit 1 if FILE differs
 *   gen-vectors --blobs ...     the same for the key blob vectors
 *                               (vectors/blob.txt), CRC-32 from zlib
 *   gen-vectors --frames ...    the same for the frame stream vectors
 *                               (vectors/frames.txt), built byte by byte
 *                               with their events, no parser involved
 *   gen-vectors --provision ... the same for the provisioning vectors
 *                               (vectors/provision.txt): E_0 with a fresh
 *                               value N, fixed here
 *   gen-vectors --wrap ...      the same for the wrapped-state vectors
 *                               (vectors/wrap.txt, wrap-vectors.c)
 *   gen-vectors --packet ...    the same for the packet-radio vectors
 *                               (vectors/packet.txt, packet-vectors.c)
 *
 * The primitives and the construction's pieces are ref-prims.c's.
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "packet-vectors.h"
#include "ref-prims.h"
#include "wrap-vectors.h"

#define MAXREC 4096

/*
 * A unit of spec section 9.1: non-final group @group, or the final group
 * of an epoch of @count records; its records are body bytes [pos, pos+len).
 */
struct unit {
	size_t pos, len;
	uint32_t group, count;
	int final;
	uint8_t tag[16];
};

#define MAX_UNITS 1100

static void unit_add(struct unit *u, size_t *nu, size_t start, size_t end,
		     uint32_t group, uint32_t count, int final, uint8_t acc[16])
{
	struct unit *x = &u[(*nu)++];

	if (*nu > MAX_UNITS)
		die("units");
	x->pos = start;
	x->len = end - start;
	x->group = group;
	x->count = count;
	x->final = final;
	memcpy(x->tag, acc, 16);
	memset(acc, 0, 16);	/* each group aggregates afresh */
}

/*
 * Seal epoch @epoch (>= st->epoch) of the plaintext body into @ct (the
 * body, no tag) with group size @g, advancing @st to epoch + 1. The units
 * and their tags go to @u (spec section 5.1): a group tag after every full
 * group while the epoch can take more records, the epoch tag last.
 */
static void seal_groups(struct state *st, uint64_t epoch, uint32_t g,
			const uint8_t *ad, size_t adlen, const uint8_t *pt,
			size_t ptlen, uint8_t *ct, struct unit *u, size_t *nu)
{
	uint8_t r[32], hp[32], ghp[32], sig[16], acc[16] = { 0 };
	size_t pos = 0, start = 0, len, i;
	uint32_t n = 0;

	while (st->epoch < epoch) {
		epoch_update(st->suite, st->key, r);
		st->epoch++;
	}
	epoch_update(st->suite, st->key, r);
	st->epoch++;
	*nu = 0;
	while (pos < ptlen) {
		if (n % g == 0 && n + g < st->b)	/* R_{e,n} starts a group */
			stream(st->suite, r, 2, ghp, 32);
		len = pt[pos] | pt[pos + 1] << 8;
		ct[pos] = pt[pos];
		ct[pos + 1] = pt[pos + 1];
		pos += 2;
		slot(st->suite, r, hp, ct + pos, len);
		for (i = 0; i < len; i++)
			ct[pos + i] ^= pt[pos + i];
		uh_tag(st->suite, hp, ct + pos, len, epoch, n, sig);
		agg_add(st->agg, acc, sig);
		pos += len;
		n++;
		if (n % g == 0 && n < st->b) {	/* a full non-final group */
			uh_tag(st->suite, ghp, ad, adlen, epoch, GROUPF | n, sig);
			agg_add(st->agg, acc, sig);
			unit_add(u, nu, start, pos, n / g - 1, 0, 0, acc);
			start = pos;
		}
	}
	slot(st->suite, r, hp, NULL, 0);
	uh_tag(st->suite, hp, ad, adlen, epoch, TRAILER | n, sig);
	agg_add(st->agg, acc, sig);
	unit_add(u, nu, start, pos, 0, n, 1, acc);
}

/*
 * Seal epoch @epoch (>= st->epoch) of the plaintext body into @ct (body ||
 * tag) and advance @st to epoch + 1: one group, g = b.
 */
static void seal(struct state *st, uint64_t epoch, const uint8_t *ad,
		 size_t adlen, const uint8_t *pt, size_t ptlen, uint8_t *ct)
{
	static struct unit u[MAX_UNITS];
	size_t nu;

	seal_groups(st, epoch, st->b, ad, adlen, pt, ptlen, ct, u, &nu);
	memcpy(ct + ptlen, u[0].tag, 16);
}

static void initial(struct state *st, const uint8_t root[32])
{
	uint8_t in[12 + 10 + 32], d[32];

	memcpy(in, "DIAMOND/1 E0", 12);
	in[12] = (uint8_t)st->suite;
	in[13] = (uint8_t)st->agg;
	put_le(in + 14, st->b, 4);
	put_le(in + 18, st->dev, 4);
	memcpy(in + 22, root, 32);
	sha256(d, in, sizeof(in));
	memset(st->key, 0, 32);
	memcpy(st->key, d, ksize(st->suite));
	st->epoch = 0;
}

/* ---- deterministic content and output ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint8_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)(rng >> 24);
}

static void fill(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

static FILE *out;

static void hex(const char *name, const uint8_t *p, size_t n)
{
	fprintf(out, "%-6s =%s", name, n ? " " : "");
	while (n--)
		fprintf(out, "%02x", *p++);
	fputc('\n', out);
}

/*
 * The version "key" and "next" are written in (spec section 13: "next" has
 * its key's version): 1, or 2 with this generation and group size field.
 */
static struct {
	int v2, gen, group, flags;
} keyfmt;

static void blob(const char *name, const struct state *st)
{
	uint8_t b[64] = { 'D', 'M', 'N', 'D', 1 };
	size_t n;

	if (keyfmt.v2) {
		n = blob2(b, st, keyfmt.gen, keyfmt.group);
		/* The flags byte, then the CRC over it again. */
		b[7] = (uint8_t)keyfmt.flags;
		put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
		hex(name, b, n);
		return;
	}
	b[5] = (uint8_t)st->suite;
	b[6] = (uint8_t)st->agg;
	b[7] = (uint8_t)keyfmt.flags;
	put_le(b + 8, st->b, 4);
	put_le(b + 12, st->dev, 4);
	put_le(b + 16, st->epoch, 8);
	memcpy(b + 24, st->key, ksize(st->suite));
	hex(name, b, 24 + ksize(st->suite));
}

/* An epoch under construction: plaintext body, AD, ciphertext. */
struct epoch {
	uint8_t pt[1100000], ct[1100000], ad[1025];	/* 1025: one too many */
	size_t ptlen, adlen;
	uint32_t n;
	size_t off[1100];	/* offset of record j's length prefix */
};

static struct epoch ep;

static void body_reset(size_t adlen)
{
	ep.ptlen = 0;
	ep.n = 0;
	ep.adlen = adlen;
	fill(ep.ad, adlen);
}

static void body_add(size_t len)
{
	if (ep.n < sizeof(ep.off) / sizeof(ep.off[0]))
		ep.off[ep.n] = ep.ptlen;
	put_le(ep.pt + ep.ptlen, len, 2);
	fill(ep.pt + ep.ptlen + 2, len);
	ep.ptlen += 2 + len;
	ep.n++;
}

static const char *const agg_name[] = { "xor", "add", "hash" };

static void head(const char *name, const struct state *st, const char *what)
{
	fprintf(out, "\n# %s\nname   = d%d-%s-%s\n", what, st->suite,
		agg_name[st->agg], name);
	blob("key", st);
}

/* A positive step: seal at @epoch and print it, advancing @st. */
static void step_ok(struct state *st, uint64_t epoch)
{
	fprintf(out, "epoch  = %llu\n", (unsigned long long)epoch);
	hex("ad", ep.ad, ep.adlen);
	hex("pt", ep.pt, ep.ptlen);
	seal(st, epoch, ep.ad, ep.adlen, ep.pt, ep.ptlen, ep.ct);
	hex("ct", ep.ct, ep.ptlen + 16);
	fprintf(out, "expect = ok\n");
	blob("next", st);
}

static void step_bad(uint64_t epoch, const uint8_t *ct, size_t len,
		     const char *expect)
{
	fprintf(out, "epoch  = %llu\n", (unsigned long long)epoch);
	hex("ad", ep.ad, ep.adlen);
	hex("ct", ct, len);
	fprintf(out, "expect = %s\n", expect);
}

static struct state make(int suite, int agg, uint32_t b, uint32_t dev)
{
	struct state st = { suite, agg, b, dev, 0, { 0 } };
	uint8_t root[32];

	fill(root, sizeof(root));
	initial(&st, root);
	return st;
}

static const size_t sizes[] = { 0, 1, 15, 16, 17, 64, 128, 1500 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static void positives(int suite, int agg)
{
	struct state st;
	char name[64];
	size_t i, j;

	for (i = 0; i < NSIZES; i++) {
		if (agg && i % 3 != (size_t)agg)
			continue;	/* every size under XOR, a third under each other */
		st = make(suite, agg, 1, 0x100 + (uint32_t)i);
		snprintf(name, sizeof(name), "b1-len%zu%s", sizes[i],
			 i & 1 ? "-ad" : "");
		head(name, &st, "one record per epoch, two epochs");
		body_reset(i & 1 ? 13 : 0);
		body_add(sizes[i]);
		step_ok(&st, 0);
		step_ok(&st, 1);
	}
	st = make(suite, agg, 2, 0x200);
	head("b2", &st, "two records");
	body_reset(16);
	body_add(15);
	body_add(17);
	step_ok(&st, 0);

	st = make(suite, agg, 16, 0x300);
	head("b16-all-sizes", &st, "sixteen records of every size, then a short epoch");
	body_reset(agg == 2 ? 0 : 40);
	for (j = 0; j < 16; j++)
		body_add(sizes[j % NSIZES]);
	step_ok(&st, 0);
	body_reset(3);
	for (j = 0; j < 5; j++)
		body_add(sizes[(j + 3) % NSIZES]);
	step_ok(&st, 1);
	body_reset(0);
	body_add(16);
	fprintf(out, "# lost epochs 2..4: the gateway skips forward\n");
	step_ok(&st, 5);
}

static void big(int suite)
{
	struct state st = make(suite, 0, 1024, 0x400);
	size_t j;

	head("b1024-len16", &st, "a full epoch of 1024 16-byte records");
	body_reset(8);
	for (j = 0; j < 1024; j++)
		body_add(16);
	step_ok(&st, 0);
}

static uint8_t bad[1100000];

/* Start a negative vector: a 4-record epoch sealed at epoch 0. */
static struct state neg(int suite, const char *name, const char *what,
			struct state *sealed)
{
	struct state st = make(suite, 0, 4, 0x500);

	head(name, &st, what);
	body_reset(12);
	body_add(16);
	body_add(5);
	body_add(16);
	body_add(30);
	*sealed = st;
	seal(sealed, 0, ep.ad, ep.adlen, ep.pt, ep.ptlen, ep.ct);
	memcpy(bad, ep.ct, ep.ptlen + 16);
	return st;
}

/* After a rejection the untouched epoch must still open. */
static void then_genuine(struct state *st)
{
	fprintf(out, "# the state did not move: the genuine epoch opens\n");
	step_ok(st, 0);
}

static void negatives(int suite)
{
	size_t len, a, b, la;
	struct state st, s2;

	st = neg(suite, "tamper-record", "a bit flipped in a record", &s2);
	len = ep.ptlen + 16;
	bad[ep.off[1] + 3] ^= 0x04;
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "tamper-tag", "a bit flipped in the tag", &s2);
	bad[len - 1] ^= 0x80;
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "tamper-length", "a length prefix changed", &s2);
	bad[ep.off[3]] = 31;	/* the last record now runs into the tag */
	step_bad(0, bad, len, "EFORMAT");
	then_genuine(&st);

	st = neg(suite, "truncated", "the last record dropped, tag kept", &s2);
	la = ep.off[3];
	memcpy(bad + la, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, la + 16, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "reordered", "records 0 and 2 (both 16 bytes) swapped",
		 &s2);
	a = ep.off[0];
	b = ep.off[2];
	memcpy(bad + a, ep.ct + b, 18);
	memcpy(bad + b, ep.ct + a, 18);
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "replayed", "an accepted epoch sent again", &s2);
	step_ok(&st, 0);
	step_bad(0, ep.ct, len, "EKEYEXPIRED");

	st = neg(suite, "wrong-epoch", "epoch 0 presented as epoch 1", &s2);
	step_bad(1, ep.ct, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "wrong-key", "sealed by another device", &s2);
	s2 = make(suite, 0, 4, 0x501);
	seal(&s2, 0, ep.ad, ep.adlen, ep.pt, ep.ptlen, bad);
	step_bad(0, bad, len, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "zero-extension", "a zero byte appended to a record "
		 "(the paper's padding collision)", &s2);
	a = ep.off[1];
	memcpy(bad, ep.ct, a);
	put_le(bad + a, 6, 2);
	memcpy(bad + a + 2, ep.ct + a + 2, 5);
	bad[a + 7] = 0;
	memcpy(bad + a + 8, ep.ct + a + 7, len - a - 7);
	step_bad(0, bad, len + 1, "EBADMSG");
	then_genuine(&st);

	st = neg(suite, "ad-changed", "the associated data changed", &s2);
	ep.ad[0] ^= 1;
	step_bad(0, ep.ct, len, "EBADMSG");
	ep.ad[0] ^= 1;
	then_genuine(&st);

	st = neg(suite, "far-future", "an epoch beyond max_skip (4096)", &s2);
	step_bad(4097, ep.ct, len, "ESKIP");
	then_genuine(&st);

	st = neg(suite, "oversize-record", "a record longer than 4096 bytes",
		 &s2);
	put_le(bad, 4097, 2);
	memset(bad + 2, 0, 4097);
	memcpy(bad + 4099, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, 4099 + 16, "ESIZE");
	then_genuine(&st);

	st = neg(suite, "too-many-records", "five records where b is 4", &s2);
	memcpy(bad, ep.ct, ep.ptlen);
	put_le(bad + ep.ptlen, 0, 2);
	memcpy(bad + ep.ptlen + 2, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, len + 2, "EFORMAT");
	then_genuine(&st);
}

/* ---- corners: large values, limits and the order of checks ---- */

#define MAX_SKIP 4096	/* the default every vector assumes (section 13) */

/* A vector of b records per epoch whose state opens at @epoch. */
static struct state at_epoch(int suite, uint32_t b, uint64_t epoch,
			     const char *name, const char *what)
{
	struct state st = make(suite, 0, b, 0x800);

	st.epoch = epoch;
	head(name, &st, what);
	return st;
}

/* Two small records, no AD: the body of the corner vectors. */
static void small_body(void)
{
	body_reset(0);
	body_add(3);
	body_add(20);
}

/* bad = the body of ep.ct with its last record running into the tag. */
static size_t run_into_tag(void)
{
	size_t len = ep.ptlen + 16;

	memcpy(bad, ep.ct, len);
	put_le(bad + ep.off[ep.n - 1], 21, 2);
	return len;
}

/* bad = one record whose prefix says 4097 bytes and only 10 follow. */
static size_t oversize_cut(void)
{
	put_le(bad, 4097, 2);
	memset(bad + 2, 0x5a, 10 + 16);
	return 2 + 10 + 16;
}

static void large_epochs(int suite)
{
	struct state st, s2;
	size_t len;

	st = at_epoch(suite, 4, (1ull << 32) + 5, "epoch-2to32",
		      "a state at epoch 2^32 + 5 opens 2^32 + 7 (two lost)");
	small_body();
	step_ok(&st, (1ull << 32) + 7);

	st = at_epoch(suite, 4, UINT64_MAX - 3, "last-epoch",
		      "2^64 - 3 is the last epoch: it opens, leaving the state "
		      "at 2^64 - 2; 2^64 - 2 and 2^64 - 1 are refused with "
		      "EFULL, before the body (a malformed one too), and the "
		      "opened epoch is a replay");
	small_body();
	step_ok(&st, UINT64_MAX - 2);
	len = ep.ptlen + 16;
	step_bad(UINT64_MAX - 1, ep.ct, len, "EFULL");
	step_bad(UINT64_MAX, ep.ct, len, "EFULL");
	step_bad(UINT64_MAX - 1, bad, run_into_tag(), "EFULL");
	step_bad(UINT64_MAX - 2, ep.ct, len, "EKEYEXPIRED");

	st = at_epoch(suite, 4, UINT64_MAX - 1 - MAX_SKIP - 1, "full-past-skip",
		      "epochs 2^64 - 2 and 2^64 - 1 more than max_skip ahead "
		      "of the state: ESKIP comes before EFULL");
	small_body();
	s2 = st;
	seal(&s2, st.epoch, ep.ad, ep.adlen, ep.pt, ep.ptlen, ep.ct);
	len = ep.ptlen + 16;
	step_bad(UINT64_MAX - 1, ep.ct, len, "ESKIP");
	step_bad(UINT64_MAX, ep.ct, len, "ESKIP");
	step_ok(&st, st.epoch);
}

static void skips(int suite)
{
	struct state st = at_epoch(suite, 4, 0, "skip-max",
				   "a skip of exactly max_skip (4096) opens; "
				   "max_skip + 1 is refused");

	small_body();
	step_ok(&st, MAX_SKIP);
	step_bad(st.epoch + MAX_SKIP + 1, ep.ct, ep.ptlen + 16, "ESKIP");
	small_body();
	step_ok(&st, st.epoch + MAX_SKIP);
}

static void sizes_max(int suite)
{
	struct state st;
	uint32_t j;

	st = at_epoch(suite, 3, 0, "len4096-ad1024",
		      "records of 1501 and 4096 bytes with 1024 bytes of AD, "
		      "then one of 4095 with 41 bytes of AD");
	body_reset(1024);
	body_add(1501);
	body_add(4096);
	step_ok(&st, 0);
	body_reset(41);
	body_add(4095);
	step_ok(&st, 1);

	st = at_epoch(suite, 65535, 0, "b65535",
		      "b = 65535, the largest: a short epoch of three records");
	body_reset(0);
	body_add(1);
	body_add(0);
	body_add(33);
	step_ok(&st, 0);

	st = at_epoch(suite, 1025, 0, "b1025-full",
		      "b = 1025: a full epoch of 1025 records (two of them "
		      "not empty), then 1026 records refused");
	body_reset(7);
	for (j = 0; j < 1025; j++)
		body_add(j == 0 || j == 1024 ? 9 : 0);
	step_ok(&st, 0);
	body_reset(7);
	for (j = 0; j < 1026; j++)
		body_add(0);
	memcpy(bad, ep.pt, ep.ptlen);
	memset(bad + ep.ptlen, 0x3c, 16);
	step_bad(1, bad, ep.ptlen + 16, "EFORMAT");
}

/*
 * Section 9.2: lengths, then the epoch, then the body, then the tag. Each
 * step is wrong in two ways and must give the earlier error.
 */
static void order(int suite)
{
	struct state st, s2;
	size_t len;

	st = neg(suite, "order-epoch-before-body", "after epoch 0 opened: "
		 "epoch 0 again with a malformed, an oversize and a too long "
		 "body is expired; epoch 4098 with them is past max_skip",
		 &s2);
	len = ep.ptlen + 16;
	step_ok(&st, 0);
	step_bad(0, bad, run_into_tag(), "EKEYEXPIRED");
	step_bad(0, bad, oversize_cut(), "EKEYEXPIRED");
	memcpy(bad, ep.ct, ep.ptlen);
	put_le(bad + ep.ptlen, 0, 2);
	memcpy(bad + ep.ptlen + 2, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, len + 2, "EKEYEXPIRED");
	step_bad(1 + MAX_SKIP + 1, bad, run_into_tag(), "ESKIP");
	step_bad(1 + MAX_SKIP + 1, bad, oversize_cut(), "ESKIP");

	/*
	 * A request without a whole tag is refused by AF_ALG itself, which
	 * then keeps its bytes queued on the socket: such a step comes last.
	 */
	st = neg(suite, "order-lengths-first", "AD of 1025 bytes beats an "
		 "expired epoch and a malformed body; an empty body does not "
		 "beat an expired epoch; a ciphertext shorter than the tag "
		 "beats AD of 1025 bytes", &s2);
	len = ep.ptlen + 16;
	step_ok(&st, 0);
	step_bad(0, ep.ct + ep.ptlen, 16, "EKEYEXPIRED");
	step_bad(1, ep.ct + ep.ptlen, 16, "EFORMAT");
	ep.adlen = 1025;
	fill(ep.ad, ep.adlen);
	step_bad(0, ep.ct, len, "ESIZE");
	step_bad(1, bad, run_into_tag(), "ESIZE");
	step_bad(0, ep.ct, 15, "EFORMAT");
	ep.adlen = 12;

	st = neg(suite, "order-within-body", "the body is read from its start: "
		 "a record over 4096 bytes that is also cut short is ESIZE, "
		 "a fifth record (b = 4) over 4096 bytes is ESIZE", &s2);
	step_bad(0, bad, oversize_cut(), "ESIZE");
	memcpy(bad, ep.ct, ep.ptlen);
	put_le(bad + ep.ptlen, 4097, 2);
	memset(bad + ep.ptlen + 2, 0, 4097);
	memcpy(bad + ep.ptlen + 2 + 4097, ep.ct + ep.ptlen, 16);
	step_bad(0, bad, ep.ptlen + 2 + 4097 + 16, "ESIZE");
	then_genuine(&st);

	st = neg(suite, "tag-not-parsed", "section 7: the tag is the last 16 "
		 "bytes and is never read as a length. One byte 0xff after "
		 "the last record is a malformed body (EFORMAT), though "
		 "0xff and the tag's first byte would read as 33023", &s2);
	len = ep.ptlen + 16;
	memcpy(bad, ep.ct, ep.ptlen);
	bad[ep.ptlen] = 0xff;
	memcpy(bad + ep.ptlen + 1, ep.ct + ep.ptlen, 16);
	bad[ep.ptlen + 1] = 0x80;
	step_bad(0, bad, len + 1, "EFORMAT");
	then_genuine(&st);
}

static void corners(int suite)
{
	large_epochs(suite);
	skips(suite);
	sizes_max(suite);
	order(suite);
}

/* ---- group vectors (spec section 5.1, steps of section 9.1) ---- */

/* One sealed epoch of a grouped vector: its bodies and its units. */
struct gepoch {
	uint8_t pt[40000], ct[40000], ad[1025];	/* 1025: one too many */
	size_t ptlen, adlen, nu;
	uint64_t epoch;
	struct unit u[40];
	struct state after;	/* the state once its final group opened */
};

static struct gepoch ga, gb;

/* Seal @n records of cycling sizes at @epoch under @st (which advances). */
static void gseal(struct gepoch *x, struct state *st, uint32_t g,
		  uint64_t epoch, uint32_t n, size_t adlen)
{
	static const size_t gsizes[] = { 16, 0, 17, 1, 64, 15, 128 };
	uint32_t j;
	size_t len;

	x->ptlen = 0;
	x->adlen = adlen;
	x->epoch = epoch;
	fill(x->ad, adlen);
	for (j = 0; j < n; j++) {
		len = gsizes[(j + epoch) % 7];
		put_le(x->pt + x->ptlen, len, 2);
		fill(x->pt + x->ptlen + 2, len);
		x->ptlen += 2 + len;
	}
	seal_groups(st, epoch, g, x->ad, adlen, x->pt, x->ptlen, x->ct,
		    x->u, &x->nu);
	x->after = *st;
}

static void ghead(const char *name, const struct state *st, uint32_t g,
		  const char *what)
{
	head(name, st, what);
	fprintf(out, "g      = %u\n", g);
}

/* The ciphertext of unit @u of @x (its records, then its tag) in bad. */
static size_t unit_ct(const struct gepoch *x, const struct unit *u)
{
	memcpy(bad, x->ct + u->pos, u->len);
	memcpy(bad + u->len, u->tag, 16);
	return u->len + 16;
}

/*
 * One step: unit @u of @x (whose AD, plaintext and next state it shows)
 * presented at @epoch as @as (a group index or a count) with ciphertext
 * @ct of @ctlen bytes.
 */
static void gstep_as(const struct gepoch *x, const struct unit *u,
		     uint64_t epoch, const struct unit *as, const uint8_t *ct,
		     size_t ctlen, const char *expect)
{
	fprintf(out, "epoch  = %llu\n", (unsigned long long)epoch);
	if (as->final)
		fprintf(out, "count  = %u\n", as->count);
	else
		fprintf(out, "group  = %u\n", as->group);
	hex("ad", x->ad, x->adlen);
	if (!strcmp(expect, "ok"))
		hex("pt", x->pt + u->pos, u->len);
	hex("ct", ct, ctlen);
	fprintf(out, "expect = %s\n", expect);
	if (u->final && !strcmp(expect, "ok"))
		blob("next", &x->after);
}

static void gstep(const struct gepoch *x, size_t unit, const char *expect)
{
	const struct unit *u = &x->u[unit];
	size_t len = unit_ct(x, u);

	gstep_as(x, u, x->epoch, u, bad, len, expect);
}

/* Unit @su of @src (with its own AD) presented at @epoch as @as. */
static void gstep_foreign(const struct gepoch *src, const struct unit *su,
			  uint64_t epoch, const struct unit *as)
{
	size_t len = unit_ct(src, su);

	gstep_as(src, su, epoch, as, bad, len, "EBADMSG");
}

/* Body offset of the last record of unit @u of @x. */
static size_t last_record(const struct gepoch *x, const struct unit *u)
{
	size_t pos = u->pos, last = pos;

	while (pos < u->pos + u->len) {
		last = pos;
		pos += 2 + (x->ct[pos] | x->ct[pos + 1] << 8);
	}
	return last;
}

/* Every unit of @x in order, accepted. */
static void gall(const struct gepoch *x)
{
	size_t i;

	for (i = 0; i < x->nu; i++)
		gstep(x, i, "ok");
}

/* Epochs of a positive grouped vector: epoch, records, AD length. */
struct gplan {
	uint64_t epoch;
	uint32_t n;
	size_t adlen;
};

/* A positive grouped vector: every epoch of @plan sealed and opened. */
static void gpositive(int suite, int agg, uint32_t g, uint32_t dev,
		      const char *name, const char *what,
		      const struct gplan *plan, size_t nplan)
{
	struct state st = make(suite, agg, 16, dev);
	size_t i;

	ghead(name, &st, g, what);
	for (i = 0; i < nplan; i++) {
		gseal(&ga, &st, g, plan[i].epoch, plan[i].n, plan[i].adlen);
		gall(&ga);
	}
}

static void group_positives(int suite, int agg)
{
	static const struct gplan g4[] = { { 0, 16, 8 }, { 1, 6, 8 },
					   { 2, 8, 0 } };
	static const struct gplan g5[] = { { 0, 16, 3 }, { 1, 15, 3 },
					   { 4, 7, 3 } };

	gpositive(suite, agg, 4, 0x600, "b16-g4-groups",
		  "b = 16, g = 4: a full epoch (three group tags and a final "
		  "group of 4), a short epoch (a short last group of 2), an "
		  "epoch ending on a group boundary (an empty final group)",
		  g4, 3);
	if (!agg)
		gpositive(suite, agg, 5, 0x601, "b16-g5-short-last",
			  "b = 16, g = 5: groups of 5, a last group of 1; then "
			  "15 records and an empty final group; epoch 4 after "
			  "two lost", g5, 3);
}

/* A grouped negative: b = 16, g = 4, epoch 0 of 16 records into ga. */
static struct state gneg(int suite, const char *name, const char *what)
{
	struct state st = make(suite, 0, 16, 0x700), s2 = st;

	ghead(name, &st, 4, what);
	gseal(&ga, &s2, 4, 0, 16, 8);
	return s2;
}

static void group_negatives(int suite)
{
	struct unit as = { 0, 0, 0, 12, 1, { 0 } };
	const struct unit *u;
	struct state s2;
	size_t len;

	gneg(suite, "b16-g4-lost-record", "record 5 lost: group 1 is never "
	     "complete; group 2 and the final group still verify, and group "
	     "1 completed late is refused");
	gstep(&ga, 0, "ok");
	fprintf(out, "# record 5 lost: group 1 waits, then the gateway "
		"moves on\n");
	gstep(&ga, 2, "ok");
	gstep(&ga, 1, "EKEYEXPIRED");
	gstep(&ga, 3, "ok");

	gneg(suite, "b16-g4-damaged-record", "a bit flipped in record 7: "
	     "group 1 fails and changes nothing; a genuine copy then opens, "
	     "and a replay of group 0 is refused");
	gstep(&ga, 0, "ok");
	u = &ga.u[1];
	len = unit_ct(&ga, u);
	bad[u->len - 3] ^= 0x10;
	gstep_as(&ga, u, 0, u, bad, len, "EBADMSG");
	gstep(&ga, 1, "ok");
	gstep(&ga, 0, "EKEYEXPIRED");
	gstep(&ga, 2, "ok");
	gstep(&ga, 3, "ok");

	s2 = gneg(suite, "b16-g4-dropped-final", "the final group of epoch 0 "
		  "never arrives: epoch 1 opens, and the late final group of "
		  "epoch 0 is refused");
	gstep(&ga, 0, "ok");
	gstep(&ga, 1, "ok");
	gstep(&ga, 2, "ok");
	fprintf(out, "# the final group of epoch 0 is lost\n");
	gseal(&gb, &s2, 4, 1, 6, 8);
	gstep(&gb, 0, "ok");
	gstep(&ga, 3, "EKEYEXPIRED");
	gstep(&gb, 1, "ok");

	gneg(suite, "b16-g4-truncated", "the tag of group 2 shown as the "
	     "epoch tag of a 12-record epoch (an empty final group), and the "
	     "final group without its last record: both refused");
	gstep(&ga, 0, "ok");
	gstep(&ga, 1, "ok");
	gstep_as(&ga, &ga.u[2], 0, &as, ga.u[2].tag, 16, "EBADMSG");
	gstep(&ga, 2, "ok");
	u = &ga.u[3];
	len = last_record(&ga, u) - u->pos;
	memcpy(bad, ga.ct + u->pos, len);
	memcpy(bad + len, u->tag, 16);
	as.count = 15;
	gstep_as(&ga, u, 0, &as, bad, len + 16, "EBADMSG");
	gstep(&ga, 3, "ok");

	gneg(suite, "b16-g4-moved", "group 2 presented as group 1, and "
	     "group 0 as group 2: refused");
	gstep_foreign(&ga, &ga.u[2], 0, &ga.u[1]);
	gstep(&ga, 0, "ok");
	gstep_foreign(&ga, &ga.u[0], 0, &ga.u[2]);
	gstep(&ga, 1, "ok");
	gstep(&ga, 2, "ok");
	gstep(&ga, 3, "ok");

	s2 = gneg(suite, "b16-g4-swapped-epochs", "group 1 of epoch 1 "
		  "presented in epoch 0 and the other way round: refused");
	gseal(&gb, &s2, 4, 1, 16, 8);
	gstep(&ga, 0, "ok");
	gstep_foreign(&gb, &gb.u[1], 0, &gb.u[1]);
	gstep(&ga, 1, "ok");
	gstep(&ga, 2, "ok");
	gstep(&ga, 3, "ok");
	gstep_foreign(&ga, &ga.u[1], 1, &ga.u[1]);
	gall(&gb);

	gneg(suite, "b16-g4-wrong-device", "group 0 sealed by another device, "
	     "then with its AD changed: refused");
	s2 = make(suite, 0, 16, 0x701);
	gseal(&gb, &s2, 4, 0, 16, 8);
	gstep_foreign(&gb, &gb.u[0], 0, &gb.u[0]);
	ga.ad[0] ^= 1;
	gstep(&ga, 0, "EBADMSG");
	ga.ad[0] ^= 1;
	gstep(&ga, 0, "ok");
}

static void edges(int suite);

static void open_only(int suite);

static void generate(void)
{
	int suite, agg;

	fprintf(out, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Diamond known-answer vectors, Documentation/spec.rst section 13.\n"
		"# Generated by tools/vectors/gen-vectors; do not edit.\n");
	for (suite = 1; suite <= 2; suite++) {
		for (agg = 0; agg <= 2; agg++)
			positives(suite, agg);
		big(suite);
		negatives(suite);
	}
	for (suite = 1; suite <= 2; suite++) {
		for (agg = 0; agg <= 2; agg++)
			group_positives(suite, agg);
		group_negatives(suite);
	}
	for (suite = 1; suite <= 2; suite++)
		corners(suite);
	for (suite = 1; suite <= 2; suite++)
		edges(suite);
	for (suite = 1; suite <= 2; suite++)
		open_only(suite);
}

/* ---- key blobs, version 2 (spec section 2) ---- */

static void initial_gen(struct state *st, const uint8_t root[32], int gen)
{
	uint8_t in[12 + 12 + 32], d[32];

	if (!gen) {
		initial(st, root);
		return;
	}
	memcpy(in, "DIAMOND/2 E0", 12);
	in[12] = (uint8_t)st->suite;
	in[13] = (uint8_t)st->agg;
	put_le(in + 14, st->b, 4);
	put_le(in + 18, st->dev, 4);
	put_le(in + 22, (uint64_t)gen, 2);
	memcpy(in + 24, root, 32);
	sha256(d, in, sizeof(in));
	memset(st->key, 0, 32);
	memcpy(st->key, d, ksize(st->suite));
	st->epoch = (uint64_t)gen << 32;
}

static void blob_vec(const char *name, const char *what, const uint8_t *b,
		     size_t n, const char *expect)
{
	fprintf(out, "\n# %s\nname   = %s\n", what, name);
	hex("blob", b, n);
	fprintf(out, "expect = %s\n", expect);
}

/* An accepted v2 blob of @st in generation 1, read and written back as is. */
static void blob_kept(const char *name, const char *what, struct state *st,
		      const uint8_t root[32], int group)
{
	uint8_t b[64];
	size_t n;

	initial_gen(st, root, 1);
	n = blob2(b, st, 1, group);
	blob_vec(name, what, b, n, "ok");
	hex("next", b, n);
}

/*
 * Open-only (byte 7 bit 0, spec section 2): valid in both versions, and the
 * flag is kept when the state is written back (a v1 one as v2).
 */
static void blob_open_only(const uint8_t root[32])
{
	struct state st = make(2, 2, 8, 5);
	uint8_t b[64], v1[64];
	size_t n, k;

	initial_gen(&st, root, 1);
	n = blob2(b, &st, 1, 0);
	b[7] = 1;
	put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
	blob_vec("open-only", "open-only (byte 7 bit 0), kept as it is",
		 b, n, "ok");
	hex("next", b, n);
	st.epoch = 5;
	n = blob2(b, &st, 0, 0);
	b[7] = 1;
	put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
	k = ksize(st.suite);
	memcpy(v1, b, 24);
	v1[4] = 1;
	memcpy(v1 + 24, st.key, k);
	blob_vec("v1-open-only", "open-only version 1 (the gateway's setkey "
		 "key); its v2 form keeps the flag", v1, 24 + k, "ok");
	hex("next", b, n);
}

/* Accepted: provisioning in generations 0..2, and a v1 blob read as v2. */
static void blob_positives(const uint8_t root[32])
{
	static const struct { int suite, agg, gen; uint32_t b, dev; } p[] = {
		{ 1, 0, 0, 16, 7 }, { 1, 1, 1, 1024, 7 }, { 2, 2, 1, 4, 7 },
		{ 2, 0, 2, 65535, 0xfffffffeu }, { 2, 0, 65535, 1, 1 },
	};
	struct state st;
	uint8_t b[64];
	size_t i, n;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		st = make(p[i].suite, p[i].agg, p[i].b, p[i].dev);
		initial_gen(&st, root, p[i].gen);
		n = blob2(b, &st, p[i].gen, 0);
		fprintf(out, "\n# provisioned: suite %d, agg %d, b %u, device "
			"%u, generation %d\nname   = prov-d%d-gen%d\n",
			p[i].suite, p[i].agg, p[i].b, p[i].dev, p[i].gen,
			p[i].suite, p[i].gen);
		hex("root", root, 32);
		fprintf(out, "params = %d %d %u %u %d\n", p[i].suite, p[i].agg,
			p[i].b, p[i].dev, p[i].gen);
		hex("blob", b, n);
		fprintf(out, "expect = ok\n");
	}
	st = make(2, 1, 64, 42);
	initial(&st, root);
	st.epoch = 123456789;
	fprintf(out, "\n# a version 1 blob is read as generation 0; its v2 "
		"form is next\nname   = v1-read\n");
	blob("blob", &st);
	fprintf(out, "expect = ok\n");
	n = blob2(b, &st, 0, 0);
	hex("next", b, n);
	st = make(1, 0, 16, 9);
	blob_kept("group-size-4", "group size 4 of b = 16 (section 5.1), kept "
		  "as it is", &st, root, 4);
	blob_open_only(root);
}

/* Refused (EKEY): damage, and fields a v2 blob may not hold. */
static void blob_negatives(const uint8_t root[32])
{
	struct state st = make(1, 0, 16, 9);
	uint8_t good[64], b[64];
	size_t n;

	initial_gen(&st, root, 1);
	n = blob2(good, &st, 1, 0);
	memcpy(b, good, n);
	b[28 + 3] ^= 0x10;
	blob_vec("damaged-key-bit", "one key bit flipped", b, n, "EKEY");
	memcpy(b, good, n);
	b[n - 1] ^= 0x80;
	blob_vec("damaged-crc", "one CRC bit flipped", b, n, "EKEY");
	memcpy(b, good, n);
	b[16] ^= 1;
	blob_vec("damaged-epoch", "one epoch bit flipped", b, n, "EKEY");
	blob_vec("truncated", "last byte missing", good, n - 1, "EKEY");
	blob2(b, &st, 1, 17);
	blob_vec("group-size", "group size 17 above b = 16, CRC valid",
		 b, n, "EKEY");
	blob2(b, &st, 2, 0);
	blob_vec("epoch-below-gen", "generation 2 at epoch 2^32 (CRC valid)",
		 b, n, "EKEY");
	blob2(b, &st, 1, 0);
	b[7] = 3;
	put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
	blob_vec("flags-unknown", "open-only and the unknown flag bit 1 "
		 "(byte 7 = 3, CRC valid)", b, n, "EKEY");
	blob2(b, &st, 1, 0);
	b[4] = 3;
	put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
	blob_vec("version-3", "version 3 (CRC valid)", b, n, "EKEY");
}

/* @b (@n bytes) with field bytes changed, its CRC then made valid again. */
static void blob_field(const char *name, const char *what, const uint8_t *b,
		       size_t n, size_t off, uint64_t v, int width)
{
	uint8_t x[64];

	memcpy(x, b, n);
	put_le(x + off, v, width);
	if (b[4] == 2)
		put_le(x + n - 4, crc32(0, x, (uInt)(n - 4)), 4);
	blob_vec(name, what, x, n, "EKEY");
}

/*
 * Every malformed-blob rule of spec section 2, one at a time, in version 2
 * (CRC valid, so the rule itself refuses it) and version 1; and the
 * largest values that are still valid.
 */
static void blob_errors(const uint8_t root[32])
{
	static const char *const ver[] = { "", "v1", "v2" };
	struct state st = make(2, 0, 16, 11);
	uint8_t b[72];	/* a blob and one byte too many */
	char name[40];
	size_t n;
	int v;

	initial(&st, root);
	st.epoch = 77;
	for (v = 2; v >= 1; v--) {
		n = v == 2 ? blob2(b, &st, 0, 0) : 24 + ksize(st.suite);
		if (v == 1) {	/* version 1: the header, then the key */
			memcpy(b, "DMND", 4);
			b[4] = 1;
			b[5] = (uint8_t)st.suite;
			b[6] = (uint8_t)st.agg;
			b[7] = 0;
			put_le(b + 8, st.b, 4);
			put_le(b + 12, st.dev, 4);
			put_le(b + 16, st.epoch, 8);
			memcpy(b + 24, st.key, ksize(st.suite));
		}
#define BAD(tag, what, off, val, width) do { \
		snprintf(name, sizeof(name), "%s-%s", ver[v], tag); \
		blob_field(name, what, b, n, off, val, width); \
	} while (0)
		BAD("magic", "magic DMNE", 3, 'E', 1);
		BAD("version-0", "version 0", 4, 0, 1);
		BAD("suite-0", "suite 0", 5, 0, 1);
		BAD("suite-3", "suite 3", 5, 3, 1);
		BAD("suite-1-length", "suite 1 in a blob of suite 2's "
		    "length", 5, 1, 1);
		BAD("agg-3", "aggregation 3", 6, 3, 1);
		BAD("flag-7", "unknown flag bit 7 set", 7, 0x80, 1);
		BAD("b-0", "b = 0", 8, 0, 4);
		BAD("b-65536", "b = 65536", 8, 65536, 4);
		BAD("epoch-max", "e = 2^64 - 1", 16, UINT64_MAX, 8);
#undef BAD
		snprintf(name, sizeof(name), "%s-long", ver[v]);
		b[n] = 0;
		blob_vec(name, "one byte too many", b, n + 1, "EKEY");
		snprintf(name, sizeof(name), "%s-largest", ver[v]);
		put_le(b + 8, 65535, 4);
		put_le(b + 16, UINT64_MAX - 1, 8);
		if (v == 2)
			put_le(b + n - 4, crc32(0, b, (uInt)(n - 4)), 4);
		blob_vec(name, "b = 65535 and e = 2^64 - 2, the "
			 "largest valid", b, n, "ok");
	}
	blob_kept("v2-group-b", "group size g = b = 16, the largest; read "
		  "and written back as it is", &st, root, 16);
}

static void generate_blobs(void)
{
	uint8_t root[32];

	fprintf(out, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Diamond key blob vectors, Documentation/spec.rst sections 2 "
		"and 13.\n"
		"# Generated by tools/vectors/gen-vectors --blobs; do not edit.\n");
	fill(root, sizeof(root));
	blob_positives(root);
	blob_negatives(root);
	blob_errors(root);
}

/*
 * ---- edges of the spec (issue 23 item 6): version 2 keys, g = 1, g = b - 1,
 * n < g, high epochs, AD of 1024, tag copies, max_skip from the cursor's
 * epoch, the order of a unit's checks (spec sections 2, 5.1, 9.1, 9.2) ----
 */

static struct gepoch gc;

/* Version 2 keys of ungrouped vectors; "next" is then version 2 too. */
static void v2_keys(int suite)
{
	struct state st = make(suite, 0, 4, 0x900);

	keyfmt.v2 = 1;
	head("v2-gen0", &st, "a version 2 key (generation 0, g = 0): two "
	     "epochs, each next state in version 2");
	small_body();
	step_ok(&st, 0);
	step_ok(&st, 1);

	st = make(suite, 0, 4, 0x901);
	st.epoch = 2ull << 32;
	keyfmt.gen = 2;
	keyfmt.group = 4;
	head("v2-gen2-g-is-b", &st, "a version 2 key of generation 2 at epoch "
	     "2^33, its group size field b = 4 (no groups): 2^33 opens, then "
	     "2^33 + 3 after two lost");
	small_body();
	step_ok(&st, st.epoch);
	step_ok(&st, st.epoch + 2);
	memset(&keyfmt, 0, sizeof(keyfmt));
}

/*
 * An open-only key (spec section 2, flag bit 0): it opens as any key and
 * "next" keeps the flag; a sender refuses it before it seals anything, so
 * its positive steps have no seal-back. Version 1 for suite 1 (the
 * kernel's setkey format), version 2 for suite 2. Last in the file, so
 * that no earlier vector's bytes change.
 */
static void open_only(int suite)
{
	struct state st = make(suite, 0, 4, 0xa00 + (uint32_t)suite);

	keyfmt.v2 = suite == 2;
	keyfmt.flags = 1;
	head("open-only", &st, suite == 2 ?
	     "an open-only version 2 key: it opens, next keeps the flag; "
	     "a seal of any step is refused (DMD_EKEY, -EPERM)" :
	     "an open-only version 1 key: it opens, next keeps the flag; "
	     "a seal of any step is refused (DMD_EKEY, -EPERM)");
	small_body();
	step_ok(&st, 0);
	step_ok(&st, 2);
	memset(&keyfmt, 0, sizeof(keyfmt));
}

/* A grouped vector of @b records per epoch whose state is at @epoch. */
static struct state gmake(int suite, uint32_t b, uint32_t g, uint64_t epoch,
			  uint32_t dev, const char *name, const char *what)
{
	struct state st = make(suite, 0, b, dev);

	st.epoch = epoch;
	ghead(name, &st, g, what);
	return st;
}

/* Seal and open, in order, epochs of @n[0], @n[1], ... records. */
static void gepochs(struct state *st, uint32_t g, uint64_t epoch,
		    const uint32_t *n, size_t nn, size_t adlen)
{
	size_t i;

	for (i = 0; i < nn; i++) {
		gseal(&ga, st, g, epoch + i, n[i], adlen);
		gall(&ga);
	}
}

/* Group sizes at their edges: g = 1, g = b - 1, and epochs of n < g. */
static void group_sizes(int suite)
{
	static const uint32_t g1[] = { 5, 2, 1 }, gb1[] = { 6, 5, 4 },
			      small[] = { 3, 7, 8 };
	struct state st;

	st = gmake(suite, 5, 1, 0, 0x910, "b5-g1", "b = 5, g = 1: a full "
		   "epoch (groups 0..3 and a final group of record 4), 2 "
		   "records (groups 0, 1 and an empty final group), 1 record "
		   "(group 0 and an empty final group)");
	gepochs(&st, 1, 0, g1, 3, 4);
	st = gmake(suite, 6, 5, 0, 0x911, "b6-g5", "b = 6, g = b - 1 = 5: "
		   "6 records (group 0 and a final group of 1), 5 records "
		   "(group 0 and an empty final group), 4 records (n < g: the "
		   "final group alone)");
	gepochs(&st, 5, 0, gb1, 3, 2);
	st = gmake(suite, 16, 8, 0, 0x912, "b16-g8-short", "b = 16, g = 8, "
		   "n < g: 3 records, 7 records (the final group alone, as "
		   "without groups), then 8 records (group 0 and an empty "
		   "final group)");
	gepochs(&st, 8, 0, small, 3, 5);
}

/* Epochs near the end of the index space, and of a later generation. */
static void group_high(int suite)
{
	static const uint32_t n[] = { 9, 4 };
	struct state st, s2;

	st = gmake(suite, 16, 4, UINT64_MAX - 3, 0x920, "b16-g4-last-epochs",
		   "the state at 2^64 - 4: a full epoch; 2^64 - 3 (the last) "
		   "opens group 0; a unit of 2^64 - 2 is EFULL while it is "
		   "open; its final group leaves the state at 2^64 - 2; "
		   "units of 2^64 - 2 and 2^64 - 1 are EFULL, a replay "
		   "EKEYEXPIRED");
	s2 = st;
	gseal(&ga, &s2, 4, UINT64_MAX - 3, 16, 8);
	gseal(&gb, &s2, 4, UINT64_MAX - 2, 5, 8);
	gall(&ga);
	gstep(&gb, 0, "ok");
	gstep_as(&gb, &gb.u[0], UINT64_MAX - 1, &gb.u[0], bad,
		 unit_ct(&gb, &gb.u[0]), "EFULL");
	gstep(&gb, 1, "ok");
	gstep_as(&gb, &gb.u[0], UINT64_MAX - 1, &gb.u[0], bad,
		 unit_ct(&gb, &gb.u[0]), "EFULL");
	gstep_as(&gb, &gb.u[1], UINT64_MAX, &gb.u[1], bad,
		 unit_ct(&gb, &gb.u[1]), "EFULL");
	gstep(&gb, 0, "EKEYEXPIRED");

	keyfmt.v2 = 1;
	keyfmt.gen = 3;
	keyfmt.group = 4;
	st = gmake(suite, 16, 4, (3ull << 32) + 7, 0x921, "b16-g4-gen3",
		   "a version 2 key of generation 3 and g = 4 at epoch "
		   "3 * 2^32 + 7: 9 records, then 4 records after one lost "
		   "epoch; each next state in version 2");
	gseal(&ga, &st, 4, st.epoch, n[0], 3);
	gall(&ga);
	gseal(&ga, &st, 4, st.epoch + 1, n[1], 3);
	gall(&ga);
	memset(&keyfmt, 0, sizeof(keyfmt));
}

/* Unit @unit of @x with @adlen bytes of AD (its tag then fails or not). */
static void gstep_adlen(struct gepoch *x, size_t unit, size_t adlen,
			const char *expect)
{
	size_t keep = x->adlen;

	x->adlen = adlen;
	gstep(x, unit, expect);
	x->adlen = keep;
}

/* AD of 1024 bytes in every unit; 1025 is refused. */
static void group_ad(int suite)
{
	struct state st = gmake(suite, 16, 4, 0, 0x930, "b16-g4-ad1024",
				"1024 bytes of AD with every unit opens; "
				"1025 (the same AD and one byte more) is "
				"ESIZE, before the body and the tag");

	gseal(&ga, &st, 4, 0, 10, 1024);
	fill(ga.ad + 1024, 1);
	gstep(&ga, 0, "ok");
	gstep_adlen(&ga, 1, 1025, "ESIZE");
	gstep(&ga, 1, "ok");
	gstep_adlen(&ga, 2, 1025, "ESIZE");
	gstep(&ga, 2, "ok");
}

/* Unit @unit of @x with one bit of its tag flipped. */
static void gstep_badtag(const struct gepoch *x, size_t unit)
{
	const struct unit *u = &x->u[unit];
	size_t len = unit_ct(x, u);

	bad[len - 1] ^= 0x01;
	gstep_as(x, u, x->epoch, u, bad, len, "EBADMSG");
}

/* Copies of tag frames: damaged before the genuine one, repeated after. */
static void group_copies(int suite)
{
	const struct unit *u;
	size_t len;
	struct state st = gmake(suite, 16, 4, 0, 0x940, "b16-g4-tag-copies",
				"a damaged copy of a group tag, then the "
				"genuine one, a repeat and a damaged copy "
				"after it; the same for the epoch tag");

	gseal(&ga, &st, 4, 0, 14, 6);
	gstep_badtag(&ga, 0);
	gstep(&ga, 0, "ok");
	gstep(&ga, 0, "EKEYEXPIRED");
	u = &ga.u[0];
	len = unit_ct(&ga, u);
	bad[len - 1] ^= 0x01;
	gstep_as(&ga, u, 0, u, bad, len, "EKEYEXPIRED");
	gstep(&ga, 1, "ok");
	gstep(&ga, 2, "ok");
	gstep_badtag(&ga, 3);
	gstep_badtag(&ga, 3);
	gstep(&ga, 3, "ok");
	gstep(&ga, 3, "EKEYEXPIRED");
	gstep(&ga, 2, "EKEYEXPIRED");
}

/* max_skip counts from the cursor's epoch: the open one, else e_cur. */
static void group_skip(int suite)
{
	struct state st = gmake(suite, 16, 4, 0, 0x950, "b16-g4-skip-open",
				"max_skip (4096) counts from the cursor's "
				"epoch: with epoch 0 open, 4097 is ESKIP and "
				"4096 opens; with no epoch open (the state at "
				"4097), 4097 + 4097 is ESKIP and 4097 + 4096 "
				"opens");

	gseal(&ga, &st, 4, 0, 16, 4);
	gseal(&gb, &st, 4, MAX_SKIP, 6, 4);
	gseal(&gc, &st, 4, 2 * MAX_SKIP + 1, 5, 4);
	gstep(&ga, 0, "ok");
	gstep_as(&gb, &gb.u[0], MAX_SKIP + 1, &gb.u[0], bad,
		 unit_ct(&gb, &gb.u[0]), "ESKIP");
	gall(&gb);
	gstep_as(&gc, &gc.u[0], 2 * MAX_SKIP + 2, &gc.u[0], bad,
		 unit_ct(&gc, &gc.u[0]), "ESKIP");
	gall(&gc);
}

/* In bad: unit @u of @x with its last record running into the tag. */
static size_t unit_malformed(const struct gepoch *x, const struct unit *u)
{
	size_t len = unit_ct(x, u), last = last_record(x, u) - u->pos;

	put_le(bad + last, u->len - last - 2 + 1, 2);
	return len;
}

/* In bad: unit @u of @x without its last record. */
static size_t unit_short(const struct gepoch *x, const struct unit *u)
{
	size_t last = last_record(x, u) - u->pos;

	memcpy(bad, x->ct + u->pos, last);
	memcpy(bad + last, u->tag, 16);
	return last + 16;
}

/*
 * Section 9.2 for units: lengths, then coordinates, then the position
 * against the cursor (a final group below it too), then the body. Each
 * refused step is wrong in two ways and gives the earlier error.
 */
static void group_order(int suite)
{
	struct unit as = { 0, 0, 3, 0, 0, { 0 } };
	struct state st = gmake(suite, 16, 4, 5, 0x960, "units-order",
				"the state at epoch 5, b = 16, g = 4. Epoch 4 "
				"(expired): group 3 (no such group) with AD of "
				"1025 bytes is ESIZE, without it EFORMAT; count "
				"17 is EFORMAT; group 0 with AD of 1025 is "
				"ESIZE. A malformed group 0 of epoch 5 + 4097 "
				"is ESKIP. After groups 0 and 1 of epoch 5: "
				"a malformed group 0 is EKEYEXPIRED; count 5 "
				"(final group 1, below the cursor) with an "
				"oversize body is EKEYEXPIRED; count 8 (an "
				"empty final group 2, at the cursor) with "
				"group 1's tag is EBADMSG; count 9 with one "
				"stray byte is EFORMAT; group 2 short of a "
				"record is EFORMAT; then group 2 and the final "
				"group open");
	size_t len;

	gseal(&ga, &st, 4, 5, 16, 7);
	fill(ga.ad + ga.adlen, 1025 - ga.adlen);
	len = unit_ct(&ga, &ga.u[0]);
	ga.adlen = 1025;
	gstep_as(&ga, &ga.u[0], 4, &as, bad, len, "ESIZE");
	gstep_as(&ga, &ga.u[0], 4, &ga.u[0], bad, len, "ESIZE");
	ga.adlen = 7;
	gstep_as(&ga, &ga.u[0], 4, &as, bad, len, "EFORMAT");
	as.final = 1;
	as.count = 17;
	gstep_as(&ga, &ga.u[3], 4, &as, bad, unit_ct(&ga, &ga.u[3]),
		 "EFORMAT");
	ga.epoch = 5 + MAX_SKIP + 1;
	gstep_as(&ga, &ga.u[0], ga.epoch, &ga.u[0], bad,
		 unit_malformed(&ga, &ga.u[0]), "ESKIP");
	ga.epoch = 5;
	gstep(&ga, 0, "ok");
	gstep(&ga, 1, "ok");
	gstep_as(&ga, &ga.u[0], 5, &ga.u[0], bad,
		 unit_malformed(&ga, &ga.u[0]), "EKEYEXPIRED");
	as.count = 5;
	memset(bad, 0xff, 7);
	memcpy(bad + 7, ga.u[3].tag, 16);
	gstep_as(&ga, &ga.u[3], 5, &as, bad, 7 + 16, "EKEYEXPIRED");
	as.count = 8;
	gstep_as(&ga, &ga.u[3], 5, &as, ga.u[1].tag, 16, "EBADMSG");
	as.count = 9;
	bad[0] = 0x01;
	memcpy(bad + 1, ga.u[3].tag, 16);
	gstep_as(&ga, &ga.u[3], 5, &as, bad, 1 + 16, "EFORMAT");
	gstep_as(&ga, &ga.u[2], 5, &ga.u[2], bad,
		 unit_short(&ga, &ga.u[2]), "EFORMAT");
	gstep(&ga, 2, "ok");
	gstep(&ga, 3, "ok");
}

static void edges(int suite)
{
	v2_keys(suite);
	group_sizes(suite);
	group_high(suite);
	group_ad(suite);
	group_copies(suite);
	group_skip(suite);
	group_order(suite);
}

/* ---- frame streams (spec section 8.1), built piece by piece ---- */

/*
 * Each case is a byte stream and the events a receiver must report, in
 * order: "frame = type suite device epoch index payload", "skip = n" (bytes
 * dropped while resynchronising), "cut = n" (a frame the input ends in).
 * The events come from how the stream is built, not from a parser.
 */
static uint8_t fs[20000];
static size_t fslen;
static char fev[40000];
static size_t fevlen;

static void fcase(const char *name, const char *what)
{
	fprintf(out, "\n# %s\nname   = %s\n", what, name);
	fslen = 0;
	fevlen = 0;
	fev[0] = 0;
}

static void fevent(const char *fmt, unsigned long long a)
{
	fevlen += (size_t)snprintf(fev + fevlen, sizeof(fev) - fevlen, fmt, a);
}

/* A "frame" event for a frame whose payload is @p. */
static void fevframe(int type, int suite, uint32_t dev, uint64_t e,
		     uint32_t idx, const uint8_t *p, size_t len)
{
	fevlen += (size_t)snprintf(fev + fevlen, sizeof(fev) - fevlen,
				   "frame  = %d %d %u %llu %u ", type, suite,
				   dev, (unsigned long long)e, idx);
	while (len--)
		fevent("%02llx", *p++);
	fevent("\n", 0);
}

/* A header as section 8 lays it out; any field values. */
static void fhead(int type, int suite, uint32_t dev, uint64_t e,
		  uint32_t idx, uint32_t len)
{
	uint8_t *h = fs + fslen;

	h[0] = 0x44;
	h[1] = 0x46;
	h[2] = (uint8_t)type;
	h[3] = (uint8_t)suite;
	put_le(h + 4, dev, 4);
	put_le(h + 8, e, 8);
	put_le(h + 16, idx, 2);
	put_le(h + 18, len, 2);
	fslen += 20;
}

/* A valid frame with @len payload bytes: one "frame" event. */
static void fgood(int type, int suite, uint32_t dev, uint64_t e,
		  uint32_t idx, uint32_t len)
{
	fhead(type, suite, dev, e, idx, len);
	fill(fs + fslen, len);
	fevframe(type, suite, dev, e, idx, fs + fslen, len);
	fslen += len;
}

/* A header that is no frame: dropped whole by the scan (no 'D' in it). */
static void fbad(int type, int suite, uint64_t e, uint32_t idx, uint32_t len)
{
	fhead(type, suite, 0x01020305, e, idx, len);
	fevent("skip   = %llu\n", 20);
}

static void fgarbage(size_t n)
{
	while (n--) {
		fs[fslen] = rnd();
		if (fs[fslen] == 0x44)
			fs[fslen] = 0x45;
		fslen++;
	}
}

static void fend(void)
{
	hex("in", fs, fslen);
	fputs(fev, out);
}

static void frame_ranges(void)
{
	static const struct {
		const char *name, *what;
		int type, suite;
		uint64_t e;
		uint32_t idx, len;
	} bad[] = {
		{ "record-index-65535", "record j = 65535", 1, 1, 3, 65535, 1 },
		{ "record-4097", "record of 4097 bytes", 1, 1, 3, 0, 4097 },
		{ "tag-count-0", "epoch tag n = 0", 2, 2, 3, 0, 16 },
		{ "tag-15", "epoch tag of 15 bytes", 2, 2, 3, 1, 15 },
		{ "tag-1041", "epoch tag of 1041 bytes", 2, 2, 3, 1, 1041 },
		{ "group-65534", "group tag i = 65534", 3, 1, 3, 65534, 16 },
		{ "group-15", "group tag of 15 bytes", 3, 1, 3, 0, 15 },
		{ "epoch-2to64-2", "epoch 2^64 - 2", 1, 1, UINT64_MAX - 1, 0, 1 },
		{ "type-0", "type 0", 0, 1, 3, 0, 1 },
		{ "type-4", "type 4", 4, 1, 3, 0, 1 },
		{ "suite-0", "suite 0", 1, 0, 3, 0, 1 },
		{ "suite-3", "suite 3", 1, 3, 3, 0, 1 },
	};
	char name[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "frame-refused-%s", bad[i].name);
		fcase(name, bad[i].what);
		fbad(bad[i].type, bad[i].suite, bad[i].e, bad[i].idx,
		     bad[i].len);
		fgood(1, 1, 7, 3, 0, 5);
		fend();
	}
	fcase("frame-limits", "every field at its largest valid value");
	fgood(1, 2, 0xffffffffu, UINT64_MAX - 2, 65534, 4096);
	fgood(2, 1, 0, UINT64_MAX - 2, 65535, 1040);
	fgood(3, 2, 1, 0, 65533, 1040);
	fgood(2, 1, 2, 0, 1, 16);
	fgood(3, 1, 2, 0, 0, 16);
	fgood(1, 1, 2, 0, 0, 0);
	fend();
}

static void frame_streams(void)
{
	size_t at;

	fcase("frame-stream", "an epoch of two records and its tag frame, and "
	      "a second device interleaved");
	fgood(1, 1, 7, 5, 0, 3);
	fgood(1, 2, 8, 9, 0, 17);
	fgood(1, 1, 7, 5, 1, 0);
	fgood(2, 1, 7, 5, 2, 18);
	fgood(2, 2, 8, 9, 1, 16);
	fend();

	fcase("frame-garbage", "bytes without a sync before a frame");
	fgarbage(9);
	fevent("skip   = %llu\n", 9);
	fgood(1, 1, 7, 5, 0, 3);
	fend();

	fcase("frame-inside-refused", "a header refused for its type, with a "
	      "frame starting at its fifth byte: the scan restarts at offset "
	      "1 and finds it");
	at = fslen;
	fhead(9, 1, 0, 0, 0, 0);
	fslen = at + 5;
	fevent("skip   = %llu\n", 5);
	fgood(1, 1, 7, 5, 0, 3);
	fend();

	fcase("frame-payload-sync", "a payload full of 'DF' is taken whole");
	fhead(1, 1, 7, 5, 0, 8);
	memcpy(fs + fslen, "DFDFDFDF", 8);
	fevframe(1, 1, 7, 5, 0, fs + fslen, 8);
	fslen += 8;
	fgood(2, 1, 7, 5, 1, 16);
	fend();

	fcase("frame-length-trusted", "a record frame whose length field says "
	      "40 where the device wrote 3: it takes the next frame's 37 "
	      "bytes too (its damage shows at verification), then the stream "
	      "goes on");
	fhead(1, 1, 7, 5, 0, 40);
	at = fslen;
	fill(fs + fslen, 3);
	fslen += 3;
	fhead(1, 1, 7, 5, 1, 17);
	fill(fs + fslen, 17);
	fslen += 17;
	fevframe(1, 1, 7, 5, 0, fs + at, 40);
	fgood(2, 1, 7, 5, 2, 16);
	fend();

	fcase("frame-cut", "the input ends inside a frame's payload");
	fgood(1, 1, 7, 5, 0, 3);
	fhead(1, 1, 7, 5, 1, 30);
	fill(fs + fslen, 30);
	fslen += 30 - 7;
	fevent("cut    = %llu\n", 20 + 30 - 7);
	fend();

	fcase("frame-cut-header", "the input ends inside a header");
	fgood(1, 1, 7, 5, 0, 3);
	fhead(1, 1, 7, 5, 1, 3);
	fslen -= 10;
	fevent("cut    = %llu\n", 10);
	fend();

	fcase("frame-lone-d", "the input ends in a lone 'D', which may start "
	      "a sync");
	fgood(1, 1, 7, 5, 0, 3);
	fs[fslen++] = 0x44;
	fevent("cut    = %llu\n", 1);
	fend();
}

static void generate_frames(void)
{
	fprintf(out, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Diamond frame stream vectors, Documentation/spec.rst sections "
		"8.1 and 13.\n"
		"# Generated by tools/vectors/gen-vectors --frames; do not edit.\n");
	frame_ranges();
	frame_streams();
}

/* ---- provisioning with a fresh value N (spec section 2) ---- */

/*
 * E_0 = SHA-256("DIAMOND/3 E0" || suite || agg || le32(b) || le32(device)
 * || le16(G) || le16(g) || N || R)[0:k], g as the blob stores it.
 */
static void initial_fresh(struct state *st, const uint8_t root[32],
			  const uint8_t nonce[16], int gen, int group)
{
	uint8_t in[12 + 14 + 16 + 32], d[32];

	memcpy(in, "DIAMOND/3 E0", 12);
	in[12] = (uint8_t)st->suite;
	in[13] = (uint8_t)st->agg;
	put_le(in + 14, st->b, 4);
	put_le(in + 18, st->dev, 4);
	put_le(in + 22, (uint64_t)gen, 2);
	put_le(in + 24, (uint64_t)group, 2);
	memcpy(in + 26, nonce, 16);
	memcpy(in + 42, root, 32);
	sha256(d, in, sizeof(in));
	memset(st->key, 0, 32);
	memcpy(st->key, d, ksize(st->suite));
	st->epoch = (uint64_t)gen << 32;
}

/*
 * Two values of N for one root: the first case of each pair is what a
 * ledger handed out, the second what the same ledger hands out again after
 * it was restored (same generation, another N, another key).
 */
static void prov_fresh_cases(const uint8_t root[32], const uint8_t n1[16],
			     const uint8_t n2[16])
{
	static const struct {
		int suite, agg, gen, group, second;
		uint32_t b, dev;
		const char *name, *what;
	} p[] = {
		{ 1, 0, 0, 0, 0, 16, 7, "fresh-d1-gen0",
		  "first provisioning of an ID" },
		{ 1, 0, 0, 0, 1, 16, 7, "fresh-d1-gen0-again",
		  "the same ID, generation 0 again (an emptied or restored "
		  "ledger), another N" },
		{ 1, 1, 1, 0, 0, 1024, 7, "fresh-d1-gen1", "generation 1" },
		{ 1, 0, 0, 15, 0, 16, 9, "fresh-d1-g15",
		  "group size g = b - 1" },
		{ 2, 0, 0, 0, 0, 16, 7, "fresh-d2-gen0",
		  "first provisioning of an ID" },
		{ 2, 0, 0, 0, 1, 16, 7, "fresh-d2-gen0-again",
		  "the same ID, generation 0 again, another N" },
		{ 2, 2, 1, 4, 0, 16, 7, "fresh-d2-g4", "group size 4 of b = 16" },
		{ 2, 2, 1, 4, 1, 16, 7, "fresh-d2-g4-again",
		  "group size 4 of b = 16, generation 1 again, another N" },
		{ 2, 0, 2, 1, 0, 65535, 0xfffffffeu, "fresh-d2-g1",
		  "group size 1 at b = 65535, generation 2" },
		{ 2, 1, 65535, 0, 0, 1, 1, "fresh-d2-gen65535",
		  "the last generation" },
		{ 1, 0, 0, 16, 0, 16, 11, "fresh-d1-g-is-b",
		  "group size field b = 16 (no groups), hashed as stored" },
	};
	struct state st;
	uint8_t b[64];
	size_t i, n;

	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		st = (struct state){ p[i].suite, p[i].agg, p[i].b, p[i].dev,
				     0, { 0 } };
		initial_fresh(&st, root, p[i].second ? n2 : n1, p[i].gen,
			      p[i].group);
		n = blob2(b, &st, p[i].gen, p[i].group);
		fprintf(out, "\n# %s: suite %d, agg %d, b %u, device %u, "
			"generation %d, group size field %d\nname   = %s\n",
			p[i].what, p[i].suite, p[i].agg, p[i].b, p[i].dev,
			p[i].gen, p[i].group, p[i].name);
		hex("root", root, 32);
		hex("nonce", p[i].second ? n2 : n1, 16);
		fprintf(out, "params = %d %d %u %u %d %d\n", p[i].suite,
			p[i].agg, p[i].b, p[i].dev, p[i].gen, p[i].group);
		hex("blob", b, n);
		fprintf(out, "expect = ok\n");
	}
}

static void generate_provision(void)
{
	uint8_t root[32], n1[16], n2[16];

	fprintf(out, "# SPDX-License-Identifier: GPL-2.0 OR MIT\n"
		"# Diamond provisioning vectors, Documentation/spec.rst "
		"sections 2 and 13.\n"
		"# Generated by tools/vectors/gen-vectors --provision; do not "
		"edit.\n");
	fill(root, sizeof(root));
	fill(n1, sizeof(n1));
	fill(n2, sizeof(n2));
	prov_fresh_cases(root, n1, n2);
}

static void gen_wrap(void)
{
	generate_wrap(out);
}

static void gen_packet(void)
{
	generate_packet(out);
}

static void (*generator)(void) = generate;

static int check(const char *path)
{
	char *mine = NULL, *theirs;
	size_t mlen = 0, tlen;
	FILE *f = fopen(path, "rb");
	long sz;

	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	theirs = malloc((size_t)sz + 1);
	tlen = theirs ? fread(theirs, 1, (size_t)sz, f) : 0;
	fclose(f);
	out = open_memstream(&mine, &mlen);
	if (!out || !theirs)
		die("memory");
	generator();
	fclose(out);
	if (mlen != tlen || memcmp(mine, theirs, mlen)) {
		fprintf(stderr, "gen-vectors: %s differs from the generator\n",
			path);
		return 1;
	}
	printf("gen-vectors: %s matches (%zu bytes)\n", path, mlen);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--blobs")) {
		generator = generate_blobs;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "--frames")) {
		generator = generate_frames;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "--provision")) {
		generator = generate_provision;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "--wrap")) {
		generator = gen_wrap;
		argc--;
		argv++;
	} else if (argc > 1 && !strcmp(argv[1], "--packet")) {
		generator = gen_packet;
		argc--;
		argv++;
	}
	if (argc == 3 && !strcmp(argv[1], "--check"))
		return check(argv[2]);
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: gen-vectors "
			"[--blobs|--frames|--provision|--wrap|--packet] [FILE] | "
			"[--blobs|--frames|--provision|--wrap|--packet] "
			"--check FILE\n");
		return 2;
	}
	out = argc == 2 ? fopen(argv[1], "w") : stdout;
	if (!out) {
		perror(argv[1]);
		return 2;
	}
	generator();
	return fclose(out) ? 2 : 0;
}
