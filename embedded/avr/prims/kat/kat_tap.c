// SPDX-License-Identifier: GPL-2.0 OR MIT
/* TAP 13 for the AVR primitives' known-answer firmwares (kat_tap.h). */
#include "kat_tap.h"

#include <avr/io.h>

#include "board.h"

static unsigned int tests, failed;

void kat_begin(const char *title)
{
	board_puts("TAP version 13\n# ");
	board_puts(title);
	board_puts(" known answers on " BOARD_NAME "\n");
}

void kat_put_uint(unsigned int v)
{
	char b[8], *p = b + sizeof(b) - 1;

	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	board_puts(p);
}

void kat_report(int ok, const char *name_P)
{
	char c;

	tests++;
	if (!ok)
		failed++;
	board_puts(ok ? "ok " : "not ok ");
	kat_put_uint(tests);
	board_puts(" - ");
	while ((c = (char)pgm_read_byte(name_P++)))
		board_puts((char[]){ c, 0 });
	board_puts("\n");
}

void kat_ct_fill(uint8_t *k, size_t kn, uint8_t *d, size_t dn,
		 unsigned int r)
{
	size_t i;

	for (i = 0; i < kn; i++)
		k[i] = r == 0 ? 0 : r == 1 ? 0xff : (uint8_t)(r * 73 + i * 151);
	for (i = 0; i < dn; i++)
		d[i] = r == 0 ? 0 : r == 1 ? 0xff :
			(uint8_t)(r * 29 + i * 97 + k[i % kn]);
}

int kat_same_cycles(uint16_t (*run)(const uint8_t *k, const uint8_t *d),
		    uint8_t *k, size_t kn, uint8_t *d, size_t dn,
		    uint16_t *cycles)
{
	uint16_t t;
	unsigned int r;
	int ok = 1;

	TCCR1A = 0;
	TCCR1B = 1 << CS10;
	for (r = 0; r < 8; r++) {
		kat_ct_fill(k, kn, d, dn, r);
		t = run(k, d);
		if (!r)
			*cycles = t;
		ok &= t == *cycles;
	}
	TCCR1B = 0;
	return ok;
}

size_t kat_unhex_P(uint8_t *out, const char *hex_P)
{
	size_t n = 0;
	int hi = -1, v;
	char ch;

	while ((ch = (char)pgm_read_byte(hex_P++))) {
		v = ch <= '9' ? ch - '0' : ch - 'a' + 10;
		if (hi < 0) {
			hi = v;
		} else {
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	return n;
}

void kat_end(void)
{
	board_puts("1..");
	kat_put_uint(tests);
	board_puts("\n# ");
	kat_put_uint(failed);
	board_puts(" failed\n");
	board_exit(failed > 100 ? 100 : (int)failed);
}
