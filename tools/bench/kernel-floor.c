// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Diamond against its floor, in the kernel bench's guest (kernel-floor.h).
 *
 * The floor of a suite is what dmd_floor.ko measures for one epoch on the
 * kernel's own primitives, the cheapest pair of variants, plus one AF_ALG
 * round trip: a 16-byte request to ecb(cipher_null), the least work the
 * socket interface can be asked to do (sendmsg with the operation, read
 * back), or to ccm(aes) where the bind refuses that (round_trip_open()). Total: every G output, keystream byte and hash of the epoch.
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
 * The socket the round trip goes through: ecb(cipher_null), whose request
 * does no cryptography, or where the bind refuses it (7.3's
 * crypto.af_alg_restrict=1 keeps "skcipher" to an allowlist without it)
 * ccm(aes), the one name 7.3's "aead" allowlist holds (for CAP_NET_ADMIN,
 * which the bench has). Its 16-byte request adds CCM's four AES blocks
 * and template calls: 15,619 instructions on x86_64-newest, where
 * ecb(cipher_null)'s took 12,761 on x86_64-6.12, so it overstates the
 * floor by about 3 a record there.
 */
struct round_trip {
	const char *name;
	int tfm, op;
	unsigned int tag;	/* bytes the encryption adds */
};

static int round_trip_open(struct round_trip *rt)
{
	static const uint8_t key[16];

	rt->name = "ecb(cipher_null)";
	rt->tag = 0;
	rt->op = -1;
	rt->tfm = afalg_bind_type("skcipher", rt->name);
	if (rt->tfm < 0) {
		rt->name = "ccm(aes)";
		rt->tag = 16;
		rt->tfm = afalg_bind_type("aead", rt->name);
		if (rt->tfm >= 0 && (afalg_setkey(rt->tfm, key, sizeof(key)) ||
				     afalg_setauthsize(rt->tfm, rt->tag))) {
			afalg_close(rt->tfm);
			rt->tfm = -1;
		}
	}
	if (rt->tfm >= 0)
		rt->op = afalg_accept(rt->tfm);
	return rt->op >= 0 ? 0 : -1;
}

/*
 * One encryption of @len bytes; 0 or -1. The selftests' AEAD call serves
 * both: algif_skcipher ignores the assoclen. CCM's IV: L = 4 (byte 0 is
 * L - 1), an all-zero nonce.
 */
static int round_trip_op(const struct round_trip *rt, const uint8_t *in,
			 uint8_t *out, size_t len)
{
	static const uint8_t ccm_iv[16] = { 3 };

	return afalg_aead_op(rt->op, 1, rt->tag ? ccm_iv : NULL,
			     rt->tag ? sizeof(ccm_iv) : 0, 0, in, len, out,
			     len + rt->tag) == (ssize_t)(len + rt->tag) ? 0 : -1;
}

/* Median guest ns of one @len-byte round trip (@name set); 0: none. */
static uint64_t afalg_round_trip(size_t len, unsigned int reps,
				 const char **name)
{
	static uint8_t in[FLOOR_EPOCH_BYTES], out[FLOOR_EPOCH_BYTES + 16];
	uint64_t t[FLOOR_REPS_MAX], t0;
	struct round_trip rt;
	unsigned int r;
	uint64_t ns = 0;

	if (!round_trip_open(&rt) && !round_trip_op(&rt, in, out, len)) {
		for (r = 0; r < reps; r++) {		/* the first warmed */
			t0 = now_ns();
			if (round_trip_op(&rt, in, out, len))
				break;
			t[r] = now_ns() - t0;
		}
		if (r == reps)
			ns = median(t, reps);
	}
	if (!ns)
		printf("# floor: no AF_ALG round trip (ecb(cipher_null): %s; %s: %d, %d)\n",
		       rt.tag ? "refused" : "bound", rt.name, rt.tfm, rt.op);
	*name = rt.name;
	afalg_close(rt.op);
	afalg_close(rt.tfm);
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
	const char *name;
	uint64_t rt = afalg_round_trip(16, reps, &name), total, online;
	uint64_t rt_epoch = afalg_round_trip(FLOOR_EPOCH_BYTES, reps, &name);
	char label[96];
	unsigned int s;
	int rc = rt ? 0 : -1;

	floor_set_reps(reps);
	snprintf(label, sizeof(label), "AF_ALG round trip, %s 16 B", name);
	floor_line(label, rt, 1);
	snprintf(label, sizeof(label), "AF_ALG round trip, %s %u B", name,
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
