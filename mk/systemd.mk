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
# section 5). Root (else one loud SKIP). In make check: its cost
# (install.rst) is paid beside the matrix's cells. The root tarball is
# cached in $(BUILD)/systemd (tools/systemd/mkroot, mmdebstrap).
SYSTEMD_CELLS ?= x86_64-6.12 x86_64-newest
CHECK_SUITES += systemd

.PHONY: check-systemd
# The programs are built in the recipe: mk/userspace.mk, which names them,
# is read after this file, so they would be empty as prerequisites here.
check-systemd:
	@mkdir -p $(TAPDIR)
	@$(MAKE) --no-print-directory $(DIAMONDCTL) $(US_FRAMETOOL) $(US_CUSTODY_PROBE)
	@TOP=$(TOP) BUILD=$(BUILD) KCACHE=$(KCACHE) D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) \
		CP=$(US_CUSTODY_PROBE) $(TOP)/selftests/systemd/systemd.sh $(SYSTEMD_CELLS) \
		>$(TAPDIR)/systemd.tap; rc=$$?; \
		cat $(TAPDIR)/systemd.tap; $(TOP)/tools/tap-summary $(TAPDIR)/systemd.tap | tail -n 1; exit $$rc
