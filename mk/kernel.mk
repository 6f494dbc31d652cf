# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# diamond.ko: the kernel AEAD template (kernel/, Documentation/kernel-api.rst).
#
#   make module           build diamond.ko (Kbuild, in-tree objects; the .ko
#                         is copied to $(BUILD)/kernel/diamond.ko)
#   make kernel-lint      W=1, sparse (C=2) and checkpatch where available
#   make check-kernel-lint  the same as TAP: one result per tool
#   make kernel-kat-header  regenerate kernel/diamond_kat.h from the vectors
#   make check-kernel-kat   boot the VM, load the module, TAP of the selftest
#                         line, /proc/crypto drivers and every vector via AF_ALG
#   make check-vectors-kat  kernel/diamond_kat.h is what vec2c generates
#   make bench-kernel     the AF_ALG benchmark in the VM under -icount
#   make profile-kernel   instructions per kernel function of one bench phase
#
# The kernel is Debian's amd64 build whose headers are installed: the newest
# /lib/modules/V/build, resolved when make runs (never `uname -r`, the host
# runs another kernel). KVER=... overrides.

KVER ?= $(shell ls -d /lib/modules/*-amd64/build 2>/dev/null | \
	  sed -e 's,^/lib/modules/,,' -e 's,/build$$,,' | sort -V | tail -n1)
KDIR ?= /lib/modules/$(KVER)/build

KMOD_SRCS   := $(wildcard $(TOP)/kernel/*.c $(TOP)/kernel/*.h) \
	       $(TOP)/kernel/Kbuild $(TOP)/Kbuild $(TOP)/include/diamond/spec.h
KMOD_KO     := $(BUILD)/kernel/diamond.ko
KTOOLS      := $(BUILD)/kernel
VEC2C       := $(BUILD)/host/vec2c
KAT_PROBE   := $(KTOOLS)/kat-probe
KBENCH      := $(KTOOLS)/kernel-bench
KVM_BUILD   := $(BUILD)/vm
# The guest's init has loaded the accelerated drivers (tools/vm/init).
KVM_LOAD    := modprobe diamond || echo "\# modprobe diamond failed"
# What /proc/crypto must name under qemu -cpu max (AES-NI, PCLMULQDQ, AVX2).
KAT_DRIVER1 ?= diamond(ctr-aes-aesni,ghash-clmulni)
KAT_DRIVER2 ?= diamond(chacha20-lib,poly1305-lib)
# checkpatch.pl is not in the headers package: take it from linux-source-6.1
# (apt), extracted once into $(BUILD)/checkpatch.
KSRC_TARBALL := $(lastword $(sort $(wildcard /usr/src/linux-source-*.tar.xz)))
CHECKPATCH  ?= $(firstword $(wildcard $(KDIR)/scripts/checkpatch.pl \
		$(BUILD)/checkpatch/scripts/checkpatch.pl) \
		$(if $(KSRC_TARBALL),$(BUILD)/checkpatch/scripts/checkpatch.pl))

.PHONY: module kernel-lint kernel-kat-header check-kernel-kat \
	check-vectors-kat bench-kernel

ifneq ($(wildcard $(KDIR)/Makefile),)
all: module
endif

module: $(KMOD_KO)

$(KMOD_KO): $(KMOD_SRCS)
	$(MAKE) -C $(KDIR) M=$(TOP) modules
	@mkdir -p $(dir $@)
	cp $(TOP)/kernel/diamond.ko $@

kernel-lint:
	@mkdir -p $(BUILD)
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 C=2 modules 2>&1 | tee $(BUILD)/kernel-lint.log
	@! grep -E 'warning:|error:' $(BUILD)/kernel-lint.log
	@if [ -n "$(CHECKPATCH)" ] && [ ! -x "$(CHECKPATCH)" ] && [ -n "$(KSRC_TARBALL)" ]; then \
		mkdir -p $(BUILD)/checkpatch/scripts; \
		tar -xJf $(KSRC_TARBALL) -C $(BUILD)/checkpatch --strip-components=1 \
			--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch'; \
	fi
	@if [ -n "$(CHECKPATCH)" ] && [ -x "$(CHECKPATCH)" ]; then \
		$(CHECKPATCH) --no-tree --strict --show-types \
			-f $(filter-out %.mod.c,$(wildcard $(TOP)/kernel/*.c)) \
			$(TOP)/kernel/diamond.h $(TOP)/kernel/diamond_kat.h; \
	else \
		echo "kernel-lint: checkpatch.pl not found (apt-get install linux-source-6.1): skipped"; \
	fi

# kernel-lint as a check suite: one TAP result each for the W=1 build, the
# sparse (C=2) pass and checkpatch --strict. Each pass runs separately so
# its warnings are counted on their own; C=2 checks every file whether or
# not it is rebuilt. checkpatch is a SKIP when linux-source-6.1 is missing.
CHECK_SUITES += kernel-lint
KLINT_LOG := $(BUILD)/kernel-lint
KLINT_SRCS = $(filter-out %.mod.c,$(wildcard $(TOP)/kernel/*.c)) \
	     $(filter-out %/diamond_compat.h,$(wildcard $(TOP)/kernel/*.h))
# The version gates (kernel/diamond_compat.h says why).
KLINT_COMPAT_IGNORE := --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON

.PHONY: check-kernel-lint

check-kernel-lint:
	@mkdir -p $(TAPDIR) $(KLINT_LOG)
	@{ echo "TAP version 13"; echo "1..3"; \
	  if $(MAKE) -s -C $(KDIR) M=$(TOP) W=1 modules >$(KLINT_LOG)/w1.log 2>&1; then \
		n=$$(grep -cE 'warning:|error:' $(KLINT_LOG)/w1.log); \
		if [ "$$n" -eq 0 ]; then echo "ok 1 W=1 build: no warnings"; \
		else echo "not ok 1 W=1 build: $$n warnings ($(KLINT_LOG)/w1.log)"; fi; \
	  else \
		echo "not ok 1 W=1 build failed ($(KLINT_LOG)/w1.log)"; \
	  fi; \
	  if ! command -v sparse >/dev/null; then \
		echo "ok 2 sparse C=2 # SKIP sparse not installed"; \
	  elif $(MAKE) -s -C $(KDIR) M=$(TOP) C=2 modules >$(KLINT_LOG)/sparse.log 2>&1; then \
		n=$$(grep -cE 'warning:|error:' $(KLINT_LOG)/sparse.log); \
		if [ "$$n" -eq 0 ]; then echo "ok 2 sparse C=2: no warnings"; \
		else echo "not ok 2 sparse C=2: $$n warnings ($(KLINT_LOG)/sparse.log)"; fi; \
	  else \
		echo "not ok 2 sparse C=2 build failed ($(KLINT_LOG)/sparse.log)"; \
	  fi; \
	  if [ -n "$(CHECKPATCH)" ] && [ ! -x "$(CHECKPATCH)" ] && [ -n "$(KSRC_TARBALL)" ]; then \
		mkdir -p $(BUILD)/checkpatch/scripts; \
		tar -xJf $(KSRC_TARBALL) -C $(BUILD)/checkpatch --strip-components=1 \
			--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch'; \
	  fi; \
	  if [ -z "$(CHECKPATCH)" ] || [ ! -x "$(CHECKPATCH)" ]; then \
		echo "ok 3 checkpatch --strict # SKIP checkpatch.pl not found (linux-source-6.1 tarball missing: tools/install-deps.sh)"; \
	  elif $(CHECKPATCH) --no-tree --strict --show-types -q -f $(KLINT_SRCS) \
		>$(KLINT_LOG)/checkpatch.log 2>&1 && \
		$(CHECKPATCH) --no-tree --strict --show-types -q $(KLINT_COMPAT_IGNORE) \
		-f $(TOP)/kernel/diamond_compat.h >>$(KLINT_LOG)/checkpatch.log 2>&1; then \
		echo "ok 3 checkpatch --strict: clean"; \
	  else \
		echo "not ok 3 checkpatch --strict ($(KLINT_LOG)/checkpatch.log)"; \
	  fi; } >$(TAPDIR)/kernel-lint.tap
	@cat $(TAPDIR)/kernel-lint.tap
	@! grep -q '^not ok' $(TAPDIR)/kernel-lint.tap

$(VEC2C): $(TOP)/tools/vectors/vec2c.c $(TOP)/selftests/lib/vecfile.c \
	  $(TOP)/selftests/lib/vecfile.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -o $@ $(TOP)/tools/vectors/vec2c.c $(TOP)/selftests/lib/vecfile.c

kernel-kat-header: $(VEC2C)
	$(VEC2C) $(TOP)/vectors/diamond.txt >$(TOP)/kernel/diamond_kat.h

CHECK_SUITES += vectors-kat kernel-kat

check-vectors-kat: $(VEC2C)
	@mkdir -p $(TAPDIR)
	@{ echo "TAP version 13"; echo "1..1"; \
	  if $(VEC2C) --check $(TOP)/kernel/diamond_kat.h $(TOP)/vectors/diamond.txt; then \
		echo "ok 1 kernel/diamond_kat.h is what vec2c generates from vectors/diamond.txt"; \
	  else \
		echo "not ok 1 kernel/diamond_kat.h is stale: make kernel-kat-header"; \
	  fi; } | tee $(TAPDIR)/vectors-kat.tap | grep -q '^ok'

# The guest programs share the selftests' raw AF_ALG calls.
KAFALG := $(TOP)/selftests/diamond/afalg.c $(TOP)/selftests/diamond/afalg.h \
	  $(TOP)/tools/kernel/afalg.h

$(KAT_PROBE): $(TOP)/tools/kernel/kat-probe.c $(KAFALG) \
	      $(TOP)/selftests/lib/vecfile.c $(TOP)/selftests/tap.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -static -o $@ $< $(TOP)/selftests/lib/vecfile.c \
		$(TOP)/selftests/diamond/afalg.c

$(KBENCH): $(TOP)/tools/bench/kernel-bench.c $(KAFALG) \
	   $(TOP)/selftests/lib/vecfile.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -static -o $@ $< $(TOP)/selftests/lib/vecfile.c \
		$(TOP)/selftests/diamond/afalg.c

check-kernel-kat: $(KMOD_KO) $(KAT_PROBE)
	@mkdir -p $(TAPDIR)
	@rc=0; BUILD=$(KVM_BUILD) $(TOP)/tools/vm/run-vm --timeout 600 \
		--module $(KMOD_KO) --file $(KAT_PROBE):/bin/kat-probe \
		--file $(TOP)/vectors/diamond.txt:/diamond.txt -- \
		'$(KVM_LOAD); kat-probe /diamond.txt "$(KAT_DRIVER1)" "$(KAT_DRIVER2)"' \
		>$(TAPDIR)/kernel-kat.tap || rc=$$?; \
	if [ $$rc -ge 124 ]; then echo "not ok - run-vm failed with status $$rc" >>$(TAPDIR)/kernel-kat.tap; fi; \
	cat $(TAPDIR)/kernel-kat.tap; exit $$rc

# Guest time is the instruction count (-icount shift=0): see
# Documentation/performance.md, section Kernel.
bench-kernel: $(KMOD_KO) $(KBENCH)
	@BUILD=$(KVM_BUILD) $(TOP)/tools/vm/run-vm --icount --timeout 1200 \
		--module $(KMOD_KO) --file $(KBENCH):/bin/kernel-bench \
		--file $(TOP)/vectors/diamond.txt:/diamond.txt -- \
		'$(KVM_LOAD); kernel-bench /diamond.txt'

# Per-function instruction profile of one kernel-bench phase (development
# tool): make profile-kernel PROFILE=d2-online (or d2-total, d1-online, ...)
PROFILE ?= d2-online
.PHONY: profile-kernel
profile-kernel: $(KMOD_KO) $(KBENCH) $(BUILD)/tools/pc-histogram.so
	@BUILD=$(BUILD) $(TOP)/tools/bench/kernel-profile.sh $(PROFILE)
