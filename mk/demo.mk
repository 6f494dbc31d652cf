# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make demo: firmware in emulators -> kernel gateway in a VM (tools/demo.sh).
# The fragments that define module, userspace and firmware are included
# after this one, so their targets are built by a sub-make.

.PHONY: demo
demo: deps
	@echo "demo: building the kernel module, diamondctl and both firmwares (first time: a minute or two)"
	@$(MAKE) --no-print-directory -s module userspace $(BUILD)/userspace/diamondctl-static firmware
	@BUILD=$(BUILD) $(TOP)/tools/demo.sh
