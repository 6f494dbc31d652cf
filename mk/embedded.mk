# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Firmware for the emulated senders (embedded/, Documentation/embedded.rst):
# ATmega2560 under simavr (tools/avr-run) and Cortex-M4 mps2-an386 under
# qemu (tools/m4-run), each for both suites, linking the portable core
# (the board's archive, mk/core-lib.mk).
#
#   make firmware         sensor, KAT and benchmark firmware for both boards
#   make check-fw-kat-*   known answers on each target (TAP from the device)
#   make check-fw-reset   >= 100 random power losses on the AVR (and M4)
#   make check-fw-interop firmware frames through the gateway (diamondctl)
#   make check-fw-frame   frame-check accepts and rejects what core/frame.c does
#   make check-fw-packet  packet-mode firmware (spec 14) against the core, power cuts
#   make bench-embedded   cycles / instructions per message (not a test)

EMB        := $(TOP)/embedded
EMB_BUILD  := $(BUILD)/embedded
EMB_HOST   := $(EMB_BUILD)/host
CORE_HDRS  := $(wildcard $(TOP)/core/*.h) $(wildcard $(TOP)/include/diamond/*.h)
EMB_COMMON := $(EMB)/common/nvstate.c $(EMB)/common/device.c $(EMB)/common/pdevice.c \
	      $(EMB)/common/sensor.c
EMB_HDRS   := $(wildcard $(EMB)/common/*.h) $(CORE_HDRS)
VECTORS    := $(TOP)/vectors/diamond.txt

# --- host tools -----------------------------------------------------------
KAT_GEN     := $(EMB_HOST)/kat-gen
FW_NV       := $(EMB_HOST)/fw-nv
FRAME_CHECK := $(EMB_HOST)/frame-check

$(KAT_GEN): $(EMB)/tools/kat-gen.c $(TOP)/selftests/lib/vecfile.c $(TOP)/selftests/lib/vecfile.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -o $@ $< $(TOP)/selftests/lib/vecfile.c

$(FW_NV): $(EMB)/tools/fw-nv.c $(EMB)/common/nvstate.c $(CORE_LIB_host) $(EMB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -I$(EMB)/common -o $@ $< $(EMB)/common/nvstate.c $(CORE_LIB_host)

$(FRAME_CHECK): $(EMB)/tools/frame-check.c $(CORE_LIB_host) $(EMB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -o $@ $< $(CORE_LIB_host)

PKT_CHECK := $(EMB_HOST)/pkt-check
$(PKT_CHECK): $(EMB)/tools/pkt-check.c $(EMB)/common/sensor.c $(CORE_LIB_host) $(EMB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -I$(EMB)/common -o $@ $< $(EMB)/common/sensor.c $(CORE_LIB_host)

# --- AVR (ATmega2560) -----------------------------------------------------
# The core archive (mk/core-lib.mk) carries the AVR-tuned primitives
# (embedded/avr/prims/, C and assembly) in place of their portable twins.
EMB_AVR_CFLAGS := -mmcu=atmega2560 -DF_CPU=16000000UL -std=c11 -Wall -Wextra \
	-Werror -ffreestanding -ffunction-sections -fdata-sections $(DMD_INC) \
	-I$(EMB)/common -I$(TOP)/tools/avr-run -DBOARD_NAME='"atmega2560"'
EMB_AVR_OPT    := -O2
EMB_AVR_LD     := -Wl,--gc-sections
AVR_WINDOW     := 2048
AVR_KAT_MAX    := 1100
AVR_SRC        := $(EMB)/avr/board.c $(EMB)/avr/eeprom.c $(EMB_COMMON)

# --- Cortex-M4 (mps2-an386) -----------------------------------------------
EMB_M4_CFLAGS := -mcpu=cortex-m4 -mthumb -std=c11 -Wall -Wextra -Werror \
	-ffreestanding -ffunction-sections -fdata-sections $(DMD_INC) \
	-I$(EMB)/common -I$(TOP)/tools/qemu-plugin -DBOARD_NAME='"mps2-an386"'
EMB_M4_OPT    := -O2
EMB_M4_LD     := -nostdlib -T $(TOP)/tools/qemu-plugin/mps2-an386.ld -Wl,--gc-sections
M4_WINDOW     := 16384
M4_KAT_MAX    := 4200
M4_SRC        := $(EMB)/m4/board.c $(EMB)/m4/mem.c $(TOP)/tools/qemu-plugin/m4-startup.c \
		 $(EMB_COMMON)

FW_SUITES := 1 2
FW_AVR_SENDER := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/avr/sender-d$(s).elf)
FW_M4_SENDER  := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/m4/sender-d$(s).elf)
FW_AVR_KAT    := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/avr/kat-d$(s).elf)
# RFC 8439 answers for the AVR ChaCha20 / Poly1305, FIPS-197 and SP 800-38A
# answers for the AVR AES-128, GCM-spec answers for the AVR GHASH
# (embedded/avr/prims/kat/)
FW_AVR_KAT_PRIMS := $(EMB_BUILD)/avr/kat-chacha20-poly1305.elf \
		    $(EMB_BUILD)/avr/kat-aes128.elf $(EMB_BUILD)/avr/kat-ghash.elf
FW_M4_KAT     := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/m4/kat-d$(s).elf)
FW_BENCH_LENS := 16 128
FW_AVR_BENCH  := $(foreach s,$(FW_SUITES),$(foreach l,$(FW_BENCH_LENS),$(EMB_BUILD)/avr/bench-d$(s)-$(l).elf))
FW_M4_BENCH   := $(foreach s,$(FW_SUITES),$(foreach l,$(FW_BENCH_LENS),$(EMB_BUILD)/m4/bench-d$(s)-$(l).elf))

# Sensor firmware: short epochs (8 records) under b = 1024, 4 epochs a boot.
FW_SENDER_DEFS := -DREC_LEN=16 -DRECORDS_PER_EPOCH=8 -DEPOCHS_PER_BOOT=4

$(EMB_BUILD)/avr/sender-d%.elf: $(EMB)/common/sender_main.c $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -DSENDER_SUITE=$* \
		-DWINDOW_BYTES=$(AVR_WINDOW) $(FW_SENDER_DEFS) $(EMB_AVR_LD) -o $@ \
		$< $(AVR_SRC) $(CORE_LIB_avr)

$(EMB_BUILD)/m4/sender-d%.elf: $(EMB)/common/sender_main.c $(M4_SRC) $(CORE_LIB_m4) $(EMB_HDRS)
	@mkdir -p $(@D)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -DSENDER_SUITE=$* \
		-DWINDOW_BYTES=$(M4_WINDOW) $(FW_SENDER_DEFS) $(EMB_M4_LD) -o $@ \
		$< $(M4_SRC) $(CORE_LIB_m4) -lgcc

# Packet-mode sensor firmware (spec section 14; psender_main.c): the radio
# configuration (address width A, short address) is given at build time,
# beside the key in NV; one width per suite so both are built and tested.
# 40 records a boot cross an epoch of b = 32 (the tests' keys).
FW_PKT_1 := -DPKT_A=1 -DPKT_ADDR=0x05
FW_PKT_2 := -DPKT_A=3 -DPKT_ADDR=0x0c0b0a
FW_PKT_DEFS := -DREC_LEN=16 -DRECORDS_PER_BOOT=40
FW_AVR_PSENDER := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/avr/psender-d$(s).elf)
FW_M4_PSENDER  := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/m4/psender-d$(s).elf)
FW_HOST_PSENDER := $(foreach s,$(FW_SUITES),$(EMB_HOST)/psender-d$(s))

$(EMB_BUILD)/avr/psender-d%.elf: $(EMB)/common/psender_main.c $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -DSENDER_SUITE=$* $(FW_PKT_$*) \
		-DWINDOW_BYTES=$(AVR_WINDOW) $(FW_PKT_DEFS) $(EMB_AVR_LD) -o $@ \
		$< $(AVR_SRC) $(CORE_LIB_avr)

$(EMB_BUILD)/m4/psender-d%.elf: $(EMB)/common/psender_main.c $(M4_SRC) $(CORE_LIB_m4) $(EMB_HDRS)
	@mkdir -p $(@D)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -DSENDER_SUITE=$* $(FW_PKT_$*) \
		-DWINDOW_BYTES=$(M4_WINDOW) $(FW_PKT_DEFS) $(EMB_M4_LD) -o $@ \
		$< $(M4_SRC) $(CORE_LIB_m4) -lgcc

# The same firmware on the build machine (embedded/host/board.c: link on
# stdout, NV in $$DMD_NV) and the host's core: the portable core's packets.
$(EMB_HOST)/psender-d%: $(EMB)/common/psender_main.c $(EMB)/host/board.c \
		$(EMB)/common/nvstate.c $(EMB)/common/pdevice.c \
		$(EMB)/common/sensor.c $(CORE_LIB_host) $(EMB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -I$(EMB)/common -DSENDER_SUITE=$* $(FW_PKT_$*) \
		-DWINDOW_BYTES=$(AVR_WINDOW) $(FW_PKT_DEFS) -o $@ $< \
		$(EMB)/host/board.c $(EMB)/common/nvstate.c $(EMB)/common/pdevice.c \
		$(EMB)/common/sensor.c $(CORE_LIB_host)

# Known-answer firmware: the header is generated from the vector file.
$(EMB_BUILD)/avr/kat-d%.h: $(VECTORS) $(KAT_GEN)
	@mkdir -p $(@D)
	$(KAT_GEN) $* $(AVR_KAT_MAX) $< > $@.tmp && mv $@.tmp $@

$(EMB_BUILD)/m4/kat-d%.h: $(VECTORS) $(KAT_GEN)
	@mkdir -p $(@D)
	$(KAT_GEN) $* $(M4_KAT_MAX) $< > $@.tmp && mv $@.tmp $@

$(EMB_BUILD)/avr/kat-d%/kat-vectors.h: $(EMB_BUILD)/avr/kat-d%.h
	@mkdir -p $(@D)
	cp $< $@

$(EMB_BUILD)/m4/kat-d%/kat-vectors.h: $(EMB_BUILD)/m4/kat-d%.h
	@mkdir -p $(@D)
	cp $< $@

$(EMB_BUILD)/avr/kat-d%.elf: $(EMB)/common/kat_main.c $(EMB_BUILD)/avr/kat-d%/kat-vectors.h $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -I$(EMB_BUILD)/avr/kat-d$* \
		-DKAT_MAX_BODY=$(AVR_KAT_MAX) -DKAT_SUITE_NAME='"$*"' \
		$(EMB_AVR_LD) -o $@ $< $(AVR_SRC) $(CORE_LIB_avr)

$(EMB_BUILD)/m4/kat-d%.elf: $(EMB)/common/kat_main.c $(EMB_BUILD)/m4/kat-d%/kat-vectors.h $(M4_SRC) $(CORE_LIB_m4) $(EMB_HDRS)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -I$(EMB_BUILD)/m4/kat-d$* \
		-DKAT_MAX_BODY=$(M4_KAT_MAX) -DKAT_SUITE_NAME='"$*"' \
		$(EMB_M4_LD) -o $@ $< $(M4_SRC) $(CORE_LIB_m4) -lgcc

# Packet known answers (vectors/packet.txt, spec section 14.8) through
# dmd_psender_* on each board's core: pkat_main.c, header from
# pkt-kat-gen.py.
PKT_VECTORS := $(TOP)/vectors/packet.txt
FW_AVR_PKAT := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/avr/pkat-d$(s).elf)
FW_M4_PKAT  := $(foreach s,$(FW_SUITES),$(EMB_BUILD)/m4/pkat-d$(s).elf)

$(EMB_BUILD)/pkat-d%/pkat-vectors.h: $(PKT_VECTORS) $(EMB)/tools/pkt-kat-gen.py
	@mkdir -p $(@D)
	python3 $(EMB)/tools/pkt-kat-gen.py $* $< > $@.tmp && mv $@.tmp $@

$(EMB_BUILD)/avr/pkat-d%.elf: $(EMB)/common/pkat_main.c $(EMB_BUILD)/pkat-d%/pkat-vectors.h \
		$(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -I$(EMB_BUILD)/pkat-d$* \
		-DWINDOW_BYTES=$(AVR_WINDOW) $(EMB_AVR_LD) -o $@ $< $(AVR_SRC) $(CORE_LIB_avr)

$(EMB_BUILD)/m4/pkat-d%.elf: $(EMB)/common/pkat_main.c $(EMB_BUILD)/pkat-d%/pkat-vectors.h \
		$(M4_SRC) $(CORE_LIB_m4) $(EMB_HDRS)
	@mkdir -p $(@D)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -I$(EMB_BUILD)/pkat-d$* \
		-DWINDOW_BYTES=$(M4_WINDOW) $(EMB_M4_LD) -o $@ $< $(M4_SRC) $(CORE_LIB_m4) -lgcc

.SECONDARY: $(foreach s,$(FW_SUITES),$(EMB_BUILD)/pkat-d$(s)/pkat-vectors.h)

# The AVR primitives' own known answers: kat/<name>.c with kat/kat_tap.c.
AVR_KAT_TAP := $(EMB)/avr/prims/kat/kat_tap.c $(EMB)/avr/prims/kat/kat_tap.h

$(EMB_BUILD)/avr/kat-chacha20-poly1305.elf: $(EMB)/avr/prims/kat/chacha20_poly1305.c \
		$(AVR_KAT_TAP) $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
$(EMB_BUILD)/avr/kat-aes128.elf: $(EMB)/avr/prims/kat/aes128.c \
		$(AVR_KAT_TAP) $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
$(EMB_BUILD)/avr/kat-ghash.elf: $(EMB)/avr/prims/kat/ghash.c \
		$(AVR_KAT_TAP) $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
$(FW_AVR_KAT_PRIMS):
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) $(EMB_AVR_LD) -o $@ $< \
		$(filter %.c,$(AVR_KAT_TAP)) $(AVR_SRC) $(CORE_LIB_avr)

.PHONY: firmware
firmware: $(FW_AVR_SENDER) $(FW_M4_SENDER) $(FW_AVR_KAT) $(FW_M4_KAT) \
	  $(FW_AVR_PSENDER) $(FW_M4_PSENDER) $(KAT_GEN) $(FW_NV) $(FRAME_CHECK) \
	  $(PKT_CHECK)
all: firmware

# --- tests ----------------------------------------------------------------
CHECK_SUITES += fw-kat-avr fw-kat-m4 fw-reset

.PHONY: check-fw-kat-avr check-fw-kat-m4 check-fw-reset
check-fw-kat-avr: $(FW_AVR_KAT) $(FW_AVR_KAT_PRIMS) $(FW_AVR_PKAT) $(AVR_RUN)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(EMB)/tests/kat.sh avr $(FW_AVR_KAT) $(FW_AVR_KAT_PRIMS) $(FW_AVR_PKAT) >$(TAPDIR)/fw-kat-avr.tap; \
		rc=$$?; cat $(TAPDIR)/fw-kat-avr.tap; exit $$rc

check-fw-kat-m4: $(FW_M4_KAT) $(FW_M4_PKAT)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(EMB)/tests/kat.sh m4 $(FW_M4_KAT) $(FW_M4_PKAT) >$(TAPDIR)/fw-kat-m4.tap; \
		rc=$$?; cat $(TAPDIR)/fw-kat-m4.tap; exit $$rc

check-fw-reset: $(FW_AVR_SENDER) $(FW_M4_SENDER) $(AVR_RUN) $(FW_NV) $(FRAME_CHECK)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(EMB)/tests/reset-test.sh >$(TAPDIR)/fw-reset.tap; \
		rc=$$?; cat $(TAPDIR)/fw-reset.tap; exit $$rc

# Packet mode (spec section 14) on both boards: the firmware's packets
# are the host core's byte for byte, verify with the core's unit
# verifier and decrypt to the readings; power cuts never reuse a position.
CHECK_SUITES += fw-packet
.PHONY: check-fw-packet
check-fw-packet: $(FW_AVR_PSENDER) $(FW_M4_PSENDER) $(FW_HOST_PSENDER) $(AVR_RUN) \
		 $(BUILD)/userspace/diamondctl \
		 $(FW_NV) $(PKT_CHECK)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(EMB)/tests/packet-test.sh >$(TAPDIR)/fw-packet.tap; \
		rc=$$?; cat $(TAPDIR)/fw-packet.tap; exit $$rc

# frame-check parses as the core does: selftests/core/test_frame.c's table
# through both (issue 14: one framing).
CHECK_SUITES += fw-frame
.PHONY: check-fw-frame
check-fw-frame: $(CORE_HOST)/test_frame $(FRAME_CHECK)
	@mkdir -p $(TAPDIR)
	@$(CORE_HOST)/test_frame --frame-check $(FRAME_CHECK) >$(TAPDIR)/fw-frame.tap; \
		rc=$$?; cat $(TAPDIR)/fw-frame.tap; exit $$rc

# diamondctl provision --group-size and seal's group tag frames, checked by
# the core's group receiver through frame-check (diamondctl open does not
# take group tags yet), and such a blob in the AVR sensor firmware's image.
# diamondctl's rule is in mk/userspace.mk.
CHECK_SUITES += seal-groups
.PHONY: check-seal-groups
check-seal-groups: $(BUILD)/userspace/diamondctl $(FRAME_CHECK) $(FW_NV) $(AVR_RUN) \
		   $(EMB_BUILD)/avr/sender-d2.elf
	@mkdir -p $(TAPDIR)
	@$(TOP)/selftests/userspace/seal-groups.sh $(BUILD)/userspace/diamondctl \
		$(FRAME_CHECK) $(FW_NV) $(AVR_RUN) $(EMB_BUILD)/avr/sender-d2.elf \
		>$(TAPDIR)/seal-groups.tap; \
		rc=$$?; cat $(TAPDIR)/seal-groups.tap; exit $$rc

# --- benchmark (not a test) -------------------------------------------------
# bench-d<suite>-<record length>[-g<group size>].elf
$(EMB_BUILD)/avr/bench-d%.elf: $(EMB)/common/bench_main.c $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -DSENDER_SUITE=$(word 1,$(subst -, ,$*)) \
		-DREC_LEN=$(word 2,$(subst -, ,$*)) -DWINDOW_BYTES=$(AVR_WINDOW) \
		$(patsubst g%,-DBENCH_GROUP=%,$(word 3,$(subst -, ,$*))) \
		$(EMB_AVR_LD) -o $@ $< $(AVR_SRC) $(CORE_LIB_avr)

# The sensor firmware over one whole epoch of b = 1024 records, its group
# size from the blob (bench-embedded-groups).
$(EMB_BUILD)/avr/sender-full-d%.elf: $(EMB)/common/sender_main.c $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -DSENDER_SUITE=$* \
		-DWINDOW_BYTES=$(AVR_WINDOW) -DREC_LEN=16 -DRECORDS_PER_EPOCH=1024 \
		-DEPOCHS_PER_BOOT=1 $(EMB_AVR_LD) -o $@ $< $(AVR_SRC) $(CORE_LIB_avr)

# Group tags on the AVR sender (spec section 5.1): cycles, RAM and flash
# for g = 64 and 16 against g = b, in the core's bench firmware and in the
# sensor firmware (a benchmark, not a test).
FW_AVR_BENCH_GROUPS := $(foreach s,$(FW_SUITES),$(foreach g,1024 64 16,$(EMB_BUILD)/avr/bench-d$(s)-16-g$(g).elf)) \
		       $(foreach s,$(FW_SUITES),$(EMB_BUILD)/avr/sender-full-d$(s).elf)
BENCH_TARGETS += bench-embedded-groups
.PHONY: bench-embedded-groups
bench-embedded-groups: $(FW_AVR_BENCH_GROUPS) $(FW_AVR_SENDER) $(FW_NV) $(AVR_RUN)
	@BUILD=$(BUILD) $(TOP)/tools/bench/embedded-groups.sh

$(EMB_BUILD)/m4/bench-d%.elf: $(EMB)/common/bench_main.c $(M4_SRC) $(CORE_LIB_m4) $(EMB_HDRS)
	@mkdir -p $(@D)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -DSENDER_SUITE=$(word 1,$(subst -, ,$*)) \
		-DREC_LEN=$(word 2,$(subst -, ,$*)) -DWINDOW_BYTES=$(M4_WINDOW) \
		$(EMB_M4_LD) -o $@ $< $(M4_SRC) $(CORE_LIB_m4) -lgcc

# The packet sender (spec section 14) beside the byte-stream one: cycles
# and instructions per packet record, flash and RAM of the two sensor
# firmwares (a benchmark, not a test; Documentation/performance.md).
$(EMB_BUILD)/avr/pbench-d%.elf: $(EMB)/common/pbench_main.c $(AVR_SRC) $(CORE_LIB_avr) $(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -DSENDER_SUITE=$(word 1,$(subst -, ,$*)) \
		-DREC_LEN=$(word 2,$(subst -, ,$*)) -DWINDOW_BYTES=$(AVR_WINDOW) \
		$(EMB_AVR_LD) -o $@ $< $(AVR_SRC) $(CORE_LIB_avr)

$(EMB_BUILD)/m4/pbench-d%.elf: $(EMB)/common/pbench_main.c $(M4_SRC) $(CORE_LIB_m4) $(EMB_HDRS)
	@mkdir -p $(@D)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -DSENDER_SUITE=$(word 1,$(subst -, ,$*)) \
		-DREC_LEN=$(word 2,$(subst -, ,$*)) -DWINDOW_BYTES=$(M4_WINDOW) \
		$(EMB_M4_LD) -o $@ $< $(M4_SRC) $(CORE_LIB_m4) -lgcc

FW_PBENCH := $(foreach t,avr m4,$(foreach s,$(FW_SUITES),$(EMB_BUILD)/$(t)/pbench-d$(s)-16.elf \
	     $(EMB_BUILD)/$(t)/bench-d$(s)-16.elf))
BENCH_TARGETS += bench-embedded-packet
.PHONY: bench-embedded-packet
bench-embedded-packet: $(FW_PBENCH) $(FW_AVR_SENDER) $(FW_M4_SENDER) $(FW_AVR_PSENDER) \
		       $(FW_M4_PSENDER) $(AVR_RUN) $(INSN_COUNT_SO)
	@BUILD=$(BUILD) $(TOP)/tools/bench/embedded-packet.sh

BENCH_TARGETS += bench-embedded
.PHONY: bench-embedded
bench-embedded: $(FW_AVR_BENCH) $(FW_M4_BENCH) $(AVR_RUN) $(INSN_COUNT_SO)
	@BUILD=$(BUILD) $(TOP)/tools/bench/embedded-bench.sh

# Firmware frames through the kernel gateway: the demo's own files, so a
# missing one fails here as it would fail make demo.
CHECK_SUITES += fw-interop
.PHONY: check-fw-interop
check-fw-interop: demo-build
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) ARDUINO_BUILDER="$(ARDUINO_BUILDER)" \
		$(TOP)/tools/demo.sh --tap >$(TAPDIR)/fw-interop.tap; \
		rc=$$?; cat $(TAPDIR)/fw-interop.tap; exit $$rc
