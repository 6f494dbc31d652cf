// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Reset handler, vector table, semihosting and benchmark markers for the
 * QEMU mps2-an386 test firmware (Cortex-M4, no FPU use, no interrupts).
 * main()'s return value becomes qemu's exit status.
 */
#include <stdint.h>

#include "m4-semihost.h"

extern uint32_t dmd_stack_top, dmd_data_load, dmd_data_start, dmd_data_end,
	dmd_bss_start, dmd_bss_end;
int main(void);

#define SYS_WRITE0		0x04
#define SYS_EXIT_EXTENDED	0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static uint32_t semihost(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;

	__asm__ __volatile__("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

void sh_write0(const char *s)
{
	semihost(SYS_WRITE0, s);
}

void sh_exit(int code)
{
	uint32_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code };

	for (;;)
		semihost(SYS_EXIT_EXTENDED, block);
}

/* Out of line and opaque to the optimiser, so their addresses are hit. */
__attribute__((noinline, noclone, used)) void dmd_bench_start(int id)
{
	__asm__ __volatile__("" : : "r"(id) : "memory");
}

__attribute__((noinline, noclone, used)) void dmd_bench_stop(int id)
{
	__asm__ __volatile__("" : : "r"(id) : "memory");
}

__attribute__((noreturn)) void Reset_Handler(void)
{
	uint32_t *src = &dmd_data_load, *dst = &dmd_data_start;

	while (dst < &dmd_data_end)
		*dst++ = *src++;
	for (dst = &dmd_bss_start; dst < &dmd_bss_end;)
		*dst++ = 0;
	sh_exit(main());
}

__attribute__((noreturn)) static void Fault_Handler(void)
{
	sh_write0("m4: fault\n");
	sh_exit(M4_EXIT_FAULT);
}

__attribute__((section(".vectors"), used))
static void (*const vectors[16])(void) = {
	(void (*)(void))&dmd_stack_top,
	Reset_Handler,
	Fault_Handler,		/* NMI */
	Fault_Handler,		/* HardFault */
	Fault_Handler,		/* MemManage */
	Fault_Handler,		/* BusFault */
	Fault_Handler,		/* UsageFault */
	0, 0, 0, 0,
	Fault_Handler,		/* SVCall */
	Fault_Handler,		/* DebugMon */
	0,
	Fault_Handler,		/* PendSV */
	Fault_Handler,		/* SysTick */
};
