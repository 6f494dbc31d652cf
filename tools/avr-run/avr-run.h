/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * avr-run conventions, shared by firmware (avr-gcc) and the runner (host).
 *
 * avr-run simulates an ATmega2560 at 16 MHz under libsimavr, cycle exact.
 *
 * Ending the program (any of these; the first one reached wins):
 *   1. avr_run_exit(code): writes code to GPIOR1, then 1 to GPIOR0. The
 *      runner stops at once and exits with `code`.
 *   2. return from main() / exit(code) from avr-libc: the runner stops when
 *      the PC reaches the `_exit` symbol and exits with r24 (low byte of the
 *      status).
 *   3. cli; sleep (simavr's cpu_Done): exits with the value in GPIOR1
 *      (0 unless the firmware wrote one).
 *
 * Cycle regions: write an id 1..255 to GPIOR2 to open region id, write 0 to
 * close the innermost open region (regions nest, up to 16 deep). For every
 * closed region the runner prints on stderr
 *   avr-run: region <id> cycles=<n>
 * and at the end
 *   avr-run: cycles total=<n>
 * An empty region (start immediately followed by stop) measures
 * AVR_RUN_REGION_OVERHEAD cycles: one `out` instruction.
 *
 * Profile: with --profile FILE --profile-region ID the runner writes, for
 * every flash address whose instruction started while a region ID was
 * open, "0x<byte address> <cycles>"; the lines of one run add up to the
 * cycles of its ID regions. tools/bench/avr-profile.sh sums them per
 * function.
 *
 * Runner exit status: firmware code (0..255) as above, else
 *   124 --cycles-limit reached, 125 --reset-at reached (power loss),
 *   126 simulated CPU crashed, 127 runner error (cannot load ELF...),
 *   2 usage error.
 * The EEPROM file (--eeprom) is written back in every one of these cases
 * except usage/load errors.
 */
#ifndef DIAMOND_AVR_RUN_H
#define DIAMOND_AVR_RUN_H

/* Data-space addresses (I/O address + 0x20) on the ATmega2560. */
#define AVR_RUN_EXIT_REQ_ADDR	0x3e	/* GPIOR0 */
#define AVR_RUN_EXIT_CODE_ADDR	0x4a	/* GPIOR1 */
#define AVR_RUN_REGION_ADDR	0x4b	/* GPIOR2 */

#define AVR_RUN_REGION_OVERHEAD	1

#define AVR_RUN_EXIT_CYCLE_LIMIT	124
#define AVR_RUN_EXIT_RESET		125
#define AVR_RUN_EXIT_CRASH		126
#define AVR_RUN_EXIT_ERROR		127

#ifdef __AVR__
#include <avr/io.h>
#include <stdint.h>

static inline void avr_run_region_start(uint8_t id)
{
	__asm__ __volatile__("" ::: "memory");
	GPIOR2 = id;
	__asm__ __volatile__("" ::: "memory");
}

static inline void avr_run_region_stop(void)
{
	__asm__ __volatile__("" ::: "memory");
	GPIOR2 = 0;
	__asm__ __volatile__("" ::: "memory");
}

static inline __attribute__((noreturn)) void avr_run_exit(uint8_t code)
{
	__asm__ __volatile__("" ::: "memory");
	GPIOR1 = code;
	GPIOR0 = 1;
	for (;;)
		;
}
#endif /* __AVR__ */

#endif
