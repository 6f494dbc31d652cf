// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * avr-run self-test firmware (ATmega2560, 16 MHz): prints "hello\n" on
 * UART0, times a loop of exactly 300 cycles as region 1, increments the
 * EEPROM byte at address 0, and exits with status 3. Built with
 * -DEXIT_BY_RETURN it ends by returning 3 from main() instead of calling
 * avr_run_exit(3).
 */
#include <avr/eeprom.h>
#include <avr/io.h>
#include <stdint.h>

#include "avr-run.h"

static void uart_init(void)
{
	UBRR0H = 0;
	UBRR0L = 16;			/* 117647 baud with U2X at 16 MHz */
	UCSR0A = _BV(U2X0);
	UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
	UCSR0B = _BV(TXEN0);
}

static void uart_puts(const char *s)
{
	while (*s) {
		while (!(UCSR0A & _BV(UDRE0)))
			;
		UDR0 = (uint8_t)*s++;
	}
}

/* ldi (1) + 99 * (dec 1 + brne taken 2) + dec 1 + brne not taken 1 = 300 */
static inline void loop_300_cycles(void)
{
	uint8_t n;

	__asm__ __volatile__("ldi %0, 100\n"
			     "1: dec %0\n"
			     "brne 1b\n"
			     : "=d"(n));
}

int main(void)
{
	uint8_t boots;

	uart_init();
	uart_puts("hello\n");

	avr_run_region_start(1);
	loop_300_cycles();
	avr_run_region_stop();

	boots = eeprom_read_byte((const uint8_t *)0);
	eeprom_write_byte((uint8_t *)0, (uint8_t)(boots + 1));
	eeprom_busy_wait();

	/* Let the UART shift out the last byte before stopping. */
	while (!(UCSR0A & _BV(UDRE0)))
		;
#ifdef EXIT_BY_RETURN
	return 3;
#else
	avr_run_exit(3);
#endif
}
