# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The part of the kernel's tools/testing/selftests/lib.mk that a test
# directory here relies on, for a tree without the kernel's selftests. A
# directory's Makefile sets the kselftest variables and includes this file
# (`include ../lib.mk`), as it would include the kernel's:
#
#   TEST_GEN_PROGS           programs built into $(OUTPUT) and run
#   TEST_GEN_PROGS_EXTENDED  programs built, installed, not run by themselves
#   TEST_GEN_FILES           other files built into $(OUTPUT)
#   TEST_PROGS               scripts run as tests
#   TEST_PROGS_EXTENDED      scripts installed, not run by themselves
#   TEST_FILES               data installed beside the tests
#
# Targets: all (the default), run_tests, install (INSTALL_PATH, with
# kselftest-list.txt), emit_tests, clean. OUTPUT defaults to the directory
# itself; out of it, the scripts and data are copied into OUTPUT so that it
# can run as it is. run_tests prints TAP 13, one result per test
# (selftests/lib/ksft-runner.sh): exit 0 passes, 4 skips, anything else
# fails.

CC     ?= $(CROSS_COMPILE)gcc
OUTPUT ?= $(CURDIR)
selfdir := $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
COLLECTION := $(notdir $(CURDIR))
INSTALL_PATH ?= $(CURDIR)/kselftest_install

TEST_GEN_PROGS          := $(addprefix $(OUTPUT)/,$(TEST_GEN_PROGS))
TEST_GEN_PROGS_EXTENDED := $(addprefix $(OUTPUT)/,$(TEST_GEN_PROGS_EXTENDED))
TEST_GEN_FILES          := $(addprefix $(OUTPUT)/,$(TEST_GEN_FILES))
ksft_copied := $(if $(filter-out $(abspath $(CURDIR)),$(abspath $(OUTPUT))), \
	$(addprefix $(OUTPUT)/,$(notdir $(TEST_PROGS) $(TEST_PROGS_EXTENDED) $(TEST_FILES))))
ksft_run := $(notdir $(TEST_GEN_PROGS) $(TEST_PROGS))

.PHONY: all run_tests install emit_tests clean
all: $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED) $(TEST_GEN_FILES) $(ksft_copied)

# Scripts and data keep their names in OUTPUT (vpath: wherever they live).
vpath %.sh $(CURDIR)
vpath %.txt $(sort $(dir $(TEST_FILES)))
$(ksft_copied): $(OUTPUT)/%: %
	@mkdir -p $(@D)
	cp $< $@

run_tests: all
	@cd $(OUTPUT) && $(selfdir)/lib/ksft-runner.sh $(COLLECTION) $(ksft_run)

emit_tests:
	@for t in $(ksft_run); do echo "$(COLLECTION):$$t"; done

install: all
	@mkdir -p $(INSTALL_PATH)
	cp -p $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED) $(TEST_GEN_FILES) \
		$(TEST_PROGS) $(TEST_PROGS_EXTENDED) $(TEST_FILES) $(INSTALL_PATH)/
	@$(MAKE) --no-print-directory -s emit_tests >$(INSTALL_PATH)/kselftest-list.txt

clean:
	rm -f $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED) $(TEST_GEN_FILES) \
		$(ksft_copied) $(EXTRA_CLEAN)

# The kernel's rule for a test program: its .c and whatever else it depends
# on, headers left out.
$(OUTPUT)/%: %.c
	@mkdir -p $(@D)
	$(LINK.c) $(filter-out %.h,$^) $(LDLIBS) -o $@
