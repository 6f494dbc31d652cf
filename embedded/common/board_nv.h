/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The non-volatile store a board gives the reservation ring (nvstate.c):
 * the port a firmware implements to keep the device's state. Apart from
 * board.h because the amalgamation (dist/sender/) and the Arduino library
 * carry the ring, and with it these hooks, without the emulator boards.
 */
#ifndef DIAMOND_EMBEDDED_BOARD_NV_H
#define DIAMOND_EMBEDDED_BOARD_NV_H

#include <stdint.h>

/*
 * Non-volatile store of NV_SLOTS slots of NV_SLOT_SIZE bytes, erased in
 * units of NV_SECTOR_SLOTS slots. Programming may only clear bits of an
 * erased (0xff) or partly programmed byte on flash; EEPROM rewrites bytes
 * freely and has NV_SECTOR_SLOTS = 1 with a no-op erase. Return 0 or -1.
 */
int board_nv_read(uint32_t off, uint8_t *p, uint32_t n);
int board_nv_program(uint32_t off, const uint8_t *p, uint32_t n);
int board_nv_erase_sector(uint32_t sector);
uint32_t board_nv_slots(void);
uint32_t board_nv_sector_slots(void);

#endif
