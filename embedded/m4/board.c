// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * mps2-an386 board (Cortex-M4 under qemu). The Arm semihosting interface
 * stands in for two peripherals a real STM32F4 board has:
 *
 *  - the link: frames go to a host file (out=PATH on the semihosting
 *    command line) or to the console, as a UART would carry them;
 *  - flash: the NV ring lives in a host file (nv=PATH) that models two
 *    16 KiB flash sectors (STM32F4 sectors 1 and 2) with flash rules:
 *    programming may only clear bits, erasing sets a whole sector to 0xff.
 *    qemu itself forgets RAM and its own flash between runs; the file does
 *    not, exactly like the real part across a power cycle.
 *
 * Power loss: cut=N on the command line ends the run (exit status 125, as
 * avr-run --reset-at) at the N-th link write, flash program chunk or erase
 * chunk, after writing only half of it: a torn write, as a real power
 * failure leaves one.
 *
 * Startup, exit and the benchmark markers come from tools/qemu-plugin/
 * m4-startup.c.
 */
#include "board.h"
#include "nvstate.h"
#include "m4-semihost.h"

#define SYS_OPEN	0x01
#define SYS_CLOSE	0x02
#define SYS_WRITE	0x05
#define SYS_READ	0x06
#define SYS_SEEK	0x0a
#define SYS_FLEN	0x0c
#define SYS_GET_CMDLINE	0x15

#define MODE_RB_PLUS	3	/* "r+b" */
#define MODE_WB_PLUS	7	/* "w+b" */
#define MODE_W		4	/* "w" (":tt" is the console) */
#define MODE_AB		9	/* "ab" */

#define FLASH_SECTOR_SIZE	16384u
#define FLASH_SECTORS		2u
#define NV_BYTES		(FLASH_SECTOR_SIZE * FLASH_SECTORS)

#define EXIT_POWER_LOSS		125

static int32_t nv_fd = -1, out_fd = -1;
static uint32_t cut_events, mark_only;
static char cmdline[256];

static int32_t semihost(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;

	__asm__ __volatile__("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return (int32_t)r0;
}

static uint32_t slen(const char *s)
{
	uint32_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int32_t sh_open(const char *path, uint32_t mode)
{
	uint32_t a[3] = { (uint32_t)path, mode, slen(path) };

	return semihost(SYS_OPEN, a);
}

static int sh_write(int32_t fd, const void *p, uint32_t n)
{
	uint32_t a[3] = { (uint32_t)fd, (uint32_t)p, n };

	return semihost(SYS_WRITE, a) == 0 ? 0 : -1;
}

static int sh_read(int32_t fd, void *p, uint32_t n)
{
	uint32_t a[3] = { (uint32_t)fd, (uint32_t)p, n };

	return semihost(SYS_READ, a) == 0 ? 0 : -1;
}

static int sh_seek(int32_t fd, uint32_t pos)
{
	uint32_t a[2] = { (uint32_t)fd, pos };

	return semihost(SYS_SEEK, a) == 0 ? 0 : -1;
}

/* Value of key=VALUE on the semihosting command line, NUL-terminated in place. */
static const char *arg(const char *key)
{
	uint32_t k = slen(key), i = 0;

	while (cmdline[i]) {
		uint32_t j = 0;

		while (j < k && cmdline[i + j] == key[j])
			j++;
		if (j == k && cmdline[i + j] == '=') {
			static char val[200];
			uint32_t v = 0;

			i += k + 1;
			while (cmdline[i] && cmdline[i] != ' ' && v < sizeof(val) - 1)
				val[v++] = cmdline[i++];
			val[v] = 0;
			return val;
		}
		while (cmdline[i] && cmdline[i] != ' ')
			i++;
		while (cmdline[i] == ' ')
			i++;
	}
	return 0;
}

static void open_nv(void)
{
	const char *path = arg("nv");
	static uint8_t blank[1024];
	uint32_t i;

	if (!path)
		return;
	nv_fd = sh_open(path, MODE_RB_PLUS);
	if (nv_fd >= 0) {
		uint32_t a[1] = { (uint32_t)nv_fd };

		if (semihost(SYS_FLEN, a) == (int32_t)NV_BYTES)
			return;
		semihost(SYS_CLOSE, a);
	}
	/* A factory-fresh part: every sector erased. */
	nv_fd = sh_open(path, MODE_WB_PLUS);
	if (nv_fd < 0)
		return;
	for (i = 0; i < sizeof(blank); i++)
		blank[i] = 0xff;
	for (i = 0; i < NV_BYTES; i += sizeof(blank))
		sh_write(nv_fd, blank, sizeof(blank));
}

/* Count one power-loss point; 1 when this is the one to die at. */
static int power_point(void)
{
	return cut_events && --cut_events == 0;
}

static void power_loss(void)
{
	sh_exit(EXIT_POWER_LOSS);
}

static uint32_t parse_u32(const char *s)
{
	uint32_t v = 0;

	while (s && *s >= '0' && *s <= '9')
		v = v * 10 + (uint32_t)(*s++ - '0');
	return v;
}

void board_init(void)
{
	uint32_t a[2] = { (uint32_t)cmdline, sizeof(cmdline) - 1 };
	const char *out;

	if (semihost(SYS_GET_CMDLINE, a) != 0)
		cmdline[0] = 0;
	cmdline[sizeof(cmdline) - 1] = 0;
	open_nv();
	cut_events = parse_u32(arg("cut"));
	mark_only = parse_u32(arg("mark"));
	out = arg("out");
	out_fd = out ? sh_open(out, MODE_AB) : sh_open(":tt", MODE_W);
}

void board_out(const uint8_t *p, size_t n)
{
	if (out_fd < 0)
		return;
	if (power_point()) {
		sh_write(out_fd, p, n / 2);
		power_loss();
	}
	sh_write(out_fd, p, n);
}

void board_puts(const char *s)
{
	sh_write0(s);
}

void board_exit(int code)
{
	uint32_t a[1];

	if (out_fd >= 0) {
		a[0] = (uint32_t)out_fd;
		semihost(SYS_CLOSE, a);
	}
	if (nv_fd >= 0) {
		a[0] = (uint32_t)nv_fd;
		semihost(SYS_CLOSE, a);
	}
	sh_exit(code);
}

int board_nv_read(uint32_t off, uint8_t *p, uint32_t n)
{
	if (nv_fd < 0 || off + n > NV_BYTES)
		return -1;
	return sh_seek(nv_fd, off) || sh_read(nv_fd, p, n) ? -1 : 0;
}

/* Flash programming clears bits only; a 0 -> 1 request is a driver bug. */
int board_nv_program(uint32_t off, const uint8_t *p, uint32_t n)
{
	uint8_t old[NV_SLOT_SIZE], now[NV_SLOT_SIZE];
	uint32_t i, chunk;

	while (n) {
		chunk = n < sizeof(old) ? n : sizeof(old);
		if (board_nv_read(off, old, chunk))
			return -1;
		for (i = 0; i < chunk; i++) {
			if (p[i] & ~old[i])
				return -1;
			now[i] = old[i] & p[i];
		}
		if (power_point()) {
			sh_seek(nv_fd, off);
			sh_write(nv_fd, now, chunk / 2);
			power_loss();
		}
		if (sh_seek(nv_fd, off) || sh_write(nv_fd, now, chunk))
			return -1;
		off += chunk;
		p += chunk;
		n -= chunk;
	}
	return 0;
}

int board_nv_erase_sector(uint32_t sector)
{
	uint8_t ff[NV_SLOT_SIZE];
	uint32_t i;

	if (nv_fd < 0 || sector >= FLASH_SECTORS)
		return -1;
	for (i = 0; i < sizeof(ff); i++)
		ff[i] = 0xff;
	for (i = 0; i < FLASH_SECTOR_SIZE; i += sizeof(ff)) {
		if (power_point())
			power_loss();
		if (sh_seek(nv_fd, sector * FLASH_SECTOR_SIZE + i) ||
		    sh_write(nv_fd, ff, sizeof(ff)))
			return -1;
	}
	return 0;
}

uint32_t board_nv_slots(void)
{
	return NV_BYTES / NV_SLOT_SIZE;
}

uint32_t board_nv_sector_slots(void)
{
	return FLASH_SECTOR_SIZE / NV_SLOT_SIZE;
}

void board_flash_read(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
}

/*
 * The instruction-count plugin numbers regions but cannot see their ids,
 * so mark=ID on the command line keeps only the regions of one id.
 */
void board_mark_start(uint8_t id)
{
	if (!mark_only || id == mark_only)
		dmd_bench_start(id);
}

void board_mark_stop(uint8_t id)
{
	if (!mark_only || id == mark_only)
		dmd_bench_stop(id);
}
