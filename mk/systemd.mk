# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make check-systemd (issue 34 item 3): the gateway under a real systemd.
# The project's .debs installed with apt in a Debian 12 root booted as a VM
# with systemd as PID 1, on the x86_64 kernels of SYSTEMD_CELLS (matrix
# cells, kernels from tools/kernel/kcell in $(KCACHE)): diamond-ingest
# enabled, sealed UDP traffic, a restart mid-epoch, two reboots, an upgrade
# with a dkms rebuild and module reload, the compromised-gateway probe as
# _diamond; every record delivered exactly once
# (selftests/systemd/systemd.sh, guest.sh; Documentation/install.rst
# section 5). Root (else one loud SKIP). The root tarball is cached in
# $(BUILD)/systemd (tools/systemd/mkroot, mmdebstrap).
SYSTEMD_CELLS ?= x86_64-6.12 x86_64-newest

# make check runs it in the background from its start, as it runs the
# matrix: mostly one TCG VM for a quarter of an hour, it would otherwise
# hold up the suites after it while the cores have room. Its programs and
# build dependencies come first, in the foreground (nothing built or
# installed twice at once); its TAP counts in the summary, and an exit
# that no result explains fails too (systemd-exit.tap). Not under make -n.
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
SYSTEMD_LOG := $(BUILD)/systemd.log
SYSTEMD_START = $(MAKE) --no-print-directory systemd-prereqs || rc=1; \
	echo "systemd: check-systemd in the background (log: $(SYSTEMD_LOG))"; \
	{ $(MAKE) --no-print-directory check-systemd >$(SYSTEMD_LOG) 2>&1; \
	  echo $$? >$(SYSTEMD_LOG).rc; } & spid=$$!;
SYSTEMD_COLLECT = wait $$spid; src=$$(cat $(SYSTEMD_LOG).rc 2>/dev/null || echo 1); \
	echo "systemd: $$(grep -E '^[0-9]+ passed' $(SYSTEMD_LOG) | tail -n 1) (exit $$src; log: $(SYSTEMD_LOG))"; \
	[ "$$src" = 0 ] || { rc=1; grep -q '^not ok' $(TAPDIR)/systemd.tap 2>/dev/null || \
	printf 'TAP version 13\n1..1\nnot ok 1 - check-systemd exited with status %s (log: %s)\n' \
		"$$src" "$(SYSTEMD_LOG)" >$(TAPDIR)/systemd-exit.tap; };
endif

.PHONY: systemd-prereqs
# The programs are built in the recipe: mk/userspace.mk, which names them,
# is read after this file, so they would be empty as prerequisites here.
systemd-prereqs:
	@$(MAKE) --no-print-directory $(DIAMONDCTL) $(US_FRAMETOOL) $(US_CUSTODY_PROBE)
	@$(TOP)/tools/deb/install-build-deps

.PHONY: check-systemd
check-systemd: systemd-prereqs
	@mkdir -p $(TAPDIR)
	@TOP=$(TOP) BUILD=$(BUILD) KCACHE=$(KCACHE) D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) \
		CP=$(US_CUSTODY_PROBE) $(TOP)/selftests/systemd/systemd.sh $(SYSTEMD_CELLS) \
		>$(TAPDIR)/systemd.tap; rc=$$?; \
		cat $(TAPDIR)/systemd.tap; $(TOP)/tools/tap-summary $(TAPDIR)/systemd.tap | tail -n 1; exit $$rc
