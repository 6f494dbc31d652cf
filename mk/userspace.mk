# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# libdiamond (userspace/lib), diamondctl (userspace/diamondctl) and their
# test suites (selftests/userspace). See Documentation/userspace.rst.

US_BUILD    := $(BUILD)/userspace
US_LIB_SRC  := $(TOP)/userspace/lib
US_CTL_SRC  := $(TOP)/userspace/diamondctl
US_TEST_SRC := $(TOP)/selftests/userspace
US_VERSION  := 0.1.0
US_SOVER    := 1

# The library carries the portable core inside it: the host core
# archive's objects (-fPIC, mk/core-lib.mk).
US_LIB_SRCS  := $(sort $(wildcard $(US_LIB_SRC)/*.c))
US_CTL_SRCS  := $(sort $(wildcard $(US_CTL_SRC)/*.c))
US_HDRS      := $(wildcard $(TOP)/include/diamond/*.h $(TOP)/core/*.h) \
		$(US_LIB_SRC)/internal.h $(US_LIB_SRC)/kcapi_opt.h $(US_LIB_SRC)/prx.h
US_CFLAGS    := $(CSTD) -fPIC $(shell pkg-config --cflags libkcapi 2>/dev/null)
US_KCAPI     := $(shell pkg-config --libs libkcapi 2>/dev/null || echo -lkcapi)
US_KCAPI_A   := $(firstword $(wildcard /usr/lib/*/libkcapi.a /usr/lib/libkcapi.a /usr/local/lib/libkcapi.a))

US_OBJS := $(patsubst $(TOP)/%.c,$(US_BUILD)/obj/%.o,$(US_LIB_SRCS)) $(CORE_OBJS_host)

US_LIB_A  := $(US_BUILD)/libdiamond.a
US_LIB_SO := $(US_BUILD)/libdiamond.so.$(US_SOVER)
US_PC     := $(US_BUILD)/libdiamond.pc
DIAMONDCTL        := $(US_BUILD)/diamondctl
DIAMONDCTL_STATIC := $(US_BUILD)/diamondctl-static

.PHONY: userspace
all: userspace
userspace: $(US_LIB_A) $(US_LIB_SO) $(US_PC) $(DIAMONDCTL)

$(US_BUILD)/obj/%.o: $(TOP)/%.c $(US_HDRS)
	@mkdir -p $(@D)
	$(CC) $(US_CFLAGS) -c -o $@ $<

$(US_LIB_A): $(US_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(US_LIB_SO): $(US_OBJS) $(US_LIB_SRC)/libdiamond.map
	$(CC) -shared -Wl,-soname,libdiamond.so.$(US_SOVER) \
		-Wl,--version-script=$(US_LIB_SRC)/libdiamond.map -o $@ $(US_OBJS) $(US_KCAPI)
	ln -sf libdiamond.so.$(US_SOVER) $(US_BUILD)/libdiamond.so

$(US_PC): $(US_LIB_SRC)/libdiamond.pc.in
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(or $(PREFIX),/usr/local)|' \
	    -e 's|@LIBDIR@|$${prefix}/lib|' \
	    -e 's|@INCLUDEDIR@|$${prefix}/include|' \
	    -e 's|@VERSION@|$(US_VERSION)|' $< >$@

US_CTL_FLAGS := -DDIAMONDCTL_VERSION='"$(US_VERSION)"'

# The fleet on MQTT (forward, open --mqtt) needs libmosquitto, which Debian
# ships as a shared library only: the static builds (the VM's diamondctl)
# leave it out, and so does a machine without libmosquitto-dev (then
# check-fleet skips).
US_MQTT_SRCS := $(addprefix $(US_CTL_SRC)/,fleet.c forward.c lease.c mqtt.c open_mqtt.c \
		outbox.c semtech.c verifier_packets.c)
US_MQTT      := $(shell pkg-config --exists libmosquitto 2>/dev/null && echo 1)
US_NO_MQTT   := -DDIAMONDCTL_NO_MQTT
US_CTL_BASE  := $(filter-out $(US_MQTT_SRCS),$(US_CTL_SRCS))

$(DIAMONDCTL): $(US_CTL_SRCS) $(wildcard $(US_CTL_SRC)/*.h) $(US_LIB_A)
	$(CC) $(CSTD) $(US_CTL_FLAGS) $(if $(US_MQTT),,$(US_NO_MQTT)) -o $@ \
		$(if $(US_MQTT),$(US_CTL_SRCS),$(US_CTL_BASE)) $(US_LIB_A) $(US_KCAPI) \
		$(if $(US_MQTT),$(shell pkg-config --libs libmosquitto))

# For the VM: no shared libraries there, so libc and libkcapi.a go in.
$(DIAMONDCTL_STATIC): $(US_CTL_SRCS) $(wildcard $(US_CTL_SRC)/*.h) $(US_LIB_A)
	$(CC) $(CSTD) -static $(US_CTL_FLAGS) $(US_NO_MQTT) -o $@ $(US_CTL_BASE) $(US_LIB_A) \
		$(or $(US_KCAPI_A),-lkcapi)

# diamondctl for the guest of a matrix cell (bench-userspace-vm): the
# host's static build where the guest is the host's architecture; for
# arm64 the guest's compiler with the library and the core compiled in and
# no libkcapi, which Debian ships for the host's architecture only
# (lib/kcapi_opt.h: every tfm of diamond.ko's type "diamond").
US_GUEST_CTL := $(if $(filter $(CC),$(GUEST_CC)),$(DIAMONDCTL_STATIC),$(US_BUILD)/$(DMD_ARCH)/diamondctl-static)
# The same for either architecture in $(US_BUILD)/ARCH (the matrix cells'
# custody suite builds both there, apart from make check's own binaries).
US_ARCH_CC = $(if $(filter arm64,$(1)),aarch64-linux-gnu-gcc,$(CC))
$(US_BUILD)/%/diamondctl-static: $(US_CTL_SRCS) $(wildcard $(US_CTL_SRC)/*.h) \
		$(US_LIB_SRCS) $(US_HDRS) $(CORE_LIB_SRCS)
	@mkdir -p $(@D)
	$(call US_ARCH_CC,$*) $(CSTD) -static -DDLIB_NO_KCAPI $(US_CTL_FLAGS) $(US_NO_MQTT) -o $@ \
		$(US_CTL_BASE) $(US_LIB_SRCS) $(CORE_LIB_SRCS)

# ---- tests ---------------------------------------------------------------

US_TESTS := $(US_BUILD)/test_units $(US_BUILD)/test_vectors_sw $(US_BUILD)/test_crash \
	    $(US_BUILD)/test_hardening $(US_BUILD)/test_wstate $(US_BUILD)/test_stage \
	    $(US_BUILD)/test_fence

$(US_BUILD)/test_%: $(US_TEST_SRC)/test_%.c $(US_LIB_A) $(TOP)/selftests/tap.h \
		    $(TOP)/selftests/lib/vecfile.c $(TOP)/selftests/lib/vecfile.h
	$(CC) $(CSTD) $(TEST_INC) -o $@ $< $(TOP)/selftests/lib/vecfile.c \
		$(US_LIB_A) $(US_KCAPI)

# test_stage and test_fence feed the same two devices (two_devices.c).
US_TWO_DEVICES := $(US_TEST_SRC)/two_devices.c $(US_TEST_SRC)/two_devices.h
$(US_BUILD)/test_stage $(US_BUILD)/test_fence: $(US_BUILD)/test_%: \
		$(US_TEST_SRC)/test_%.c $(US_LIB_A) $(TOP)/selftests/tap.h $(US_TWO_DEVICES)
	$(CC) $(CSTD) $(TEST_INC) -o $@ $< $(US_TEST_SRC)/two_devices.c \
		$(US_LIB_A) $(US_KCAPI)

# Issue 20 item 6 (start): what the ingest's uid can reach, static for the VM.
US_CUSTODY_PROBE := $(US_BUILD)/custody_probe
$(US_CUSTODY_PROBE): $(US_TEST_SRC)/custody_probe.c $(US_LIB_A)
	$(CC) $(CSTD) -static -o $@ $< $(US_LIB_A) $(or $(US_KCAPI_A),-lkcapi)

$(US_BUILD)/%/custody_probe: $(US_TEST_SRC)/custody_probe.c $(US_LIB_SRCS) $(US_HDRS) \
		$(CORE_LIB_SRCS)
	@mkdir -p $(@D)
	$(call US_ARCH_CC,$*) $(CSTD) -static -DDLIB_NO_KCAPI -o $@ $< \
		$(US_LIB_SRCS) $(CORE_LIB_SRCS)

# Issue 34 item 5: the crash test on the custody path, static for the VM.
$(US_BUILD)/%/test_crash: $(US_TEST_SRC)/test_crash.c $(US_LIB_SRCS) $(US_HDRS) \
		$(CORE_LIB_SRCS) $(TOP)/selftests/tap.h
	@mkdir -p $(@D)
	$(call US_ARCH_CC,$*) $(CSTD) $(TEST_INC) -static -DDLIB_NO_KCAPI -o $@ $< \
		$(US_LIB_SRCS) $(CORE_LIB_SRCS)

# Hostile and disordered input for ingest.sh and the flood benchmark.
US_FRAMETOOL := $(US_BUILD)/frametool
$(US_FRAMETOOL): $(TOP)/tools/frametool.c $(US_LIB_A)
	$(CC) $(CSTD) -o $@ $< $(US_LIB_A) $(US_KCAPI)

CHECK_SUITES += userspace-host userspace-hardening userspace-crash userspace-ingest userspace-groups \
		userspace-forgery userspace-copies userspace-decided userspace-lint \
		userspace-vm


.PHONY: check-userspace-host check-userspace-crash check-userspace-ingest check-userspace-vm

# Three programs, one TAP file: the shell driver renumbers their results.
check-userspace-host: $(DIAMONDCTL) $(US_TESTS) $(US_PC) $(US_LIB_SO)
	@mkdir -p $(TAPDIR)
	@US_BUILD=$(US_BUILD) TOP=$(TOP) $(US_TEST_SRC)/host.sh \
		>$(TAPDIR)/userspace-host.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-host.tap; exit $$rc

# Issue 10, sender side: lock, generations, damaged blobs, limits, words.
.PHONY: check-userspace-hardening
check-userspace-hardening: $(DIAMONDCTL) $(US_BUILD)/test_hardening
	@mkdir -p $(TAPDIR)
	@t=$$(mktemp -d); $(US_BUILD)/test_hardening $$t \
		>$(TAPDIR)/userspace-hardening-units.tap; u=$$?; rm -rf $$t; \
	US_BUILD=$(US_BUILD) TOP=$(TOP) $(US_TEST_SRC)/hardening.sh \
		>$(TAPDIR)/userspace-hardening.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-hardening-units.tap \
		    $(TAPDIR)/userspace-hardening.tap; [ $$u -eq 0 ] && exit $$rc

check-userspace-crash: $(DIAMONDCTL) $(US_BUILD)/test_crash
	@mkdir -p $(TAPDIR)
	@DIAMONDCTL=$(DIAMONDCTL) $(US_BUILD)/test_crash $(US_BUILD)/crash \
		>$(TAPDIR)/userspace-crash.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-crash.tap; exit $$rc

# Per-function kernel instructions of a steady-state epoch at 10,000
# devices (development tool; tools/bench/userspace-profile.sh), with a
# cell's variables as for profile-kernel.
US_PROFILE_SUITE ?= 2
.PHONY: profile-userspace
profile-userspace: $(US_GUEST_CTL) $(KMOD_KO) $(BUILD)/tools/pc-histogram.so
	@BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) US_GUEST_CTL=$(US_GUEST_CTL) \
		$(TOP)/tools/bench/userspace-profile.sh $(US_PROFILE_SUITE) $(PROFILE_TOP)

# The gateway under hostile input: datagrams, windows, memory, spool,
# quarantine, logs, bind, serial reconnect, metrics (software backend).
check-userspace-ingest: $(DIAMONDCTL) $(US_FRAMETOOL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) $(US_TEST_SRC)/ingest.sh \
		>$(TAPDIR)/userspace-ingest.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-ingest.tap; exit $$rc

# Issue 30 item 3: the packet receiver (spec 14.5) and the host packet
# sender in libdiamond, software backend: vectors/packet.txt's epochs,
# losses against the grid's model, reordering, duplicates, replays,
# damaged and forged packets, a restart, a state that cannot be stored,
# the cursor's window; the kernel backend's requests and answers without
# the kernel (test_kgrid; the module itself is check-packet-vm's).
CHECK_SUITES += userspace-packet
.PHONY: check-userspace-packet
check-userspace-packet: $(US_BUILD)/test_packet $(US_BUILD)/test_kgrid $(DIAMONDCTL)
	@mkdir -p $(TAPDIR)
	@t=$$(mktemp -d); $(US_BUILD)/test_packet $(TOP)/vectors/packet.txt $$t/state \
		>$$t/lib0.tap; u=$$?; $(US_BUILD)/test_kgrid >>$$t/lib0.tap || u=1; \
	awk '/^TAP version/ { if (h++) next } /^1\.\./ { next } \
	     /^(not )?ok / { k++; sub(/ok [0-9]+/, "ok " k) } 1' $$t/lib0.tap >$$t/lib.tap; \
	n=$$(grep -c '^\(not \)\?ok ' $$t/lib.tap); \
	{ cat $$t/lib.tap; \
	  D=$(DIAMONDCTL) $(US_TEST_SRC)/packet.sh $$n >$$t/ctl.tap; c=$$?; \
	  cat $$t/ctl.tap; echo "1..$$((n + $$(grep -c '^\(not \)\?ok ' $$t/ctl.tap)))"; } \
		>$(TAPDIR)/userspace-packet.tap; rm -rf $$t; \
	cat $(TAPDIR)/userspace-packet.tap; \
	! grep -q '^not ok' $(TAPDIR)/userspace-packet.tap && [ $$u -eq 0 ]

# Issue 30 item 3: packet mode end to end, diamondctl seal --packet ->
# lossy-link --packets (seeded Bernoulli and Gilbert-Elliott loss) ->
# diamondctl open --packet --software: seven runs of 40 epochs of b = 64
# and two of 4 epochs of b = 1024 (units given up inside an epoch), each
# releasing exactly what the grid's model says of the packets that
# arrived, each record its sealed reading, once (figures in
# Documentation/performance.md, "Packet mode through lossy-link"). About
# 2 s of CPU.
CHECK_SUITES += packet-link
.PHONY: check-packet-link
check-packet-link: $(DIAMONDCTL) $(LOSSY)
	@mkdir -p $(TAPDIR)
	@$(TOP)/tools/lossy-link/packet-check.sh $(DIAMONDCTL) $(LOSSY) \
		>$(TAPDIR)/packet-link.tap; rc=$$?; cat $(TAPDIR)/packet-link.tap; \
		exit $$rc

# Issue 13, gateway side: grouped devices (g < b) through open --software.
.PHONY: check-userspace-groups
check-userspace-groups: $(DIAMONDCTL) $(US_FRAMETOOL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) $(US_TEST_SRC)/groups.sh \
		>$(TAPDIR)/userspace-groups.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-groups.tap; exit $$rc

# Issue 31 items 1 and 2: the fleet on a real mosquitto (Debian's, started
# by the test): three forwarders behind lossy links at 5% loss, one
# verifier, then hostile input on the frames topics and a SIGKILL. In
# make check: about 8 s of CPU, its wall time mostly the replay's pacing
# and the broker. Then item 3 (fleet-failover.sh): two verifiers sharing
# two shards through a lease and a fence, one stopped and continued (the
# fencing test), one killed with SIGKILL: about 4 s of CPU more, 15 s wall
# (leases and settle periods). Then fleet-owed.sh: the verifier's
# backpressure (--max-owed 8 against 1,024-reading epochs; forward
# --input waiting at --max-queue; a restart owing 1,024 readings at
# --max-owed 8): about 3 s of CPU, 15 s wall. Then
# packet mode (fleet-packet.sh): eight packet-mode devices through three
# forward --packet behind lossy-link --packets at 5% each, one verifier,
# a SIGKILL mid-run, a fleet verifier: about 5 s of CPU (broker and
# helpers included), 20 to 40 s wall. All skip loudly without mosquitto
# or a diamondctl built with libmosquitto.
CHECK_SUITES += fleet
.PHONY: check-fleet
check-fleet: $(DIAMONDCTL) $(LOSSY)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) LOSSY=$(LOSSY) $(US_TEST_SRC)/fleet.sh \
		>$(TAPDIR)/fleet.tap; rc=$$?; \
		cat $(TAPDIR)/fleet.tap; \
	D=$(DIAMONDCTL) $(US_TEST_SRC)/fleet-failover.sh \
		>$(TAPDIR)/fleet-failover.tap; rc2=$$?; \
		cat $(TAPDIR)/fleet-failover.tap; \
	D=$(DIAMONDCTL) $(US_TEST_SRC)/fleet-join.sh \
		>$(TAPDIR)/fleet-join.tap; rc3=$$?; \
		cat $(TAPDIR)/fleet-join.tap; \
	D=$(DIAMONDCTL) $(US_TEST_SRC)/fleet-owed.sh \
		>$(TAPDIR)/fleet-owed.tap; rc4=$$?; \
		cat $(TAPDIR)/fleet-owed.tap; \
	D=$(DIAMONDCTL) LOSSY=$(LOSSY) $(US_TEST_SRC)/fleet-packet.sh \
		>$(TAPDIR)/fleet-packet.tap; rc5=$$?; \
		cat $(TAPDIR)/fleet-packet.tap; \
	[ $$rc = 0 ] && [ $$rc2 = 0 ] && [ $$rc3 = 0 ] && [ $$rc4 = 0 ] && \
	[ $$rc5 = 0 ]

# Issue 31 item 4: the fleet on a three-node NATS cluster (Debian's
# nats-server, started by the test: JetStream, MQTT state in 3 replicas),
# one node killed with SIGKILL mid-run; every reading still delivered, by
# ID, with its content. In make check: 9 to 12 s of CPU and 35 to 55 s
# wall on two cores at load 4 to 10 (most of it the three Go servers: their
# start, the failover, the ack_wait settle at the end); at load 15 to 24
# it took 16 s of CPU and 9 minutes. It skips loudly without nats-server
# or a diamondctl built with libmosquitto.
CHECK_SUITES += fleet-nats
.PHONY: check-fleet-nats
check-fleet-nats: $(DIAMONDCTL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) $(US_TEST_SRC)/fleet-nats.sh \
		>$(TAPDIR)/fleet-nats.tap; rc=$$?; \
		cat $(TAPDIR)/fleet-nats.tap; exit $$rc

# A full filesystem under the verifier and under open (a small tmpfs the
# test mounts, as root, in a mount namespace of its own): exit 3 with the
# file named, no PUBACK for what is not durable, every reading once by ID
# after. About 3 s wall and 1.5 s of CPU; it skips loudly without root.
CHECK_SUITES += fleet-disk fleet-tls
.PHONY: check-fleet-disk
check-fleet-disk: $(DIAMONDCTL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) $(US_TEST_SRC)/fleet-disk.sh \
		>$(TAPDIR)/fleet-disk.tap; rc=$$?; \
		cat $(TAPDIR)/fleet-disk.tap; exit $$rc

# Issue 31 item 4: the fleet over TLS with a throwaway CA made by openssl
# at test time: client certificates, the wrong CA, plaintext, no broker.
# About 2 s wall and 1.2 s of CPU.
.PHONY: check-fleet-tls
check-fleet-tls: $(DIAMONDCTL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) $(US_TEST_SRC)/fleet-tls.sh \
		>$(TAPDIR)/fleet-tls.tap; rc=$$?; \
		cat $(TAPDIR)/fleet-tls.tap; exit $$rc

# Issue 23: what 300 forged units cost the gateway (instructions under
# callgrind, chain steps, output bytes).
.PHONY: check-userspace-forgery
check-userspace-forgery: $(DIAMONDCTL) $(US_FRAMETOOL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) $(US_TEST_SRC)/forgery.sh \
		>$(TAPDIR)/userspace-forgery.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-forgery.tap; exit $$rc

# Issue 23: damaged copies of records and tags before or after the
# genuine frames, grouped and ungrouped devices (spec section 8.1).
.PHONY: check-userspace-copies
check-userspace-copies: $(DIAMONDCTL) $(US_FRAMETOOL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) $(US_TEST_SRC)/copies.sh \
		>$(TAPDIR)/userspace-copies.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-copies.tap; exit $$rc

# Issue 23 item 7: the files of userspace/lib call one way only, so the
# receive path is a pipeline (tools/userspace/file-order).
.PHONY: check-userspace-lint
check-userspace-lint:
	@mkdir -p $(TAPDIR)
	@$(TOP)/tools/userspace/lint $(US_BUILD)/lint \
		>$(TAPDIR)/userspace-lint.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-lint.tap; exit $$rc

# Issue 23: one decision per group across restarts (spec 9.1,
# "Persistence"): the summary lines of two runs agree, no lost group's key
# stays in the state file.
.PHONY: check-userspace-decided
check-userspace-decided: $(DIAMONDCTL) $(US_FRAMETOOL)
	@mkdir -p $(TAPDIR)
	@D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) $(US_TEST_SRC)/decided.sh \
		>$(TAPDIR)/userspace-decided.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-decided.tap; exit $$rc

# Issue 30 item 3, kernel part: the packet receiver through diamond.ko's
# tag grid in a VM (selftests/userspace/packet-vm.sh): seeded lossy runs
# opened through the kernel give byte for byte the software path's JSON
# and state, kills mid-stream release nothing twice and lose nothing the
# software path releases, and test_packet runs on the kernel backend.
# Skips while the module's source has no grid.
US_TEST_PACKET_STATIC := $(US_BUILD)/test_packet-static
$(US_TEST_PACKET_STATIC): $(US_TEST_SRC)/test_packet.c $(US_LIB_A) $(TOP)/selftests/tap.h \
		$(TOP)/selftests/lib/vecfile.c $(TOP)/selftests/lib/vecfile.h
	$(CC) $(CSTD) $(TEST_INC) -static -o $@ $< $(TOP)/selftests/lib/vecfile.c \
		$(US_LIB_A) $(or $(US_KCAPI_A),-lkcapi)

CHECK_SUITES += packet-vm
.PHONY: check-packet-vm
check-packet-vm: $(DIAMONDCTL) $(DIAMONDCTL_STATIC) $(US_TEST_PACKET_STATIC) $(KMOD_KO) $(LOSSY)
	@mkdir -p $(TAPDIR)
	@US_BUILD=$(US_BUILD) TOP=$(TOP) BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) \
		LOSSY=$(LOSSY) $(US_TEST_SRC)/packet-vm.sh >$(TAPDIR)/packet-vm.tap; \
		rc=$$?; cat $(TAPDIR)/packet-vm.tap; [ $$rc -eq 4 ] && rc=0; exit $$rc

# Needs the kernel module (mk/kernel.mk): a module that cannot be built
# fails the suite, as check-kselftest does.
# Also runs forgery.sh and copies.sh against the kernel backend.
check-userspace-vm: $(DIAMONDCTL) $(DIAMONDCTL_STATIC) $(KMOD_KO) $(US_FRAMETOOL) \
		    $(US_CUSTODY_PROBE)
	@mkdir -p $(TAPDIR)
	@US_BUILD=$(US_BUILD) TOP=$(TOP) BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) \
		FT=$(US_FRAMETOOL) CP=$(US_CUSTODY_PROBE) \
		$(US_TEST_SRC)/vm.sh >$(TAPDIR)/userspace-vm.tap; rc=$$?; \
		cat $(TAPDIR)/userspace-vm.tap; [ $$rc -eq 4 ] && rc=0; exit $$rc

# Issue 31 item 2 through the kernel: open --custody --mqtt in a VM of make
# check's kernel, with Debian's mosquitto on the guest's loopback, the keys
# in diamond.ko, a SIGKILL and a restart (selftests/userspace/fleet-kernel.sh).
CHECK_SUITES += fleet-kernel
.PHONY: check-fleet-kernel
check-fleet-kernel: $(DIAMONDCTL) $(KMOD_KO)
	@mkdir -p $(TAPDIR)
	@US_BUILD=$(US_BUILD) TOP=$(TOP) BUILD=$(BUILD) KMOD_KO=$(KMOD_KO) \
		$(US_TEST_SRC)/fleet-kernel.sh >$(TAPDIR)/fleet-kernel.tap; rc=$$?; \
		cat $(TAPDIR)/fleet-kernel.tap; [ $$rc -eq 4 ] && rc=0; exit $$rc

# Issue 20 item 6 on a matrix cell's kernel (tools/kernel/run-cell runs it
# on every cell but pi4): selftests/userspace/custody-cell.sh, one
# VM boot. Not in CHECK_SUITES: make check's own kernel runs it inside
# userspace-vm. The guest's programs and the host's probe are built from
# the sources in $(US_BUILD)/ARCH under a lock, as the cells run side by
# side with make check's suites.
US_CELL_HOST  := $(US_BUILD)/x86_64/custody_probe
US_CELL_GUEST := $(US_BUILD)/$(DMD_ARCH)/diamondctl-static $(US_BUILD)/$(DMD_ARCH)/custody_probe \
		 $(US_BUILD)/$(DMD_ARCH)/test_crash
.PHONY: check-custody-cell custody-cell-build
custody-cell-build: $(DIAMONDCTL) $(US_CELL_HOST) $(US_CELL_GUEST)
check-custody-cell: $(KMOD_KO)
	@mkdir -p $(TAPDIR) $(US_BUILD)
	@flock $(US_BUILD)/.cell-lock $(MAKE) --no-print-directory custody-cell-build >/dev/null || \
		{ $(TOP)/tools/tap-result 1 "build the custody suite's programs" | \
			tee $(TAPDIR)/custody-cell.tap; exit 1; }
	@D=$(DIAMONDCTL) CP=$(US_CELL_HOST) GUEST_CTL=$(word 1,$(US_CELL_GUEST)) \
		GUEST_PROBE=$(word 2,$(US_CELL_GUEST)) GUEST_CRASH=$(word 3,$(US_CELL_GUEST)) \
		KMOD_KO=$(KMOD_KO) BUILD=$(BUILD) \
		TOP=$(TOP) $(US_TEST_SRC)/custody-cell.sh >$(TAPDIR)/custody-cell.tap; rc=$$?; \
		cat $(TAPDIR)/custody-cell.tap; exit $$rc

# diamondctl bench for 1 and 10,000 devices at b = 1024 x 16 B: the software
# path on the host, then kernel vs software in one VM run (same CPU).
US_BENCH_ARGS := --b 1024 --size 16
.PHONY: bench-userspace
BENCH_TARGETS += bench-userspace
bench-userspace: $(DIAMONDCTL) $(DIAMONDCTL_STATIC)
	$(DIAMONDCTL) bench --devices 1 $(US_BENCH_ARGS) --software
	$(DIAMONDCTL) bench --devices 10000 $(US_BENCH_ARGS) --software
	@$(MAKE) --no-print-directory bench-matrix MATRIX_CELLS="$(US_BENCH_CELLS)" \
		BENCH_TARGET=bench-userspace-vm

# The kernel path against the software path in one VM per cell, under
# -icount (guest time = instructions): both suites, 1 and 10,000 devices,
# the kernel gateway with clear keys and in custody (tools/bench/
# userspace-vm.sh). make bench-userspace runs it on US_BENCH_CELLS through
# tools/kernel/run-cell; alone it runs on this KVER. 2 GiB of guest memory:
# at 10,000 devices the three state directories (software, the loader's
# clear keys, the kernel's) are 30,000 files in the guest's tmpfs.
US_BENCH_CELLS ?= x86_64-6.12 arm64-6.12
.PHONY: bench-userspace-vm
bench-userspace-vm: $(US_GUEST_CTL) $(KMOD_KO)
	@RUN_VM_MEM=2048 BUILD=$(BUILD)/vm $(TOP)/tools/vm/run-vm --icount --timeout 9000 --module $(KMOD_KO) \
		--file $(US_GUEST_CTL):/bin/diamondctl \
		--file $(TOP)/tools/bench/userspace-vm.sh:/bin/userspace-vm -- \
		'userspace-vm'

# The gateway under hostile input: max RSS at 10,000 devices for the worst
# frame mixes, and the UDP flood (Documentation/userspace.rst section 9).
.PHONY: bench-ingest
BENCH_TARGETS += bench-ingest
bench-ingest: $(DIAMONDCTL) $(US_FRAMETOOL)
	D=$(DIAMONDCTL) FT=$(US_FRAMETOOL) $(TOP)/tools/ingest-bench.sh
