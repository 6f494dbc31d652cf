# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# ZMAC, PMAC1 and PMAC2x on SKINNY-128-256 and SKINNY-64-192 (issue 32;
# bench/baselines/zmac.h, pmac.h), checked against the 1,009 answers per
# MAC of vectors/skinny-macs.txt:
#
#   make check-mac-kat       host, and again under ASan/UBSan (make check)

MAC_VECTORS := $(TOP)/vectors/skinny-macs.txt
MAC_SRC     := $(addprefix $(BENCH_BL)/,skinny128.c skinny64.c skinny_tbc.c zmac.c \
		pmac_last.c pmac1.c pmac2x.c skinny_macs.c forkskinny.c supersonic.c)
MAC_HDRS    := $(addprefix $(BENCH_BL)/,skinny128.h skinny64.h skinny64_vectors.h skinny_mix.h skinny_tbc.h zmac.h \
		pmac.h pmac_last.h skinny_macs.h forkskinny.h supersonic.h) $(TOP)/selftests/tap.h
MAC_TEST    := $(TOP)/selftests/bench/test_skinny_macs.c

$(BENCH_OUT)/test_skinny_macs: $(MAC_TEST) $(MAC_SRC) $(MAC_HDRS) $(CORE_LIB_host)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -D_DEFAULT_SOURCE -o $@ $< $(MAC_SRC) $(CORE_LIB_host)

$(BENCH_OUT)/asan/test_skinny_macs: $(MAC_TEST) $(MAC_SRC) $(MAC_HDRS) $(CORE_LIB_asan)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -D_DEFAULT_SOURCE $(CORE_SANITIZE) \
		-o $@ $< $(MAC_SRC) $(CORE_LIB_asan)

all: $(BENCH_OUT)/test_skinny_macs $(BENCH_OUT)/asan/test_skinny_macs

CHECK_SUITES += mac-kat

.PHONY: check-mac-kat
check-mac-kat: $(BENCH_OUT)/test_skinny_macs $(BENCH_OUT)/asan/test_skinny_macs
	@mkdir -p $(TAPDIR)
	@$(BENCH_OUT)/test_skinny_macs $(MAC_VECTORS) | tee $(TAPDIR)/mac-kat.tap
	@$(BENCH_OUT)/asan/test_skinny_macs $(MAC_VECTORS) | tee $(TAPDIR)/mac-kat-asan.tap

# The same answers on the boards (bench/fw/mac_kat_fw.c): all 1,009 pairs
# on the M4, the messages of up to MAC_KAT_MAX_avr bytes on the AVR (32
# pairs: every residue of the 16-, 15- and 31-byte blocks, full and padded
# last blocks; all 1,009 would cost the AVR minutes of simavr); and VMAC's
# answers (vmac_vectors.h, the 3 MB ones on the M4 only).
#
#   make check-mac-kat-m4    qemu (make check)
#   make check-mac-kat-avr   simavr (make check)
MAC_KAT_MAX_avr := 47
MAC_KAT_MAX_m4  := 1024
MAC_KAT_GEN     := $(BENCH_DIR)/fw/mac-kat-header.sh
MAC_KAT_FW_DEPS := $(BENCH_DIR)/fw/mac_kat_fw.c $(BENCH_FW_TAP) $(BENCH_DIR)/fw/fw_tap.h $(MAC_HDRS) \
		   $(BENCH_BL)/vmac.h $(BENCH_BL)/vmac_vectors.h

$(BENCH_OUT)/%/mac-kat/mac_kat.h: $(MAC_VECTORS) $(MAC_KAT_GEN)
	@mkdir -p $(@D)
	$(MAC_KAT_GEN) $(MAC_VECTORS) $(MAC_KAT_MAX_$*) >$@.tmp && mv $@.tmp $@

$(BENCH_OUT)/avr/mac-kat.elf: $(MAC_KAT_FW_DEPS) $(BENCH_OUT)/avr/mac-kat/mac_kat.h $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -I$(BENCH_BL) -I$(@D)/mac-kat \
		-DMAC_KAT_MAXLEN=$(MAC_KAT_MAX_avr) $(EMB_AVR_LD) -o $@ \
		$(BENCH_DIR)/fw/mac_kat_fw.c $(BENCH_FW_TAP) $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)

$(BENCH_OUT)/m4/mac-kat.elf: $(MAC_KAT_FW_DEPS) $(BENCH_OUT)/m4/mac-kat/mac_kat.h $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -I$(BENCH_BL) -I$(@D)/mac-kat \
		-DMAC_KAT_MAXLEN=$(MAC_KAT_MAX_m4) $(EMB_M4_LD) -o $@ \
		$(BENCH_DIR)/fw/mac_kat_fw.c $(BENCH_FW_TAP) $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) -lgcc

CHECK_SUITES += mac-kat-avr mac-kat-m4

.PHONY: check-mac-kat-avr check-mac-kat-m4
check-mac-kat-avr: $(BENCH_OUT)/avr/mac-kat.elf $(AVR_RUN)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(EMB)/tests/kat.sh avr $< >$(TAPDIR)/mac-kat-avr.tap; \
		rc=$$?; cat $(TAPDIR)/mac-kat-avr.tap; exit $$rc

check-mac-kat-m4: $(BENCH_OUT)/m4/mac-kat.elf
	@mkdir -p $(TAPDIR)
	@if ! command -v qemu-system-arm >/dev/null; then \
		printf 'TAP version 13\n1..1\nok 1 - m4/mac-kat # SKIP no qemu-system-arm (tools/install-deps.sh installs it)\n' \
			>$(TAPDIR)/mac-kat-m4.tap; cat $(TAPDIR)/mac-kat-m4.tap; exit 0; fi; \
	BUILD=$(BUILD) $(EMB)/tests/kat.sh m4 $< >$(TAPDIR)/mac-kat-m4.tap; \
		rc=$$?; cat $(TAPDIR)/mac-kat-m4.tap; exit $$rc

# VMAC-64 and VMAC-128 (bench/baselines/vmac.h) against draft-krovetz-
# vmac-01's and the kernel's vmac64(aes) answers:
#
#   make check-vmac-kat      host, and again under ASan/UBSan (make check)
VMAC_SRC  := $(BENCH_BL)/vmac.c
VMAC_HDRS := $(BENCH_BL)/vmac.h $(BENCH_BL)/vmac_vectors.h $(TOP)/selftests/tap.h
VMAC_TEST := $(TOP)/selftests/bench/test_vmac.c

$(BENCH_OUT)/test_vmac: $(VMAC_TEST) $(VMAC_SRC) $(VMAC_HDRS) $(CORE_LIB_host)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -o $@ $< $(VMAC_SRC) $(CORE_LIB_host)

$(BENCH_OUT)/asan/test_vmac: $(VMAC_TEST) $(VMAC_SRC) $(VMAC_HDRS) $(CORE_LIB_asan)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) $(CORE_SANITIZE) -o $@ $< $(VMAC_SRC) $(CORE_LIB_asan)

all: $(BENCH_OUT)/test_vmac $(BENCH_OUT)/asan/test_vmac

CHECK_SUITES += vmac-kat

.PHONY: check-vmac-kat
check-vmac-kat: $(BENCH_OUT)/test_vmac $(BENCH_OUT)/asan/test_vmac
	@mkdir -p $(TAPDIR)
	@$(BENCH_OUT)/test_vmac | tee $(TAPDIR)/vmac-kat.tap
	@$(BENCH_OUT)/asan/test_vmac | tee $(TAPDIR)/vmac-kat-asan.tap

# SuperSonic against ZMAC (and PMAC1, PMAC2x, VMAC) on the Cortex-M4, 16 B
# to 64 KB, one call per MAC and length (bench/fw/longmac_fw.c; not a
# test): Documentation/performance/longmac-m4.csv and its table on stdout.
#
#   make bench-longmac
$(BENCH_OUT)/m4/longmac.elf: $(BENCH_DIR)/fw/longmac_fw.c $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) $(MAC_HDRS) $(BENCH_BL)/vmac.h
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -I$(BENCH_BL) $(EMB_M4_LD) -o $@ \
		$< $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) -lgcc

.PHONY: bench-longmac
bench-longmac: $(BENCH_OUT)/m4/longmac.elf qemu-plugin
	@BUILD=$(BUILD) $(BENCH_DIR)/longmac.sh $< $(BENCH_DOC)/longmac-m4.csv
