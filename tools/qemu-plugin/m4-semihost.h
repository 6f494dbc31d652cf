/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Minimal Arm semihosting and startup interface for the QEMU mps2-an386
 * (Cortex-M4) test firmware. Run under tools/m4-run.
 */
#ifndef DIAMOND_M4_SEMIHOST_H
#define DIAMOND_M4_SEMIHOST_H

/* Write a NUL-terminated string to the semihosting console (SYS_WRITE0). */
void sh_write0(const char *s);

/* End the program; qemu exits with `code` (SYS_EXIT_EXTENDED). */
__attribute__((noreturn)) void sh_exit(int code);

/* Exit status used when the CPU takes a fault. */
#define M4_EXIT_FAULT 126

/*
 * Benchmark markers: the instruction-count plugin counts the instructions
 * executed between entering dmd_bench_start and entering dmd_bench_stop.
 * Both must stay out of line; see m4-startup.c.
 */
void dmd_bench_start(int id);
void dmd_bench_stop(int id);

#endif
