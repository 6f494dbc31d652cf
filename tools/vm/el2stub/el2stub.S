/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * el2stub: boot an arm64 Linux kernel at EL1 on a CPU that looks like a
 * Raspberry Pi 4's (Cortex-A72 without the Crypto Extensions) under
 * qemu -M virt,virtualization=on -cpu cortex-a72, which has no property to
 * remove AES or PMULL.
 *
 * The stub carries an arm64 Image header, so qemu boots it as Linux at
 * EL2 (x0 = the device tree, the initrd and command line in it); the real
 * kernel Image follows at +2 MiB (tools/vm/el2stub/mkimage). The stub sets
 * HCR_EL2.TID3, so every EL1 read of an ID register traps here, answers
 * each with the CPU's own value except ID_AA64ISAR0_EL1, whose AES (PMULL
 * included), SHA1 and SHA2 fields read 0 (registers this CPU does not
 * implement read as zero), and enters the kernel at EL1.
 */
	.equ	STUB_HOME, 0x5ff00000	/* top MiB of 512 MiB at 0x40000000 */

	.macro	save_all
	stp	x0, x1, [sp, #-256]!
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	str	x30, [sp, #240]
	.endm

	.macro	restore_all
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
	ldp	x0, x1, [sp], #256
	.endm

	.section .text
	.global	_head
_head:
	b	start			/* code0 */
	.long	0			/* code1 */
	.quad	0			/* text_offset */
	.quad	0			/* image_size: set by mkimage */
	.quad	0x2			/* flags: little endian, 4 KiB pages */
	.quad	0, 0, 0
	.ascii	"ARM\x64"		/* magic */
	.long	0

start:
	mov	x19, x0			/* the device tree */
	adr	x20, _head
	add	x20, x20, #0x200, lsl #12	/* the Image, 2 MiB on */
	/*
	 * The kernel frees the RAM below its Image, so the stub moves to
	 * STUB_HOME at the top of a 512 MiB guest and the kernel is told
	 * mem=511M (tools/kernel/run-cell): nothing there is ever reused.
	 */
	adr	x1, _head
	ldr	x2, =STUB_HOME
	adr	x3, stub_end
1:	ldr	x4, [x1], #8
	str	x4, [x2], #8
	cmp	x1, x3
	b.lo	1b
	dsb	sy
	ic	iallu
	dsb	sy
	isb
	ldr	x1, =STUB_HOME
	adr	x2, _head
	adr	x3, relocated
	sub	x3, x3, x2
	add	x1, x1, x3
	br	x1
relocated:
	adr	x1, stack_top
	mov	sp, x1
	adr	x1, vectors
	msr	vbar_el2, x1
	/* EL1 is AArch64; trap ID group 3 reads (ID_AA64ISAR0_EL1 among them). */
	mov	x1, #(1 << 31)
	orr	x1, x1, #(1 << 18)
	msr	hcr_el2, x1
	/* EL1 may use the physical counter and timer; no virtual offset. */
	mov	x1, #3
	msr	cnthctl_el2, x1
	msr	cntvoff_el2, xzr
	/* EL1 sees the real MIDR and MPIDR. */
	mrs	x1, midr_el1
	msr	vpidr_el2, x1
	mrs	x1, mpidr_el1
	msr	vmpidr_el2, x1
	/* No traps of FP/SIMD or of CP15 to EL2. */
	mov	x1, #0x33ff
	msr	cptr_el2, x1
	msr	hstr_el2, xzr
	/* SCTLR_EL1: its RES1 bits, MMU and caches off, as at reset. */
	ldr	x1, =0x30d00800
	msr	sctlr_el1, x1
	isb
	/* Enter the kernel at EL1h, interrupts masked, x0 = device tree. */
	mov	x1, #0x3c5
	msr	spsr_el2, x1
	msr	elr_el2, x20
	mov	x0, x19
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	eret

/*
 * A trapped MRS (ESR_EL2.EC 0x18) of an ID register: ISS holds Op0, Op2,
 * Op1, CRn, Rt, CRm and the direction. TID3 traps only Op0 3, Op1 0, CRn 0,
 * CRm 1..7, so CRm * 8 + Op2 indexes a table of the 64 reads.
 */
sysreg_trap:
	save_all
	mrs	x0, esr_el2
	ubfx	x1, x0, #26, #6
	cmp	x1, #0x18
	b.ne	hang
	tbz	x0, #0, skip		/* a write: ignore it */
	ubfx	x2, x0, #1, #4		/* CRm */
	ubfx	x3, x0, #17, #3		/* Op2 */
	add	x4, x3, x2, lsl #3
	adr	x5, id_reads
	add	x5, x5, x4, lsl #3	/* two instructions an entry */
	/* A reserved encoding may UNDEF here: id_undef keeps ELR/SPSR. */
	mrs	x6, elr_el2
	mrs	x7, spsr_el2
	blr	x5			/* x1 = the register's value */
	msr	elr_el2, x6
	msr	spsr_el2, x7
	cmp	x4, #(6 * 8 + 0)	/* ID_AA64ISAR0_EL1 */
	b.ne	1f
	and	x1, x1, #~0xfff0	/* AES (PMULL), SHA1, SHA2: none */
1:	ubfx	x2, x0, #5, #5		/* Rt */
	cmp	x2, #31
	b.eq	skip
	str	x1, [sp, x2, lsl #3]
skip:
	mrs	x0, elr_el2
	add	x0, x0, #4
	msr	elr_el2, x0
	restore_all
	eret

/* An ID register this CPU does not have reads as zero (RAZ). */
id_undef:
	mov	x1, xzr
	msr	elr_el2, x30
	eret

hang:
	wfi
	b	hang

	.macro	id_read crm, op2
	mrs	x1, S3_0_C0_C\crm\()_\op2
	ret
	.endm

	.balign	8
id_reads:
	.irp	crm, 0, 1, 2, 3, 4, 5, 6, 7
	.irp	op2, 0, 1, 2, 3, 4, 5, 6, 7
	id_read	\crm, \op2
	.endr
	.endr

	.ltorg

/* Vector table: only "lower EL, AArch64, synchronous" is expected. */
	.balign	2048
vectors:
	.rept	4
	b	hang
	.balign	128
	.endr
	b	id_undef		/* +0x200: current EL, SPx, sync */
	.balign	128
	.rept	3
	b	hang
	.balign	128
	.endr
	b	sysreg_trap		/* +0x400: lower EL, AArch64, sync */
	.balign	128
	.rept	7
	b	hang
	.balign	128
	.endr

	.balign	16
	.space	4096
stack_top:
stub_end:
