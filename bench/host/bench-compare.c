// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * bench-compare MODE: Diamond and every baseline through bench/baselines/
 * scheme.h, records of 16, 64, 95 and 128 bytes, epochs of b = 1, 256,
 * 1024. A sender-only scheme (rx_open NULL: our OCB3, see aead.h) has its
 * receiver phases dumped empty, and report.sh prints them as n/a.
 * Four phases per configuration, each over whole epochs:
 *   tx_off  sender offline: begin + precompute every record of the epoch
 *   tx_on   sender online:  seal x b + close (the aggregate tag)
 *   rx_off  receiver offline: keys, pads, keystream of the epoch
 *   rx_on   receiver online: verify the aggregate, then release plaintext
 *
 * MODE callgrind: run under valgrind --tool=callgrind --collect-atstart=no;
 *   each phase is bracketed by CALLGRIND_ZERO_STATS / CALLGRIND_DUMP_STATS_AT
 *   with the label "scheme|rec|b|phase|messages", so every dump holds the
 *   exact instruction count of one phase (bench/host/callgrind-csv.sh turns
 *   the dumps into CSV).
 * MODE tsc: rdtsc around each phase, 9 interleaved repetitions, median;
 *   prints CSV of TSC ticks per message. Wall clock, so only ratios within
 *   this one run are meaningful (the documents publish nothing else).
 * Every measured epoch is also opened and checked; a failure aborts.
 */
#define SCHEME_OPENSSL 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include <valgrind/callgrind.h>

#include "scheme.h"

static const struct scheme *const schemes[] = {
	&scheme_diamond1, &scheme_diamond2,
	&scheme_faae1_ossl, &scheme_faae2, &scheme_faae2_128a,
	&scheme_graphene1_ossl, &scheme_graphene2_ossl,
	&scheme_faae1, &scheme_graphene1, &scheme_graphene2,
	&scheme_gcm_ossl, &scheme_chapoly_ossl, &scheme_ocb_ossl,
	&scheme_gcm, &scheme_ccm, &scheme_ocb3, &scheme_umac64, &scheme_umac128,
	&scheme_aez, &scheme_supersonic, &scheme_zmac256, &scheme_zmac192, &scheme_pmac1,
	&scheme_pmac2x256, &scheme_vmac64, &scheme_vmac128,
};
#define NSCHEMES (sizeof(schemes) / sizeof(schemes[0]))

static const size_t recs[] = { 16, 64, 95, 128 };
#define NRECS (sizeof(recs) / sizeof(recs[0]))
static const uint32_t bs[] = { 1, 256, 1024 };

enum { TX_OFF, TX_ON, RX_OFF, RX_ON, NPHASE };
static const char *const phase_name[NPHASE] = { "tx_off", "tx_on", "rx_off", "rx_on" };

struct inst {
	const struct scheme *s;
	void *ctx;
	uint8_t *win, *rwin, *m, *c, *back, tag[16];
	size_t rec, stride;
	uint32_t b;
};

static void die(const char *what, const struct inst *in)
{
	fprintf(stderr, "bench-compare: %s failed for %s rec %zu b %u\n", what,
		in->s->name, in->rec, in->b);
	exit(1);
}

static void inst_open(struct inst *in, const struct scheme *s, size_t rec,
		      uint32_t b)
{
	uint8_t key[32];
	size_t ws, rws, i;

	memset(in, 0, sizeof(*in));
	in->s = s;
	in->rec = rec;
	in->b = b;
	in->stride = rec + s->rec_overhead;
	ws = s->slot_size(rec) * (b + 1);
	rws = (s->slot_size(rec) > 32 + rec ? s->slot_size(rec) : 32 + rec) * (b + 1);
	in->ctx = calloc(1, s->ctx_size);
	in->win = ws ? malloc(ws) : NULL;
	in->rwin = malloc(rws);
	in->m = malloc(rec * b);
	in->c = malloc(in->stride * b);
	in->back = malloc(rec * b);
	if (!in->ctx || !in->rwin || !in->m || !in->c || !in->back)
		die("malloc", in);
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(0x5a ^ i);
	for (i = 0; i < rec * b; i++)
		in->m[i] = (uint8_t)(i * 7);
	if (s->init(in->ctx, key, rec, b, in->win, ws, in->rwin, rws))
		die("init", in);
}

static void inst_close(struct inst *in)
{
	in->s->wipe(in->ctx);
	free(in->ctx);
	free(in->win);
	free(in->rwin);
	free(in->m);
	free(in->c);
	free(in->back);
}

__attribute__((noinline)) static void ph_tx_off(struct inst *in)
{
	in->s->begin(in->ctx);
	in->s->offline(in->ctx, in->b + 1);
}

__attribute__((noinline)) static void ph_tx_on(struct inst *in)
{
	uint32_t j;

	for (j = 0; j < in->b; j++)
		in->s->seal(in->ctx, in->m + j * in->rec, in->c + j * in->stride);
	in->s->close(in->ctx, in->tag);
}

__attribute__((noinline)) static void ph_rx_off(struct inst *in)
{
	in->s->rx_offline(in->ctx, in->b);
}

__attribute__((noinline)) static int ph_rx_on(struct inst *in)
{
	if (!in->s->rx_open)
		return 0;
	return in->s->rx_open(in->ctx, in->c, in->b, in->tag, in->back);
}

static void check(struct inst *in, int rc)
{
	if (!in->s->rx_open)
		return;
	if (rc || memcmp(in->back, in->m, in->rec * in->b))
		die("verification", in);
}

/*
 * Epochs per measurement. Instruction counts are exact, so 16 epochs of one
 * record already average out the per-epoch variation; the tsc mode wants
 * at least 256 messages of work per sample against timer granularity.
 */
static uint32_t epochs_for(uint32_t b, int tsc)
{
	if (b >= 256)
		return 1;
	return tsc ? 256 / b : 16;
}

static void dump(const struct inst *in, int phase, char *label, size_t n)
{
	snprintf(label, n, "%s|%zu|%u|%s|%u", in->s->name, in->rec, in->b,
		 phase_name[phase], in->b);
	CALLGRIND_DUMP_STATS_AT(label);
}

#define MEASURE(in, phase, call)						\
	do {									\
		CALLGRIND_ZERO_STATS;						\
		CALLGRIND_TOGGLE_COLLECT;					\
		call;								\
		CALLGRIND_TOGGLE_COLLECT;					\
		dump(in, phase, label, sizeof(label));				\
	} while (0)

static void run_callgrind(void)
{
	char label[160];
	size_t r, bi, k;
	uint32_t e;

	for (r = 0; r < NRECS; r++)
		for (bi = 0; bi < 3; bi++)
			for (k = 0; k < NSCHEMES; k++) {
				struct inst in;
				int rc = 0;

				inst_open(&in, schemes[k], recs[r], bs[bi]);
				/* Warm-up epoch: lazy library initialisation. */
				ph_tx_off(&in); ph_tx_on(&in);
				ph_rx_off(&in); check(&in, ph_rx_on(&in));
				/* One dump per phase and epoch, in the real order. */
				for (e = 0; e < epochs_for(bs[bi], 0); e++) {
					MEASURE(&in, TX_OFF, ph_tx_off(&in));
					MEASURE(&in, TX_ON, ph_tx_on(&in));
					MEASURE(&in, RX_OFF, ph_rx_off(&in));
					MEASURE(&in, RX_ON, rc = ph_rx_on(&in));
					check(&in, rc);
				}
				inst_close(&in);
			}
}

static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

#define REPS 9

static void run_tsc(void)
{
	static unsigned long long t[NSCHEMES][NPHASE][REPS];
	size_t r, bi, k, p;
	int rep;

	printf("scheme,rec,b,tx_off,tx_on,rx_off,rx_on\n");
	for (r = 0; r < NRECS; r++)
		for (bi = 0; bi < 3; bi++) {
			struct inst in[NSCHEMES];
			uint32_t ne = epochs_for(bs[bi], 1), e;

			for (k = 0; k < NSCHEMES; k++) {
				inst_open(&in[k], schemes[k], recs[r], bs[bi]);
				ph_tx_off(&in[k]); ph_tx_on(&in[k]);
				ph_rx_off(&in[k]); check(&in[k], ph_rx_on(&in[k]));
			}
			memset(t, 0, sizeof(t));
			/* Interleave schemes so load changes hit all alike. */
			for (rep = 0; rep < REPS; rep++)
				for (k = 0; k < NSCHEMES; k++)
					for (e = 0; e < ne; e++) {
						unsigned long long a, b2, c, d, f;
						int rc;

						a = __rdtsc();
						ph_tx_off(&in[k]);
						b2 = __rdtsc();
						ph_tx_on(&in[k]);
						c = __rdtsc();
						ph_rx_off(&in[k]);
						d = __rdtsc();
						rc = ph_rx_on(&in[k]);
						f = __rdtsc();
						check(&in[k], rc);
						t[k][TX_OFF][rep] += b2 - a;
						t[k][TX_ON][rep] += c - b2;
						t[k][RX_OFF][rep] += d - c;
						t[k][RX_ON][rep] += f - d;
					}
			for (k = 0; k < NSCHEMES; k++) {
				printf("%s,%zu,%u", in[k].s->name, recs[r], bs[bi]);
				for (p = 0; p < NPHASE; p++) {
					qsort(t[k][p], REPS, sizeof(t[k][p][0]), cmp_u64);
					printf(",%.1f", (double)t[k][p][REPS / 2] /
					       ((double)ne * bs[bi]));
				}
				printf("\n");
				inst_close(&in[k]);
			}
			fflush(stdout);
		}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "callgrind"))
		run_callgrind();
	else if (argc == 2 && !strcmp(argv[1], "tsc"))
		run_tsc();
	else {
		fprintf(stderr, "usage: bench-compare callgrind|tsc\n");
		return 2;
	}
	return 0;
}
