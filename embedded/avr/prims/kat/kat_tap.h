/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * TAP 13 output for the AVR primitives' known-answer firmwares (names and
 * hex answers live in flash, PROGMEM): header first, one line per check,
 * the plan last, and the exit code is the number of failures.
 */
#ifndef DIAMOND_AVR_KAT_TAP_H
#define DIAMOND_AVR_KAT_TAP_H

#include <stddef.h>
#include <stdint.h>

#include <avr/pgmspace.h>

void kat_begin(const char *title);
void kat_put_uint(unsigned int v);
/* One result line named by the flash string @name_P. */
void kat_report(int ok, const char *name_P);
/* Decode the lowercase hex flash string @hex_P into @out; its length. */
size_t kat_unhex_P(uint8_t *out, const char *hex_P);
/*
 * Key and data of round @r (0..7) of a constant-time check: all zero, all
 * one, then mixed bytes, data byte i depending on key byte i % @kn too.
 */
void kat_ct_fill(uint8_t *k, size_t kn, uint8_t *d, size_t dn,
		 unsigned int r);
/*
 * Timer 1 at the CPU clock on for @run (which reads TCNT1 around what it
 * times and returns the difference) over the 8 rounds of kat_ct_fill():
 * 1 if every round took round 0's cycles, which go to @cycles.
 */
int kat_same_cycles(uint16_t (*run)(const uint8_t *k, const uint8_t *d),
		    uint8_t *k, size_t kn, uint8_t *d, size_t dn,
		    uint16_t *cycles);
/* Plan line and failure count, then exit with the failures (at most 100). */
__attribute__((noreturn)) void kat_end(void);

#endif
