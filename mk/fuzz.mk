# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# libFuzzer targets of the gateway's input paths (selftests/fuzz, issue
# 23): a byte stream and datagrams into a software gateway with a restart
# through the spool, and the blob, state-file and spool parsers. clang
# builds libdiamond and the core a second time with ASan and UBSan (every
# UBSan finding aborts); the seed corpus is sealed at build time by seed.c.
#
#   make check-fuzz    each target FUZZ_SHORT seconds, and the inputs of
#                      fixed findings replayed (TAP; part of make check)
#   make fuzz          each target FUZZ_SECONDS (default 1800) seconds

FUZZ_BUILD  := $(BUILD)/fuzz
FUZZ_SRC    := $(TOP)/selftests/fuzz
FUZZ_CC     ?= clang
FUZZ_SHORT  ?= 5
FUZZ_SECONDS ?= 1800
FUZZ_TARGETS := gw blob state spool
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all \
	       -fno-omit-frame-pointer
# Read before mk/userspace.mk: its sources are named here again.
FUZZ_LIBDIR := $(TOP)/userspace/lib
FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -O1 -g $(DMD_INC) \
	       -I$(FUZZ_LIBDIR) $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_LIB_SRCS := $(sort $(wildcard $(FUZZ_LIBDIR)/*.c)) $(CORE_LIB_SRCS)
FUZZ_HDRS   := $(CORE_LIB_HDRS) $(FUZZ_LIBDIR)/internal.h \
	       $(FUZZ_SRC)/fixture.h
FUZZ_OBJS   := $(patsubst $(TOP)/%.c,$(FUZZ_BUILD)/obj/%.o,$(FUZZ_LIB_SRCS) \
	       $(FUZZ_SRC)/fixture.c)
FUZZ_BINS   := $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_TARGETS))
FUZZ_SEEDS  := $(FUZZ_BUILD)/seeds
# Whether clang links libFuzzer here (libclang-rt-14-dev on Debian 12).
FUZZ_OK     := $(shell echo 'int LLVMFuzzerTestOneInput(const char *d, long n){(void)d;(void)n;return 0;}' | \
		 $(FUZZ_CC) -x c -fsanitize=fuzzer,address,undefined -o /dev/null - \
		 >/dev/null 2>&1 && echo yes)

$(FUZZ_BUILD)/obj/%.o: $(TOP)/%.c $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

# Kept between builds: make would otherwise delete them as intermediates.
.SECONDARY: $(FUZZ_OBJS)
$(FUZZ_BUILD)/fuzz_%: $(FUZZ_SRC)/fuzz_%.c $(FUZZ_OBJS) \
		      $(TOP)/selftests/lib/state_eq.h
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) \
		$(US_KCAPI)

# The seed generator is an ordinary program on the ordinary library.
$(FUZZ_BUILD)/seed: $(FUZZ_SRC)/seed.c $(FUZZ_SRC)/fixture.c \
		    $(FUZZ_SRC)/fixture.h $(BUILD)/userspace/libdiamond.a
	@mkdir -p $(@D)
	$(CC) $(CSTD) -o $@ $(FUZZ_SRC)/seed.c $(FUZZ_SRC)/fixture.c \
		$(BUILD)/userspace/libdiamond.a $(US_KCAPI)

$(FUZZ_SEEDS)/.done: $(FUZZ_BUILD)/seed
	rm -rf $(FUZZ_SEEDS)
	$(FUZZ_BUILD)/seed $(FUZZ_SEEDS)
	touch $@

CHECK_SUITES += fuzz
.PHONY: check-fuzz fuzz fuzz-build
fuzz-build: $(if $(FUZZ_OK),$(FUZZ_BINS) $(FUZZ_SEEDS)/.done)

check-fuzz: fuzz-build
	@mkdir -p $(TAPDIR)
	@FUZZ_OK=$(FUZZ_OK) FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_TIME=$(FUZZ_SHORT) \
		FUZZ_TARGETS="$(FUZZ_TARGETS)" $(FUZZ_SRC)/run.sh \
		>$(TAPDIR)/fuzz.tap; rc=$$?; cat $(TAPDIR)/fuzz.tap; exit $$rc

fuzz: fuzz-build
	@FUZZ_OK=$(FUZZ_OK) FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_TIME=$(FUZZ_SECONDS) \
		FUZZ_TARGETS="$(FUZZ_TARGETS)" $(FUZZ_SRC)/run.sh
