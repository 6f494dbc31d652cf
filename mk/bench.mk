# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Comparison benchmarks (bench/, Documentation/performance.md "Comparison"):
# Diamond against FAAE1, FAAE2, Graphene and plain AEADs behind one
# interface (bench/baselines/scheme.h).
#
#   make check-bench-kat   known answers of the baselines (part of make check)
#   make bench             every comparison figure: host (callgrind + rdtsc
#                          ratios), AVR (simavr cycles), Cortex-M4 (qemu
#                          instruction counts), kernel (VM, -icount); writes
#                          CSV, Markdown and PNG to Documentation/performance/

BENCH_DIR    := $(TOP)/bench
BENCH_BL     := $(BENCH_DIR)/baselines
BENCH_OUT    := $(BUILD)/bench
BENCH_CORE   := $(sort $(wildcard $(TOP)/core/*.c))
BENCH_PORT   := $(addprefix $(BENCH_BL)/,ascon.c faae.c faae1.c faae2.c graphene.c diamond.c)
BENCH_HOSTSRC := $(BENCH_PORT) $(BENCH_BL)/ossl.c
BENCH_HDRS   := $(wildcard $(BENCH_BL)/*.h) $(wildcard $(TOP)/core/*.h) \
		$(wildcard $(TOP)/include/diamond/*.h) $(TOP)/selftests/tap.h
BENCH_KAT_SRC := $(TOP)/selftests/bench/test_bench_kat.c
BENCH_KATS   := $(BENCH_OUT)/test_bench_kat $(BENCH_OUT)/test_bench_kat_bytes \
		$(BENCH_OUT)/asan/test_bench_kat

all: $(BENCH_KATS)

$(BENCH_OUT)/test_bench_kat: $(BENCH_KAT_SRC) $(BENCH_HOSTSRC) $(BENCH_CORE) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -D_DEFAULT_SOURCE -o $@ $< $(BENCH_HOSTSRC) $(BENCH_CORE) -lcrypto

# The AVR's byte-sliced Ascon, checked on the host against the same KATs.
$(BENCH_OUT)/test_bench_kat_bytes: $(BENCH_KAT_SRC) $(BENCH_HOSTSRC) $(BENCH_CORE) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -D_DEFAULT_SOURCE -DASCON_BYTES=1 -o $@ $< $(BENCH_HOSTSRC) $(BENCH_CORE) -lcrypto

$(BENCH_OUT)/asan/test_bench_kat: $(BENCH_KAT_SRC) $(BENCH_HOSTSRC) $(BENCH_CORE) $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -D_DEFAULT_SOURCE -fsanitize=address,undefined \
		-fno-sanitize-recover=all -fno-omit-frame-pointer \
		-o $@ $< $(BENCH_HOSTSRC) $(BENCH_CORE) -lcrypto

CHECK_SUITES += bench-kat

.PHONY: check-bench-kat
check-bench-kat: $(BENCH_KATS)
	@mkdir -p $(TAPDIR)
	@$(BENCH_OUT)/test_bench_kat | tee $(TAPDIR)/bench-kat.tap
	@$(BENCH_OUT)/test_bench_kat_bytes | tee $(TAPDIR)/bench-kat-bytes.tap
	@$(BENCH_OUT)/asan/test_bench_kat | tee $(TAPDIR)/bench-kat-asan.tap
