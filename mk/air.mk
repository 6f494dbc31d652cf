# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The air model of issue 30 (bench/air/, python3 standard library only):
# bytes and LoRa airtime per delivered reading for Diamond's framings and
# aggregation layouts against LoRaWAN, AES-GCM and 802.15.4 AES-CCM*,
# computed exactly (Documentation/packet-radio.rst, performance.md "On the
# air").
#
#   make bench-air-model   print the tables and splice them into
#                          Documentation/performance.md (air-model markers)
#   make check-air-model   TAP: the airtime formula against published
#                          figures, the exact probabilities against closed
#                          forms, enumeration and seeded Monte Carlo, the
#                          chosen layout, the candidate rule, and that
#                          performance.md holds the current tables (part of
#                          make check: 24 checks, about 2 s of CPU)

AIR_DIR := $(TOP)/bench/air
AIR_OUT := $(BUILD)/air

.PHONY: bench-air-model check-air-model
bench-air-model:
	@mkdir -p $(AIR_OUT)
	@python3 -B $(AIR_DIR)/air-model.py >$(AIR_OUT)/air-model.md
	@cat $(AIR_OUT)/air-model.md
	@$(TOP)/bench/splice-md.sh $(TOP)/Documentation/performance.md air-model \
		<$(AIR_OUT)/air-model.md

CHECK_SUITES += air-model

check-air-model:
	@mkdir -p $(TAPDIR)
	@python3 -B $(TOP)/selftests/bench/test_air_model.py >$(TAPDIR)/air-model.tap; \
		rc=$$?; cat $(TAPDIR)/air-model.tap; exit $$rc
