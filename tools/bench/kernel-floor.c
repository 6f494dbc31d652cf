// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Diamond against its floor, in the kernel bench's guest (kernel-floor.h).
 *
 * The floor of a suite is what dmd_floor.ko measures for one epoch on the
 * kernel's own primitives, the cheapest pair of variants, plus one AF_ALG
 * round trip: a 16-byte request to ecb(cipher_null), the least work the
 * socket interface can be asked to do (sendmsg with the operation, read
 * back). Total: every G output, keystream byte and hash of the epoch.
 * Online: the hashes and keystream XOR, G's outputs precomputed (what
 * diamond.ko's precompute leaves to the request). The same round trip with
 * the epoch's bytes (1024 x (2 + 16) + 16) is printed too, to show what
 * the copies of a whole epoch cost, but not counted in the floor.
 *
 * Output: the module's lines as comments, then per suite
 *   floor dN total (primitives + AF_ALG)   NS ns  (NS/1024 ns/record)
 *   floor dN online (primitives + AF_ALG)  ...
 *   ratio dN total  D/record floor F/record  R x
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "afalg.h"
#include "bench-clock.h"
#include "kernel-floor.h"

#define FLOOR_PARAMS "/sys/module/dmd_floor/parameters/"
#define FLOOR_REPS_MAX 32
#define FLOOR_EPOCH_BYTES (1024 * (2 + 16) + 16)

/*
 * One encryption of @len bytes on skcipher socket @op; 0 or -1. The
 * selftests' AEAD call serves: algif_skcipher ignores the assoclen.
 */
static int null_op(int op, const uint8_t *in, uint8_t *out, size_t len)
{
	return afalg_aead_op(op, 1, NULL, 0, 0, in, len, out, len) ==
	       (ssize_t)len ? 0 : -1;
}

/* Median guest ns of one @len-byte ecb(cipher_null) round trip; 0: none. */
static uint64_t afalg_round_trip(size_t len, unsigned int reps)
{
	static uint8_t in[FLOOR_EPOCH_BYTES], out[FLOOR_EPOCH_BYTES];
	uint64_t t[FLOOR_REPS_MAX], t0;
	int tfm = afalg_bind_type("skcipher", "ecb(cipher_null)"), op = -1;
	unsigned int r;
	uint64_t ns = 0;

	if (tfm >= 0)
		op = afalg_accept(tfm);
	if (op >= 0 && !null_op(op, in, out, len)) {	/* warm */
		for (r = 0; r < reps; r++) {
			t0 = now_ns();
			if (null_op(op, in, out, len))
				break;
			t[r] = now_ns() - t0;
		}
		if (r == reps)
			ns = median(t, reps);
	}
	if (!ns)
		printf("# floor: no ecb(cipher_null) round trip (%d, %d)\n",
		       tfm, op);
	afalg_close(op);
	afalg_close(tfm);
	return ns;
}

/* The module's floors of @suite, its lines echoed as comments; 0 or -1. */
static int floor_read(unsigned int suite, uint64_t *total, uint64_t *online)
{
	char path[64], line[256];
	unsigned long long ns;
	int ok = 0;
	FILE *f;

	snprintf(path, sizeof(path), FLOOR_PARAMS "suite%u", suite);
	f = fopen(path, "r");
	if (!f) {
		printf("# floor: SKIP d%u, %s: %s (dmd_floor.ko not loaded)\n",
		       suite, path, strerror(errno));
		return -1;
	}
	*total = *online = 0;
	while (fgets(line, sizeof(line), f)) {
		printf("# floor d%u: %s", suite, line);
		if (sscanf(line, "floor total %llu", &ns) == 1)
			*total = ns;
		else if (sscanf(line, "floor online %llu", &ns) == 1)
			*online = ns;
		else if (!strcmp(line, "status ok\n"))
			ok = 1;
	}
	fclose(f);
	return ok && *total && *online ? 0 : -1;
}

static void floor_line(const char *label, uint64_t ns, unsigned int records)
{
	printf("%-46s %10llu ns  (%llu ns/record)\n", label,
	       (unsigned long long)ns, (unsigned long long)(ns / records));
}

static void ratio_line(unsigned int suite, const char *phase, uint64_t dmd,
		       uint64_t floor, unsigned int records)
{
	if (!dmd)
		return;
	printf("ratio d%u %-6s diamond %6llu/record  floor %6llu/record  %5.2f x\n",
	       suite, phase, (unsigned long long)(dmd / records),
	       (unsigned long long)(floor / records), (double)dmd / floor);
}

/* The module's runs per figure, as the bench's. */
static void floor_set_reps(unsigned int reps)
{
	FILE *f = fopen(FLOOR_PARAMS "reps", "w");

	if (f) {
		fprintf(f, "%u\n", reps);
		fclose(f);
	}
}

int floor_report(const struct floor_diamond d[3], unsigned int records,
		 unsigned int reps)
{
	uint64_t rt = afalg_round_trip(16, reps), total, online;
	uint64_t rt_epoch = afalg_round_trip(FLOOR_EPOCH_BYTES, reps);
	char label[96];
	unsigned int s;
	int rc = rt ? 0 : -1;

	floor_set_reps(reps);
	floor_line("AF_ALG round trip, ecb(cipher_null) 16 B", rt, 1);
	snprintf(label, sizeof(label), "AF_ALG round trip, ecb(cipher_null) %u B",
		 FLOOR_EPOCH_BYTES);
	floor_line(label, rt_epoch, 1);
	for (s = 1; s <= 2; s++) {
		if (floor_read(s, &total, &online)) {
			printf("# floor d%u: not measured\n", s);
			rc = -1;
			continue;
		}
		snprintf(label, sizeof(label), "floor d%u total (primitives + AF_ALG)", s);
		floor_line(label, total + rt, records);
		snprintf(label, sizeof(label), "floor d%u online (primitives + AF_ALG)", s);
		floor_line(label, online + rt, records);
		ratio_line(s, "total", d[s].total, total + rt, records);
		ratio_line(s, "online", d[s].online, online + rt, records);
	}
	fflush(stdout);
	return rc;
}
