/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Simulated environmental sensor: deterministic readings, a pure function
 * of the device id and the sample number, so every run of the emulator and
 * every checker agrees on what was measured.
 *
 * Record layout (16 bytes, little-endian; 128-byte records repeat it with
 * a fill pattern so both benchmark sizes carry real readings):
 *   0  u8   format (1)
 *   1  u8   sensor flags (bit 0: first sample after a boot)
 *   2  le16 reserved (0)
 *   4  le32 sample number (epoch * records_per_epoch + j)
 *   8  le16 temperature, centi-degrees Celsius, signed
 *   10 le16 relative humidity, centi-percent
 *   12 le32 pressure, pascal
 */
#ifndef DIAMOND_EMBEDDED_SENSOR_H
#define DIAMOND_EMBEDDED_SENSOR_H

#include <stddef.h>
#include <stdint.h>

#define SENSOR_RECORD_MIN 16

void sensor_read(uint8_t *rec, size_t len, uint32_t device_id,
		 uint32_t sample, uint8_t flags);

#endif
