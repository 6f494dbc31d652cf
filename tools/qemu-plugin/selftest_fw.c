// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * m4-run / insn-count self-test firmware: prints "hello\n", marks an empty
 * region (id 1, the marker overhead) and a region around a loop of exactly
 * LOOP_INSNS instructions (id 2), then exits with status 3.
 */
#include "m4-semihost.h"

#define LOOP_ITERS 1000
/* mov + LOOP_ITERS * (subs + bne) */
#define LOOP_INSNS (1 + 2 * LOOP_ITERS)

static inline void known_loop(void)
{
	unsigned int n;

	__asm__ __volatile__("mov %0, %1\n"
			     "1: subs %0, %0, #1\n"
			     "bne 1b\n"
			     : "=&l"(n) : "i"(LOOP_ITERS) : "cc");
}

int main(void)
{
	sh_write0("hello\n");

	dmd_bench_start(1);
	dmd_bench_stop(1);

	dmd_bench_start(2);
	known_loop();
	dmd_bench_stop(2);

	return 3;
}
