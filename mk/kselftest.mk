# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# kselftest: the diamond kernel selftests (selftests/diamond/) in one VM
# boot with diamond.ko: raw AF_ALG vectors, bad input, tamper matrix,
# interop with the portable core, threads, libkcapi, kcapi-enc, fuzz,
# instance names, memcg charging, a 1-deep cryptd queue, both suites
# from softirq (selftests/diamond/atomic/dmd_atomic.ko, built here too),
# setkey raced against requests (selftests/diamond/race/dmd_race.ko, too),
# and keys by reference with wrapped states (diamond_wrap).
#
#   make check-kselftest   build diamond.ko (`module`, mk/kernel.mk) and the
#                          static test programs (make -C selftests/diamond
#                          install, kselftest lib.mk conventions) into
#                          $(BUILD)/selftests/<arch>-<kver>/install, boot
#                          one VM, split its TAP per program into
#                          $(TAPDIR)/kselftest-<program>.tap
#   make kselftest-mock    the same tests against the portable core on the
#                          host (no kernel): checks the tests themselves
#
# A module that cannot be built or loaded fails the suite (never a skip).

CHECK_SUITES += kselftest

KSFT_SRC    := $(TOP)/selftests/diamond
# Per architecture: the guest programs are built for the guest's (GUEST_CC,
# mk/kernel.mk); for arm64 libkcapi and kcapi-enc come unpacked from
# Debian's arm64 packages (GUEST_ROOT, tools/kernel/kcell).
# The programs are built once per architecture (KSFT_OUT) and installed
# per kernel (KSFT_RUN, beside that kernel's dmd_atomic.ko and log): the
# matrix's cells run side by side in make check, and cells of one
# architecture share the programs, so their build takes a lock.
KSFT_OUT    := $(BUILD)/selftests/$(DMD_ARCH)/diamond
KSFT_LOCK   := flock $(BUILD)/selftests/$(DMD_ARCH)/.lock
KSFT_RUN    := $(BUILD)/selftests/$(DMD_ARCH)-$(KVER)
KSFT_INST   := $(KSFT_RUN)/install
KSFT_KCAPI  := $(KSFT_RUN)/kcapi
KSFT_KCAPI_A := $(if $(GUEST_ROOT),$(firstword $(wildcard $(GUEST_ROOT)/usr/lib/*/libkcapi.a)))
KSFT_LOG    := $(KSFT_RUN)/kselftest.out
KSFT_VM     := $(BUILD)/vm
KSFT_KO     ?= $(or $(KMOD_KO),$(BUILD)/kernel/diamond.ko)
KSFT_TIMEOUT ?= 300
# `module` comes from mk/kernel.mk; without it the suite cannot run.
KSFT_MODULE_TARGET := $(if $(wildcard $(TOP)/mk/kernel.mk),module,ksft-no-module-target)

.PHONY: check-kselftest kselftest-build kselftest-kcapi kselftest-mock \
	ksft-no-module-target

# The host's core archive when the guest runs the host's architecture;
# otherwise selftests/diamond/Makefile compiles the core with GUEST_CC.
KSFT_CORE := $(if $(filter $(CC),$(GUEST_CC)),$(CORE_LIB_host))

kselftest-build: $(KSFT_CORE)
	@mkdir -p $(BUILD)/selftests/$(DMD_ARCH)
	@$(KSFT_LOCK) $(MAKE) --no-print-directory -C $(KSFT_SRC) OUTPUT=$(KSFT_OUT) \
		TOP=$(TOP) CC="$(GUEST_CC)" $(if $(KSFT_KCAPI_A),KCAPI_A=$(KSFT_KCAPI_A)) \
		$(if $(KSFT_CORE),DMD_CORE=$(KSFT_CORE)) install INSTALL_PATH=$(KSFT_INST)
	@$(KBUILD) --src $(KSFT_SRC)/atomic $(KDIR) $(KOUT)/atomic $(KBUILD_ARGS)
	@cp $(KOUT)/atomic/dmd_atomic.ko $(KSFT_INST)/
	@$(KBUILD) --src $(KSFT_SRC)/race $(KDIR) $(KOUT)/race $(KBUILD_ARGS)
	@cp $(KOUT)/race/dmd_race.ko $(KSFT_INST)/

# kcapi-enc (kcapi-tools) and the shared objects it loads, for the guest,
# with dmd_keyshim.so from kselftest-build:
# the host's (ldd), or from GUEST_ROOT by the ELF's NEEDED entries.
kselftest-kcapi: kselftest-build
	@rm -rf $(KSFT_KCAPI); mkdir -p $(KSFT_KCAPI)/bin $(KSFT_KCAPI)/lib
ifneq ($(GUEST_ROOT),)
	@enc=$(GUEST_ROOT)/usr/bin/kcapi-enc; \
	[ -x $$enc ] || { echo "# no kcapi-enc in $(GUEST_ROOT)"; exit 0; }; \
	cp $$enc $(KSFT_KCAPI)/bin/kcapi-enc; \
	for n in $$(readelf -d $$enc | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do \
		f=$$(find $(GUEST_ROOT)/lib $(GUEST_ROOT)/usr/lib -name "$$n" | head -n1); \
		[ -n "$$f" ] && cp "$$(readlink -f $$f)" $(KSFT_KCAPI)/lib/$$n; \
	done; \
	cp $(KSFT_OUT)/dmd_keyshim.so $(KSFT_KCAPI)/lib/
else
	@enc=$$(command -v kcapi-enc) || { echo "# kcapi-enc not installed (kcapi-tools)"; exit 0; }; \
	cp "$$(readlink -f $$enc)" $(KSFT_KCAPI)/bin/kcapi-enc; \
	for l in $$(ldd "$$enc" | awk '/=>/ { print $$3 } /ld-linux/ { print $$1 }'); do \
		cp "$$(readlink -f $$l)" $(KSFT_KCAPI)/lib/$$(basename $$l); \
	done; \
	cp $(KSFT_OUT)/dmd_keyshim.so $(KSFT_KCAPI)/lib/
endif

ksft-no-module-target:
	@echo "check-kselftest: mk/kernel.mk with the 'module' target (diamond.ko) is missing" >&2
	@exit 1

check-kselftest:
	@mkdir -p $(TAPDIR) $(dir $(KSFT_LOG))
	@rm -f $(TAPDIR)/kselftest-*.tap
	@if ! $(MAKE) --no-print-directory $(KSFT_MODULE_TARGET) || [ ! -f $(KSFT_KO) ]; then \
		$(TOP)/tools/tap-result 1 "build $(KSFT_KO)" | tee $(TAPDIR)/kselftest-module.tap; \
		exit 1; \
	fi
	@if ! $(MAKE) --no-print-directory kselftest-build kselftest-kcapi; then \
		$(TOP)/tools/tap-result 1 "build the selftest programs" | \
			tee $(TAPDIR)/kselftest-build.tap; \
		exit 1; \
	fi
	@rc=0; BUILD=$(KSFT_VM) $(TOP)/tools/vm/run-vm --timeout $(KSFT_TIMEOUT) \
		--module $(KSFT_KO) \
		--file $(KSFT_INST):/diamond/bin \
		--file $(TOP)/vectors/diamond.txt:/diamond/vectors/diamond.txt \
		--file $(KSFT_KCAPI):/opt/kcapi \
		-- 'sh /diamond/bin/run_all.sh --require-module --dir /diamond/bin --vectors /diamond/vectors/diamond.txt' \
		>$(KSFT_LOG) || rc=$$?; \
	$(TOP)/tools/tap-split $(TAPDIR)/kselftest- <$(KSFT_LOG); \
	$(TOP)/tools/tap-result $$([ $$rc -ge 124 ] && echo $$rc || echo 0) \
		"one VM boot, run-vm exit $$rc (124 timeout, 125 guest crash, 126 BUG/WARNING/Oops in dmesg, 127 setup)" \
		>$(TAPDIR)/kselftest-vm.tap; \
	grep -hE '^(not ok|# )' $(TAPDIR)/kselftest-*.tap | grep -v '^# seed' | head -60; \
	$(TOP)/tools/tap-summary $(TAPDIR)/kselftest-*.tap || rc=1; \
	exit $$rc

kselftest-mock: $(CORE_LIB_host)
	@$(MAKE) --no-print-directory -C $(KSFT_SRC) OUTPUT=$(KSFT_OUT) \
		TOP=$(TOP) CC="$(CC)" DMD_CORE=$(CORE_LIB_host) mock-check
