/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Records of "name = value" lines, blank-line separated, "#" comments: the
 * format of vectors/packet.txt (spec section 14.8). Header-only, for one
 * test program each (test_packet, diamond_grid): kv_open() the file, then
 * rec_next() until it returns 0; get_nth() finds a field's k-th value.
 */
#ifndef DIAMOND_KVREC_H
#define DIAMOND_KVREC_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 256
#define MAX_HEX 2048

struct field {
	char name[16];
	char *value;
};

struct rec {
	struct field f[MAX_FIELDS];
	unsigned int n;
};

static struct rec cur;
static FILE *vf;

static inline void rec_clear(void)
{
	unsigned int i;

	for (i = 0; i < cur.n; i++)
		free(cur.f[i].value);
	cur.n = 0;
}

/* The next record: its "name = value" lines until a blank line. */
static inline int rec_next(void)
{
	static char line[16384];
	char *eq, *v, *e;
	size_t n;

	rec_clear();
	while (fgets(line, sizeof(line), vf)) {
		n = strlen(line);
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (line[0] == '#')
			continue;
		if (!n) {
			if (cur.n)
				return 1;
			continue;
		}
		eq = strchr(line, '=');
		if (!eq || cur.n == MAX_FIELDS)
			return -1;
		for (e = eq; e > line && e[-1] == ' '; e--)
			;
		*e = 0;
		for (v = eq + 1; *v == ' '; v++)
			;
		snprintf(cur.f[cur.n].name, sizeof(cur.f[cur.n].name), "%s",
			 line);
		cur.f[cur.n++].value = strdup(v);
	}
	return cur.n ? 1 : 0;
}

/* The @k-th (from 0) value of field @name, or NULL. */
static inline const char *get_nth(const char *name, unsigned int k)
{
	unsigned int i;

	for (i = 0; i < cur.n; i++)
		if (!strcmp(cur.f[i].name, name) && !k--)
			return cur.f[i].value;
	return NULL;
}

static inline const char *get(const char *name)
{
	return get_nth(name, 0);
}

static inline size_t unhex(uint8_t *out, size_t cap, const char *s)
{
	size_t n = 0;
	unsigned int b;

	while (s[0] && s[1] && n < cap && sscanf(s, "%2x", &b) == 1) {
		out[n++] = (uint8_t)b;
		s += 2;
	}
	return n;
}

static inline int kv_open(const char *path)
{
	vf = fopen(path, "r");
	return vf ? 0 : -1;
}

#endif
