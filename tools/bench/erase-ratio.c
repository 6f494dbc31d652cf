// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * erase-ratio: what clearing the kernel module's used slot table costs on
 * this machine's CPU, memset()'s "rep stosb" (memzero_explicit()) against
 * a loop of 64-bit stores (the module's former diamond_wipe()), as a ratio
 * of TSC ticks measured within one run (`make bench-erase`;
 * Documentation/performance.md, Kernel). Under qemu -icount the first is
 * charged one instruction per byte and the second about twelve per 64
 * bytes; this shows which one is cheaper on hardware.
 *
 *   erase-ratio [BYTES [REPS]]	default 131200 bytes (suite 2: 1025 slots
 *				of 128 bytes), 201 repetitions, medians
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <x86intrin.h>

static void erase_stosb(void *buf, size_t len)
{
	__asm__ __volatile__("rep stosb"
			     : "+D"(buf), "+c"(len)
			     : "a"(0)
			     : "memory");
}

/* Eight volatile 64-bit stores a step: what diamond_wipe() compiled to. */
static void erase_stores(void *buf, size_t len)
{
	volatile uint64_t *w = buf;

	for (; len >= 64; len -= 64, w += 8) {
		w[0] = 0;
		w[1] = 0;
		w[2] = 0;
		w[3] = 0;
		w[4] = 0;
		w[5] = 0;
		w[6] = 0;
		w[7] = 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median ticks of @erase over @len dirty bytes of @buf, @reps times. */
static uint64_t ticks(void (*erase)(void *, size_t), uint8_t *buf,
		      size_t len, uint64_t *t, unsigned int reps)
{
	unsigned int i;
	uint64_t t0;

	for (i = 0; i < reps; i++) {
		memset(buf, 0xa5, len);
		t0 = __rdtsc();
		erase(buf, len);
		t[i] = __rdtsc() - t0;
	}
	qsort(t, reps, sizeof(*t), cmp_u64);
	return t[reps / 2];
}

int main(int argc, char **argv)
{
	size_t len = argc > 1 ? strtoul(argv[1], NULL, 0) : 131200;
	unsigned int reps = argc > 2 ? (unsigned int)atoi(argv[2]) : 201;
	uint8_t *buf = aligned_alloc(64, (len + 63) / 64 * 64);
	uint64_t *t = calloc(reps ? reps : 1, sizeof(*t)), a, b;

	len &= ~(size_t)63;
	if (!buf || !t || !len || !reps) {
		fprintf(stderr, "erase-ratio: need BYTES >= 64 and REPS >= 1\n");
		return 2;
	}
	a = ticks(erase_stosb, buf, len, t, reps);
	b = ticks(erase_stores, buf, len, t, reps);
	printf("%zu bytes, median of %u: rep stosb %llu ticks, 64-bit stores %llu ticks, ratio %.2f\n",
	       len, reps, (unsigned long long)a, (unsigned long long)b,
	       (double)a / (double)b);
	free(buf);
	free(t);
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, "erase-ratio: x86-64 only (rep stosb)\n");
	return 2;
}
#endif
