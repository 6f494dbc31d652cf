// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Diamond for Arduino: the sender of dist/sender/diamond-sender.[ch] (the
 * project's two-file sender, which `make arduino-lib` puts beside this
 * file) behind one class. Documentation/embedded.rst, "The sender in your
 * firmware", is the manual; in short, three calls:
 *
 *   begin()  in setup(): takes the key blob into EEPROM once (a blank
 *            EEPROM only), loads the state, writes the boot preamble;
 *   seal()   per reading: seals it and writes its frame to the link;
 *   close()  ends the epoch: writes its tag frame, after which the
 *            gateway releases the epoch's readings.
 *
 * The state lives in EEPROM (all 4 KiB, a ring of 32 slots). An epoch is
 * reserved there before its first reading is sealed, so a reset at any
 * point costs at most that epoch and never reuses a key. Never restore an
 * old EEPROM image, and never flash a sketch that carries a key blob onto
 * a board whose EEPROM was erased after it ran: either brings back a key
 * that already sealed readings.
 *
 * One DiamondSender per sketch: the link is a class-wide Print.
 */
#ifndef DIAMOND_ARDUINO_H
#define DIAMOND_ARDUINO_H

#include <Arduino.h>

#include "diamond-sender.h"

class DiamondSender {
public:
	/*
	 * @window: the precompute window, a static buffer (2048 bytes holds
	 * 22 to 32 slots of 16-byte readings); @record_len: the usual
	 * reading size, sealed fully ahead of time; @blob, @blob_len: the
	 * key (diamond_device_blob from diamondctl provision --header), or
	 * NULL for a board provisioned by programming its EEPROM; @ad: text
	 * sent and authenticated with every tag (e.g. "board=mega2560").
	 * Returns 0, DMD_EKEY (no key in EEPROM, or a blob that does not
	 * parse) or another DMD_E* code; seals nothing unless it is 0.
	 */
	int begin(Print &link, uint8_t *window, size_t window_size,
		  size_t record_len, const uint8_t *blob, size_t blob_len,
		  const char *ad);
	/* Seal @len bytes at @record in place, send the frame; 0 or DMD_E*. */
	int seal(uint8_t *record, size_t len);
	/* End the epoch and send its tag frame; 0 or DMD_E*. */
	int close();
	/* Refill up to @slots window slots while waiting; returns how many. */
	size_t idle(size_t slots = 2);
	/* The epoch the next reading goes into. */
	uint64_t epoch() const;
	uint32_t deviceId() const;
	/* Erase the keys and the window (before power-down or a reset). */
	void end();

private:
	struct dmd_device dev_;
	static Print *link_;
	static void write(const uint8_t *p, size_t n);
};

#endif
