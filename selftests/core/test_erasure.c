// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Forward security in memory: after record i is sealed, no 8-byte run of
 * record i's key R_i, hash key, pad or keystream remains in the sender
 * context or its window; after begin, none of the epoch key E_e; after
 * close, none of the trailer slot. The secrets are recomputed here through
 * the chain functions, independently of the sender's bookkeeping. A second
 * check scans the dead stack below the caller for the same runs, which
 * catches temporaries a function forgot to wipe. The same for the packet
 * sender (spec section 14.3) over one unit, which also must hold no run of
 * the unit's Z_u after its first seal, and a zero accumulator for every
 * tag it has sent.
 */
#define _GNU_SOURCE
#include <string.h>

#include <diamond/core.h>
#include <diamond/chain.h>
#include <diamond/packet.h>
#include <diamond/stream.h>
#include <diamond/util.h>
#include "tap.h"

#define RUN 8
#define RECORDS 6
#define MAXLEN 40

struct slot_secret {
	uint8_t r[DMD_KEY_MAX];
	uint8_t hp[32];
	uint8_t ks[MAXLEN];
};

static struct slot_secret secret[DMD_GRID_UNIT + 1];
static uint8_t epoch_key[DMD_KEY_MAX];

static void derive_n(const struct dmd_state *st, size_t len, size_t slots)
{
	uint8_t next[DMD_KEY_MAX], r[DMD_KEY_MAX];
	struct dmd_stream s;
	size_t k = dmd_key_size(st->suite), j;

	memcpy(epoch_key, st->key, k);
	dmd_epoch_update(st->suite, st->key, next, r);
	for (j = 0; j < slots; j++) {
		memcpy(secret[j].r, r, k);
		dmd_slot_open(&s, st->suite, r, r, secret[j].hp);
		dmd_stream_read(&s, secret[j].ks, len);
		dmd_stream_wipe(&s);
	}
	/* Leave no copies of our own for the stack scan to find. */
	dmd_wipe(r, sizeof(r));
	dmd_wipe(next, sizeof(next));
	dmd_wipe_stack();
}

static void derive(const struct dmd_state *st, size_t len)
{
	derive_n(st, len, RECORDS + 1);
}

/* Does any RUN-byte window of @sec occur in @mem? */
static int leaks(const uint8_t *mem, size_t memlen, const uint8_t *sec,
		 size_t seclen)
{
	size_t i;

	for (i = 0; i + RUN <= seclen; i++)
		if (memmem(mem, memlen, sec + i, RUN))
			return 1;
	return 0;
}

static int slot_leaks(const uint8_t *mem, size_t memlen, size_t j, size_t k,
		      size_t len)
{
	return leaks(mem, memlen, secret[j].r, k) ||
	       leaks(mem, memlen, secret[j].hp, 32) ||
	       leaks(mem, memlen, secret[j].ks, len);
}

static int context_leaks(const struct dmd_sender *s, const uint8_t *win,
			 size_t winlen, size_t upto, size_t len)
{
	size_t k = dmd_key_size(s->st.suite), j;

	for (j = 0; j < upto; j++)
		if (slot_leaks((const uint8_t *)s, sizeof(*s), j, k, len) ||
		    slot_leaks(win, winlen, j, k, len))
			return 1;
	return 0;
}

/*
 * Scan the dead stack that the previous calls left below this frame (the
 * x86-64 and arm64 stacks grow down and stay mapped once touched).
 */
static __attribute__((noinline)) int stack_leaks(size_t upto, size_t k,
						 size_t len)
{
	static uint8_t copy[16384];
	const volatile uint8_t *below =
		(const volatile uint8_t *)__builtin_frame_address(0) -
		sizeof(copy);
	size_t j;

	for (j = 0; j < sizeof(copy); j++)
		copy[j] = below[j];
	for (j = 0; j < upto; j++)
		if (slot_leaks(copy, sizeof(copy), j, k, len))
			return 1;
	return leaks(copy, sizeof(copy), epoch_key, k);
}

static __attribute__((noinline)) int seal_one(struct dmd_sender *s,
					       const uint8_t *m, size_t len,
					       uint8_t *c)
{
	return dmd_sender_seal(s, m, len, c, NULL);
}

static void run(unsigned int suite, size_t pre_len, size_t len)
{
	static uint8_t win[8 * (DMD_KEY_MAX + 32 + 64)];
	struct dmd_state st = { .suite = (uint8_t)suite, .agg = DMD_AGG_XOR,
				.b = RECORDS + 2, .device_id = 1 };
	struct dmd_sender s;
	uint8_t m[MAXLEN], c[MAXLEN], tag[16];
	size_t k = dmd_key_size(suite), j, winlen = pre_len ? sizeof(win) : 0;
	int ok = 1, stack_ok = 1;

	for (j = 0; j < k; j++)
		st.key[j] = (uint8_t)(0x42 + 7 * j + len);
	memset(m, 'm', sizeof(m));
	derive(&st, len);
	dmd_sender_init(&s, &st, pre_len ? win : NULL, winlen, pre_len);
	dmd_sender_begin(&s, NULL);
	dmd_sender_precompute(&s, 8);
	tap_result(!leaks((uint8_t *)&s, sizeof(s), epoch_key, k) &&
		   !leaks(win, winlen, epoch_key, k),
		   "suite %u pre %zu len %zu: epoch key gone after begin",
		   suite, pre_len, len);
	for (j = 0; j < RECORDS; j++) {
		seal_one(&s, m, len, c);
		ok &= !context_leaks(&s, win, winlen, j + 1, len);
		stack_ok &= !stack_leaks(j + 1, k, len);
		dmd_sender_precompute(&s, 1);
	}
	tap_result(ok, "suite %u pre %zu len %zu: sealed records' keys, pads "
		   "and keystream gone from the context", suite, pre_len, len);
	tap_result(stack_ok, "suite %u pre %zu len %zu: ... and from the stack",
		   suite, pre_len, len);
	dmd_sender_close(&s, NULL, 0, tag, NULL);
	tap_result(!context_leaks(&s, win, winlen, RECORDS + 1, len) &&
		   !stack_leaks(RECORDS + 1, k, len),
		   "suite %u pre %zu len %zu: trailer slot gone after close",
		   suite, pre_len, len);
	dmd_sender_wipe(&s);
}

/* The dead stack below this frame against Z_u (as stack_leaks()). */
static __attribute__((noinline)) int stack_leaks_z(const uint8_t z[256])
{
	static uint8_t copy[16384];
	const volatile uint8_t *below =
		(const volatile uint8_t *)__builtin_frame_address(0) -
		sizeof(copy);
	size_t j;

	for (j = 0; j < sizeof(copy); j++)
		copy[j] = below[j];
	return leaks(copy, sizeof(copy), z, 256);
}

static __attribute__((noinline)) int pseal_one(struct dmd_psender *ps,
						const uint8_t *m, size_t len,
						uint8_t *pkt, size_t *n)
{
	return dmd_psender_seal(ps, m, len, 0, pkt, DMD_PKT_MAX, n);
}

/* Every tag whose carrier is among records 0 .. @r has a zero accumulator. */
static int sent_tags_zero(const struct dmd_psender *ps, unsigned int r)
{
	static const uint8_t zero[DMD_TAG_SIZE];
	unsigned int t, carrier;

	for (t = 0; t < DMD_GRID_TAGS; t++) {
		carrier = t < 4 ? 4 * t + 3 : t + 8;
		if (carrier <= r && memcmp(ps->acc[t], zero, DMD_TAG_SIZE))
			return 0;
	}
	return 1;
}

static void run_packet(unsigned int suite, size_t pre_len)
{
	static uint8_t win[8 * (DMD_KEY_MAX + 32 + 64)];
	struct dmd_state st = { .suite = (uint8_t)suite, .agg = DMD_AGG_XOR,
				.b = DMD_GRID_UNIT, .device_id = 1 };
	struct dmd_psender ps;
	uint8_t m[MAXLEN], pkt[DMD_PKT_MAX], z[256];
	size_t k = dmd_key_size(suite), j, n, winlen = pre_len ? sizeof(win) : 0;
	int ok = 1, stack_ok = 1, acc_ok = 1;

	for (j = 0; j < k; j++)
		st.key[j] = (uint8_t)(0x24 + 5 * j);
	memset(m, 'm', sizeof(m));
	derive_n(&st, MAXLEN, DMD_GRID_UNIT);
	dmd_stream_prefix(suite, secret[0].r, DMD_DOMAIN_GRID, z, sizeof(z));
	dmd_wipe_stack();	/* our own copies: not the sender's to wipe */
	dmd_psender_init(&ps, &st, 2, 0x0102, pre_len ? win : NULL, winlen,
			 pre_len);
	dmd_psender_begin(&ps, NULL);
	dmd_sender_precompute(&ps.s, 8);
	for (j = 0; j < DMD_GRID_UNIT; j++) {
		pseal_one(&ps, m, MAXLEN, pkt, &n);
		ok &= !context_leaks(&ps.s, win, winlen, j + 1, MAXLEN) &&
		      !leaks((const uint8_t *)&ps, sizeof(ps), z, sizeof(z)) &&
		      !leaks(win, winlen, z, sizeof(z));
		stack_ok &= !stack_leaks(j + 1, k, MAXLEN) &&
			    !stack_leaks_z(z);
		acc_ok &= sent_tags_zero(&ps, (unsigned int)j);
		dmd_sender_precompute(&ps.s, 1);
	}
	tap_result(ok, "packet suite %u pre %zu: sealed records' keys, pads, "
		   "keystream and Z_u gone from the context", suite, pre_len);
	tap_result(stack_ok, "packet suite %u pre %zu: ... and from the stack",
		   suite, pre_len);
	tap_result(acc_ok, "packet suite %u pre %zu: each tag's accumulator "
		   "erased as the tag leaves", suite, pre_len);
	dmd_psender_wipe(&ps);
}

int main(void)
{
	static const size_t pre[] = { 0, 16 }, lens[] = { 16, MAXLEN };
	unsigned int suite;
	size_t i, l;

	tap_plan(2 * 2 * 2 * 4 + 2 * 2 * 3);
	for (suite = 1; suite <= 2; suite++)
		for (i = 0; i < 2; i++)
			for (l = 0; l < 2; l++)
				run(suite, pre[i], lens[l]);
	for (suite = 1; suite <= 2; suite++)
		for (i = 0; i < 2; i++)
			run_packet(suite, pre[i]);
	return tap_finish();
}
