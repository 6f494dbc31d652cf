# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# Generated files that are committed, and the one command that remakes them.
#
#   make gen         regenerate every generated file: the AVR assembly
#                    (embedded/avr/prims/*.py), vectors/diamond.txt
#                    (tools/vectors/gen-vectors) and kernel/diamond_kat.h (vec2c)
#   make check-gen   TAP: each committed AVR assembly file is what its
#                    generator prints (the vectors and the kernel KAT header
#                    have their own checks: vectors-check, vectors-kat)

GEN_AVR := embedded/avr/prims/chacha20.py:embedded/avr/prims/chacha20.S \
	   embedded/avr/prims/poly1305.py:embedded/avr/prims/poly1305.S \
	   embedded/avr/prims/ghash_mul.py:embedded/avr/prims/ghash_mul.S

CHECK_SUITES += gen
.PHONY: gen gen-avr check-gen

gen: gen-avr vectors
	@$(MAKE) --no-print-directory kernel-kat-header

gen-avr:
	@cd $(TOP) && tools/check-generated --write $(GEN_AVR)

check-gen:
	@mkdir -p $(TAPDIR)
	@rc=0; cd $(TOP) && tools/check-generated $(GEN_AVR) >$(TAPDIR)/gen.tap || rc=$$?; \
		cat $(TAPDIR)/gen.tap; exit $$rc
