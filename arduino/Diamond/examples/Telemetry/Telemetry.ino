// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Telemetry: seal one reading per loop() and write the frames to Serial,
 * where `diamondctl open --serial /dev/ttyACM0` verifies and decrypts them.
 *
 * The key: put the header that
 *
 *   diamondctl provision --root root.key --device 7 --suite 2 --agg xor \
 *       --b 1024 --blob dev7.bin --header diamond_key.h --state-dir gw
 *
 * writes beside this sketch. The first boot takes it into the blank EEPROM;
 * every later boot goes on from the state there and ignores it. The key
 * stays in this sketch's flash, and with it every key the board will ever
 * use: fine on the bench, but a board in the field is provisioned with the
 * Provision example (or an EEPROM image) and runs this sketch without the
 * header (Documentation/embedded.rst, "The sender in your firmware").
 *
 * The reading (16 bytes, little-endian): format 2, flags (bit 0: the first
 * after a boot), 0, 0, le32 sample number (epoch * READINGS_PER_EPOCH + i),
 * le16 analogRead(A0), le16 analogRead(A1), le32 millis().
 */
#include <Diamond.h>

#if __has_include("diamond_key.h")
#include "diamond_key.h"
#define KEY diamond_device_blob, sizeof(diamond_device_blob)
#else
#define KEY NULL, 0	/* provisioned already: the EEPROM holds the state */
#endif

#define READING_LEN		16
#define READINGS_PER_EPOCH	8	/* a tag frame every 8 readings */
#ifndef SAMPLE_MS
#define SAMPLE_MS		1000
#endif

static uint8_t window[2048];	/* 22 to 32 readings sealed ahead */
static DiamondSender diamond;
static uint8_t first = 1, in_epoch;

/* A failure: blink the LED @code times, again and again; send nothing. */
static void halt(int code)
{
	pinMode(LED_BUILTIN, OUTPUT);
	for (;;) {
		for (int i = 0; i < -code; i++) {
			digitalWrite(LED_BUILTIN, HIGH);
			delay(150);
			digitalWrite(LED_BUILTIN, LOW);
			delay(150);
		}
		delay(1000);
	}
}

static void put_le(uint8_t *p, uint32_t v, uint8_t n)
{
	while (n--) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
}

static void read_sensor(uint8_t rec[READING_LEN])
{
	uint32_t sample = (uint32_t)diamond.epoch() * READINGS_PER_EPOCH +
			  in_epoch;

	rec[0] = 2;
	rec[1] = first;
	rec[2] = rec[3] = 0;
	put_le(rec + 4, sample, 4);
	put_le(rec + 8, (uint16_t)analogRead(A0), 2);
	put_le(rec + 10, (uint16_t)analogRead(A1), 2);
	put_le(rec + 12, millis(), 4);
	first = 0;
}

void setup()
{
	Serial.begin(115200);
	int rc = diamond.begin(Serial, window, sizeof(window), READING_LEN,
			       KEY, "board=mega2560");
	if (rc)
		halt(rc);
}

void loop()
{
	uint8_t rec[READING_LEN];
	unsigned long start = millis();
	int rc;

	read_sensor(rec);
	rc = diamond.seal(rec, sizeof(rec));
	if (!rc && ++in_epoch == READINGS_PER_EPOCH) {
		rc = diamond.close();
		in_epoch = 0;
	}
	if (rc)
		halt(rc);
	/* Idle until the next sample: seal ahead what the next ones need. */
	while (millis() - start < SAMPLE_MS)
		if (!diamond.idle(1))
			delay(1);
}
