// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * pc-histogram: QEMU TCG plugin that counts executed instructions per guest
 * address at or above a floor (default: the x86-64 kernel half), for
 * profiling diamond.ko in the run-vm guest without perf in the guest.
 *
 *   -plugin pc-histogram.so,out=FILE[,floor=ADDR]
 *
 * At exit FILE gets one line per executed address, "<hex addr> <count>",
 * sorted by address; tools/bench/kernel-profile.sh differences two runs and
 * maps the addresses to the guest's /proc/kallsyms. Counting is an inline
 * add per instruction into a slot chosen at translation time, so the
 * counts are exact. Single vCPU guests only.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* Open addressing; a 6.1 kernel run touches a few 100k distinct PCs. */
#define TABLE_BITS 22
#define TABLE_SIZE (1u << TABLE_BITS)

struct pc_count {
	uint64_t pc;
	uint64_t count;
};

static struct pc_count *table;
static unsigned int used;
static uint64_t floor_addr = 0xffff800000000000ull;
static const char *out_path;

/* The counter of @pc, created on first sight; NULL when the table is full. */
static uint64_t *counter_of(uint64_t pc)
{
	uint64_t h = (pc * 0x9e3779b97f4a7c15ull) >> (64 - TABLE_BITS);

	for (unsigned int probes = 0; probes < TABLE_SIZE; probes++, h++) {
		struct pc_count *e = &table[h & (TABLE_SIZE - 1)];

		if (e->pc == pc)
			return &e->count;
		if (!e->pc) {
			if (used == TABLE_SIZE / 2)
				return NULL;
			used++;
			e->pc = pc;
			return &e->count;
		}
	}
	return NULL;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		uint64_t *c;

		if (pc < floor_addr || !(c = counter_of(pc)))
			continue;
		qemu_plugin_register_vcpu_insn_exec_inline(insn,
						QEMU_PLUGIN_INLINE_ADD_U64,
						c, 1);
	}
}

static int by_pc(const void *a, const void *b)
{
	const struct pc_count *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");
	size_t m = 0;

	(void)id;
	(void)udata;
	if (!f) {
		fprintf(stderr, "pc-histogram: %s: %s\n", out_path,
			strerror(errno));
		return;
	}
	for (size_t i = 0; i < TABLE_SIZE; i++)
		if (table[i].count)
			table[m++] = table[i];
	qsort(table, m, sizeof(*table), by_pc);
	for (size_t i = 0; i < m; i++)
		fprintf(f, "%" PRIx64 " %" PRIu64 "\n", table[i].pc,
			table[i].count);
	if (used == TABLE_SIZE / 2)
		fprintf(stderr, "pc-histogram: table full, counts partial\n");
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else if (!strncmp(argv[i], "floor=", 6)) {
			floor_addr = strtoull(argv[i] + 6, NULL, 0);
		} else {
			fprintf(stderr, "pc-histogram: unknown argument %s\n",
				argv[i]);
			return -1;
		}
	}
	if (!out_path) {
		fprintf(stderr, "pc-histogram: out=FILE is required\n");
		return -1;
	}
	table = calloc(TABLE_SIZE, sizeof(*table));
	if (!table)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
