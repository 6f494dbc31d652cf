// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * host-bench SUITE SIZE [G]: one epoch of 1024 records of SIZE bytes through
 * the portable core, split into the three phases that
 * tools/bench/bench-host.sh measures with callgrind --toggle-collect:
 *   bench_offline  sender: begin the epoch, precompute every slot
 *   bench_online   sender: seal the 1024 records and close the epoch (and
 *                  its groups, with a group size G < 1024)
 *   bench_verify   receiver: dmd_open, i.e. derive, verify, then decrypt;
 *                  with G < 1024 the group receiver, unit by unit
 * A benchmark, not a test: it only checks that the epoch opened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/core.h>

#define B 1024

static struct dmd_sender snd;
static uint8_t *win, *pt, *ct, *out;
static size_t rec;
static uint32_t g = B;

/*
 * With groups: the group tags as sealed, then each unit as a receiver
 * takes it (its records, then its tag).
 */
static uint8_t gtag[B][16];
static uint8_t *unit_ct[B];
static size_t unit_len[B], nunits;

__attribute__((noinline)) void bench_offline(void)
{
	dmd_sender_begin(&snd, NULL);
	dmd_sender_precompute(&snd, B + 1);
}

__attribute__((noinline)) void bench_online(void)
{
	size_t j, pos = 0;

	for (j = 0; j < B; j++, pos += 2 + rec) {
		ct[pos] = pt[pos];
		ct[pos + 1] = pt[pos + 1];
		dmd_sender_seal(&snd, pt + pos + 2, rec, ct + pos + 2, NULL);
		if (dmd_sender_group_due(&snd))
			dmd_sender_close_group(&snd, NULL, 0, gtag[j / g], NULL);
	}
	dmd_sender_close(&snd, NULL, 0, ct + pos, NULL);
}

__attribute__((noinline)) int bench_verify(struct dmd_state *rx)
{
	struct dmd_receiver r;
	size_t i, pos = 0;
	int rc;

	if (g == B)
		return dmd_open(rx, 0, NULL, 0, ct, B * (2 + rec) + 16, out,
				DMD_DEFAULT_MAX_SKIP);
	rc = dmd_receiver_init(&r, rx, g, DMD_DEFAULT_MAX_SKIP);
	for (i = 0; !rc && i + 1 < nunits; i++, pos += unit_len[i - 1] - 16)
		rc = dmd_receiver_group(&r, 0, (uint32_t)i, NULL, 0, unit_ct[i],
					unit_len[i], out + pos);
	if (!rc)
		rc = dmd_receiver_close(&r, 0, B, NULL, 0, unit_ct[i],
					unit_len[i], out + pos);
	dmd_receiver_wipe(&r);
	return rc;
}

/* Cut the sealed epoch into units: g records then G_i; the rest then T. */
static void cut_units(void)
{
	size_t per = (size_t)g * (2 + rec), body = B * (2 + rec), pos = 0;
	uint32_t q = (B - 1) / g, i;

	for (i = 0; i <= q; i++) {
		size_t len = i < q ? per : body - pos;

		unit_ct[i] = malloc(len + 16);
		if (!unit_ct[i])
			exit(2);
		memcpy(unit_ct[i], ct + pos, len);
		memcpy(unit_ct[i] + len, i < q ? gtag[i] : ct + body, 16);
		unit_len[i] = len + 16;
		pos += len;
	}
	nunits = q + 1;
}

int main(int argc, char **argv)
{
	struct dmd_state st = { .agg = DMD_AGG_XOR, .b = B, .device_id = 1 };
	struct dmd_state rx;
	size_t body, winsize, j;

	if (argc < 3 || argc > 4 || (atoi(argv[1]) != 1 && atoi(argv[1]) != 2)) {
		fprintf(stderr, "usage: host-bench 1|2 SIZE [G]\n");
		return 2;
	}
	if (argc == 4)
		g = (uint32_t)atoi(argv[3]);
	st.suite = (uint8_t)atoi(argv[1]);
	rec = (size_t)atoi(argv[2]);
	memset(st.key, 0x17, sizeof(st.key));
	rx = st;
	body = B * (2 + rec);
	winsize = (B + 1) * dmd_slot_size(st.suite, rec);
	win = malloc(winsize);
	pt = malloc(body);
	ct = malloc(body + 16);
	out = malloc(body);
	if (!win || !pt || !ct || !out)
		return 2;
	for (j = 0; j < body; j += 2 + rec) {
		pt[j] = (uint8_t)rec;
		pt[j + 1] = (uint8_t)(rec >> 8);
		memset(pt + j + 2, 'x', rec);
	}
	if (dmd_sender_init_groups(&snd, &st, win, winsize, rec, g)) {
		fprintf(stderr, "host-bench: bad group size\n");
		return 2;
	}
	bench_offline();
	bench_online();
	if (g < B)
		cut_units();
	if (bench_verify(&rx) != DMD_OK || memcmp(out, pt, body)) {
		fprintf(stderr, "host-bench: epoch did not open\n");
		return 1;
	}
	return 0;
}
