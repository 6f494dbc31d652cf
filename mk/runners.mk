# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Host-side checks of the simulator runners (avr-run, m4-run/insn-count).

CHECK_SUITES += runners

.PHONY: check-runners
check-runners: $(AVR_RUN) $(BUILD)/tools/avr-run-selftest.elf \
	       $(BUILD)/tools/avr-run-selftest-ret.elf \
	       $(INSN_COUNT_SO) $(M4_SELFTEST_ELF)
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(TOP)/tools/test-runners.sh >$(TAPDIR)/runners.tap; \
		rc=$$?; cat $(TAPDIR)/runners.tap; exit $$rc
