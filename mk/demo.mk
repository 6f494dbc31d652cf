# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make demo: firmware in emulators -> kernel gateway in a VM (tools/demo.sh).
# The demo's prerequisites are the very files tools/demo.sh runs (its
# --needs list), so nothing it uses is left to an earlier `make check`.
# deps installs the toolchains first (Makefile, NEEDS_DEPS); demo.after-deps
# then runs in a sub-make, so KMOD_KO names the kernel whose headers deps
# installed. Its prerequisites' rules live in the fragments included after
# this one.

DEMO_NEEDS = $(shell BUILD=$(BUILD) KVER=$(KVER) $(TOP)/tools/demo.sh --needs)

.PHONY: demo-build check-demo-deps
demo.after-deps:
	@echo "demo: building the kernel module, diamondctl, both firmwares and the AVR runner (first time: a minute or two)"
	@$(MAKE) --no-print-directory -s demo-build
	@BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) $(TOP)/tools/demo.sh

demo-build: $(DEMO_NEEDS)

# From an empty build directory, make's rule database must name every file
# the demo runs as a prerequisite of demo-build and know a rule for each.
CHECK_SUITES += demo-deps
check-demo-deps:
	@mkdir -p $(TAPDIR)
	@TOP=$(TOP) MAKE="$(MAKE)" $(TOP)/selftests/demo/deps.sh \
		>$(TAPDIR)/demo-deps.tap; rc=$$?; cat $(TAPDIR)/demo-deps.tap; exit $$rc
