// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The build machine as a board (board.h), for the two-file sender's tests
 * (make check-amalgamate): the firmware's main loops run on the host
 * against dist/sender/ alone. Link and console are stdout, as UART0 is
 * both on the AVR. NV is an EEPROM of the ATmega2560's size and rules in
 * the file named by $DMD_NV (an `fw-nv image avr` image), read at init and
 * written back at exit, so the AVR firmware's images and checks apply.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "nvstate.h"

#define EEPROM_BYTES	4096u

static uint8_t eeprom[EEPROM_BYTES];

void board_init(void)
{
	const char *path = getenv("DMD_NV");
	FILE *f;

	memset(eeprom, 0xff, sizeof(eeprom));
	if (path && (f = fopen(path, "rb"))) {
		if (fread(eeprom, 1, sizeof(eeprom), f) != sizeof(eeprom))
			memset(eeprom, 0xff, sizeof(eeprom));
		fclose(f);
	}
}

void board_out(const uint8_t *p, size_t n)
{
	fwrite(p, 1, n, stdout);
}

void board_puts(const char *s)
{
	fputs(s, stdout);
}

/* Power off: what the EEPROM holds survives, as on the device. */
void board_exit(int code)
{
	const char *path = getenv("DMD_NV");
	FILE *f;

	fflush(stdout);
	if (path && (f = fopen(path, "wb"))) {
		if (fwrite(eeprom, 1, sizeof(eeprom), f) != sizeof(eeprom))
			code = code ? code : 99;
		if (fclose(f))
			code = code ? code : 99;
	}
	exit(code);
}

int board_nv_read(uint32_t off, uint8_t *p, uint32_t n)
{
	if (off > EEPROM_BYTES || n > EEPROM_BYTES - off)
		return -1;
	memcpy(p, eeprom + off, n);
	return 0;
}

int board_nv_program(uint32_t off, const uint8_t *p, uint32_t n)
{
	if (off > EEPROM_BYTES || n > EEPROM_BYTES - off)
		return -1;
	memcpy(eeprom + off, p, n);
	return 0;
}

int board_nv_erase_sector(uint32_t sector)
{
	(void)sector;
	return 0;
}

uint32_t board_nv_slots(void)
{
	return EEPROM_BYTES / NV_SLOT_SIZE;
}

uint32_t board_nv_sector_slots(void)
{
	return 1;
}

void board_flash_read(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

void board_mark_start(uint8_t id)
{
	(void)id;
}

void board_mark_stop(uint8_t id)
{
	(void)id;
}
