# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The gateway matrix (issue 12): diamond.ko built, linted and tested on
# every kernel line and CPU a gateway runs.
#
#   make check-matrix          every cell of MATRIX_CELLS, one line each
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
# debootstrap'ed trixie chroot there. Downloads and the chroot are shared
# by the cells and kept between runs. tools/kernel/run-cell runs one cell;
# a cell that cannot run prints a loud SKIP and counts as failed.

# Not yet part of `make check` by default (MATRIX=1 adds it): the full
# matrix adds about half an hour to CI. The 7.x cells pass since the
# instances stopped allocating in requests and the guests set
# af_alg_restrict=0 (Documentation/kernel-api.rst, "AF_ALG from 7.x").
ifeq ($(MATRIX),1)
CHECK_SUITES += matrix
endif
KCACHE ?= $(BUILD)/kcache
MATRIX_CELLS ?= x86_64-6.1 x86_64-6.12 x86_64-newest \
		arm64-6.1 arm64-6.12 arm64-newest \
		pi4-6.1 pi4-6.12 pi4-newest

.PHONY: check-matrix bench-matrix

check-matrix:
	@mkdir -p $(TAPDIR)
	@echo "matrix: $(words $(MATRIX_CELLS)) cells, kernels cached in $(KCACHE)"
	@rc=0; for c in $(MATRIX_CELLS); do \
		TOP=$(TOP) BUILD=$(BUILD) TAPDIR=$(TAPDIR) KCACHE=$(KCACHE) \
		MAKE="$(MAKE)" $(TOP)/tools/kernel/run-cell $$c || rc=1; \
	done; exit $$rc

# One cell at a time: each boots its VM under -icount, where guest time is
# the instruction count, so the figures do not depend on the host's load.
bench-matrix:
	@echo "bench-matrix: $(words $(MATRIX_CELLS)) cells, kernels cached in $(KCACHE)"
	@rc=0; for c in $(MATRIX_CELLS); do \
		TOP=$(TOP) BUILD=$(BUILD) TAPDIR=$(TAPDIR) KCACHE=$(KCACHE) \
		MAKE="$(MAKE)" $(TOP)/tools/kernel/run-cell --bench $$c || rc=1; \
	done; exit $$rc
