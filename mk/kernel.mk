# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# diamond.ko: the kernel AEAD template (kernel/, Documentation/kernel-api.rst).
#
#   make module           build diamond.ko into
#                         $(BUILD)/kernel/<arch>-<kver>/diamond.ko (objects
#                         in a staged tree beside it, tools/kernel/kbuild)
#   make kernel-lint      W=1, sparse (C=2) and checkpatch where available,
#                         one TAP result per tool (tools/kernel/lint)
#   make check-kernel-lint  the same as a check suite
#   make kernel-kat-header  regenerate kernel/diamond_kat.h,
#                         diamond_wrap_kat.h and diamond_grid_kat.h (grid2c)
#                         from the vectors
#   make check-kernel-kat   boot the VM, load the module, TAP of the selftest
#                         line, /proc/crypto drivers and every vector via AF_ALG;
#                         first a module whose selftest fails does not load
#                         and the module unloads and reloads cleanly
#   make check-vectors-kat  kernel/diamond_kat.h, diamond_wrap_kat.h and
#                         diamond_grid_kat.h are what
#                         vec2c, wrap2c and grid2c generate
#   make bench-kernel     the AF_ALG benchmark in the VM under -icount
#   make bench-kernel-groups  its group-tag figures (g = 1024, 64, 16)
#   make bench-floor      the floor alone: one epoch on the kernel's own
#                         primitives plus an AF_ALG round trip (bench-kernel
#                         prints Diamond against it)
#   make profile-kernel   instructions per kernel function of one bench phase
#   make bench-nh         one long record's hash: Poly1305 against the
#                         kernel's nhpoly1305, 256 B to 4 KiB (issue 22)
#   make bench-nh-cells   the same in the matrix's NH_CELLS (x86_64 and
#                         arm64, 6.12 and newest), into
#                         Documentation/performance/nh.txt
#   make bench-erase      the slot table's erase on this CPU: rep stosb
#                         against 64-bit stores (a TSC ratio)
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
	       $(TOP)/kernel/Kbuild $(TOP)/Kbuild $(TOP)/include/diamond/spec.h \
	       $(TOP)/include/diamond/epoch.h
KOUT        := $(BUILD)/kernel/$(DMD_ARCH)-$(KVER)
KMOD_KO     := $(KOUT)/diamond.ko
KTOOLS      := $(BUILD)/kernel
VEC2C       := $(BUILD)/host/vec2c
WRAP2C      := $(BUILD)/host/wrap2c
GRID2C      := $(BUILD)/host/grid2c
# Guest programs are static binaries for the guest's architecture.
GUEST_CC    := $(if $(filter arm64,$(DMD_ARCH)),aarch64-linux-gnu-gcc,$(CC))
KAT_PROBE   := $(KTOOLS)/$(DMD_ARCH)/kat-probe
KBENCH      := $(KTOOLS)/$(DMD_ARCH)/kernel-bench
KVM_BUILD   := $(BUILD)/vm
# The guest's init has loaded the accelerated drivers (tools/vm/init).
# From 7.x type "aead" binds only allowlisted names (ccm(aes)) at the
# default af_alg_restrict=1; the guests leave it there and reach the
# instances through the module's own type "diamond" (Documentation/
# kernel-api.rst, "AF_ALG from 7.x"). KVM_AFALG only prints the value.
KVM_AFALG   := r=/proc/sys/crypto/af_alg_restrict; [ ! -e $$r ] || echo "\# af_alg_restrict is $$(cat $$r) (left as it is)"
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
	check-vectors-kat bench-kernel bench-kernel-groups

ifneq ($(wildcard $(KROOT)$(KDIR)/Makefile),)
all: module
endif

module: $(KMOD_KO)

$(KMOD_KO): $(KMOD_SRCS)
	@[ -n "$(KVER)" ] || { echo "module: no kernel headers found (install linux-headers-amd64, or KVER=)" >&2; exit 1; }
	$(KBUILD) $(KDIR) $(KOUT) $(KBUILD_ARGS)

# The module's lint (tools/kernel/lint): one TAP result each for the W=1
# build, the sparse (C=2) pass and checkpatch --strict, each pass on its own
# so its warnings are counted apart; C=2 checks every file whether or not it
# is rebuilt. checkpatch is a SKIP when linux-source-6.1 is missing.
# kernel-lint prints it; check-kernel-lint is the same as a check suite.
CHECK_SUITES += kernel-lint
KLINT_LOG := $(KOUT)/lint
KLINT     := CHECKPATCH=$(CHECKPATCH) KSRC_TARBALL=$(KSRC_TARBALL) \
	     CHECKPATCH_CLEAN=$(BUILD)/checkpatch-clean \
	     $(TOP)/tools/kernel/lint $(KLINT_LOG) $(KBUILD) $(KDIR) $(KOUT) $(KBUILD_ARGS)

.PHONY: check-kernel-lint

# `+`: the script runs make (kbuild), which takes part in the jobserver.
kernel-lint:
	+@$(KLINT)

check-kernel-lint:
	@mkdir -p $(TAPDIR)
	+@rc=0; $(KLINT) >$(TAPDIR)/kernel-lint.tap || rc=$$?; \
		cat $(TAPDIR)/kernel-lint.tap; exit $$rc

SAME_FILE   := $(TOP)/tools/vectors/same-file.c $(TOP)/tools/vectors/same-file.h

$(VEC2C): $(TOP)/tools/vectors/vec2c.c $(TOP)/selftests/lib/vecfile.c \
	  $(TOP)/selftests/lib/vecfile.h $(SAME_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(TEST_INC) -o $@ $(TOP)/tools/vectors/vec2c.c \
		$(TOP)/tools/vectors/same-file.c $(TOP)/selftests/lib/vecfile.c

kernel-kat-header: $(VEC2C) $(WRAP2C) $(GRID2C)
	$(VEC2C) $(TOP)/vectors/diamond.txt >$(TOP)/kernel/diamond_kat.h
	$(WRAP2C) $(TOP)/vectors/wrap.txt >$(TOP)/kernel/diamond_wrap_kat.h
	$(GRID2C) $(TOP)/vectors/packet.txt >$(TOP)/kernel/diamond_grid_kat.h

$(WRAP2C): $(TOP)/tools/vectors/wrap2c.c $(SAME_FILE)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -o $@ $< $(TOP)/tools/vectors/same-file.c

# The packets are parsed by the portable core.
$(GRID2C): $(TOP)/tools/vectors/grid2c.c $(SAME_FILE) \
	   $(TOP)/selftests/lib/kvrec.h $(CORE_LIB_host)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(TEST_INC) -o $@ $< $(TOP)/tools/vectors/same-file.c \
		$(CORE_LIB_host)

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

check-vectors-kat: $(VEC2C) $(WRAP2C) $(GRID2C)
	@mkdir -p $(TAPDIR)
	@rc=0; $(TOP)/tools/tap-run \
		"kernel/diamond_kat.h is what vec2c generates from vectors/diamond.txt (else make kernel-kat-header)" \
		"$(VEC2C) --check $(TOP)/kernel/diamond_kat.h $(TOP)/vectors/diamond.txt" \
		"kernel/diamond_wrap_kat.h is what wrap2c generates from vectors/wrap.txt (else make kernel-kat-header)" \
		"$(WRAP2C) --check $(TOP)/kernel/diamond_wrap_kat.h $(TOP)/vectors/wrap.txt" \
		"kernel/diamond_grid_kat.h is what grid2c generates from vectors/packet.txt (else make kernel-kat-header)" \
		"$(GRID2C) --check $(TOP)/kernel/diamond_grid_kat.h $(TOP)/vectors/packet.txt" \
		>$(TAPDIR)/vectors-kat.tap || rc=$$?; cat $(TAPDIR)/vectors-kat.tap; exit $$rc

# The guest programs share the selftests' raw AF_ALG calls.
KAFALG_INC := $(TEST_INC) -I$(TOP)/selftests/diamond -I$(TOP)/tools/kernel
KAFALG := $(TOP)/selftests/diamond/afalg.c $(TOP)/selftests/diamond/afalg.h \
	  $(TOP)/tools/kernel/afalg_conn.h

# The matrix's cells of one architecture share it and may build it side by
# side (make check): each links a scratch file and renames it into place,
# so no VM is handed a half-written program.
$(KAT_PROBE): $(TOP)/tools/kernel/kat-probe.c $(KAFALG) \
	      $(TOP)/selftests/lib/vecfile.c $(TOP)/selftests/tap.h
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(CSTD) $(KAFALG_INC) -static -o $@.$$$$ $< $(TOP)/selftests/lib/vecfile.c \
		$(TOP)/selftests/diamond/afalg.c && mv -f $@.$$$$ $@

# The portable core seals the grouped epochs of `kernel-bench ... groups`:
# the host archive on x86_64, its sources for another guest compiler.
KBENCH_CORE := $(if $(filter $(CC),$(GUEST_CC)),$(CORE_LIB_host),$(CORE_LIB_SRCS))
$(KBENCH): $(TOP)/tools/bench/kernel-bench.c $(TOP)/tools/bench/kernel-floor.c \
	   $(TOP)/tools/bench/kernel-floor.h $(TOP)/tools/bench/bench-clock.h $(KAFALG) \
	   $(TOP)/selftests/lib/vecfile.c $(KBENCH_CORE) $(CORE_DEPS)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(CSTD) $(KAFALG_INC) -static -o $@ $< $(TOP)/tools/bench/kernel-floor.c \
		$(TOP)/selftests/lib/vecfile.c \
		$(TOP)/selftests/diamond/afalg.c $(KBENCH_CORE)

# The same module with one known answer of its selftest wrong (kernel/Kbuild,
# tests only): check-kernel-kat's boot first checks that it does not load,
# with binds racing it, and that the module then loads, unloads and loads
# again with nothing in dmesg (issue 34 item 6; kat-probe.c).
KMOD_FAIL_KO := $(KOUT)/selftest-fail/diamond.ko
$(KMOD_FAIL_KO): $(KMOD_SRCS)
	$(KBUILD) $(KDIR) $(dir $@) $(KBUILD_ARGS) DIAMOND_SELFTEST_FAIL=1

check-kernel-kat: $(KMOD_KO) $(KMOD_FAIL_KO) $(KAT_PROBE)
	@mkdir -p $(TAPDIR)
	@BUILD=$(KVM_BUILD) $(TOP)/tools/vm/run-vm-tap $(TAPDIR)/kernel-kat.tap --timeout 600 \
		--module $(KMOD_KO) --file $(KAT_PROBE):/bin/kat-probe \
		--file $(KMOD_FAIL_KO):/fail/diamond.ko \
		--file $(TOP)/vectors/diamond.txt:/diamond.txt -- \
		'$(KVM_AFALG); modprobe diamond && rmmod diamond || echo "\# modprobe/rmmod diamond failed"; \
		 kat-probe /diamond.txt "$(KAT_DRIVER1)" "$(KAT_DRIVER2)" \
			/fail/diamond.ko /lib/modules/$$(uname -r)/extra/diamond.ko'

# The floor of an epoch on this kernel's own primitives (issue 21,
# tools/bench/floor/floor_main.c), loaded beside the module by bench-kernel:
# kernel-bench prints Diamond against it (Documentation/performance.md,
# "Against the floor").
FLOOR_SRC := $(TOP)/tools/bench/floor
FLOOR_KO  := $(KOUT)/floor/dmd_floor.ko
$(FLOOR_KO): $(wildcard $(FLOOR_SRC)/*.c $(FLOOR_SRC)/*.h) $(FLOOR_SRC)/Kbuild \
	     $(TOP)/kernel/diamond_compat.h $(TOP)/include/diamond/spec.h
	+$(KBUILD) --src $(FLOOR_SRC) $(KDIR) $(dir $@) $(KBUILD_ARGS)

# Guest time is the instruction count (-icount shift=0): see
# Documentation/performance.md, section Kernel. BENCH_KO= benches another
# build of the module for the same kernel (an older commit's, say).
# At 7.x's af_alg_restrict=1 type "aead" refuses the gcm(aes) and
# rfc7539 baselines; KVM_LOAD leaves the sysctl alone and says its value.
# BENCH_REPS, BENCH_WHAT and BENCH_PRE_KIB are kernel-bench's REPS, WHAT
# and PRE_KIB (e.g. BENCH_WHAT=diamond BENCH_PRE_KIB=32: both suites at the
# module's default table bound, no baselines; tools/bench/kernel-bench.c).
BENCH_KO ?= $(KMOD_KO)
BENCH_REPS ?= 5
BENCH_WHAT ?= all
BENCH_PRE_KIB ?= 256
bench-kernel: $(BENCH_KO) $(KBENCH) $(FLOOR_KO)
	@BUILD=$(KVM_BUILD) $(TOP)/tools/vm/run-vm --icount --timeout 2400 \
		--module $(BENCH_KO) --module $(FLOOR_KO) \
		--file $(KBENCH):/bin/kernel-bench \
		--file $(TOP)/vectors/diamond.txt:/diamond.txt -- \
		'$(KVM_LOAD); modprobe dmd_floor || echo "\# modprobe dmd_floor failed"; kernel-bench /diamond.txt $(BENCH_REPS) $(BENCH_WHAT) $(BENCH_PRE_KIB)'

# The floor alone (kernel-bench WHAT = floor), the same guest: the
# primitives' and AF_ALG's figures without Diamond's, so no ratios.
.PHONY: bench-floor
bench-floor: $(KMOD_KO) $(KBENCH) $(FLOOR_KO)
	@BUILD=$(KVM_BUILD) $(TOP)/tools/vm/run-vm --icount --timeout 1200 \
		--module $(FLOOR_KO) --file $(KBENCH):/bin/kernel-bench \
		--file $(TOP)/vectors/diamond.txt:/diamond.txt -- \
		'$(KVM_AFALG); modprobe dmd_floor || echo "\# modprobe dmd_floor failed"; kernel-bench /diamond.txt 5 floor'

# One long record's hash on this kernel's own code (issue 22, item 1):
# Poly1305 against nhpoly1305 at 256 B to 4 KiB, per record, the same
# -icount guest (dmd_floor.ko's parameter nh, floor_nh.c; the figures:
# Documentation/performance.md, "NH against Poly1305 on long records").
.PHONY: bench-nh
bench-nh: $(FLOOR_KO)
	@BUILD=$(KVM_BUILD) $(TOP)/tools/vm/run-vm --icount --timeout 1200 \
		--module $(FLOOR_KO) -- \
		'modprobe dmd_floor || echo "\# modprobe dmd_floor failed"; echo 9 >/sys/module/dmd_floor/parameters/reps; cat /sys/module/dmd_floor/parameters/nh'

# The same in cells of the gateway matrix (KCACHE as for check-matrix),
# into Documentation/performance/nh.txt for bench/related-table.sh.
NH_CELLS ?= x86_64-6.12 arm64-6.12 x86_64-newest arm64-newest
.PHONY: bench-nh-cells
bench-nh-cells:
	@BUILD=$(BUILD) KCACHE=$(KCACHE) MAKE="$(MAKE)" $(TOP)/tools/bench/nh-cells.sh \
		$(TOP)/Documentation/performance/nh.txt $(NH_CELLS)

# The gateway cost of group tags, g = 1024, 64, 16 at b = 1024 (the same
# -icount guest; Documentation/performance.md, section Groups).
bench-kernel-groups: $(KMOD_KO) $(KBENCH)
	@BUILD=$(KVM_BUILD) $(TOP)/tools/vm/run-vm --icount --timeout 1200 \
		--module $(KMOD_KO) --file $(KBENCH):/bin/kernel-bench \
		--file $(TOP)/vectors/diamond.txt:/diamond.txt -- \
		'$(KVM_LOAD); kernel-bench /diamond.txt 5 groups'

# The erase of the slot table on this machine's CPU: memset's rep stosb
# against 64-bit stores, a TSC ratio (performance.md says why -icount
# overstates the first).
KERASE := $(KTOOLS)/erase-ratio
.PHONY: bench-erase
bench-erase: $(KERASE)
	@$(KERASE)

$(KERASE): $(TOP)/tools/bench/erase-ratio.c
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) -D_ISOC11_SOURCE -o $@ $<

# Per-function instruction profile of one kernel-bench phase (development
# tool): make profile-kernel PROFILE=d2-online (or d2-total, d1-online, ...,
# floor: dmd_floor.ko's pairs), the PROFILE_TOP (30) costliest functions.
PROFILE ?= d2-online
PROFILE_TOP ?= 30
.PHONY: profile-kernel
profile-kernel: $(KMOD_KO) $(KBENCH) $(FLOOR_KO) $(BUILD)/tools/pc-histogram.so
	@BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) KBENCH=$(KBENCH) FLOOR_KO=$(FLOOR_KO) \
		$(TOP)/tools/bench/kernel-profile.sh $(PROFILE) $(PROFILE_TOP)
