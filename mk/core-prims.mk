# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Portable core primitives (core/, CORE_LIB_PRIMS in mk/core-lib.mk): their
# host test programs and test suites.

PRIMS_SRCS    := $(addprefix $(TOP)/core/,$(addsuffix .c,$(CORE_LIB_PRIMS)))
PRIMS_DEPS    := $(TOP)/selftests/tap.h $(CORE_LIB_HDRS)
PRIMS_HOST    := $(BUILD)/host
PRIMS_TESTS   := $(PRIMS_HOST)/test_prims_kat $(PRIMS_HOST)/test_prims_openssl \
		 $(PRIMS_HOST)/bl/test_prims_kat $(PRIMS_HOST)/bl/test_prims_openssl \
		 $(PRIMS_HOST)/w32/test_prims_kat $(PRIMS_HOST)/w32/test_prims_openssl \
		 $(PRIMS_HOST)/r8/test_prims_kat $(PRIMS_HOST)/r8/test_prims_openssl
# The host default is Poly1305 radix 2^44 and GHASH with 64x64->128
# multiplies where unsigned __int128 is inline (x86-64, arm64). The w32
# build forces the 32-bit-target paths (26-bit limbs, 32x32->64 GHASH
# products), the r8 build the AVR ones (radix 2^8, bit-serial GHASH): each
# links the core archive built that way (CORE_DEFS_*, mk/core-lib.mk).
PRIMS_ATESTS  := $(PRIMS_HOST)/asan/test_prims_kat \
		 $(PRIMS_HOST)/asan/test_prims_openssl

all: $(PRIMS_TESTS)

$(PRIMS_HOST)/test_prims_kat: $(TOP)/selftests/core/test_prims_kat.c $(PRIMS_DEPS) $(CORE_LIB_host)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -o $@ $< $(CORE_LIB_host)

$(PRIMS_HOST)/test_prims_openssl: $(TOP)/selftests/core/test_prims_openssl.c $(PRIMS_DEPS) $(CORE_LIB_host)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -o $@ $< $(CORE_LIB_host) -lcrypto

# The byte-lane AES path is the AVR default; build it on the host too so the
# same vectors and differential tests cover it.
$(PRIMS_HOST)/bl/test_prims_kat: $(TOP)/selftests/core/test_prims_kat.c $(PRIMS_DEPS) $(CORE_LIB_bl)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_DEFS_bl) -o $@ $< $(CORE_LIB_bl)

$(PRIMS_HOST)/bl/test_prims_openssl: $(TOP)/selftests/core/test_prims_openssl.c $(PRIMS_DEPS) $(CORE_LIB_bl)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_DEFS_bl) -o $@ $< $(CORE_LIB_bl) -lcrypto

$(PRIMS_HOST)/w32/test_prims_kat: $(TOP)/selftests/core/test_prims_kat.c $(PRIMS_DEPS) $(CORE_LIB_w32)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_DEFS_w32) -o $@ $< $(CORE_LIB_w32)

$(PRIMS_HOST)/w32/test_prims_openssl: $(TOP)/selftests/core/test_prims_openssl.c $(PRIMS_DEPS) $(CORE_LIB_w32)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_DEFS_w32) -o $@ $< $(CORE_LIB_w32) -lcrypto

$(PRIMS_HOST)/r8/test_prims_kat: $(TOP)/selftests/core/test_prims_kat.c $(PRIMS_DEPS) $(CORE_LIB_r8)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_DEFS_r8) -o $@ $< $(CORE_LIB_r8)

$(PRIMS_HOST)/r8/test_prims_openssl: $(TOP)/selftests/core/test_prims_openssl.c $(PRIMS_DEPS) $(CORE_LIB_r8)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_DEFS_r8) -o $@ $< $(CORE_LIB_r8) -lcrypto

$(PRIMS_HOST)/asan/test_prims_kat: $(TOP)/selftests/core/test_prims_kat.c $(PRIMS_DEPS) $(CORE_LIB_asan)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_SANITIZE) -o $@ $< $(CORE_LIB_asan)

$(PRIMS_HOST)/asan/test_prims_openssl: $(TOP)/selftests/core/test_prims_openssl.c $(PRIMS_DEPS) $(CORE_LIB_asan)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_SANITIZE) -o $@ $< $(CORE_LIB_asan) -lcrypto

# A failing test must not stop make: the TAP files carry the verdict, and
# each program prints its plan last, so a crash leaves a file the summary
# counts as failed.
CHECK_SUITES += prims-kat prims-openssl prims-asan

.PHONY: check-prims-kat check-prims-openssl check-prims-asan prims-cross
check-prims-kat: $(PRIMS_HOST)/test_prims_kat $(PRIMS_HOST)/bl/test_prims_kat \
		 $(PRIMS_HOST)/w32/test_prims_kat $(PRIMS_HOST)/r8/test_prims_kat
	@mkdir -p $(TAPDIR)
	@$(PRIMS_HOST)/test_prims_kat | tee $(TAPDIR)/prims-kat.tap
	@$(PRIMS_HOST)/bl/test_prims_kat | tee $(TAPDIR)/prims-kat-bytelanes.tap
	@$(PRIMS_HOST)/w32/test_prims_kat | tee $(TAPDIR)/prims-kat-w32.tap
	@$(PRIMS_HOST)/r8/test_prims_kat | tee $(TAPDIR)/prims-kat-r8.tap

check-prims-openssl: $(PRIMS_HOST)/test_prims_openssl $(PRIMS_HOST)/bl/test_prims_openssl \
		     $(PRIMS_HOST)/w32/test_prims_openssl $(PRIMS_HOST)/r8/test_prims_openssl
	@mkdir -p $(TAPDIR)
	@$(PRIMS_HOST)/test_prims_openssl | tee $(TAPDIR)/prims-openssl.tap
	@$(PRIMS_HOST)/bl/test_prims_openssl 0x6469616d6f6e6421 10000 | \
		tee $(TAPDIR)/prims-openssl-bytelanes.tap
	@$(PRIMS_HOST)/w32/test_prims_openssl 0x6469616d6f6e6421 20000 | \
		tee $(TAPDIR)/prims-openssl-w32.tap
	@$(PRIMS_HOST)/r8/test_prims_openssl 0x6469616d6f6e6421 10000 | \
		tee $(TAPDIR)/prims-openssl-r8.tap

# Two programs, two TAP files, so each keeps its own plan.
check-prims-asan: $(PRIMS_ATESTS)
	@mkdir -p $(TAPDIR)
	@$(PRIMS_HOST)/asan/test_prims_kat | tee $(TAPDIR)/prims-asan-kat.tap
	@$(PRIMS_HOST)/asan/test_prims_openssl | tee $(TAPDIR)/prims-asan-openssl.tap

# Freestanding cross builds of the primitives (not a suite: it needs the
# cross compilers and reports sizes rather than results).
PRIMS_AVR_CFLAGS := -mmcu=atmega2560 $(DMD_INC) -std=c11 -Os -Wall -Wextra -Werror -ffreestanding
PRIMS_ARM_CFLAGS := -mcpu=cortex-m4 -mthumb $(DMD_INC) -std=c11 -O2 -Wall -Wextra -Werror -ffreestanding

prims-cross:
	@mkdir -p $(BUILD)/cross/avr $(BUILD)/cross/arm
	@set -e; for f in $(PRIMS_SRCS); do \
		o=$$(basename $$f .c).o; \
		avr-gcc $(PRIMS_AVR_CFLAGS) -c $$f -o $(BUILD)/cross/avr/$$o; \
		arm-none-eabi-gcc $(PRIMS_ARM_CFLAGS) -c $$f -o $(BUILD)/cross/arm/$$o; \
	done
	@avr-size $(BUILD)/cross/avr/*.o
	@arm-none-eabi-size $(BUILD)/cross/arm/*.o
