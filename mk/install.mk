# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Install paths (Documentation/install.rst).
#
#   make install            install-userspace and install-system; with the
#                           kernel headers of KVER (mk/kernel.mk) also
#                           install-module
#   make install-userspace  diamondctl and its man page; libdiamond: the
#                           shared library (soname libdiamond.so.1) and its
#                           link, the static library, the header and a
#                           pkg-config file that names the installed paths;
#                           the sender's CMake package (dist/sender/:
#                           libdiamond-sender.a, diamond-sender.h and
#                           lib/cmake/diamond, for find_package(diamond))
#   make install-system     the systemd unit of the gateway ingest, its
#                           sysusers.d user, the modules-load.d entry
#   make install-module     diamond.ko into /lib/modules/KVER/extra
#   make install-dkms       the module source as /usr/src/diamond-VERSION;
#                           without DESTDIR also dkms add and install
#   make uninstall          removes, file by file, what install put there
#   make uninstall-dkms     dkms remove, then the source
#   make check-install      TAP: install into a DESTDIR, compare the file
#                           list, build and run a program from the installed
#                           .pc, run the installed diamondctl, uninstall
#   make check-dkms         TAP: dkms add/build/install into a private tree,
#                           the module's MOK signature, then the kernel KATs
#                           in the VM on the module dkms built
#   make check-dkms-matrix  check-dkms for the kernel of every x86_64 and
#                           arm64 cell of MATRIX_CELLS (mk/matrix.mk; KCACHE),
#                           one line per cell; TAP dkms-CELL.tap and
#                           dkms-CELL-kat.tap; not in check (about 6 min for
#                           the six cells)
#   make deb                the Debian packages, in $(BUILD)/deb
#   make check-deb          TAP: build them, lintian, dpkg -i, exercise the
#                           installed diamondctl and module (VM), purge;
#                           minutes and changes the host, so not in check
#
# PREFIX (default /usr/local) and DESTDIR as usual; BINDIR, LIBDIR,
# INCLUDEDIR, MANDIR, PKGCONFIGDIR, SYSTEMDUNITDIR, MODULESLOADDIR and
# SYSUSERSDIR set single directories (debian/rules sets the Debian ones).
# systemd also reads units, sysusers.d and modules-load.d below /usr/local.
# Without DESTDIR, install finishes as a package would: ldconfig, depmod,
# systemd-sysusers.
#
# Prerequisites name targets (userspace, module), not files: this fragment
# is read before mk/kernel.mk and mk/userspace.mk define the paths, and
# recipes expand them only when they run.

PREFIX         ?= /usr/local
BINDIR         ?= $(PREFIX)/bin
LIBDIR         ?= $(PREFIX)/lib
INCLUDEDIR     ?= $(PREFIX)/include
MANDIR         ?= $(PREFIX)/share/man
PKGCONFIGDIR   ?= $(LIBDIR)/pkgconfig
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
MODULESLOADDIR ?= $(PREFIX)/lib/modules-load.d
SYSUSERSDIR    ?= $(PREFIX)/lib/sysusers.d
MODULEDIR      ?= /lib/modules/$(KVER)/extra
DKMS_SRCDIR    ?= /usr/src/diamond-$(US_VERSION)

INST_DIST := $(TOP)/dist
# ${prefix}-relative in the .pc when below PREFIX, as pkg-config users
# expect (PKG_CONFIG_SYSROOT_DIR then works on it too).
inst_pcdir = $(if $(filter $(PREFIX)/%,$(1)),$${prefix}$(patsubst $(PREFIX)%,%,$(1)),$(1))
# The module source dkms builds: Kbuild, kernel/ and the shared headers.
DKMS_FILES = dkms.conf Kbuild kernel/Kbuild include/diamond/spec.h \
	     include/diamond/epoch.h \
	     $(patsubst $(TOP)/%,%,$(sort $(filter-out %.mod.c, \
		$(wildcard $(TOP)/kernel/*.c $(TOP)/kernel/*.h))))
# The sender's CMake package, built and installed by CMake itself (its
# export files name the paths): below PREFIX the paths are relative, so
# the package is found in a DESTDIR too (make check-install).
inst_rel = $(patsubst $(PREFIX)/%,%,$(1))
INST_CMAKE := $(BUILD)/cmake-install
INST_SENDER_FILES = $(LIBDIR)/libdiamond-sender.a \
	$(INCLUDEDIR)/diamond-sender/diamond-sender.h \
	$(addprefix $(LIBDIR)/cmake/diamond/,diamondConfig.cmake \
		diamondConfigVersion.cmake diamondTargets.cmake \
		diamondTargets-release.cmake)
# Without DESTDIR, the steps a package's maintainer scripts would run.
inst_live = [ -n "$(DESTDIR)" ] ||

.PHONY: install install-userspace install-system install-module install-dkms \
	uninstall uninstall-dkms check-install check-dkms check-dkms-matrix deb check-deb

install: install-userspace install-system
	@if [ -f "$(KDIR)/Makefile" ]; then $(MAKE) --no-print-directory install-module; \
	else echo "install: no kernel headers for '$(KVER)': diamond.ko not installed (make install-dkms, or KVER=)"; fi

install-userspace: userspace
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/diamond $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(DIAMONDCTL) $(DESTDIR)$(BINDIR)/diamondctl
	install -m 0644 $(US_CTL_SRC)/diamondctl.1 $(DESTDIR)$(MANDIR)/man1/diamondctl.1
	install -m 0755 $(US_LIB_SO) $(DESTDIR)$(LIBDIR)/libdiamond.so.$(US_SOVER)
	ln -sfn libdiamond.so.$(US_SOVER) $(DESTDIR)$(LIBDIR)/libdiamond.so
	install -m 0644 $(US_LIB_A) $(DESTDIR)$(LIBDIR)/libdiamond.a
	install -m 0644 $(TOP)/include/diamond/libdiamond.h $(DESTDIR)$(INCLUDEDIR)/diamond/libdiamond.h
	sed -e 's|@PREFIX@|$(PREFIX)|' \
	    -e 's|@LIBDIR@|$(call inst_pcdir,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call inst_pcdir,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(US_VERSION)|' $(US_LIB_SRC)/libdiamond.pc.in \
		>$(DESTDIR)$(PKGCONFIGDIR)/libdiamond.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/libdiamond.pc
	rm -rf $(INST_CMAKE)
	cmake -S $(TOP)/dist/sender -B $(INST_CMAKE) -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) \
		-DCMAKE_INSTALL_LIBDIR=$(call inst_rel,$(LIBDIR)) \
		-DCMAKE_INSTALL_INCLUDEDIR=$(call inst_rel,$(INCLUDEDIR)) >/dev/null
	cmake --build $(INST_CMAKE) >/dev/null
	DESTDIR=$(DESTDIR) cmake --install $(INST_CMAKE) >/dev/null
	$(inst_live) ldconfig

install-system:
	install -d $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(MODULESLOADDIR)
	sed -e 's|@BINDIR@|$(BINDIR)|' $(INST_DIST)/diamond-ingest.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/diamond-ingest.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/diamond-ingest.service
	install -m 0644 $(INST_DIST)/sysusers.conf $(DESTDIR)$(SYSUSERSDIR)/diamond.conf
	install -m 0644 $(INST_DIST)/modules-load.conf $(DESTDIR)$(MODULESLOADDIR)/diamond.conf
	$(inst_live) ! command -v systemd-sysusers >/dev/null || \
		systemd-sysusers $(SYSUSERSDIR)/diamond.conf

install-module: module
	install -d $(DESTDIR)$(MODULEDIR)
	install -m 0644 $(KMOD_KO) $(DESTDIR)$(MODULEDIR)/diamond.ko
	$(inst_live) depmod -a $(KVER)

install-dkms:
	@for f in $(DKMS_FILES); do \
		install -D -m 0644 $(TOP)/$$f $(DESTDIR)$(DKMS_SRCDIR)/$$f || exit 1; done
	@echo "install-dkms: $(words $(DKMS_FILES)) files in $(DESTDIR)$(DKMS_SRCDIR)"
	$(inst_live) dkms status -m diamond -v $(US_VERSION) | grep -q . || \
		dkms add -m diamond -v $(US_VERSION)
	$(inst_live) dkms install -m diamond -v $(US_VERSION) -k $(KVER)

# Only files install puts there; directories only when left empty, and only
# the ones that are this project's own.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/diamondctl $(DESTDIR)$(MANDIR)/man1/diamondctl.1 \
	      $(DESTDIR)$(LIBDIR)/libdiamond.so.$(US_SOVER) $(DESTDIR)$(LIBDIR)/libdiamond.so \
	      $(DESTDIR)$(LIBDIR)/libdiamond.a $(DESTDIR)$(PKGCONFIGDIR)/libdiamond.pc \
	      $(DESTDIR)$(INCLUDEDIR)/diamond/libdiamond.h \
	      $(addprefix $(DESTDIR),$(INST_SENDER_FILES)) \
	      $(DESTDIR)$(SYSTEMDUNITDIR)/diamond-ingest.service \
	      $(DESTDIR)$(SYSUSERSDIR)/diamond.conf $(DESTDIR)$(MODULESLOADDIR)/diamond.conf \
	      $(DESTDIR)$(MODULEDIR)/diamond.ko
	-rmdir $(DESTDIR)$(INCLUDEDIR)/diamond $(DESTDIR)$(INCLUDEDIR)/diamond-sender \
		$(DESTDIR)$(LIBDIR)/cmake/diamond 2>/dev/null
	$(inst_live) ldconfig
	$(inst_live) [ ! -d /lib/modules/$(KVER) ] || depmod -a $(KVER)

uninstall-dkms:
	$(inst_live) ! dkms status -m diamond -v $(US_VERSION) | grep -q . || \
		dkms remove -m diamond -v $(US_VERSION) --all
	rm -rf $(DESTDIR)$(DKMS_SRCDIR)

# ---- tests ---------------------------------------------------------------

INST_TEST := $(TOP)/selftests/install
CHECK_SUITES += install dkms

check-install: userspace
	@mkdir -p $(TAPDIR)
	@TOP=$(TOP) BUILD=$(BUILD) MAKE="$(MAKE)" KVER=$(KVER) US_VERSION=$(US_VERSION) \
		$(INST_TEST)/install.sh >$(TAPDIR)/install.tap; rc=$$?; \
		cat $(TAPDIR)/install.tap; exit $$rc

# DKMS_TAP names the TAP files (check-dkms-matrix: dkms-CELL).
DKMS_TAP ?= dkms
check-dkms:
	@$(MAKE) --no-print-directory $(KAT_PROBE)
	@mkdir -p $(TAPDIR)
	@TOP=$(TOP) BUILD=$(BUILD) MAKE="$(MAKE)" KVER=$(KVER) US_VERSION=$(US_VERSION) \
		KDIR=$(KDIR) KROOT=$(KROOT) DKMS_ARCH=$(DMD_ARCH) DKMS_KBUILD="$(KBUILD_ARGS)" \
		KAT_PROBE=$(KAT_PROBE) KAT_DRIVER1="$(KAT_DRIVER1)" KAT_DRIVER2="$(KAT_DRIVER2)" \
		KVM_AFALG='$(KVM_AFALG)' $(INST_TEST)/dkms.sh $(TAPDIR)/$(DKMS_TAP).tap $(TAPDIR)/$(DKMS_TAP)-kat.tap; rc=$$?; \
		cat $(TAPDIR)/$(DKMS_TAP).tap $(TAPDIR)/$(DKMS_TAP)-kat.tap; exit $$rc

# Not in make check (about a minute per cell): check-dkms on each kernel of
# the gateway matrix (mk/matrix.mk), one line per cell. By default the
# x86_64 and arm64 cells: a pi4 cell boots the arm64 kernel with the same
# module, so it runs only when MATRIX_CELLS names it.
DKMS_CELLS = $(if $(filter file,$(origin MATRIX_CELLS)), \
	       $(filter x86_64-% arm64-%,$(MATRIX_CELLS)),$(MATRIX_CELLS))
check-dkms-matrix:
	@mkdir -p $(TAPDIR)
	@echo "dkms matrix: $(words $(DKMS_CELLS)) cells, kernels cached in $(KCACHE)"
	@rc=0; for c in $(DKMS_CELLS); do \
		TOP=$(TOP) BUILD=$(BUILD) TAPDIR=$(TAPDIR) KCACHE=$(KCACHE) \
		MAKE="$(MAKE)" $(INST_TEST)/dkms-cell.sh $$c || rc=1; \
	done; exit $$rc

deb:
	@BUILD=$(BUILD) $(TOP)/tools/deb/build-debs

check-deb:
	@$(MAKE) --no-print-directory $(KAT_PROBE)
	@mkdir -p $(TAPDIR)
	@TOP=$(TOP) BUILD=$(BUILD) KVER=$(KVER) US_VERSION=$(US_VERSION) \
		KAT_PROBE=$(KAT_PROBE) KAT_DRIVER1="$(KAT_DRIVER1)" KAT_DRIVER2="$(KAT_DRIVER2)" \
		KVM_AFALG='$(KVM_AFALG)' $(INST_TEST)/deb.sh $(TAPDIR)/deb.tap $(TAPDIR)/deb-kat.tap; rc=$$?; \
		cat $(TAPDIR)/deb.tap $(TAPDIR)/deb-kat.tap; exit $$rc
