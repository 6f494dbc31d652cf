// SPDX-License-Identifier: GPL-2.0 OR MIT
#include "sensor.h"

#include <diamond/util.h>

/* xorshift32: a cheap, repeatable noise source (not a secret). */
static uint32_t noise(uint32_t x)
{
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

/* Triangle wave of period 256 samples, amplitude +-@amp around 0. */
static int32_t wave(uint32_t sample, int32_t amp)
{
	int32_t p = (int32_t)(sample & 255);

	p = p < 128 ? p : 256 - p;	/* 0..128 */
	return (p - 64) * amp / 64;
}

void sensor_read(uint8_t *rec, size_t len, uint32_t device_id,
		 uint32_t sample, uint8_t flags)
{
	uint32_t n = noise(sample * 2654435761u ^ device_id ^ 0x9e3779b9u);
	int32_t temp = 2150 + wave(sample, 350) + (int32_t)(n & 31) - 16;
	uint32_t hum = (uint32_t)(4500 - wave(sample + 64, 900)) + ((n >> 5) & 63);
	uint32_t pres = 101325u + (uint32_t)(wave(sample / 4, 400) + 400) +
			((n >> 11) & 15);
	size_t i;

	rec[0] = 1;
	rec[1] = flags;
	rec[2] = 0;
	rec[3] = 0;
	dmd_store32_le(rec + 4, sample);
	rec[8] = (uint8_t)temp;
	rec[9] = (uint8_t)((uint32_t)temp >> 8);
	rec[10] = (uint8_t)hum;
	rec[11] = (uint8_t)(hum >> 8);
	dmd_store32_le(rec + 12, pres);
	for (i = SENSOR_RECORD_MIN; i < len; i++)
		rec[i] = (uint8_t)(rec[i % SENSOR_RECORD_MIN] ^ (uint8_t)i);
}
