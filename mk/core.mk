# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The Diamond construction on top of the primitives (mk/core-prims.mk), its
# host tests, the known-answer vectors and the host benchmark.

# The programs link the core archives of mk/core-lib.mk.
CORE_DEPS      = $(CORE_LIB_HDRS) $(TOP)/selftests/tap.h \
		 $(TOP)/selftests/lib/state_eq.h
CORE_HOST     := $(BUILD)/host
VECFILE_SRCS  := $(TOP)/selftests/lib/vecfile.c
VECTORS       := $(TOP)/vectors/diamond.txt
BLOB_VECTORS  := $(TOP)/vectors/blob.txt
FRAME_VECTORS := $(TOP)/vectors/frames.txt
PROV_VECTORS  := $(TOP)/vectors/provision.txt
WRAP_VECTORS  := $(TOP)/vectors/wrap.txt
PACKET_VECTORS := $(TOP)/vectors/packet.txt
CORE_TESTS    := test_vectors test_blobs test_api test_groups test_frame \
		 test_literal_forgery test_erasure test_ctgrind test_packet

all: $(addprefix $(CORE_HOST)/,$(CORE_TESTS)) $(CORE_HOST)/gen-vectors

$(CORE_HOST)/test_%: $(TOP)/selftests/core/test_%.c $(CORE_DEPS) $(VECFILE_SRCS) $(CORE_LIB_host)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) -D_POSIX_C_SOURCE=200809L -o $@ $< $(VECFILE_SRCS) $(CORE_LIB_host)

$(CORE_HOST)/asan/test_%: $(TOP)/selftests/core/test_%.c $(CORE_DEPS) $(VECFILE_SRCS) $(CORE_LIB_asan)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(TEST_INC) $(CORE_SANITIZE) -D_POSIX_C_SOURCE=200809L -o $@ $< $(VECFILE_SRCS) $(CORE_LIB_asan)

GEN_VECTORS_SRCS := $(addprefix $(TOP)/tools/vectors/,ref-prims.c \
		    wrap-vectors.c packet-vectors.c)
$(CORE_HOST)/gen-vectors: $(TOP)/tools/vectors/gen-vectors.c $(GEN_VECTORS_SRCS) \
		$(GEN_VECTORS_SRCS:.c=.h)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -std=gnu11 -o $@ $< $(GEN_VECTORS_SRCS) -lcrypto -lz

.PHONY: vectors
vectors: $(CORE_HOST)/gen-vectors
	$(CORE_HOST)/gen-vectors $(VECTORS)
	$(CORE_HOST)/gen-vectors --blobs $(BLOB_VECTORS)
	$(CORE_HOST)/gen-vectors --frames $(FRAME_VECTORS)
	$(CORE_HOST)/gen-vectors --provision $(PROV_VECTORS)
	$(CORE_HOST)/gen-vectors --wrap $(WRAP_VECTORS)
	$(CORE_HOST)/gen-vectors --packet $(PACKET_VECTORS)

CHECK_SUITES += core-vectors core-blobs core-api core-groups core-frame \
		core-packet vectors-check core-literal core-erasure core-ctgrind \
		core-asan

.PHONY: check-core-api check-core-groups check-core-frame check-core-packet
check-core-api: $(CORE_HOST)/test_api
	@$< | tee $(TAPDIR)/core-api.tap

check-core-groups: $(CORE_HOST)/test_groups
	@$< | tee $(TAPDIR)/core-groups.tap

check-core-frame: $(CORE_HOST)/test_frame
	@$< $(FRAME_VECTORS) | tee $(TAPDIR)/core-frame.tap

check-core-packet: $(CORE_HOST)/test_packet
	@$< $(PACKET_VECTORS) | tee $(TAPDIR)/core-packet.tap

# The sealed packets of vectors/packet.txt recomputed in Python
# (pyca/cryptography, a GHASH of its own): a third computation beside the
# C generator and the core. About half a second; exit 4 is its loud skip
# (no python3-cryptography), which tap-summary counts.
CHECK_SUITES += vectors-packet-py
.PHONY: check-vectors-packet-py
check-vectors-packet-py:
	@rc=0; python3 $(TOP)/tools/vectors/packet-check.py $(PACKET_VECTORS) \
		>$(TAPDIR)/vectors-packet-py.tap || rc=$$?; \
		cat $(TAPDIR)/vectors-packet-py.tap; [ $$rc -eq 4 ] || exit $$rc

.PHONY: check-core-blobs
check-core-blobs: $(CORE_HOST)/test_blobs
	@$< $(BLOB_VECTORS) $(PROV_VECTORS) | tee $(TAPDIR)/core-blobs.tap

.PHONY: check-core-vectors check-vectors-check check-core-literal \
	check-core-erasure check-core-ctgrind check-core-asan
check-core-vectors: $(CORE_HOST)/test_vectors
	@$< $(VECTORS) > $(TAPDIR)/core-vectors.tap; rc=$$?; \
		tail -n 1 $(TAPDIR)/core-vectors.tap; exit $$rc

check-vectors-check: $(CORE_HOST)/gen-vectors
	@$(TOP)/tools/tap-run \
		"vectors/diamond.txt regenerates byte for byte" "$< --check $(VECTORS)" \
		"vectors/blob.txt regenerates byte for byte" "$< --blobs --check $(BLOB_VECTORS)" \
		"vectors/frames.txt regenerates byte for byte" "$< --frames --check $(FRAME_VECTORS)" \
		"vectors/provision.txt regenerates byte for byte" "$< --provision --check $(PROV_VECTORS)" \
		"vectors/wrap.txt regenerates byte for byte" "$< --wrap --check $(WRAP_VECTORS)" \
		"vectors/packet.txt regenerates byte for byte" "$< --packet --check $(PACKET_VECTORS)" \
		| tee $(TAPDIR)/vectors-check.tap

check-core-literal: $(CORE_HOST)/test_literal_forgery
	@$< | tee $(TAPDIR)/core-literal.tap

check-core-erasure: $(CORE_HOST)/test_erasure
	@$< | tee $(TAPDIR)/core-erasure.tap

check-core-ctgrind: $(CORE_HOST)/test_ctgrind
	@$(TOP)/tools/run-ctgrind.sh $< | tee $(TAPDIR)/core-ctgrind.tap

check-core-asan: $(addprefix $(CORE_HOST)/asan/,test_vectors test_blobs test_api \
		 test_groups test_frame test_literal_forgery test_ctgrind test_packet)
	@$(CORE_HOST)/asan/test_vectors $(VECTORS) > $(TAPDIR)/core-asan-vectors.tap; \
		tail -n 1 $(TAPDIR)/core-asan-vectors.tap
	@$(CORE_HOST)/asan/test_api | tee $(TAPDIR)/core-asan-api.tap
	@$(CORE_HOST)/asan/test_blobs $(BLOB_VECTORS) $(PROV_VECTORS) | tee $(TAPDIR)/core-asan-blobs.tap
	@$(CORE_HOST)/asan/test_groups | tee $(TAPDIR)/core-asan-groups.tap
	@$(CORE_HOST)/asan/test_frame $(FRAME_VECTORS) | tee $(TAPDIR)/core-asan-frame.tap
	@$(CORE_HOST)/asan/test_literal_forgery | tee $(TAPDIR)/core-asan-literal.tap
	@$(CORE_HOST)/asan/test_ctgrind | tee $(TAPDIR)/core-asan-ctgrind.tap
	@$(CORE_HOST)/asan/test_packet $(PACKET_VECTORS) | tee $(TAPDIR)/core-asan-packet.tap

# A benchmark, not a test: callgrind instruction counts per message.
BENCH_TARGETS += bench-host
.PHONY: bench-host
bench-host.after-deps: $(CORE_HOST)/host-bench
	@$(TOP)/tools/bench/bench-host.sh $(CORE_HOST)/host-bench

$(CORE_HOST)/host-bench: $(TOP)/tools/bench/host-bench.c $(CORE_DEPS) $(CORE_LIB_host)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -o $@ $< $(CORE_LIB_host)
