# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The lossy-link simulator (tools/lossy-link): group tags against frame
# loss, with the portable core on both ends.
#
#   make lossy-table       the delivered-fraction table of
#                          Documentation/performance.md (LOSSY_EXTRA adds
#                          options, e.g. LOSSY_EXTRA="--tag-copies 2")
#   make lossy-plot        Documentation/performance/lossy-link.{csv,png}
#   make check-lossy-link  0% loss delivers everything for every g; 1% loss
#                          at b = 1024, g = 16 delivers at least 84%

LOSSY      := $(CORE_HOST)/lossy-link
LOSSY_ARGS := --suite 2 --b 1024 --len 16 --epochs 500 --seed 1 \
	      --corrupt 0 --reorder 0.01 --dup 0.01 --depth 4 --horizon 16

all: $(LOSSY)

$(LOSSY): $(TOP)/tools/lossy-link/lossy-link.c $(CORE_DEPS) $(CORE_LIB_host)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -o $@ $< $(CORE_LIB_host) -lm

.PHONY: lossy-table lossy-plot check-lossy-link
lossy-table: $(LOSSY)
	$(LOSSY) --table $(LOSSY_ARGS) $(LOSSY_EXTRA)

lossy-plot: $(LOSSY)
	$(TOP)/tools/lossy-link/plot.sh $(LOSSY) $(TOP)/Documentation/performance \
		$(LOSSY_ARGS) $(LOSSY_EXTRA)

CHECK_SUITES += lossy-link

check-lossy-link: $(LOSSY)
	@mkdir -p $(TAPDIR)
	@$(TOP)/tools/lossy-link/check.sh $(LOSSY) $(LOSSY_ARGS) \
		>$(TAPDIR)/lossy-link.tap; rc=$$?; cat $(TAPDIR)/lossy-link.tap; \
		exit $$rc
