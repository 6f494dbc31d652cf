/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * TAP 13 from the known-answer firmware (kat_fw.c, mac_kat_fw.c) on the
 * board's console: one line per check, the plan last, and the failure
 * count as the exit status (embedded/tests/kat.sh folds it into make
 * check).
 */
#ifndef DIAMOND_BENCH_FW_TAP_H
#define DIAMOND_BENCH_FW_TAP_H

void fw_tap_uint(unsigned int v);
/* "ok N - WHAT: NAME" or "not ok ..." */
void fw_tap_report(int ok, const char *what, const char *name);
/* "ok N - WHAT: NAME # SKIP WHY" */
void fw_tap_skip(const char *what, const char *name, const char *why);
/* The plan and "# F failed", then exit with F (at most 100). */
__attribute__((noreturn)) void fw_tap_done(void);

#endif
