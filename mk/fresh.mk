# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make check-fresh: the README's two commands, `make demo` then `make check`,
# on a Debian 12 root that has never seen the project (tools/check-fresh):
# debootstrap minbase plus git and make, a clone of HEAD, run as root. It
# catches what a warm machine hides (a package install-deps never names, a
# variable resolved before deps ran). Opt-in, not part of check: it takes as
# long as make check plus a few minutes. Needs root; the root, the cached
# tarball and the logs are in $(BUILD)/fresh.
.PHONY: check-fresh
check-fresh:
	@TOP=$(TOP) FRESH=$(BUILD)/fresh $(TOP)/tools/check-fresh
