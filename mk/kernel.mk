# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# diamond.ko: the kernel AEAD template (kernel/, Documentation/kernel-api.rst).
#
#   make module           build diamond.ko into
#                         $(BUILD)/kernel/<arch>-<kver>/diamond.ko (objects
#                         in a staged tree beside it, tools/kernel/kbuild)
#   make kernel-lint      W=1, sparse (C=2) and checkpatch where available
#   make check-kernel-lint  the same as TAP: one result per tool
#   make kernel-kat-header  regenerate kernel/diamond_kat.h from the vectors
#   make check-kernel-kat   boot the VM, load the module, TAP of the selftest
#                         line, /proc/crypto drivers and every vector via AF_ALG
#   make check-vectors-kat  kernel/diamond_kat.h is what vec2c generates
#   make bench-kernel     the AF_ALG benchmark in the VM under -icount
#   make profile-kernel   instructions per kernel function of one bench phase
#
# The kernel: the running one when its headers are installed, else
# Debian's default (tools/kernel/default-kver). KVER=, ARCH=arm64 and
# CROSS_COMPILE= choose another; KDIR, KROOT (a chroot to build in),
# VMLINUZ and MODROOT (where lib/modules/KVER is) describe a kernel that is
# not installed (tools/kernel/kcell prints them; make check-matrix sets
# them per cell). KVER is resolved once, here, with :=, and exported with
# the image to boot, so every sub-make and every VM of this run use the
# same kernel even if another kernel's headers appear meanwhile.
DMD_ARCH    := $(if $(filter arm64 aarch64,$(ARCH)),arm64,x86_64)
ifeq ($(strip $(KVER)),)
KVER        := $(shell $(TOP)/tools/kernel/default-kver)
endif
KDIR        ?= /lib/modules/$(KVER)/build
KROOT       ?=
VMLINUZ     ?= /boot/vmlinuz-$(KVER)
MODROOT     ?= /
KBUILD_ARGS := $(if $(filter arm64,$(DMD_ARCH)),ARCH=arm64 \
	       CROSS_COMPILE=$(or $(CROSS_COMPILE),aarch64-linux-gnu-))
KBUILD      := $(TOP)/tools/kernel/kbuild $(if $(KROOT),--root $(KROOT))
# tools/vm/run-vm reads these: every VM of the run boots this kernel.
RUN_VM_ARCH    := $(DMD_ARCH)
RUN_VM_KERNEL  := $(VMLINUZ)
RUN_VM_MODROOT := $(MODROOT)
RUN_VM_BUSYBOX := $(or $(BUSYBOX),/bin/busybox)
export KVER RUN_VM_ARCH RUN_VM_KERNEL RUN_VM_MODROOT RUN_VM_BUSYBOX

KMOD_SRCS   := $(wildcard $(TOP)/kernel/*.c $(TOP)/kernel/*.h) \
	       $(TOP)/kernel/Kbuild $(TOP)/Kbuild $(TOP)/include/diamond/spec.h
KOUT        := $(BUILD)/kernel/$(DMD_ARCH)-$(KVER)
KMOD_KO     := $(KOUT)/diamond.ko
KTOOLS      := $(BUILD)/kernel
VEC2C       := $(BUILD)/host/vec2c
# Guest programs are static binaries for the guest's architecture.
GUEST_CC    := $(if $(filter arm64,$(DMD_ARCH)),aarch64-linux-gnu-gcc,$(CC))
KAT_PROBE   := $(KTOOLS)/$(DMD_ARCH)/kat-probe
KBENCH      := $(KTOOLS)/$(DMD_ARCH)/kernel-bench
KVM_BUILD   := $(BUILD)/vm
# The guest's init has loaded the accelerated drivers (tools/vm/init).
# From 7.x AF_ALG binds only allowlisted names (ccm(aes)) unless the
# af_alg_restrict sysctl is 0 (Documentation/kernel-api.rst, "AF_ALG from
# 7.x"): the guest sets it, and says so, where it exists.
KVM_AFALG   := r=/proc/sys/crypto/af_alg_restrict; [ ! -e $$r ] || { echo "\# af_alg_restrict was $$(cat $$r), set to 0"; echo 0 >$$r; }
KVM_LOAD    := $(KVM_AFALG); modprobe diamond || echo "\# modprobe diamond failed"
# The driver names /proc/crypto must give the instances: "auto" derives
# them in the guest from the best inner drivers it lists (kat-probe.c), for
# any architecture; pin one to check a CPU, e.g. under qemu -cpu max on 6.1
# KAT_DRIVER1='diamond(ctr-aes-aesni,ghash-clmulni)'.
KAT_DRIVER1 ?= auto
KAT_DRIVER2 ?= auto
# checkpatch.pl is not in the headers package: take it from linux-source-6.1
# (apt), extracted once into $(BUILD)/checkpatch.
KSRC_TARBALL := $(lastword $(sort $(wildcard /usr/src/linux-source-*.tar.xz)))
CHECKPATCH  ?= $(firstword $(wildcard $(KDIR)/scripts/checkpatch.pl \
		$(BUILD)/checkpatch/scripts/checkpatch.pl) \
		$(if $(KSRC_TARBALL),$(BUILD)/checkpatch/scripts/checkpatch.pl))

.PHONY: module kernel-lint kernel-kat-header check-kernel-kat \
	check-vectors-kat bench-kernel

ifneq ($(wildcard $(KROOT)$(KDIR)/Makefile),)
all: module
endif

module: $(KMOD_KO)

$(KMOD_KO): $(KMOD_SRCS)
	@[ -n "$(KVER)" ] || { echo "module: no kernel headers found (install linux-headers-amd64, or KVER=)" >&2; exit 1; }
	$(KBUILD) $(KDIR) $(KOUT) $(KBUILD_ARGS)

kernel-lint:
	@mkdir -p $(BUILD)
	$(KBUILD) $(KDIR) $(KOUT) $(KBUILD_ARGS) W=1 C=2 2>&1 | tee $(BUILD)/kernel-lint.log
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
KLINT_LOG := $(KOUT)/lint
KLINT_SRCS = $(filter-out %.mod.c,$(wildcard $(TOP)/kernel/*.c)) \
	     $(filter-out %/diamond_compat.h,$(wildcard $(TOP)/kernel/*.h))
# The version gates (kernel/diamond_compat.h says why).
KLINT_COMPAT_IGNORE := --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON

.PHONY: check-kernel-lint

check-kernel-lint:
	@mkdir -p $(TAPDIR) $(KLINT_LOG)
	@{ echo "TAP version 13"; echo "1..3"; \
	  if $(KBUILD) $(KDIR) $(KOUT) $(KBUILD_ARGS) -s W=1 >$(KLINT_LOG)/w1.log 2>&1; then \
		n=$$(grep -cE 'warning:|error:' $(KLINT_LOG)/w1.log); \
		if [ "$$n" -eq 0 ]; then echo "ok 1 W=1 build: no warnings"; \
		else echo "not ok 1 W=1 build: $$n warnings ($(KLINT_LOG)/w1.log)"; fi; \
	  else \
		echo "not ok 1 W=1 build failed ($(KLINT_LOG)/w1.log)"; \
	  fi; \
	  if ! command -v sparse >/dev/null; then \
		echo "ok 2 sparse C=2 # SKIP sparse not installed"; \
	  elif $(KBUILD) $(KDIR) $(KOUT) $(KBUILD_ARGS) -s C=2 >$(KLINT_LOG)/sparse.log 2>&1; then \
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

CHECK_SUITES += vectors-kat kernel-kat kbuild-kver

# What this run builds for (selftests/kbuild/kver.sh reads it).
.PHONY: kernel-info check-kbuild-kver
kernel-info:
	@echo KVER=$(KVER)
	@echo KMOD_KO=$(KMOD_KO)

check-kbuild-kver:
	@mkdir -p $(TAPDIR)
	@rc=0; $(TOP)/selftests/kbuild/kver.sh >$(TAPDIR)/kbuild-kver.tap || rc=$$?; \
		cat $(TAPDIR)/kbuild-kver.tap; exit $$rc

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
	$(GUEST_CC) $(CSTD) -static -o $@ $< $(TOP)/selftests/lib/vecfile.c \
		$(TOP)/selftests/diamond/afalg.c

$(KBENCH): $(TOP)/tools/bench/kernel-bench.c $(KAFALG) \
	   $(TOP)/selftests/lib/vecfile.c
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(CSTD) -static -o $@ $< $(TOP)/selftests/lib/vecfile.c \
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
	@BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) KBENCH=$(KBENCH) \
		$(TOP)/tools/bench/kernel-profile.sh $(PROFILE)
