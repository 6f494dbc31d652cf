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
	@rc=0; BUILD=$(VM_BUILD) $(TOP)/tools/vm/run-vm --timeout 300 \
		--file $(AFALG_SMOKE):/bin/afalg_smoke -- \
		afalg_smoke \
		>$(TAPDIR)/vm-smoke.tap || rc=$$?; \
	if [ $$rc -ge 124 ]; then echo "not ok - run-vm failed with status $$rc" >>$(TAPDIR)/vm-smoke.tap; fi; \
	cat $(TAPDIR)/vm-smoke.tap; exit $$rc
