# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The gateway matrix (issue 12): diamond.ko built, linted and tested on
# every kernel line and CPU a gateway runs.
#
#   make check                 runs the matrix too (MATRIX=0: not)
#   make check-matrix          every cell of MATRIX_CELLS, one line each,
#                              MATRIX_JOBS (2) cells at a time
#   make check-matrix MATRIX_CELLS="x86_64-6.12 arm64-6.1"
#   make bench-matrix          make bench-kernel in every cell of
#                              MATRIX_CELLS, one cell at a time (the
#                              figures: Documentation/performance.md)
#
# Cells are ARCH-LINE: ARCH x86_64, arm64 (Cortex-A72 with the Crypto
# Extensions) or pi4 (Cortex-A72 without them, Raspberry Pi 4: an EL2 stub
# hides AES, PMULL and SHA from the guest); LINE 6.1 (Debian 12), 6.12
# (Debian 12's bookworm-security 6.12) or newest (trixie-backports).
# Kernels come from Debian packages by name into $(KCACHE), never
# installed on the host (tools/kernel/kcell); trixie kernels build in a
# mmdebstrap'ed trixie chroot there. Downloads and the chroot are shared
# by the cells and kept between runs. tools/kernel/run-cell runs one cell;
# a cell that cannot run prints a loud SKIP and counts as failed.

# make check runs the matrix by default (MATRIX=0 leaves it out, for a
# quick local run): its cells start in the background when the other
# suites start, MATRIX_JOBS (2) at a time at a lower priority, and their
# lines are listed again before the summary (tools/kernel/run-matrix; the
# cells' TAP counts in the summary). The x86_64-6.1 cell's kernel is the
# one make check's own check-kernel-lint, check-kernel-kat and
# check-kselftest test on Debian 12: those suites are that cell, its line
# comes from their TAP. The 7.x cells pass since the instances stopped
# allocating in requests, at the default af_alg_restrict=1 through the
# module's AF_ALG type "diamond" (Documentation/kernel-api.rst, "AF_ALG
# from 7.x").
MATRIX ?= 1
MATRIX_JOBS ?= 2
KCACHE ?= $(BUILD)/kcache
MATRIX_CELLS ?= x86_64-6.1 x86_64-6.12 x86_64-newest \
		arm64-6.1 arm64-6.12 arm64-newest \
		pi4-6.1 pi4-6.12 pi4-newest
MATRIX_ENV := TOP=$(TOP) BUILD=$(BUILD) TAPDIR=$(TAPDIR) KCACHE=$(KCACHE) MAKE="$(MAKE)"
MATRIX_RUN := $(MATRIX_ENV) $(TOP)/tools/kernel/run-matrix

# The check rule's shell: start the cells (its PID in mpid), later wait for
# them and list their lines (rc=1 when one failed). Not under make -n: the
# rule's shell runs even then (it calls $(MAKE)), the cells would not.
ifeq ($(MATRIX)$(if $(strip $(MATRIX_CELLS)),,none)$(findstring n,$(firstword -$(MAKEFLAGS))),1)
MATRIX_START   = echo "matrix: $(words $(MATRIX_CELLS)) cells in the background, kernels cached in $(KCACHE)"; \
	$(MATRIX_ENV) nice -n 10 $(TOP)/tools/kernel/run-matrix --jobs $(MATRIX_JOBS) --check-kernel $(DMD_ARCH)-$(KVER) \
	$(MATRIX_CELLS) & mpid=$$!;
MATRIX_COLLECT = wait $$mpid || rc=1; $(MATRIX_RUN) --report $(MATRIX_CELLS) || rc=1;
endif

.PHONY: check-matrix bench-matrix

check-matrix:
	@mkdir -p $(TAPDIR)
	@echo "matrix: $(words $(MATRIX_CELLS)) cells, $(MATRIX_JOBS) at a time, kernels cached in $(KCACHE)"
	@rc=0; $(MATRIX_RUN) --jobs $(MATRIX_JOBS) $(MATRIX_CELLS) || rc=1; \
		$(MATRIX_RUN) --report $(MATRIX_CELLS) || rc=1; exit $$rc

# One cell at a time: each boots its VM under -icount, where guest time is
# the instruction count, so the figures do not depend on the host's load.
bench-matrix:
	@echo "bench-matrix: $(words $(MATRIX_CELLS)) cells, kernels cached in $(KCACHE)"
	@rc=0; for c in $(MATRIX_CELLS); do \
		TOP=$(TOP) BUILD=$(BUILD) TAPDIR=$(TAPDIR) KCACHE=$(KCACHE) \
		MAKE="$(MAKE)" BENCH_TARGET=$(BENCH_TARGET) \
		$(TOP)/tools/kernel/run-cell --bench $$c || rc=1; \
	done; exit $$rc
