// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Provision: take a device's key blob into the board's blank EEPROM, then
 * stop. Put the header that `diamondctl provision ... --header
 * diamond_key.h` writes beside this sketch, upload it once, read the line
 * it prints on Serial (115200 baud), then upload your telemetry sketch
 * without the header: the key is then in EEPROM only, and leaves it as the
 * board's epochs move on (forward security), which a copy in flash would
 * not. Delete diamond_key.h and dev*.bin afterwards: the same key in a
 * second board, or in this one after its EEPROM is erased, would reuse
 * keys (Documentation/embedded.rst, "The sender in your firmware").
 */
#include <Diamond.h>

#include "diamond_key.h"

void setup()
{
	Serial.begin(115200);
	int rc = nv_provision(diamond_device_blob, sizeof(diamond_device_blob));

	switch (rc) {
	case DMD_OK:
		Serial.println(F("diamond: key stored in EEPROM; now upload "
				 "the telemetry sketch without diamond_key.h"));
		break;
	case NV_IN_USE:
		Serial.println(F("diamond: EEPROM in use, left alone (a used "
				 "board is never provisioned again)"));
		break;
	default:
		Serial.println(F("diamond: the key blob does not parse"));
	}
}

void loop()
{
}
