// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * TAP from the known-answer firmware (fw_tap.h).
 */
#include "board.h"
#include "fw_tap.h"

static unsigned int tests, failed;

void fw_tap_uint(unsigned int v)
{
	char b[12], *p = b + sizeof(b) - 1;

	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	board_puts(p);
}

static void line(const char *status, const char *what, const char *name)
{
	tests++;
	board_puts(status);
	fw_tap_uint(tests);
	board_puts(" - ");
	board_puts(what);
	board_puts(": ");
	board_puts(name);
}

void fw_tap_report(int ok, const char *what, const char *name)
{
	failed += !ok;
	line(ok ? "ok " : "not ok ", what, name);
	board_puts("\n");
}

void fw_tap_skip(const char *what, const char *name, const char *why)
{
	line("ok ", what, name);
	board_puts(" # SKIP ");
	board_puts(why);
	board_puts("\n");
}

void fw_tap_done(void)
{
	board_puts("1..");
	fw_tap_uint(tests);
	board_puts("\n# ");
	fw_tap_uint(failed);
	board_puts(" failed\n");
	board_exit(failed > 100 ? 100 : (int)failed);
}
