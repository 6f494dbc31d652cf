// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * avr-run: run an AVR ELF (ATmega2560, 16 MHz) under libsimavr with exact
 * cycle counts, raw UART0 output, an exit status and EEPROM persistence.
 * Conventions for firmware authors are in avr-run.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <avr_uart.h>
#include <avr_eeprom.h>

#include "avr-run.h"

#define MAX_DEPTH 16
#define PROF_WORDS (256u * 1024 / 2)	/* ATmega2560 flash */

static struct {
	FILE *uart;
	int exit_req;
	uint8_t exit_code;
	unsigned int depth;
	uint8_t region_id[MAX_DEPTH];
	avr_cycle_count_t region_start[MAX_DEPTH];
	int region_overflow;
	/* --profile: cycles per flash word while region prof_region is open */
	uint8_t prof_region;
	unsigned int prof_open;
	uint64_t *prof;
} st;

static void usage(void)
{
	fprintf(stderr,
		"usage: avr-run [--cycles-limit N] [--reset-at N] [--uart-out FILE]\n"
		"               [--eeprom FILE] [--mcu NAME] [--freq HZ]\n"
		"               [--profile FILE --profile-region ID] elf\n");
	exit(2);
}

static void quiet_logger(avr_t *avr, const int level, const char *fmt,
			 va_list ap)
{
	(void)avr;
	if (level > LOG_ERROR)
		return;
	fputs("avr-run: simavr: ", stderr);
	vfprintf(stderr, fmt, ap);
}

/* Sleeping costs simulated cycles only, never host time. */
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
	(void)avr;
	(void)how_long;
}

static void uart_out(avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq;
	(void)param;
	fputc((int)(value & 0xff), st.uart);
}

static void exit_req_write(avr_t *avr, avr_io_addr_t addr, uint8_t v,
			   void *param)
{
	(void)param;
	avr->data[addr] = v;
	if (v) {
		st.exit_req = 1;
		st.exit_code = avr->data[AVR_RUN_EXIT_CODE_ADDR];
	}
}

static void region_write(avr_t *avr, avr_io_addr_t addr, uint8_t v,
			 void *param)
{
	(void)param;
	avr->data[addr] = v;
	if (v) {
		if (st.depth == MAX_DEPTH) {
			st.region_overflow = 1;
			return;
		}
		st.region_id[st.depth] = v;
		st.region_start[st.depth] = avr->cycle;
		st.depth++;
		if (v == st.prof_region)
			st.prof_open++;
		return;
	}
	if (!st.depth) {
		fprintf(stderr, "avr-run: region stop without start at cycle %" PRIu64 "\n",
			(uint64_t)avr->cycle);
		return;
	}
	st.depth--;
	if (st.region_id[st.depth] == st.prof_region)
		st.prof_open--;
	fprintf(stderr, "avr-run: region %u cycles=%" PRIu64 "\n",
		st.region_id[st.depth],
		(uint64_t)(avr->cycle - st.region_start[st.depth]));
}

/*
 * One instruction (avr_run() steps one at a time outside gdb mode); with
 * --profile, its cycles go to the flash word it started at while the
 * profiled region is open. Interrupt entry counts against the instruction
 * it interrupted.
 */
static int profiled_step(avr_t *avr)
{
	avr_cycle_count_t before = avr->cycle;
	uint32_t word = avr->pc / 2;
	unsigned int open = st.prof_open;
	int state = avr_run(avr);

	if (st.prof && open && word < PROF_WORDS)
		st.prof[word] += avr->cycle - before;
	return state;
}

/* "0x<byte address> <cycles>" for every word that spent any. */
static int profile_save(const char *path)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	for (uint32_t w = 0; w < PROF_WORDS; w++)
		if (st.prof[w])
			fprintf(f, "0x%05" PRIx32 " %" PRIu64 "\n", w * 2,
				st.prof[w]);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	return ok ? 0 : -1;
}

static uint64_t parse_u64(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end) {
		fprintf(stderr, "avr-run: bad number for %s: %s\n", opt, s);
		exit(2);
	}
	return v;
}

/*
 * simavr's EEPROM ioctl returns -1 even when it succeeds, so ask for a
 * pointer to its EEPROM array (ee = NULL) and check that one came back.
 */
static uint8_t *eeprom_mem(avr_t *avr, uint32_t size)
{
	avr_eeprom_desc_t d = { .ee = NULL, .offset = 0, .size = size };

	avr_ioctl(avr, AVR_IOCTL_EEPROM_GET, &d);
	return d.ee;
}

static int eeprom_load(avr_t *avr, const char *path, uint32_t size)
{
	uint8_t *mem = eeprom_mem(avr, size);
	FILE *f;

	if (!mem)
		return -1;
	f = fopen(path, "rb");
	if (!f)
		return 0;	/* first run: keep the ELF's .eeprom / 0xff */
	if (fread(mem, 1, size, f) == 0 && ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* Write the EEPROM to a file that is not a regular one (/dev/null) in place. */
static int eeprom_save_in_place(const uint8_t *mem, const char *path,
				uint32_t size)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(mem, 1, size, f) == size;
	ok &= fclose(f) == 0;
	return ok ? 0 : -1;
}

/*
 * A regular file is replaced whole (written beside it, then renamed), so
 * a crash never leaves half an EEPROM. Anything else is written in place:
 * renaming over /dev/null would replace the device with a regular file
 * for every process on the machine.
 */
static int eeprom_save(avr_t *avr, const char *path, uint32_t size)
{
	uint8_t *mem = eeprom_mem(avr, size);
	struct stat st;
	char *tmp;
	FILE *f;
	int ok;

	if (!mem)
		return -1;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return eeprom_save_in_place(mem, path, size);
	tmp = malloc(strlen(path) + 5);
	if (!tmp)
		return -1;
	sprintf(tmp, "%s.new", path);
	f = fopen(tmp, "wb");
	if (!f) {
		free(tmp);
		return -1;
	}
	ok = fwrite(mem, 1, size, f) == size;
	ok &= fclose(f) == 0;
	ok = ok && rename(tmp, path) == 0;
	free(tmp);
	return ok ? 0 : -1;
}

static uint32_t find_symbol(const elf_firmware_t *fw, const char *name,
			    int *found)
{
#if ELF_SYMBOLS
	for (uint32_t i = 0; i < fw->symbolcount; i++) {
		if (!strcmp(fw->symbol[i]->symbol, name)) {
			*found = 1;
			return fw->symbol[i]->addr;
		}
	}
#else
	(void)fw;
	(void)name;
#endif
	*found = 0;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t limit = 0, reset_at = 0;
	const char *uart_path = NULL, *ee_path = NULL, *elf = NULL;
	const char *prof_path = NULL;
	const char *mcu = "atmega2560";
	uint32_t freq = 16000000;
	elf_firmware_t fw;
	avr_t *avr;
	uint32_t flags = 0, ee_size, exit_pc;
	int have_exit_pc, rc, state;
	const char *why = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--") && i + 2 == argc) {
			elf = argv[i + 1];
			break;
		}
		if (a[0] != '-') {
			if (elf || i + 1 != argc)
				usage();
			elf = a;
			break;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(a, "--cycles-limit"))
			limit = parse_u64(a, argv[++i]);
		else if (!strcmp(a, "--reset-at"))
			reset_at = parse_u64(a, argv[++i]);
		else if (!strcmp(a, "--uart-out"))
			uart_path = argv[++i];
		else if (!strcmp(a, "--eeprom"))
			ee_path = argv[++i];
		else if (!strcmp(a, "--mcu"))
			mcu = argv[++i];
		else if (!strcmp(a, "--freq"))
			freq = (uint32_t)parse_u64(a, argv[++i]);
		else if (!strcmp(a, "--profile"))
			prof_path = argv[++i];
		else if (!strcmp(a, "--profile-region"))
			st.prof_region = (uint8_t)parse_u64(a, argv[++i]);
		else
			usage();
	}
	if (!elf || !prof_path != !st.prof_region)
		usage();
	if (prof_path) {
		st.prof = calloc(PROF_WORDS, sizeof(*st.prof));
		if (!st.prof) {
			fprintf(stderr, "avr-run: out of memory\n");
			return AVR_RUN_EXIT_ERROR;
		}
	}

	st.uart = stdout;
	if (uart_path) {
		st.uart = fopen(uart_path, "wb");
		if (!st.uart) {
			fprintf(stderr, "avr-run: %s: %s\n", uart_path, strerror(errno));
			return AVR_RUN_EXIT_ERROR;
		}
	}

	avr_global_logger_set(quiet_logger);
	memset(&fw, 0, sizeof(fw));
	if (elf_read_firmware(elf, &fw) != 0) {
		fprintf(stderr, "avr-run: cannot read ELF %s\n", elf);
		return AVR_RUN_EXIT_ERROR;
	}
	avr = avr_make_mcu_by_name(mcu);
	if (!avr) {
		fprintf(stderr, "avr-run: unknown mcu %s\n", mcu);
		return AVR_RUN_EXIT_ERROR;
	}
	avr_init(avr);
	avr->log = LOG_ERROR;
	avr->frequency = freq;
	fw.frequency = freq;
	avr_load_firmware(avr, &fw);
	avr->frequency = freq;
	avr->sleep = no_sleep;
	avr->gdb_port = 0;

	ee_size = avr->e2end + 1;
	if (ee_path && eeprom_load(avr, ee_path, ee_size) != 0) {
		fprintf(stderr, "avr-run: cannot load EEPROM from %s\n", ee_path);
		return AVR_RUN_EXIT_ERROR;
	}

	/* Raw bytes, no line buffering to the console, no host sleeps. */
	avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
	flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
	avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'),
					      UART_IRQ_OUTPUT),
				uart_out, NULL);

	avr_register_io_write(avr, AVR_RUN_EXIT_REQ_ADDR, exit_req_write, NULL);
	avr_register_io_write(avr, AVR_RUN_REGION_ADDR, region_write, NULL);

	exit_pc = find_symbol(&fw, "_exit", &have_exit_pc);

	for (;;) {
		uint64_t now = avr->cycle;

		if (reset_at && now >= reset_at) {
			rc = AVR_RUN_EXIT_RESET;
			why = "power loss (--reset-at)";
			break;
		}
		if (limit && now >= limit) {
			rc = AVR_RUN_EXIT_CYCLE_LIMIT;
			why = "cycle limit reached";
			break;
		}
		if (have_exit_pc && avr->pc == exit_pc) {
			rc = avr->data[24];
			break;
		}
		state = profiled_step(avr);
		if (st.exit_req) {
			rc = st.exit_code;
			break;
		}
		if (state == cpu_Done) {
			rc = avr->data[AVR_RUN_EXIT_CODE_ADDR];
			break;
		}
		if (state == cpu_Crashed) {
			rc = AVR_RUN_EXIT_CRASH;
			why = "simulated CPU crashed";
			break;
		}
	}

	fflush(st.uart);
	if (uart_path)
		fclose(st.uart);
	if (why)
		fprintf(stderr, "avr-run: %s at cycle %" PRIu64 " (pc=0x%05x)\n",
			why, (uint64_t)avr->cycle, (unsigned int)avr->pc);
	if (st.region_overflow)
		fprintf(stderr, "avr-run: regions nested deeper than %d were ignored\n",
			MAX_DEPTH);
	for (unsigned int d = st.depth; d-- > 0;)
		fprintf(stderr, "avr-run: region %u still open, cycles=%" PRIu64 "\n",
			st.region_id[d],
			(uint64_t)(avr->cycle - st.region_start[d]));
	fprintf(stderr, "avr-run: cycles total=%" PRIu64 "\n", (uint64_t)avr->cycle);
	if (prof_path && profile_save(prof_path) != 0) {
		fprintf(stderr, "avr-run: cannot write profile %s\n", prof_path);
		if (!rc)
			rc = AVR_RUN_EXIT_ERROR;
	}
	if (ee_path && eeprom_save(avr, ee_path, ee_size) != 0) {
		fprintf(stderr, "avr-run: cannot save EEPROM to %s\n", ee_path);
		if (!rc)
			rc = AVR_RUN_EXIT_ERROR;
	}
	avr_terminate(avr);
	return rc;
}
