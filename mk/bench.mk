# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Comparison benchmarks (bench/, Documentation/performance.md "Comparison"):
# Diamond against FAAE1, FAAE2, Graphene, plain AEADs (OpenSSL's, and our
# GCM, CCM, OCB3), UMAC and the re-keying PRF behind one interface
# (bench/baselines/scheme.h).
#
#   make check-bench-kat   known answers of the baselines (part of make check)
#   make check-bench-ctgrind  SKINNY, ForkSkinny, SuperSonic: no secret-
#                          dependent branch or index (valgrind)
#   make check-bench-fw-kat-avr, check-bench-fw-kat-m4
#                          the same answers on the boards (part of make check)
#   make check-bench-related-table  the related-systems table generator on
#                          a fixture, and performance.md's table is its
#                          output (part of make check)
#   make bench-related-table  issue 22's one table into performance.md, from
#                          the committed CSVs, and its plots under build/
#   make bench             every comparison figure: host (callgrind + rdtsc
#                          ratios), AVR (simavr cycles), Cortex-M4 (qemu
#                          instruction counts), kernel (VM, -icount; skipped
#                          with BENCH_KERNEL=0); writes CSV, Markdown and PNG
#                          to Documentation/performance/

BENCH_DIR    := $(TOP)/bench
BENCH_BL     := $(BENCH_DIR)/baselines
BENCH_OUT    := $(BUILD)/bench
BENCH_PORT   := $(addprefix $(BENCH_BL)/,ascon.c faae.c faae1.c faae2.c graphene.c diamond.c \
		perrec.c plain.c ocb3.c ccm.c rekey.c umac.c umac_etm.c \
		skinny128.c forkskinny.c supersonic.c mac_rec.c \
		skinny64.c skinny_tbc.c zmac.c pmac_last.c pmac1.c pmac2x.c vmac.c skinny_macs.c)
# AEZ is measured on the host only so far.
BENCH_HOSTSRC := $(BENCH_PORT) $(addprefix $(BENCH_BL)/,ossl.c aez.c aez_rec.c blake2b.c)
BENCH_HDRS   := $(wildcard $(BENCH_BL)/*.h) $(CORE_LIB_HDRS) $(TOP)/selftests/tap.h
BENCH_KAT_SRC := $(TOP)/selftests/bench/test_bench_kat.c
BENCH_KATS   := $(BENCH_OUT)/test_bench_kat $(BENCH_OUT)/test_bench_kat_bytes \
		$(BENCH_OUT)/asan/test_bench_kat

all: $(BENCH_KATS)

$(BENCH_OUT)/test_bench_kat: $(BENCH_KAT_SRC) $(BENCH_HOSTSRC) $(CORE_LIB_host) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -D_DEFAULT_SOURCE -o $@ $< $(BENCH_HOSTSRC) $(CORE_LIB_host) -lcrypto -lnettle

# The AVR's byte-sliced Ascon, checked on the host against the same KATs.
$(BENCH_OUT)/test_bench_kat_bytes: $(BENCH_KAT_SRC) $(BENCH_HOSTSRC) $(CORE_LIB_host) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -D_DEFAULT_SOURCE -DASCON_BYTES=1 -o $@ $< $(BENCH_HOSTSRC) $(CORE_LIB_host) -lcrypto -lnettle

$(BENCH_OUT)/asan/test_bench_kat: $(BENCH_KAT_SRC) $(BENCH_HOSTSRC) $(CORE_LIB_asan) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -D_DEFAULT_SOURCE $(CORE_SANITIZE) \
		-o $@ $< $(BENCH_HOSTSRC) $(CORE_LIB_asan) -lcrypto -lnettle

CHECK_SUITES += bench-kat

.PHONY: check-bench-kat
check-bench-kat: $(BENCH_KATS)
	@mkdir -p $(TAPDIR)
	@$(BENCH_OUT)/test_bench_kat | tee $(TAPDIR)/bench-kat.tap
	@$(BENCH_OUT)/test_bench_kat_bytes | tee $(TAPDIR)/bench-kat-bytes.tap
	@$(BENCH_OUT)/asan/test_bench_kat | tee $(TAPDIR)/bench-kat-asan.tap

# SKINNY, ForkSkinny and SuperSonic under valgrind with secret inputs
# undefined (ctgrind, as check-core-ctgrind does for the core).
BENCH_CT_SRC := $(addprefix $(BENCH_BL)/,skinny128.c forkskinny.c supersonic.c \
		skinny64.c skinny_tbc.c zmac.c pmac_last.c pmac1.c pmac2x.c vmac.c)

$(BENCH_OUT)/test_sonikku_ctgrind: $(TOP)/selftests/bench/test_sonikku_ctgrind.c $(BENCH_CT_SRC) $(CORE_LIB_host) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -o $@ $< $(BENCH_CT_SRC) $(CORE_LIB_host)

all: $(BENCH_OUT)/test_sonikku_ctgrind

CHECK_SUITES += bench-ctgrind

.PHONY: check-bench-ctgrind
check-bench-ctgrind: $(BENCH_OUT)/test_sonikku_ctgrind
	@mkdir -p $(TAPDIR)
	@$(TOP)/tools/run-ctgrind.sh $< | tee $(TAPDIR)/bench-ctgrind.tap

# The generator of the related-systems table (bench/related-table.sh) on
# its fixture (selftests/bench/related-table/), and performance.md's table
# is its output on the committed CSVs.
CHECK_SUITES += bench-related-table

.PHONY: check-bench-related-table bench-related-table
check-bench-related-table:
	@mkdir -p $(TAPDIR)
	@$(TOP)/selftests/bench/test_related_table.sh >$(TAPDIR)/bench-related-table.tap; \
		rc=$$?; cat $(TAPDIR)/bench-related-table.tap; exit $$rc

# The one table of issue 22 from the committed CSVs (make bench runs it
# too): into Documentation/performance.md between its related-table
# markers, and the plots to $(BENCH_OUT)/related/related-{host,m4,avr}.png.
bench-related-table:
	@mkdir -p $(BENCH_OUT)/related
	@$(TOP)/bench/related-table.sh --plots $(BENCH_OUT)/related \
		$(TOP)/Documentation/performance >$(BENCH_OUT)/related/table.md
	@$(TOP)/bench/splice-md.sh $(TOP)/Documentation/performance.md related-table \
		<$(BENCH_OUT)/related/table.md
	@echo "bench-related-table: Documentation/performance.md; plots in $(BENCH_OUT)/related/"

# --- host driver ------------------------------------------------------------
BENCH_COMPARE := $(BENCH_OUT)/bench-compare

$(BENCH_COMPARE): $(BENCH_DIR)/host/bench-compare.c $(BENCH_HOSTSRC) $(CORE_LIB_host) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -I$(BENCH_BL) -D_DEFAULT_SOURCE -o $@ $< $(BENCH_HOSTSRC) $(CORE_LIB_host) -lcrypto

# --- firmware: one per scheme and record length, both boards ----------------
# Built on the embedded boards' support code and compiler settings
# (mk/embedded.mk, read after this file: hence the second expansion).
BENCH_FW_SCHEMES := diamond1 diamond2 faae1 faae2 faae2_128a graphene1 graphene2 \
		    gcm ccm ocb3 supersonic umac64 umac128 \
		    zmac256 zmac192 pmac1 pmac2x256 vmac64 vmac128
# Schemes measured on the M4 only (none now: UMAC's context, 1,210 bytes
# on the AVR with NH's key for 128-byte records, fits the 2 KB below).
BENCH_FW_M4_ONLY :=
BENCH_FW_RECS    := 16 64 95 128
BENCH_FW_MSGS    := 1024
BENCH_AVR_WINDOW := 2048
BENCH_M4_WINDOW  := 16384
BENCH_FW_SRC     := $(BENCH_DIR)/fw/scheme_fw.c $(BENCH_PORT)

# The scheme and board code is compiled once per board into an archive; each
# image is then scheme_fw.c (scheme, record length, window) linked with it
# and the board's core archive (mk/core-lib.mk).
.SECONDEXPANSION:
$(BENCH_OUT)/avr/libbench.a: $(BENCH_PORT) $(BENCH_HDRS) $$(AVR_SRC)
	@rm -rf $(@D)/obj && mkdir -p $(@D)/obj
	cd $(@D)/obj && avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -c \
		$(BENCH_PORT) $(AVR_SRC)
	avr-ar rcs $@ $(@D)/obj/*.o

$(BENCH_OUT)/m4/libbench.a: $(BENCH_PORT) $(BENCH_HDRS) $$(M4_SRC)
	@rm -rf $(@D)/obj && mkdir -p $(@D)/obj
	cd $(@D)/obj && arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -c \
		$(BENCH_PORT) $(M4_SRC)
	arm-none-eabi-ar rcs $@ $(@D)/obj/*.o

define bench_fw_rules
$(BENCH_OUT)/avr/$(1)-$(2).elf: $(BENCH_DIR)/fw/scheme_fw.c $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)
	avr-gcc $$(EMB_AVR_CFLAGS) $$(EMB_AVR_OPT) -I$(BENCH_BL) \
		-DSCHEME_VAR=scheme_$(1) -DREC_LEN=$(2) -DBENCH_MSGS=$(BENCH_FW_MSGS) \
		-DWINDOW_BYTES=$(BENCH_AVR_WINDOW) -DCTX_BYTES=2048 $$(EMB_AVR_LD) -o $$@ \
		$$< $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)

$(BENCH_OUT)/m4/$(1)-$(2).elf: $(BENCH_DIR)/fw/scheme_fw.c $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4)
	arm-none-eabi-gcc $$(EMB_M4_CFLAGS) $$(EMB_M4_OPT) -I$(BENCH_BL) \
		-DSCHEME_VAR=scheme_$(1) -DREC_LEN=$(2) -DBENCH_MSGS=$(BENCH_FW_MSGS) \
		-DWINDOW_BYTES=$(BENCH_M4_WINDOW) -DCTX_BYTES=2048 $$(EMB_M4_LD) -o $$@ \
		$$< $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) -lgcc
endef
$(foreach s,$(BENCH_FW_SCHEMES) $(BENCH_FW_M4_ONLY),$(foreach r,$(BENCH_FW_RECS),$(eval $(call bench_fw_rules,$(s),$(r)))))

# The plain AEADs' and the re-keying PRF's known answers on each board
# (bench/fw/kat_fw.c, bench/baselines/kat_vectors.h), in make check; its
# TAP lines come from bench/fw/fw_tap.c (mac_kat_fw.c's too).
BENCH_FW_TAP := $(BENCH_DIR)/fw/fw_tap.c
$(BENCH_OUT)/avr/kat-fw.elf: $(BENCH_DIR)/fw/kat_fw.c $(BENCH_FW_TAP) $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr) $(BENCH_HDRS) \
		$(BENCH_DIR)/fw/fw_tap.h
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -I$(BENCH_BL) $(EMB_AVR_LD) -o $@ \
		$< $(BENCH_FW_TAP) $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)

$(BENCH_OUT)/m4/kat-fw.elf: $(BENCH_DIR)/fw/kat_fw.c $(BENCH_FW_TAP) $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) $(BENCH_HDRS) \
		$(BENCH_DIR)/fw/fw_tap.h
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -I$(BENCH_BL) $(EMB_M4_LD) -o $@ \
		$< $(BENCH_FW_TAP) $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) -lgcc

CHECK_SUITES += bench-fw-kat-avr bench-fw-kat-m4

.PHONY: check-bench-fw-kat-avr check-bench-fw-kat-m4
check-bench-fw-kat-avr: $(BENCH_OUT)/avr/kat-fw.elf $(AVR_RUN)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(EMB)/tests/kat.sh avr $< >$(TAPDIR)/bench-fw-kat-avr.tap; \
		rc=$$?; cat $(TAPDIR)/bench-fw-kat-avr.tap; exit $$rc

check-bench-fw-kat-m4: $(BENCH_OUT)/m4/kat-fw.elf
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(EMB)/tests/kat.sh m4 $< >$(TAPDIR)/bench-fw-kat-m4.tap; \
		rc=$$?; cat $(TAPDIR)/bench-fw-kat-m4.tap; exit $$rc

# The re-keying PRF beside Diamond1's key-chain AES calls (not a test).
$(BENCH_OUT)/avr/rekey.elf: $(BENCH_DIR)/fw/rekey_fw.c $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -I$(BENCH_BL) $(EMB_AVR_LD) -o $@ \
		$< $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)

$(BENCH_OUT)/m4/rekey.elf: $(BENCH_DIR)/fw/rekey_fw.c $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -I$(BENCH_BL) $(EMB_M4_LD) -o $@ \
		$< $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) -lgcc

# SKINNY, ForkSkinny and SuperSonic per call, both boards (not a test).
$(BENCH_OUT)/avr/sonikku.elf: $(BENCH_DIR)/fw/sonikku_fw.c $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)
	avr-gcc $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT) -I$(BENCH_BL) $(EMB_AVR_LD) -o $@ \
		$< $(BENCH_OUT)/avr/libbench.a $(CORE_LIB_avr)

$(BENCH_OUT)/m4/sonikku.elf: $(BENCH_DIR)/fw/sonikku_fw.c $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4)
	arm-none-eabi-gcc $(EMB_M4_CFLAGS) $(EMB_M4_OPT) -I$(BENCH_BL) $(EMB_M4_LD) -o $@ \
		$< $(BENCH_OUT)/m4/libbench.a $(CORE_LIB_m4) -lgcc

BENCH_FW := $(foreach b,avr m4,$(foreach s,$(BENCH_FW_SCHEMES),$(foreach r,$(BENCH_FW_RECS),$(BENCH_OUT)/$(b)/$(s)-$(r).elf))) \
	    $(foreach s,$(BENCH_FW_M4_ONLY),$(foreach r,$(BENCH_FW_RECS),$(BENCH_OUT)/m4/$(s)-$(r).elf)) \
	    $(BENCH_OUT)/avr/rekey.elf $(BENCH_OUT)/m4/rekey.elf \
	    $(BENCH_OUT)/avr/sonikku.elf $(BENCH_OUT)/m4/sonikku.elf

.PHONY: bench-firmware
bench-firmware: $(BENCH_FW)

# --- make bench -------------------------------------------------------------
BENCH_TARGETS += bench
BENCH_DOC := $(TOP)/Documentation/performance
# make bench BENCH_KERNEL=0: everything but the kernel VM (kernel.txt kept)
BENCH_KERNEL ?= 1

bench.after-deps: $(BENCH_COMPARE) $(BENCH_KATS) avr-run qemu-plugin
	@echo "bench: building $(words $(BENCH_FW)) benchmark firmware images"
	@$(MAKE) --no-print-directory -j2 bench-firmware >/dev/null
	@BUILD=$(BUILD) BENCH_OUT=$(BENCH_OUT) BENCH_DOC=$(BENCH_DOC) \
		BENCH_FW_SCHEMES="$(BENCH_FW_SCHEMES)" BENCH_FW_M4_ONLY="$(BENCH_FW_M4_ONLY)" BENCH_FW_RECS="$(BENCH_FW_RECS)" \
		BENCH_FW_MSGS=$(BENCH_FW_MSGS) BENCH_KERNEL=$(BENCH_KERNEL) MAKE="$(MAKE)" \
		$(BENCH_DIR)/run-bench.sh
