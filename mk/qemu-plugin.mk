# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# insn-count.so: QEMU TCG plugin counting executed guest instructions,
# pc-histogram.so: per-address counts for tools/bench/kernel-profile.sh, and
# the Cortex-M4 (mps2-an386) self-test firmware that tools/m4-run runs.

INSN_COUNT_SO := $(BUILD)/tools/insn-count.so
PC_HIST_SO    := $(BUILD)/tools/pc-histogram.so
QPLUGIN_SRC   := $(TOP)/tools/qemu-plugin
GLIB_CFLAGS   := $(shell pkg-config --cflags glib-2.0 2>/dev/null)

M4_CC      ?= arm-none-eabi-gcc
M4_CFLAGS  := -mcpu=cortex-m4 -mthumb -Os -g -std=c11 -Wall -Wextra -Werror \
	      -ffreestanding -nostdlib -I$(QPLUGIN_SRC)
M4_LDFLAGS := -T $(QPLUGIN_SRC)/mps2-an386.ld -Wl,--gc-sections
M4_SELFTEST_ELF := $(BUILD)/tools/m4-selftest.elf

.PHONY: qemu-plugin
all: qemu-plugin
qemu-plugin: $(INSN_COUNT_SO) $(PC_HIST_SO)

$(BUILD)/tools/%.so: $(QPLUGIN_SRC)/%.c $(QPLUGIN_SRC)/qemu-plugin-api.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -shared -fPIC -fvisibility=hidden $(GLIB_CFLAGS) -o $@ $<

$(M4_SELFTEST_ELF): $(QPLUGIN_SRC)/selftest_fw.c $(QPLUGIN_SRC)/m4-startup.c \
		    $(QPLUGIN_SRC)/m4-semihost.h $(QPLUGIN_SRC)/mps2-an386.ld
	@mkdir -p $(dir $@)
	$(M4_CC) $(M4_CFLAGS) $(M4_LDFLAGS) -o $@ \
		$(QPLUGIN_SRC)/m4-startup.c $(QPLUGIN_SRC)/selftest_fw.c -lgcc
