// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ATmega2560 board: UART0 at 1 Mbaud (8N1, U2X) carries raw frames (or the
 * KAT firmware's TAP text), the 4 KiB EEPROM holds the reservation ring
 * (eeprom.c), GPIOR0..2 talk to tools/avr-run (exit status, cycle
 * regions). On a real Arduino Mega the same UART reaches the host through
 * the USB bridge; see Documentation/embedded.rst.
 */
#include <avr/io.h>
#include <avr/pgmspace.h>

#include "board.h"
#include "avr-run.h"

void board_init(void)
{
	UBRR0H = 0;
	UBRR0L = 1;			/* 16 MHz / 8 / (1 + 1) = 1 Mbaud */
	UCSR0A = _BV(U2X0);
	UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
	UCSR0B = _BV(TXEN0);
}

void board_out(const uint8_t *p, size_t n)
{
	while (n--) {
		loop_until_bit_is_set(UCSR0A, UDRE0);
		UDR0 = *p++;
	}
}

void board_puts(const char *s)
{
	while (*s) {
		loop_until_bit_is_set(UCSR0A, UDRE0);
		UDR0 = (uint8_t)*s++;
	}
}

void board_exit(int code)
{
	/* Let the last byte leave the shift register first. */
	loop_until_bit_is_set(UCSR0A, UDRE0);
	for (volatile uint16_t i = 0; i < 100; i++)
		;
	avr_run_exit((uint8_t)code);
}

void board_flash_read(void *dst, const void *src, size_t n)
{
	memcpy_P(dst, src, n);
}

void board_mark_start(uint8_t id)
{
	avr_run_region_start(id);
}

void board_mark_stop(uint8_t id)
{
	(void)id;
	avr_run_region_stop();
}
