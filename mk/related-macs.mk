# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# ZMAC, PMAC1 and PMAC2x on SKINNY-128-256 and SKINNY-64-192 (issue 32;
# bench/baselines/zmac.h, pmac.h), checked against the 1,009 answers per
# MAC of vectors/skinny-macs.txt:
#
#   make check-mac-kat       host, and again under ASan/UBSan (make check)

MAC_VECTORS := $(TOP)/vectors/skinny-macs.txt
MAC_SRC     := $(addprefix $(BENCH_BL)/,skinny128.c skinny64.c skinny_tbc.c zmac.c \
		pmac_last.c pmac1.c pmac2x.c forkskinny.c supersonic.c)
MAC_HDRS    := $(addprefix $(BENCH_BL)/,skinny128.h skinny64.h skinny_tbc.h zmac.h \
		pmac.h pmac_last.h forkskinny.h supersonic.h) $(TOP)/selftests/tap.h
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
