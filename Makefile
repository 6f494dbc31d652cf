# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Top-level driver. The kernel build reads Kbuild (beside this file), never
# this Makefile. Each area adds its own rules through a fragment in mk/*.mk, and registers its test suites
# in CHECK_SUITES so `make check` runs them all and prints one summary line.

TOP      := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD    ?= $(TOP)/build
TAPDIR   := $(BUILD)/tap
CC       ?= cc
# Every tree reaches the public headers as <diamond/...> and the test
# helpers as "tap.h" and "lib/vecfile.h" through these, never by "../".
DMD_INC  := -I$(TOP)/include
TEST_INC := -I$(TOP)/selftests
CSTD     := -std=c11 -Wall -Wextra -Werror -O2 -g $(DMD_INC)
CHECK_SUITES :=
BENCH_TARGETS :=

.PHONY: all deps clean help
all:

help:
	@echo "make demo        run the end-to-end job (firmware -> gateway kernel)"
	@echo "make check       install what is missing, build, run every test"
	@echo "                 (DEPS=check: only verify the packages, never run apt;"
	@echo "                 MATRIX=0: without the nine-cell gateway matrix)"
	@echo "make check-fresh make demo and make check on a fresh Debian 12 root (root)"
	@echo "make deps        install the Debian packages the build and tests need"
	@echo "make bench-host  callgrind instruction counts of the portable core"

# DEPS=check: verify the packages and fail naming the missing ones, never
# run apt (the default installs what is missing: the README's commands work
# on a fresh machine).
DEPS ?= install
deps:
	@$(TOP)/tools/install-deps.sh $(if $(filter check,$(DEPS)),--check)

# The core archives first: the other fragments' prerequisites name them.
include $(TOP)/mk/core-lib.mk
include $(filter-out %/core-lib.mk,$(sort $(wildcard $(TOP)/mk/*.mk)))

# The targets that need the Debian packages run deps first, then the work in a
# sub-make (TARGET.after-deps) that reads the makefiles anew: what they take
# from the system (KVER from the installed kernel headers, pkg-config flags)
# is resolved only after deps installed it. On a fresh machine this make
# parsed the makefiles before the headers existed, with KVER empty.
NEEDS_DEPS := check demo bench bench-host
.PHONY: $(NEEDS_DEPS) $(NEEDS_DEPS:=.after-deps)
$(NEEDS_DEPS): deps
	@$(MAKE) --no-print-directory $@.after-deps

# Every suite writes TAP to $(TAPDIR)/<suite>.tap; the summary counts them.
# A suite run alone (make check-core-api) finds the directory too.
ifneq ($(filter check-%,$(MAKECMDGOALS)),)
$(shell mkdir -p $(TAPDIR))
endif
check.after-deps:
	@rm -rf $(TAPDIR); mkdir -p $(TAPDIR)
	@$(MAKE) --no-print-directory all
	@rc=0; $(MATRIX_START) $(SYSTEMD_START) for s in $(CHECK_SUITES); do \
		$(MAKE) --no-print-directory check-$$s || rc=1; \
	done; $(SYSTEMD_COLLECT) $(MATRIX_COLLECT) \
	$(TOP)/tools/tap-summary $(TAPDIR)/*.tap || rc=1; exit $$rc

clean:
	rm -rf $(BUILD)
