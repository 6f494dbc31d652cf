# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# avr-run: ATmega2560 runner on libsimavr (cycle exact). See
# tools/avr-run/avr-run.h for the firmware conventions.

AVR_RUN      := $(BUILD)/tools/avr-run
AVR_RUN_SRC  := $(TOP)/tools/avr-run
# simavr.pc names libelf as Requires.private; without libelf-dev pkg-config
# fails, so fall back to the known paths. The shared libsimavr pulls in
# libelf.so.1 itself.
SIMAVR_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags simavr 2>/dev/null || echo -I/usr/include/simavr))
SIMAVR_LIBS   := $(shell pkg-config --libs simavr 2>/dev/null || echo -lsimavr)

AVR_CC       ?= avr-gcc
AVR_FWFLAGS  := -mmcu=atmega2560 -DF_CPU=16000000UL -Os -g -std=gnu11 \
		-Wall -Wextra -Werror -I$(AVR_RUN_SRC)

.PHONY: avr-run
all: avr-run
avr-run: $(AVR_RUN)

$(AVR_RUN): $(AVR_RUN_SRC)/avr-run.c $(AVR_RUN_SRC)/avr-run.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(SIMAVR_CFLAGS) -o $@ $< $(SIMAVR_LIBS)

$(BUILD)/tools/avr-run-selftest.elf: $(AVR_RUN_SRC)/selftest_fw.c $(AVR_RUN_SRC)/avr-run.h
	@mkdir -p $(dir $@)
	$(AVR_CC) $(AVR_FWFLAGS) -o $@ $<

$(BUILD)/tools/avr-run-selftest-ret.elf: $(AVR_RUN_SRC)/selftest_fw.c $(AVR_RUN_SRC)/avr-run.h
	@mkdir -p $(dir $@)
	$(AVR_CC) $(AVR_FWFLAGS) -DEXIT_BY_RETURN -o $@ $<
