// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Group tags (spec sections 5.1, 9.1) end to end in the portable core:
 * every configuration delivers everything without loss; truncating,
 * dropping, moving, replaying a group, swapping groups between epochs and
 * any flipped bit are refused and change nothing; a receiver that moves
 * past a partly verified epoch holds none of its keys; the sender refuses
 * calls out of order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>
#include <diamond/chain.h>
#include "tap.h"

#define B 16
#define MAXU 64
#define MAXBODY 32768

/* One unit as a device sends it: its records as a body, then its tag. */
struct unit {
	uint8_t ct[MAXBODY + 16], pt[MAXBODY];
	size_t len;		/* ct bytes, tag included */
	uint32_t group, count;	/* count != 0: the final group */
};

struct sealed {
	struct unit u[MAXU];
	size_t nu;
	uint64_t epoch;
};

static const uint8_t ad[5] = { 'g', 'r', 'o', 'u', 'p' };

static struct dmd_state make_state(unsigned int suite, uint32_t b,
				   uint32_t dev)
{
	struct dmd_state st = { .suite = (uint8_t)suite, .agg = DMD_AGG_XOR,
				.b = b, .device_id = dev };
	uint8_t root[DMD_ROOT_SIZE];

	memset(root, 0x5a, sizeof(root));
	dmd_derive_initial(&st, root);
	return st;
}

/* Seal @n records (record j: j % 23 bytes) of one epoch from @st. */
static int seal_epoch(struct dmd_state *st, uint32_t g, uint32_t n,
		      struct sealed *out)
{
	struct dmd_sender s;
	struct unit *u;
	uint32_t j;
	size_t len;
	int rc;

	out->epoch = st->epoch;
	out->nu = 0;
	rc = dmd_sender_init_groups(&s, st, NULL, 0, 0, g);
	if (!rc)
		rc = dmd_sender_begin(&s, st);
	u = &out->u[0];
	u->len = 0;
	for (j = 0; !rc && j < n; j++) {
		len = j % 23;
		u->pt[u->len] = u->ct[u->len] = (uint8_t)len;
		u->pt[u->len + 1] = u->ct[u->len + 1] = 0;
		memset(u->pt + u->len + 2, (int)(j * 7 + st->epoch), len);
		rc = dmd_sender_seal(&s, u->pt + u->len + 2, len,
				     u->ct + u->len + 2, NULL);
		u->len += 2 + len;
		if (!rc && dmd_sender_group_due(&s)) {
			rc = dmd_sender_close_group(&s, ad, sizeof(ad),
						    u->ct + u->len, &u->group);
			u->len += 16;
			u->count = 0;
			u = &out->u[++out->nu];
			u->len = 0;
		}
	}
	if (!rc)
		rc = dmd_sender_close(&s, ad, sizeof(ad), u->ct + u->len,
				      &u->count);
	u->len += 16;
	out->nu++;
	dmd_sender_wipe(&s);
	return rc;
}

/* Present unit @u at @epoch as group @group (count 0) or final @count. */
static int present(struct dmd_receiver *rx, uint64_t epoch,
		   const struct unit *u, uint32_t group, uint32_t count,
		   uint8_t *pt)
{
	if (count)
		return dmd_receiver_close(rx, epoch, count, ad, sizeof(ad),
					  u->ct, u->len, pt);
	return dmd_receiver_group(rx, epoch, group, ad, sizeof(ad), u->ct,
				  u->len, pt);
}

static int open_unit(struct dmd_receiver *rx, const struct sealed *x,
		     size_t i, uint8_t *pt)
{
	const struct unit *u = &x->u[i];

	return present(rx, x->epoch, u, u->group, u->count, pt);
}

/* Every unit in order: all verify, every plaintext is the sealed one. */
static void lossless(unsigned int suite, uint32_t b, uint32_t g, uint32_t n)
{
	static struct sealed x;
	struct dmd_state tx = make_state(suite, b, 1), after;
	struct dmd_receiver rx;
	uint8_t pt[MAXBODY];
	size_t i, released = 0;
	int ok;

	dmd_receiver_init(&rx, &tx, g, DMD_DEFAULT_MAX_SKIP);
	ok = seal_epoch(&tx, g, n, &x) == DMD_OK;
	for (i = 0; ok && i < x.nu; i++) {
		ok = open_unit(&rx, &x, i, pt) == DMD_OK &&
		     !memcmp(pt, x.u[i].pt, x.u[i].len - 16);
		released += x.u[i].len - 16;
	}
	dmd_receiver_state(&rx, &after);
	ok = ok && !rx.open && after.epoch == tx.epoch &&
	     !memcmp(after.key, tx.key, sizeof(tx.key));
	tap_result(ok, "suite %u b %u g %u n %u: %zu units, all released "
		   "(%zu bytes), state = the sender's", suite, b, g, n, x.nu,
		   released);
}

/* A refused unit: the expected code, no state change, nothing released. */
static void refused(struct dmd_receiver *rx, uint64_t epoch,
		    const struct unit *u, uint32_t group, uint32_t count,
		    int want, const char *what)
{
	struct dmd_receiver before = *rx;
	uint8_t pt[MAXBODY];
	size_t i;
	int rc, ok;

	memset(pt, 0, sizeof(pt));
	rc = present(rx, epoch, u, group, count, pt);
	ok = rc == want && !memcmp(&before, rx, sizeof(before));
	for (i = 0; ok && i < sizeof(pt); i++)
		ok = pt[i] == 0;
	tap_result(ok, "%s -> %d (got %d), nothing changed", what, want, rc);
}

static void tampering(unsigned int suite)
{
	static struct sealed e0, e1, other;
	struct dmd_state tx = make_state(suite, B, 2), dev2;
	struct dmd_receiver rx;
	struct unit t;
	uint8_t pt[MAXBODY];
	size_t i, bits = 0, caught = 0;
	int ok;

	dmd_receiver_init(&rx, &tx, 4, DMD_DEFAULT_MAX_SKIP);
	dev2 = make_state(suite, B, 3);
	seal_epoch(&tx, 4, B, &e0);
	seal_epoch(&tx, 4, B, &e1);
	seal_epoch(&dev2, 4, B, &other);
	tap_diag("suite %u: b %u g 4, %zu units an epoch", suite, B, e0.nu);

	/* Any flipped bit of group 1 (records or tag) is caught. */
	for (i = 0; i < e0.u[1].len * 8; i++) {
		struct dmd_receiver before = rx;

		t = e0.u[1];
		t.ct[i / 8] ^= (uint8_t)(1u << (i % 8));
		bits++;
		if (present(&rx, 0, &t, 1, 0, pt) != DMD_OK &&
		    !memcmp(&before, &rx, sizeof(rx)))
			caught++;
	}
	tap_result(bits == caught, "suite %u: %zu of %zu single-bit changes "
		   "to group 1 refused, state untouched", suite, caught, bits);

	refused(&rx, 0, &e0.u[2], 1, 0, DMD_EBADMSG, "group 2 moved to 1");
	refused(&rx, 0, &e1.u[1], 1, 0, DMD_EBADMSG,
		"group 1 of epoch 1 swapped into epoch 0");
	refused(&rx, 0, &other.u[1], 1, 0, DMD_EBADMSG,
		"group 1 of another device");
	refused(&rx, 1, &e0.u[2], 2, 0, DMD_EBADMSG,
		"group 2 of epoch 0 presented as epoch 1");
	/* Truncation: G_1 as the epoch tag of an 8-record epoch. */
	memcpy(t.ct, e0.u[1].ct + e0.u[1].len - 16, 16);
	t.len = 16;
	refused(&rx, 0, &t, 0, 8, DMD_EBADMSG,
		"group 1's tag as the end of an 8-record epoch");
	/* Truncation: group 1 without its last record. */
	t = e0.u[1];
	t.len = 2 + 4 + 2 + 5 + 2 + 6;	/* records 4, 5, 6: 4, 5, 6 bytes */
	memcpy(t.ct + t.len, e0.u[1].ct + e0.u[1].len - 16, 16);
	t.len += 16;
	refused(&rx, 0, &t, 1, 0, DMD_EFORMAT,
		"group 1 without its last record");
	refused(&rx, 0, &e0.u[3], 3, 0, DMD_EFORMAT,
		"the final group presented as a non-final one");

	/* Group 0 lost; group 1 opens, then group 0 late and replays fail. */
	ok = open_unit(&rx, &e0, 1, pt) == DMD_OK &&
	     !memcmp(pt, e0.u[1].pt, e0.u[1].len - 16);
	tap_result(ok, "suite %u: group 1 opens with group 0 lost", suite);
	refused(&rx, 0, &e0.u[0], 0, 0, DMD_EEXPIRED, "group 0 arriving late");
	refused(&rx, 0, &e0.u[1], 1, 0, DMD_EEXPIRED, "group 1 replayed");

	/* The final group dropped: epoch 1 group 0 opens, epoch 0 is gone. */
	ok = open_unit(&rx, &e0, 2, pt) == DMD_OK &&
	     open_unit(&rx, &e1, 0, pt) == DMD_OK;
	tap_result(ok, "suite %u: epoch 1 opens with epoch 0's final group "
		   "lost", suite);
	refused(&rx, 0, &e0.u[3], 0, B, DMD_EEXPIRED,
		"epoch 0's final group after epoch 1 opened");
	ok = open_unit(&rx, &e1, 1, pt) == DMD_OK &&
	     open_unit(&rx, &e1, 2, pt) == DMD_OK &&
	     open_unit(&rx, &e1, 3, pt) == DMD_OK && !rx.open &&
	     rx.st.epoch == 2;
	tap_result(ok, "suite %u: the rest of epoch 1 opens and closes it",
		   suite);
}

/* R <- the next slot key of the record chain. */
/*
 * The copy rule of spec 8.1 as the core sees it: the caller keeps the copies
 * of a unit and presents them one by one. Each unit of an epoch (g = 4,
 * n = 10: groups 0 and 1 and the final group) is presented first damaged,
 * in a record (its last byte) and then in its tag, then genuine: each damaged
 * try is DMD_EBADMSG with the receiver byte for byte unchanged and nothing
 * released, and the genuine copy after it verifies; a damaged copy after the
 * genuine one finds no keys (DMD_EEXPIRED), the receiver unchanged again.
 */
static void copies(unsigned int suite)
{
	static struct sealed x;
	static struct unit bad;
	static uint8_t pt[MAXBODY];
	struct dmd_state tx = make_state(suite, B, 4);
	struct dmd_receiver rx, before;
	size_t i, k, zero;
	int ok;

	dmd_receiver_init(&rx, &tx, 4, DMD_DEFAULT_MAX_SKIP);
	ok = seal_epoch(&tx, 4, 10, &x) == DMD_OK && x.nu == 3;
	for (i = 0; ok && i < x.nu; i++) {
		for (k = 0; ok && k < 2; k++) {
			bad = x.u[i];
			/* k 0: a record's last byte; k 1: the tag's. */
			bad.ct[bad.len - 1 - (k ? 0 : 16)] ^= 1;
			before = rx;
			memset(pt, 0, sizeof(pt));
			ok = present(&rx, x.epoch, &bad, bad.group, bad.count,
				     pt) == DMD_EBADMSG &&
			     !memcmp(&before, &rx, sizeof(rx));
			for (zero = 0; ok && zero < sizeof(pt); zero++)
				ok = !pt[zero];
		}
		ok = ok && open_unit(&rx, &x, i, pt) == DMD_OK &&
		     !memcmp(pt, x.u[i].pt, x.u[i].len - 16);
		before = rx;
		ok = ok && present(&rx, x.epoch, &bad, bad.group, bad.count,
				   pt) == DMD_EEXPIRED &&
		     !memcmp(&before, &rx, sizeof(rx));
	}
	ok = ok && !rx.open && rx.st.epoch == tx.epoch &&
	     !memcmp(rx.st.key, tx.key, sizeof(tx.key));
	tap_result(ok, "suite %u: each unit damaged (a record, the tag) then "
		   "genuine: the damaged tries change nothing, the genuine "
		   "verifies; a damaged copy after it is EEXPIRED", suite);
	dmd_receiver_wipe(&rx);
}

static void next_slot_key(unsigned int suite, uint8_t *r)
{
	struct dmd_stream st;
	uint8_t hp[32];

	dmd_slot_open(&st, suite, r, r, hp);
	dmd_stream_wipe(&st);
}

/* Does @hay hold the @n bytes of @needle anywhere? */
static int holds(const void *hay, size_t len, const uint8_t *needle,
		 size_t n)
{
	const uint8_t *h = hay;
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (!memcmp(h + i, needle, n))
			return 1;
	return 0;
}

/*
 * Moving past a partly verified epoch leaves none of its keys behind: open
 * group 0 of epoch 0, then group 1 of epoch 1. The receiver may hold only
 * E_2 and R_{1,8}; E_0, E_1, every slot key of epoch 0 and of groups 0 and
 * 1 of epoch 1, and their group trailer keys must be gone.
 */
static void erasure(unsigned int suite)
{
	static struct sealed e0, e1;
	struct dmd_state tx = make_state(suite, B, 4);
	struct dmd_receiver rx;
	size_t k = dmd_key_size(suite);
	uint8_t pt[MAXBODY], e[DMD_KEY_MAX], r[DMD_KEY_MAX], hp[32];
	unsigned int leaks = 0, epoch;
	uint32_t j;

	memcpy(e, tx.key, k);
	dmd_receiver_init(&rx, &tx, 4, DMD_DEFAULT_MAX_SKIP);
	seal_epoch(&tx, 4, B, &e0);
	seal_epoch(&tx, 4, B, &e1);
	open_unit(&rx, &e0, 0, pt);
	open_unit(&rx, &e1, 1, pt);

	for (epoch = 0; epoch < 2; epoch++) {
		leaks += holds(&rx, sizeof(rx), e, k);		/* E_epoch */
		dmd_epoch_update(suite, e, e, r);
		for (j = 0; j < (epoch ? 8 : B + 1); j++) {
			leaks += holds(&rx, sizeof(rx), r, k);	/* R_{epoch,j} */
			dmd_group_keys(suite, r, hp);
			leaks += holds(&rx, sizeof(rx), hp, 16);
			leaks += holds(&rx, sizeof(rx), hp + 16, 16);
			next_slot_key(suite, r);
		}
	}
	tap_result(!leaks && rx.open && rx.group == 2 && rx.st.epoch == 1,
		   "suite %u: past a partly verified epoch the receiver holds "
		   "none of its keys (%u found)", suite, leaks);
	/* The scan can find keys: the ones the cursor must hold. */
	tap_result(holds(&rx, sizeof(rx), e, k) && holds(&rx, sizeof(rx), r, k),
		   "suite %u: ... and it does hold E_2 and R_{1,8}", suite);
}

static void sender_api(void)
{
	struct dmd_state st = make_state(2, B, 5);
	struct dmd_sender s;
	uint8_t c[4], tag[16], m[4] = { 0 };
	int ok;

	ok = dmd_sender_init_groups(&s, &st, NULL, 0, 0, 0) == DMD_EINVAL &&
	     dmd_sender_init_groups(&s, &st, NULL, 0, 0, B + 1) == DMD_EINVAL;
	tap_result(ok, "g = 0 and g > b refused");
	dmd_sender_init_groups(&s, &st, NULL, 0, 0, 2);
	dmd_sender_begin(&s, NULL);
	ok = dmd_sender_close_group(&s, NULL, 0, tag, NULL) == DMD_EINVAL;
	dmd_sender_seal(&s, m, 4, c, NULL);
	dmd_sender_seal(&s, m, 4, c, NULL);
	ok &= dmd_sender_group_due(&s) &&
	      dmd_sender_seal(&s, m, 4, c, NULL) == DMD_EINVAL &&
	      dmd_sender_close(&s, NULL, 0, tag, NULL) == DMD_EINVAL &&
	      dmd_sender_close_group(&s, NULL, 0, tag, NULL) == DMD_OK &&
	      !dmd_sender_group_due(&s) &&
	      dmd_sender_close(&s, NULL, 0, tag, NULL) == DMD_OK;
	tap_result(ok, "a due group must be closed before seal or close, "
		   "and only then");
	dmd_sender_wipe(&s);
}

/*
 * dmd_receiver_seek() (issue 23): a unit opened from a copy of the cursor
 * moved to it, or to a group before it, gets the same plaintext and the
 * same next cursor as from the cursor; a copy cannot be moved behind the
 * cursor, past the epoch's last unit, or beyond max_skip.
 */
static void seek(unsigned int suite)
{
	static struct sealed x0, x1;
	struct dmd_state tx = make_state(suite, B, 3);
	struct dmd_receiver rx, a, b, c;
	uint8_t pa[MAXBODY], pb[MAXBODY];
	int ok;

	dmd_receiver_init(&rx, &tx, 4, 2);
	ok = seal_epoch(&tx, 4, B, &x0) == DMD_OK &&
	     seal_epoch(&tx, 4, 10, &x1) == DMD_OK;
	/* Group 2 of epoch 0: from the cursor, from a copy at 2, at 1. */
	a = rx;
	b = rx;
	c = rx;
	ok = ok && open_unit(&a, &x0, 2, pa) == DMD_OK &&
	     dmd_receiver_seek(&b, x0.epoch, 2) == DMD_OK &&
	     b.group == 2 && open_unit(&b, &x0, 2, pb) == DMD_OK &&
	     !memcmp(&a, &b, sizeof(a)) && !memcmp(pa, pb, x0.u[2].len - 16) &&
	     dmd_receiver_seek(&c, x0.epoch, 1) == DMD_OK &&
	     open_unit(&c, &x0, 2, pb) == DMD_OK && !memcmp(&a, &c, sizeof(a));
	tap_result(ok, "suite %u: seek to the unit's group or before it: same "
		   "plaintext, same next cursor", suite);
	/* The final unit of epoch 1 (group 2) from a copy seeked across. */
	b = rx;
	a = rx;
	ok = dmd_receiver_seek(&b, x1.epoch, 2) == DMD_OK &&
	     open_unit(&b, &x1, 2, pb) == DMD_OK &&
	     open_unit(&a, &x1, 2, pa) == DMD_OK && !memcmp(&a, &b, sizeof(a));
	tap_result(ok, "suite %u: seek into a later epoch, its final unit: "
		   "same next cursor", suite);
	b = a;		/* a: epoch 1 closed, state at epoch 2 */
	c = rx;
	ok = dmd_receiver_seek(&c, x0.epoch, 3) == DMD_OK &&
	     dmd_receiver_seek(&c, x0.epoch, 2) == DMD_EEXPIRED &&
	     dmd_receiver_seek(&b, x0.epoch, 0) == DMD_EEXPIRED &&
	     dmd_receiver_seek(&b, x1.epoch + 4, 0) == DMD_ESKIP &&
	     dmd_receiver_seek(&b, x1.epoch + 1, (B - 1) / 4 + 1) == DMD_EINVAL &&
	     !memcmp(&b, &a, sizeof(a));
	tap_result(ok, "suite %u: seek behind the cursor, past max_skip or "
		   "past the last unit is refused, nothing changed", suite);
}

int main(void)
{
	static const uint32_t gs[] = { 1, 3, 4, 5, 15, 16 };
	static const uint32_t ns[] = { 1, 4, 7, 8, 15, 16 };
	unsigned int suite;
	size_t i, j;

	tap_header();
	for (suite = 1; suite <= 2; suite++) {
		for (i = 0; i < sizeof(gs) / sizeof(gs[0]); i++)
			for (j = 0; j < sizeof(ns) / sizeof(ns[0]); j++)
				lossless(suite, B, gs[i], ns[j]);
		lossless(suite, 1024, 16, 1024);
		lossless(suite, 1024, 64, 1000);
		lossless(suite, 1024, 1024, 1024);
		tampering(suite);
		copies(suite);
		erasure(suite);
		seek(suite);
	}
	sender_api();
	tap_trailing_plan();
	return tap_finish();
}
