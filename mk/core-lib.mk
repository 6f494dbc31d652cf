# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The portable core (core/*.c), compiled once per toolchain into
#
#   $(BUILD)/core/<cfg>/libdmdcore.a    objects beside it, one per source
#
# Every program, library and firmware image that runs the core links one
# of these (CORE_LIB_<cfg>) instead of compiling core/*.c itself:
#
#   host      cc, CSTD, -fPIC: host tests, tools, libdiamond (.a and .so),
#             the benchmarks, and the x86_64 kselftest programs
#   asan      the same with AddressSanitizer and UBSan
#   avr       avr-gcc for the ATmega2560, the AVR-tuned primitives
#             (embedded/avr/prims/, C and assembly) in place of their
#             portable twins
#   m4        arm-none-eabi-gcc for the Cortex-M4
#   bl w32 r8 the primitives only, on the host, built as the AVR (byte-lane
#             AES; radix 2^8 Poly1305 and bit-serial GHASH) and 32-bit
#             targets compile them, so the host tests cover those paths
#
# The kernel module does not link the core (it composes the kernel's own
# ciphers), and a kselftest build for another architecture builds its own
# archive with its compiler (selftests/diamond/Makefile).
#
# Read before the other fragments (Makefile): their prerequisites name
# these archives. The firmware flags come from mk/embedded.mk, expanded
# when a recipe runs.

CORE_LIB_SRCS  := $(sort $(wildcard $(TOP)/core/*.c))
CORE_LIB_HDRS  := $(wildcard $(TOP)/core/*.h $(TOP)/include/diamond/*.h)
CORE_LIB_PRIMS := util aes128 chacha20 ghash ghash_mul poly1305 sha256
CORE_SANITIZE  := -fsanitize=address,undefined -fno-sanitize-recover=all \
		  -fno-omit-frame-pointer
CORE_AVR_PRIMS := $(sort $(wildcard $(TOP)/embedded/avr/prims/*.c))
CORE_AVR_ASM   := $(sort $(wildcard $(TOP)/embedded/avr/prims/*.S))

CORE_LIB_CFGS := host asan avr m4 bl w32 r8
# A program linking bl, w32 or r8 is compiled with the same definitions:
# the headers read them too.
CORE_DEFS_bl  := -DDMD_AES_BYTE_LANES=1
CORE_DEFS_w32 := -DDMD_POLY1305_RADIX=26 -DDMD_GHASH_MUL=32
CORE_DEFS_r8  := -DDMD_POLY1305_RADIX=8 -DDMD_GHASH_MUL=1

# Per configuration: compiler, flags, archiver and object names.
core_cc_host  = $(CC)
core_cc_asan  = $(CC)
core_cc_bl    = $(CC)
core_cc_w32   = $(CC)
core_cc_r8    = $(CC)
core_cc_avr   = avr-gcc
core_cc_m4    = arm-none-eabi-gcc
core_ar_avr   = avr-ar
core_ar_m4    = arm-none-eabi-ar
core_flags_host = $(CSTD) -fPIC
core_flags_asan = $(CSTD) -fPIC $(CORE_SANITIZE)
core_flags_bl   = $(CSTD) $(CORE_DEFS_bl)
core_flags_w32  = $(CSTD) $(CORE_DEFS_w32)
core_flags_r8   = $(CSTD) $(CORE_DEFS_r8)
core_flags_avr  = $(EMB_AVR_CFLAGS) $(EMB_AVR_OPT)
core_flags_m4   = $(EMB_M4_CFLAGS) $(EMB_M4_OPT)

core_objs = $(patsubst $(TOP)/core/%.c,$(BUILD)/core/$(1)/%.o,$(2))
CORE_OBJS_host := $(call core_objs,host,$(CORE_LIB_SRCS))
CORE_OBJS_asan := $(call core_objs,asan,$(CORE_LIB_SRCS))
CORE_OBJS_m4   := $(call core_objs,m4,$(CORE_LIB_SRCS))
CORE_OBJS_avr  := $(call core_objs,avr,$(filter-out \
		  $(patsubst $(TOP)/embedded/avr/prims/%,$(TOP)/core/%,$(CORE_AVR_PRIMS)), \
		  $(CORE_LIB_SRCS)) $(patsubst $(TOP)/embedded/avr/prims/%,$(TOP)/core/%,$(CORE_AVR_PRIMS))) \
		  $(patsubst $(TOP)/embedded/avr/prims/%.S,$(BUILD)/core/avr/%_S.o,$(CORE_AVR_ASM))
$(foreach c,bl w32 r8,$(eval CORE_OBJS_$(c) := \
	$(call core_objs,$(c),$(addprefix $(TOP)/core/,$(addsuffix .c,$(CORE_LIB_PRIMS))))))

$(foreach c,$(CORE_LIB_CFGS),$(eval CORE_LIB_$(c) := $(BUILD)/core/$(c)/libdmdcore.a))

# The AVR's own primitives first: for those, their rule wins over core/'s.
$(BUILD)/core/avr/%.o: $(TOP)/embedded/avr/prims/%.c $(CORE_LIB_HDRS)
	@mkdir -p $(@D)
	$(core_cc_avr) $(core_flags_avr) -c -o $@ $<

$(BUILD)/core/avr/%_S.o: $(TOP)/embedded/avr/prims/%.S
	@mkdir -p $(@D)
	$(core_cc_avr) $(core_flags_avr) -c -o $@ $<

define core_lib_rules
$(BUILD)/core/$(1)/%.o: $(TOP)/core/%.c $(CORE_LIB_HDRS)
	@mkdir -p $$(@D)
	$$(core_cc_$(1)) $$(core_flags_$(1)) -c -o $$@ $$<

$(CORE_LIB_$(1)): $(CORE_OBJS_$(1))
	@rm -f $$@
	$$(or $$(core_ar_$(1)),$(AR)) rcs $$@ $$^
endef
$(foreach c,$(CORE_LIB_CFGS),$(eval $(call core_lib_rules,$(c))))

.PHONY: core-libs
core-libs: $(CORE_LIB_host) $(CORE_LIB_asan) $(CORE_LIB_avr) $(CORE_LIB_m4)
