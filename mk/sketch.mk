# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The Arduino library (arduino/Diamond, issue 33): the two-file sender
# (mk/sender.mk) with an Arduino class, for the Mega 2560, built with
# Debian's Arduino toolchain (arduino-builder, arduino-core-avr).
#
#   make arduino-lib      build/arduino/libraries/Diamond, the library as
#                         the IDE installs it (arduino/Diamond plus
#                         dist/sender/), and build/arduino/Diamond.zip for
#                         Sketch > Include Library > Add .ZIP Library
#   make check-arduino    the Telemetry example with a provisioned key,
#                         built by arduino-builder, runs in simavr through
#                         a power loss; its UART goes through lossy-link
#                         into the gateway (diamondctl open, software
#                         path), which releases every reading of every
#                         completed epoch with the expected plaintext
#                         (the kernel path: check-fw-interop, whose VM
#                         opens a Telemetry device too)

ARD_SRC   := $(TOP)/arduino/Diamond
ARD_BUILD := $(BUILD)/arduino
ARD_LIB   := $(ARD_BUILD)/libraries/Diamond
ARD_STAMP := $(ARD_BUILD)/Diamond.stamp
ARD_ZIP   := $(ARD_BUILD)/Diamond.zip
ARD_FILES := $(shell find $(ARD_SRC) -type f 2>/dev/null)
# Debian's arduino-core-avr 1.8.7 and gcc-avr 5.4: WString.cpp needs
# DECIMAL_DIG, which gcc 5's <float.h> gives C99 and later but not C++.
ARDUINO_BUILDER := arduino-builder -hardware /usr/share/arduino/hardware \
	-hardware /usr/share/arduino-builder -tools /usr/share/arduino-builder \
	-fqbn arduino:avr:mega:cpu=atmega2560 -warnings all \
	-prefs=compiler.cpp.extra_flags=-DDECIMAL_DIG=__DECIMAL_DIG__

.PHONY: arduino-lib check-arduino
arduino-lib: $(ARD_ZIP)

$(ARD_STAMP): $(ARD_FILES) $(AMALG_FILES)
	@rm -rf $(ARD_LIB) && mkdir -p $(ARD_LIB)
	@cp -r $(ARD_SRC)/. $(ARD_LIB)/
	@cp $(AMALG_FILES) $(ARD_LIB)/src/
	@touch $@

$(ARD_ZIP): $(ARD_STAMP)
	@rm -f $@
	@cd $(ARD_BUILD)/libraries && python3 -m zipfile -c $@ Diamond
	@echo "arduino-lib: $(ARD_LIB) and $@"

CHECK_SUITES += arduino
check-arduino: $(ARD_STAMP) $(BUILD)/userspace/diamondctl $(LOSSY) $(AVR_RUN) \
	       $(FW_NV) $(FRAME_CHECK)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) ARDUINO_BUILDER="$(ARDUINO_BUILDER)" \
		$(TOP)/selftests/arduino/telemetry.sh >$(TAPDIR)/arduino.tap; \
		rc=$$?; cat $(TAPDIR)/arduino.tap; exit $$rc

# --- sizes (not a test: the table of Documentation/embedded.rst) ----------
# The Telemetry example without a key header (a provisioned board) and a
# sketch of the Arduino core alone, built as check-arduino builds them.
ARD_SIZE_SKETCHES := $(ARD_BUILD)/size/Telemetry/Telemetry.ino.elf \
		     $(ARD_BUILD)/size/SerialOnly/SerialOnly.ino.elf
$(ARD_BUILD)/size/Telemetry/Telemetry.ino.elf: $(ARD_STAMP)
$(ARD_BUILD)/size/SerialOnly/SerialOnly.ino.elf: $(TOP)/tools/size-table/SerialOnly/SerialOnly.ino
$(ARD_SIZE_SKETCHES):
	@rm -rf $(@D) && mkdir -p $(@D)
	@$(ARDUINO_BUILDER) -libraries $(ARD_BUILD)/libraries -build-path $(@D) \
		$(if $(filter %/Telemetry.ino.elf,$@),$(ARD_LIB)/examples/Telemetry/Telemetry.ino,$<) \
		>$(@D).log 2>&1 || { cat $(@D).log; exit 1; }

# One row per firmware: TARGET:ELF:WINDOW:LABEL (tools/size-table/).
.PHONY: size-table
size-table: $(FW_AVR_SENDER) $(FW_M4_SENDER) $(ARD_SIZE_SKETCHES) \
	    $(AMALG_BUILD)/avr/sender-d1.elf $(AMALG_BUILD)/avr/sender-d2.elf \
	    $(AMALG_BUILD)/m4/sender-d2.elf
	@$(TOP)/tools/size-table/size-table.sh \
	"avr:$(EMB_BUILD)/avr/sender-d1.elf:$(AVR_WINDOW):AVR sensor, core + AVR assembly, D1" \
	"avr:$(EMB_BUILD)/avr/sender-d2.elf:$(AVR_WINDOW):AVR sensor, core + AVR assembly, D2" \
	"avr:$(AMALG_BUILD)/avr/sender-d1.elf:$(AVR_WINDOW):AVR sensor, diamond-sender.c, D1" \
	"avr:$(AMALG_BUILD)/avr/sender-d2.elf:$(AVR_WINDOW):AVR sensor, diamond-sender.c, D2" \
	"avr:$(ARD_BUILD)/size/Telemetry/Telemetry.ino.elf:2048:Arduino Telemetry (library + core)" \
	"avr:$(ARD_BUILD)/size/SerialOnly/SerialOnly.ino.elf:0:Arduino core alone (SerialOnly)" \
	"m4:$(EMB_BUILD)/m4/sender-d1.elf:$(M4_WINDOW):M4 sensor, core, D1" \
	"m4:$(EMB_BUILD)/m4/sender-d2.elf:$(M4_WINDOW):M4 sensor, core, D2" \
	"m4:$(AMALG_BUILD)/m4/sender-d2.elf:$(M4_WINDOW):M4 sensor, diamond-sender.c, D2"
