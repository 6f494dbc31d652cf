# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Issue 30 item 5: the air model (mk/air.mk) measured end to end. The real
# sensor firmware on the ATmega2560 (simavr) seals AIR_N readings, its link
# output goes through lossy-link (--packets for the packet framing,
# --filter for the byte-stream frames) to the real gateway (diamondctl
# open, libdiamond's receivers), and bench/air/air-bench.py counts what
# the gateway released, against per-message baselines (LoRaWAN 1.0.4,
# AES-GCM, 802.15.4 AES-CCM*) sealed and opened with real crypto
# (bench/air/baseline.py) through the same link.
#
#   make bench-air         the table (AIR_N = 4096 readings, b = 1024; seed
#                          AIR_SEED, default 1, printed), spliced into
#                          Documentation/performance.md (bench-air markers)
#   make check-air-bench   TAP smoke run, N = 1024, random seed printed
#                          (part of make check: 20 checks, about 8 s of CPU;
#                          skips without python3-cryptography)
#
# AIR_GATEWAY=software (default) opens with libdiamond's software backend;
# AIR_GATEWAY=kernel also repeats every gateway run in one VM of make
# check's kernel through diamond.ko (its tag grid for the packets), and
# fails unless each gives the software run's output byte for byte
# (bench/air/kernel_gateway.py).

AIR_N       ?= 4096
AIR_SEED    ?= 1
AIR_GATEWAY ?= software
AIR_SMOKE_N := 1024
AIR_BENCH   := $(TOP)/bench/air/air-bench.py

# The packet sensor firmware (embedded/common/psender_main.c) and the
# stream one (sender_main.c) at A = 1, address 5, 16-byte readings, N
# readings a boot: psender-air-d<suite>-n<N>.elf, sender-air-d<suite>-n<N>.elf
# (the stream one seals N / 1024 whole epochs of b = 1024 records).
air_suite = $(word 1,$(subst -n, ,$(1)))
air_n     = $(word 2,$(subst -n, ,$(1)))

.SECONDEXPANSION:
$(BUILD)/embedded/avr/psender-air-d%.elf: $(TOP)/embedded/common/psender_main.c \
		$$(AVR_SRC) $$(CORE_LIB_avr) $$(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -DSENDER_SUITE=$(call air_suite,$*) \
		-DPKT_A=1 -DPKT_ADDR=0x05 -DREC_LEN=16 \
		-DRECORDS_PER_BOOT=$(call air_n,$*) -DWINDOW_BYTES=$(AVR_WINDOW) \
		$(EMB_AVR_LD) -o $@ $< $(AVR_SRC) $(CORE_LIB_avr)

$(BUILD)/embedded/avr/sender-air-d%.elf: $(TOP)/embedded/common/sender_main.c \
		$$(AVR_SRC) $$(CORE_LIB_avr) $$(EMB_HDRS)
	@mkdir -p $(@D)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -DSENDER_SUITE=$(call air_suite,$*) \
		-DREC_LEN=16 -DRECORDS_PER_EPOCH=1024 \
		-DEPOCHS_PER_BOOT=$$(( ($(call air_n,$*) + 1023) / 1024 )) \
		-DWINDOW_BYTES=$(AVR_WINDOW) $(EMB_AVR_LD) -o $@ $< $(AVR_SRC) $(CORE_LIB_avr)

# Everything a run needs, for N readings.
air_deps = $(foreach s,1 2,$(BUILD)/embedded/avr/psender-air-d$(s)-n$(1).elf \
	   $(BUILD)/embedded/avr/sender-air-d$(s)-n$(1).elf) \
	   $(BUILD)/bench/avr/gcm-16.elf $(BUILD)/bench/avr/ccm-16.elf \
	   $$(AVR_RUN) $$(FW_NV) $$(DIAMONDCTL) $$(LOSSY) \
	   $(if $(filter kernel,$(AIR_GATEWAY)),$$(KMOD_KO) $$(DIAMONDCTL_STATIC))

AIR_ENV = BUILD=$(BUILD) AIR_GATEWAY=$(AIR_GATEWAY) DIAMONDCTL=$(DIAMONDCTL) \
	  LOSSY=$(LOSSY) AVR_RUN=$(AVR_RUN) FW_NV=$(FW_NV) TOP=$(TOP) \
	  KMOD_KO=$(KMOD_KO) DIAMONDCTL_STATIC=$(DIAMONDCTL_STATIC)

BENCH_TARGETS += bench-air
.PHONY: bench-air check-air-bench
bench-air: $(call air_deps,$(AIR_N))
	@mkdir -p $(BUILD)/air
	@$(AIR_ENV) python3 -B $(AIR_BENCH) --n $(AIR_N) --seed $(AIR_SEED) \
		--work $(BUILD)/air/bench >$(BUILD)/air/bench-air.md
	@cat $(BUILD)/air/bench-air.md
	@$(TOP)/bench/splice-md.sh $(TOP)/Documentation/performance.md bench-air \
		<$(BUILD)/air/bench-air.md

CHECK_SUITES += air-bench
check-air-bench: $(call air_deps,$(AIR_SMOKE_N))
	@mkdir -p $(TAPDIR)
	@$(AIR_ENV) python3 -B $(TOP)/selftests/bench/test_air_bench.py $(AIR_SMOKE_N) \
		>$(TAPDIR)/air-bench.tap; rc=$$?; cat $(TAPDIR)/air-bench.tap; exit $$rc
