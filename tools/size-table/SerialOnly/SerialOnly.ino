// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The Arduino core alone, as the Telemetry example uses it (Serial,
 * millis, analogRead, delay): the baseline of make size-table's "Arduino
 * core" row, so the table can say what the library itself costs.
 */
void setup()
{
	Serial.begin(115200);
}

void loop()
{
	uint8_t b[4] = { (uint8_t)analogRead(A0), (uint8_t)analogRead(A1),
			 (uint8_t)millis(), 0 };

	Serial.write(b, sizeof(b));
	delay(1);
}
