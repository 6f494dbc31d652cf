# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The two-file sender (dist/sender/diamond-sender.[ch], issue 33): the
# portable core, the reservation store and the device's send loop in one
# translation unit, for a firmware with a plain Makefile.
#
#   make amalgamate        regenerate dist/sender/ (committed, like the AVR
#                          assembly: make check fails on a stale copy)
#   make check-amalgamate  staleness; diamond-sender.c compiled alone
#                          (no -I) for the host, the ATmega2560 and the
#                          Cortex-M4; the known answers on each
#                          (host, simavr, qemu); the sensor firmware on it
#                          sends, on the host and the AVR, byte for byte
#                          what the core's firmware sends, and it verifies;
#                          so does the packet-mode firmware (psender_main.c)
#
# Read after mk/embedded.mk (the names sort so): its boards, flags and
# known-answer headers are expanded here when the rules are made.

AMALG_DIR   := $(TOP)/dist/sender
AMALG_GEN   := $(TOP)/tools/amalgamate/amalgamate.py
AMALG_FILES := $(AMALG_DIR)/diamond-sender.c $(AMALG_DIR)/diamond-sender.h
AMALG_BUILD := $(BUILD)/amalg
# <diamond/core.h> and <diamond/util.h> for the test programs (kat_main.c,
# sender_main.c), each only an #include of diamond-sender.h: they reach
# the sender through the amalgamation's header and nothing else.
AMALG_SHIM  := $(AMALG_BUILD)/shim
AMALG_SHIMS := $(AMALG_SHIM)/diamond/core.h $(AMALG_SHIM)/diamond/util.h

# The amalgamation alone: no -I, no project header.
AMALG_WARN       := -std=c11 -Wall -Wextra -Werror -O2
amalg_flags_host := $(AMALG_WARN) -g
amalg_flags_avr  := $(AMALG_WARN) -mmcu=atmega2560 -DF_CPU=16000000UL \
		    -ffreestanding -ffunction-sections -fdata-sections
amalg_flags_m4   := $(AMALG_WARN) -mcpu=cortex-m4 -mthumb -ffreestanding \
		    -ffunction-sections -fdata-sections
amalg_cc_host    = $(CC)
amalg_cc_avr     = avr-gcc
amalg_cc_m4      = arm-none-eabi-gcc
# The test programs around it: the boards and firmware of embedded/.
amalg_inc     = -I$(AMALG_SHIM) -I$(AMALG_DIR) -I$(EMB)/common
amalg_fw_host = $(amalg_inc) -DBOARD_NAME='"atmega2560"'
amalg_fw_avr  = $(amalg_inc) -I$(TOP)/tools/avr-run -DBOARD_NAME='"atmega2560"'
amalg_fw_m4   = $(amalg_inc) -I$(TOP)/tools/qemu-plugin -DBOARD_NAME='"mps2-an386"'
amalg_ld_host =
amalg_ld_avr  = -Wl,--gc-sections
amalg_ld_m4   = $(EMB_M4_LD) -lgcc
AMALG_BOARD_host := $(EMB)/host/board.c
AMALG_BOARD_avr  := $(EMB)/avr/board.c
AMALG_BOARD_m4   := $(EMB)/m4/board.c $(EMB)/m4/mem.c $(TOP)/tools/qemu-plugin/m4-startup.c
# Known answers per target: the largest body each fits (mk/embedded.mk).
AMALG_KAT_host := m4
AMALG_KAT_avr  := avr
AMALG_KAT_m4   := m4
AMALG_KATMAX_host := $(M4_KAT_MAX)
AMALG_KATMAX_avr  := $(AVR_KAT_MAX)
AMALG_KATMAX_m4   := $(M4_KAT_MAX)
AMALG_WINDOW_host := $(AVR_WINDOW)
AMALG_WINDOW_avr  := $(AVR_WINDOW)
AMALG_WINDOW_m4   := $(M4_WINDOW)

.PHONY: amalgamate check-amalgamate
amalgamate:
	@python3 $(AMALG_GEN) $(AMALG_DIR)

$(AMALG_SHIMS):
	@mkdir -p $(@D)
	@printf '/* make check-amalgamate: the API through the amalgamation */\n#include "diamond-sender.h"\n' >$@

define amalg_rules
$(AMALG_BUILD)/$(1)/diamond-sender.o: $(AMALG_FILES)
	@mkdir -p $$(@D)
	$$(amalg_cc_$(1)) $$(amalg_flags_$(1)) -c -o $$@ $$<

$(AMALG_BUILD)/$(1)/kat-d%.elf: $(EMB)/common/kat_main.c \
		$(EMB_BUILD)/$(AMALG_KAT_$(1))/kat-d%/kat-vectors.h \
		$(AMALG_BUILD)/$(1)/diamond-sender.o $(AMALG_BOARD_$(1)) $(AMALG_SHIMS)
	$$(amalg_cc_$(1)) $$(amalg_flags_$(1)) $$(amalg_fw_$(1)) \
		-I$(EMB_BUILD)/$(AMALG_KAT_$(1))/kat-d$$* \
		-DKAT_MAX_BODY=$(AMALG_KATMAX_$(1)) -DKAT_SUITE_NAME='"$$*"' \
		-o $$@ $$< $(AMALG_BOARD_$(1)) $(AMALG_BUILD)/$(1)/diamond-sender.o \
		$$(amalg_ld_$(1))

$(AMALG_BUILD)/$(1)/sender-d%.elf: $(EMB)/common/sender_main.c $(EMB)/common/sensor.c \
		$(AMALG_BUILD)/$(1)/diamond-sender.o $(AMALG_BOARD_$(1)) $(AMALG_SHIMS)
	$$(amalg_cc_$(1)) $$(amalg_flags_$(1)) $$(amalg_fw_$(1)) -DSENDER_SUITE=$$* \
		-DWINDOW_BYTES=$(AMALG_WINDOW_$(1)) $(FW_SENDER_DEFS) \
		-o $$@ $$< $(EMB)/common/sensor.c $(AMALG_BOARD_$(1)) \
		$(AMALG_BUILD)/$(1)/diamond-sender.o $$(amalg_ld_$(1))

$(AMALG_BUILD)/$(1)/psender-d%.elf: $(EMB)/common/psender_main.c $(EMB)/common/sensor.c \
		$(AMALG_BUILD)/$(1)/diamond-sender.o $(AMALG_BOARD_$(1)) $(AMALG_SHIMS)
	$$(amalg_cc_$(1)) $$(amalg_flags_$(1)) $$(amalg_fw_$(1)) -DSENDER_SUITE=$$* \
		$$(FW_PKT_$$*) -DWINDOW_BYTES=$(AMALG_WINDOW_$(1)) $(FW_PKT_DEFS) \
		-o $$@ $$< $(EMB)/common/sensor.c $(AMALG_BOARD_$(1)) \
		$(AMALG_BUILD)/$(1)/diamond-sender.o $$(amalg_ld_$(1))
endef
$(foreach t,host avr m4,$(eval $(call amalg_rules,$(t))))

.SECONDARY: $(foreach t,avr m4,$(foreach s,$(FW_SUITES),$(EMB_BUILD)/$(t)/kat-d$(s)/kat-vectors.h))

AMALG_KATS    := $(foreach t,host avr m4,$(foreach s,$(FW_SUITES),$(AMALG_BUILD)/$(t)/kat-d$(s).elf))
AMALG_SENDERS := $(foreach t,host avr,$(foreach s,$(FW_SUITES),$(AMALG_BUILD)/$(t)/sender-d$(s).elf \
		   $(AMALG_BUILD)/$(t)/psender-d$(s).elf))

CHECK_SUITES += amalgamate
check-amalgamate: $(AMALG_KATS) $(AMALG_SENDERS) $(FW_AVR_SENDER) $(AVR_RUN) \
		  $(FW_NV) $(FRAME_CHECK) $(FW_AVR_PSENDER) $(PKT_CHECK)
	@mkdir -p $(TAPDIR)
	@rc=0; for t in host avr m4; do \
		BUILD=$(BUILD) $(EMB)/tests/kat.sh $$t $(foreach s,$(FW_SUITES),$(AMALG_BUILD)/$$t/kat-d$(s).elf) \
			>$(TAPDIR)/amalgamate-kat-$$t.tap || rc=1; \
		tail -n 1 $(TAPDIR)/amalgamate-kat-$$t.tap; \
	done; \
	BUILD=$(BUILD) $(EMB)/tests/amalgamate.sh >$(TAPDIR)/amalgamate.tap || rc=1; \
	cat $(TAPDIR)/amalgamate.tap; exit $$rc
