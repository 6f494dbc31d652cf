// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * insn-count: QEMU TCG plugin that counts executed guest instructions
 * exactly (an inline add on every instruction), in total and inside regions
 * delimited by two marker addresses.
 *
 *   -plugin insn-count.so[,start=ADDR,stop=ADDR][,out=FILE]
 *
 * A region opens when the instruction at `start` executes and closes when
 * the instruction at `stop` executes; its count is the number of
 * instructions executed in between (the start one included, the stop one
 * excluded). Regions nest up to 16 deep and are numbered 1, 2, ... in the
 * order they open: the 7.2 plugin API cannot read registers, so a marker
 * function's id argument is invisible here. Bit 0 of an address is ignored
 * (Thumb symbol values). At exit, to stderr or FILE:
 *   insn-count: region <n> insns=<count>      (one per closed region)
 *   insn-count: total insns=<count>
 * Single vCPU guests only (the counters are not per vCPU).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_DEPTH 16
#define MAX_REGIONS 4096

static uint64_t total;
static uint64_t start_addr, stop_addr;
static int have_start, have_stop;
static const char *out_path;

static uint64_t open_at[MAX_DEPTH];
static unsigned int open_idx[MAX_DEPTH];
static unsigned int depth, opened, unmatched_stops, dropped;
static uint64_t region_count[MAX_REGIONS];
static unsigned char region_done[MAX_REGIONS];

static void on_start(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	opened++;
	if (depth == MAX_DEPTH || opened > MAX_REGIONS) {
		dropped++;
		return;
	}
	open_idx[depth] = opened;
	open_at[depth] = total;
	depth++;
}

static void on_stop(unsigned int vcpu, void *udata)
{
	unsigned int idx;

	(void)vcpu;
	(void)udata;
	if (!depth) {
		unmatched_stops++;
		return;
	}
	depth--;
	idx = open_idx[depth];
	region_count[idx - 1] = total - open_at[depth];
	region_done[idx - 1] = 1;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn) & ~(uint64_t)1;

		/*
		 * Marker callbacks go first so they read the count of the
		 * instructions before this one.
		 */
		if (have_start && va == start_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start,
						QEMU_PLUGIN_CB_NO_REGS, NULL);
		if (have_stop && va == stop_addr)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop,
						QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_insn_exec_inline(insn,
						QEMU_PLUGIN_INLINE_ADD_U64,
						&total, 1);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = stderr;
	unsigned int n = opened < MAX_REGIONS ? opened : MAX_REGIONS;

	(void)id;
	(void)udata;
	if (out_path) {
		f = fopen(out_path, "w");
		if (!f) {
			fprintf(stderr, "insn-count: %s: %s\n", out_path,
				strerror(errno));
			f = stderr;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		if (region_done[i])
			fprintf(f, "insn-count: region %u insns=%" PRIu64 "\n",
				i + 1, region_count[i]);
		else
			fprintf(f, "insn-count: region %u not closed\n", i + 1);
	}
	if (unmatched_stops)
		fprintf(f, "insn-count: %u stop marker(s) without a start\n",
			unmatched_stops);
	if (dropped)
		fprintf(f, "insn-count: %u region(s) dropped (too deep or too many)\n",
			dropped);
	fprintf(f, "insn-count: total insns=%" PRIu64 "\n", total);
	if (f != stderr)
		fclose(f);
	else
		fflush(f);
}

static int parse_addr(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || !*s || *end)
		return -1;
	*v &= ~(uint64_t)1;
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	if (info->version.cur < QEMU_PLUGIN_VERSION ||
	    info->version.min > QEMU_PLUGIN_VERSION) {
		fprintf(stderr, "insn-count: plugin API %d..%d, built for %d\n",
			info->version.min, info->version.cur,
			QEMU_PLUGIN_VERSION);
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "start=", 6) && !parse_addr(a + 6, &start_addr)) {
			have_start = 1;
		} else if (!strncmp(a, "stop=", 5) && !parse_addr(a + 5, &stop_addr)) {
			have_stop = 1;
		} else if (!strncmp(a, "out=", 4) && a[4]) {
			out_path = a + 4;
		} else {
			fprintf(stderr, "insn-count: bad argument '%s'\n", a);
			return -1;
		}
	}
	if (have_start != have_stop) {
		fprintf(stderr, "insn-count: give both start= and stop=\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
