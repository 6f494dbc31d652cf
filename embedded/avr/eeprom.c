// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ATmega's EEPROM as the reservation ring's store (board_nv.h): the
 * whole 4 KiB of the ATmega2560, 32 slots. The AVR firmware's, and on the
 * AVR the two-file sender's (dist/sender/) and so the Arduino library's:
 * there the functions are weak, and a firmware that keeps its state
 * elsewhere defines its own board_nv_*(). Nothing here outside the AVR,
 * so the amalgamation compiles everywhere.
 */
#ifdef __AVR__
#include <avr/eeprom.h>
#include <avr/io.h>

#include "board_nv.h"
#include "nvstate.h"

#define DMD_NV_WEAK __attribute__((weak))
#define AVR_NV_SLOTS ((E2END + 1) / NV_SLOT_SIZE)

DMD_NV_WEAK int board_nv_read(uint32_t off, uint8_t *p, uint32_t n)
{
	if (off + n > E2END + 1UL)
		return -1;
	eeprom_read_block(p, (const void *)(uint16_t)off, (size_t)n);
	return 0;
}

/* EEPROM cells are rewritten in place (erase + write per byte). */
DMD_NV_WEAK int board_nv_program(uint32_t off, const uint8_t *p, uint32_t n)
{
	if (off + n > E2END + 1UL)
		return -1;
	eeprom_update_block(p, (void *)(uint16_t)off, (size_t)n);
	eeprom_busy_wait();
	return 0;
}

DMD_NV_WEAK int board_nv_erase_sector(uint32_t sector)
{
	(void)sector;
	return 0;
}

DMD_NV_WEAK uint32_t board_nv_slots(void)
{
	return AVR_NV_SLOTS;
}

DMD_NV_WEAK uint32_t board_nv_sector_slots(void)
{
	return 1;
}
#endif
