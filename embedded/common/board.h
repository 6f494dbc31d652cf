/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the firmware needs from a board: an output channel for frames and
 * text, a non-volatile store with flash-like rules, a flash reader for
 * constant data, and a way to stop. embedded/avr/board.c (ATmega2560 under
 * simavr) and embedded/m4/board.c (mps2-an386 under qemu) implement it.
 */
#ifndef DIAMOND_EMBEDDED_BOARD_H
#define DIAMOND_EMBEDDED_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "board_nv.h"

void board_init(void);

/* Raw bytes to the gateway link (UART0 / semihosting file). */
void board_out(const uint8_t *p, size_t n);
/* Text (TAP, diagnostics) on the console. May share the link. */
void board_puts(const char *s);

__attribute__((noreturn)) void board_exit(int code);

/* Copy constant data declared with KAT_FLASH / BOARD_FLASH into RAM. */
void board_flash_read(void *dst, const void *src, size_t n);

/* Benchmark region markers (cycle or instruction counts by the runner). */
void board_mark_start(uint8_t id);
void board_mark_stop(uint8_t id);

#ifdef __AVR__
#include <avr/pgmspace.h>
#define BOARD_FLASH PROGMEM
#else
#define BOARD_FLASH
#endif
#define KAT_FLASH BOARD_FLASH

#endif
