# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# dist/sender/ as a CMake package (diamond::sender, issue 33):
#
#   make check-cmake  the package for the host and arm-none-eabi, its
#                     example on each (find_package and add_subdirectory),
#                     the M4 one under qemu and the host one, their frames
#                     verified by the gateway (selftests/cmake/package.sh)

CHECK_SUITES += cmake
.PHONY: check-cmake
check-cmake: $(BUILD)/userspace/diamondctl $(LOSSY) $(AVR_RUN) $(FW_NV) \
	     $(BUILD)/embedded/m4/sender-d2.elf $(BUILD)/embedded/avr/sender-d2.elf
	@mkdir -p $(TAPDIR)
	@BUILD=$(BUILD) $(TOP)/selftests/cmake/package.sh >$(TAPDIR)/cmake.tap; \
		rc=$$?; cat $(TAPDIR)/cmake.tap; exit $$rc
