# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The reStructuredText documents parse cleanly.
#
#   make check-docs   TAP: every Documentation/*.rst passes docutils at
#                     warning level (tables, literals, titles)

CHECK_SUITES += docs
.PHONY: check-docs

check-docs:
	@mkdir -p $(TAPDIR)
	@rc=0; cd $(TOP) && tools/check-docs Documentation/*.rst >$(TAPDIR)/docs.tap || rc=$$?; \
		cat $(TAPDIR)/docs.tap; exit $$rc
