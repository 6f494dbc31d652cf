# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make bench-fleet (issue 31 item 7): the fleet on a real mosquitto,
# measured (tools/bench/fleet-bench.sh): (a) three gateways behind lossy
# links at 1, 5, 10% (Bernoulli and Gilbert-Elliott, burst 3), one
# verifier; (b) BENCH_FLEET_DEVICES devices, three gateways, two
# verifiers, one killed with SIGKILL; (c) one verifier holding
# BENCH_FLEET_HOLD devices. A markdown table on stdout and in
# $(BUILD)/bench/fleet.md (Documentation/performance.md, "Fleet").
#
#   make bench-fleet [BENCH_FLEET_PARTS='a b c'] [BENCH_FLEET_SEED=N]
#                    [BENCH_FLEET_DEVICES=10000] [BENCH_FLEET_HOLD=100000]
BENCH_FLEET_PARTS ?= a b c
BENCH_TARGETS += bench-fleet
.PHONY: bench-fleet
bench-fleet: $(DIAMONDCTL) $(LOSSY)
	@mkdir -p $(BUILD)/bench
	@D=$(DIAMONDCTL) LOSSY=$(LOSSY) $(TOP)/tools/bench/fleet-bench.sh $(BENCH_FLEET_PARTS) \
		>$(BUILD)/bench/fleet.md; rc=$$?; cat $(BUILD)/bench/fleet.md; exit $$rc

# The smoke cells in make check (selftests/userspace/fleet-bench.sh):
# part (a), three gateways at 5% loss, at least 99% delivered; part (c)
# with 200 devices, every reading delivered.
CHECK_SUITES += fleet-bench
.PHONY: check-fleet-bench
check-fleet-bench: $(DIAMONDCTL) $(LOSSY)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) LOSSY=$(LOSSY) $(TOP)/selftests/userspace/fleet-bench.sh \
		>$(TAPDIR)/fleet-bench.tap; rc=$$?; cat $(TAPDIR)/fleet-bench.tap; exit $$rc
