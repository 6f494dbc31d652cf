// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ATmega2560 board: UART0 at 1 Mbaud (8N1, U2X) carries raw frames (or the
 * KAT firmware's TAP text), the 4 KiB EEPROM holds the reservation ring,
 * GPIOR0..2 talk to tools/avr-run (exit status, cycle regions). On a real
 * Arduino Mega the same UART reaches the host through the USB bridge; see
 * Documentation/embedded.rst.
 */
#include <avr/eeprom.h>
#include <avr/io.h>
#include <avr/pgmspace.h>

#include "board.h"
#include "nvstate.h"
#include "avr-run.h"

/* The whole EEPROM: 64 slots of 64 bytes. */
#define AVR_NV_SLOTS ((E2END + 1) / NV_SLOT_SIZE)

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

int board_nv_read(uint32_t off, uint8_t *p, uint32_t n)
{
	if (off + n > E2END + 1UL)
		return -1;
	eeprom_read_block(p, (const void *)(uint16_t)off, (size_t)n);
	return 0;
}

/* EEPROM cells are rewritten in place (erase + write per byte). */
int board_nv_program(uint32_t off, const uint8_t *p, uint32_t n)
{
	if (off + n > E2END + 1UL)
		return -1;
	eeprom_update_block(p, (void *)(uint16_t)off, (size_t)n);
	eeprom_busy_wait();
	return 0;
}

int board_nv_erase_sector(uint32_t sector)
{
	(void)sector;
	return 0;
}

uint32_t board_nv_slots(void)
{
	return AVR_NV_SLOTS;
}

uint32_t board_nv_sector_slots(void)
{
	return 1;
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
