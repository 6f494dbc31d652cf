/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Minimal TAP 13 emitter in the kselftest manner: a plan, one "ok"/"not ok"
 * line per test, "# SKIP" for tests that cannot run here, and exit code 4
 * (KSFT_SKIP) when a whole program skips.
 */
#ifndef DIAMOND_SELFTESTS_TAP_H
#define DIAMOND_SELFTESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define TAP_EXIT_PASS 0
#define TAP_EXIT_FAIL 1
#define TAP_EXIT_SKIP 4

static unsigned int tap_count, tap_failed;

static inline void tap_plan(unsigned int n)
{
	printf("TAP version 13\n1..%u\n", n);
	fflush(stdout);
}

/* For programs that learn their test count as they go: plan at the end. */
static inline void tap_header(void)
{
	printf("TAP version 13\n");
	fflush(stdout);
}

static inline void tap_trailing_plan(void)
{
	printf("1..%u\n", tap_count);
	fflush(stdout);
}

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

/* Report one result; returns ok so callers can chain diagnostics. */
static inline int tap_result(int ok, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!ok)
		tap_failed++;
	printf("%sok %u ", ok ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return ok;
}

static inline void tap_skip(const char *why, const char *name)
{
	tap_count++;
	printf("ok %u %s # SKIP %s\n", tap_count, name, why);
	fflush(stdout);
}

static inline int tap_finish(void)
{
	return tap_failed ? TAP_EXIT_FAIL : TAP_EXIT_PASS;
}

#endif
