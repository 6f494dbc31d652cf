# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# vm-smoke: boot Debian's kernel under qemu (tools/vm/run-vm) and check raw
# AF_ALG (gcm(aes) test vector, driver selection) inside the guest.

CHECK_SUITES += vm-smoke

VM_BUILD        := $(BUILD)/vm
AFALG_SMOKE     := $(BUILD)/selftests/vm-smoke/afalg_smoke

$(AFALG_SMOKE): $(TOP)/selftests/vm-smoke/afalg_smoke.c $(TOP)/selftests/tap.h
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(TEST_INC) -static -o $@ $<

.PHONY: check-vm-smoke
check-vm-smoke: $(AFALG_SMOKE)
	@mkdir -p $(TAPDIR)
	@BUILD=$(VM_BUILD) $(TOP)/tools/vm/run-vm-tap $(TAPDIR)/vm-smoke.tap \
		--timeout 300 --file $(AFALG_SMOKE):/bin/afalg_smoke -- afalg_smoke
