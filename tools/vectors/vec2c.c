// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vec2c: turn selected records of vectors/diamond.txt into the C header the
 * kernel module's init-time selftest is built from (kernel/diamond_kat.h).
 *
 *   vec2c VECFILE [NAME...]              header on stdout
 *   vec2c --check HEADER VECFILE [NAME...]
 *                                        regenerate and compare with HEADER;
 *                                        exit 0 if identical, 1 otherwise
 *
 * Without NAMEs the default selection below is used: a few positive and
 * negative vectors of both suites and all three aggregation modes, kept
 * small (the header is compiled into diamond.ko).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "same-file.h"

#include "lib/vecfile.h"

static const char *const default_names[] = {
	"d1-xor-b1-len1-ad",	"d1-add-b1-len17",	 "d1-hash-b2",
	"d1-xor-b2",		"d1-xor-tamper-tag",	 "d1-xor-replayed",
	"d1-xor-wrong-epoch",	"d1-xor-far-future",	 "d1-xor-too-many-records",
	"d2-xor-b1-len1-ad",	"d2-add-b1-len17",	 "d2-hash-b2",
	"d2-xor-b2",		"d2-xor-tamper-tag",	 "d2-xor-replayed",
	"d2-xor-wrong-epoch",	"d2-xor-far-future",	 "d2-xor-too-many-records",
	/* the order of checks (spec 9.2), the tag never parsed (spec 7) */
	"d1-xor-last-epoch",	"d1-xor-order-epoch-before-body",
	"d1-xor-tag-not-parsed",
	"d2-xor-last-epoch",	"d2-xor-order-epoch-before-body",
	"d2-xor-tag-not-parsed",
	/* an open-only key opens and never seals (spec 2) */
	"d1-xor-open-only",
};

#define BYTES_PER_LINE 16

/* The kernel errno a step expects, as C source. */
static const char *expect_errno(const char *expect)
{
	static const struct {
		const char *name, *code;
	} map[] = {
		{ "ok", "0" },
		{ "EBADMSG", "-EBADMSG" },
		{ "EKEYEXPIRED", "-EKEYEXPIRED" },
		{ "ESKIP", "-ERANGE" },
		{ "EFORMAT", "-EINVAL" },
		{ "ESIZE", "-EMSGSIZE" },
		{ "EFULL", "-ENOSPC" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].name, expect))
			return map[i].code;
	return NULL;
}

/* A byte string as a C string literal cast to const u8 *, or NULL. */
static void emit_bytes(FILE *out, const char *indent, const struct vec_buf *b)
{
	size_t i;

	if (!b->len) {
		fprintf(out, "NULL");
		return;
	}
	fprintf(out, "(const u8 *)");
	for (i = 0; i < b->len; i++) {
		if (i % BYTES_PER_LINE == 0)
			fprintf(out, "%s\n%s\"", i ? "\"" : "", indent);
		fprintf(out, "\\x%02x", b->p[i]);
	}
	fprintf(out, "\"");
}

static void emit_prologue(FILE *out)
{
	fprintf(out,
		"/* SPDX-License-Identifier: GPL-2.0 */\n"
		"/*\n"
		" * Known answers for the diamond.ko init-time selftest, selected from\n"
		" * vectors/diamond.txt by tools/vectors/vec2c. Generated: do not edit;\n"
		" * `make kernel-kat-header` regenerates it, `make check-vectors-kat`\n"
		" * checks it.\n"
		" */\n"
		"#ifndef DIAMOND_KAT_H\n"
		"#define DIAMOND_KAT_H\n"
		"\n"
		"#include <linux/errno.h>\n"
		"#include <linux/types.h>\n"
		"\n"
		"struct diamond_kat_step {\n"
		"\tu64 epoch;\n"
		"\tconst u8 *ad, *pt, *ct, *next;\n"
		"\tunsigned int adlen, ptlen, ctlen, nextlen;\n"
		"\tint expect;\t/* 0 or the negative errno of decrypt */\n"
		"};\n"
		"\n"
		"struct diamond_kat {\n"
		"\tconst char *name;\n"
		"\tconst u8 *key;\n"
		"\tunsigned int keylen, nsteps;\n"
		"\tconst struct diamond_kat_step *steps;\n"
		"};\n");
}

static int emit_vector(FILE *out, unsigned int idx, const struct vec *v)
{
	const struct vec_step *s;
	const char *code;
	unsigned int i;

	fprintf(out, "\n/* %s */\n", v->name);
	fprintf(out, "static const struct diamond_kat_step diamond_kat_%u[] = {\n",
		idx);
	for (i = 0; i < v->nsteps; i++) {
		s = &v->step[i];
		code = expect_errno(s->expect);
		if (!code) {
			fprintf(stderr, "vec2c: %s: unknown expect '%s'\n",
				v->name, s->expect);
			return -1;
		}
		fprintf(out, "\t{\n\t\t.epoch = %lluULL,\n",
			(unsigned long long)s->epoch);
		fprintf(out, "\t\t.ad = ");
		emit_bytes(out, "\t\t\t", &s->ad);
		fprintf(out, ",\n\t\t.adlen = %zu,\n\t\t.pt = ", s->ad.len);
		emit_bytes(out, "\t\t\t", &s->pt);
		fprintf(out, ",\n\t\t.ptlen = %zu,\n\t\t.ct = ", s->pt.len);
		emit_bytes(out, "\t\t\t", &s->ct);
		fprintf(out, ",\n\t\t.ctlen = %zu,\n\t\t.next = ", s->ct.len);
		emit_bytes(out, "\t\t\t", &s->next);
		fprintf(out, ",\n\t\t.nextlen = %zu,\n", s->next.len);
		fprintf(out, "\t\t.expect = %s,\n\t},\n", code);
	}
	fprintf(out, "};\n");
	return 0;
}

static int selected(const char *name, char **names, int nnames)
{
	size_t i;
	int j;

	if (nnames) {
		for (j = 0; j < nnames; j++)
			if (!strcmp(names[j], name))
				return 1;
		return 0;
	}
	for (i = 0; i < sizeof(default_names) / sizeof(default_names[0]); i++)
		if (!strcmp(default_names[i], name))
			return 1;
	return 0;
}

struct emitted {
	char name[64];
	unsigned int nsteps;
};

static void emit_key(FILE *out, unsigned int idx, const struct vec_buf *key)
{
	size_t i;

	fprintf(out, "\nstatic const u8 diamond_kat_%u_key[] = {", idx);
	for (i = 0; i < key->len; i++)
		fprintf(out, "%s0x%02x,", i % 12 ? " " : "\n\t", key->p[i]);
	fprintf(out, "\n};\n");
}

static int generate(FILE *out, const char *path, char **names, int nnames)
{
	struct vec_file *vf = vec_open(path);
	struct emitted *table = NULL, *grown;
	const struct vec *v;
	unsigned int n = 0, i;
	int rc = 0;

	if (!vf)
		return -1;
	emit_prologue(out);
	while ((v = vec_next(vf))) {
		if (!selected(v->name, names, nnames))
			continue;
		grown = realloc(table, (n + 1) * sizeof(*table));
		if (!grown || emit_vector(out, n, v)) {
			table = grown ? grown : table;
			rc = -1;
			break;
		}
		table = grown;
		emit_key(out, n, &v->key);
		snprintf(table[n].name, sizeof(table[n].name), "%s", v->name);
		table[n].nsteps = v->nsteps;
		n++;
	}
	vec_close(vf);
	if (!rc && !n) {
		fprintf(stderr, "vec2c: no vector selected\n");
		rc = -1;
	}
	if (!rc) {
		fprintf(out, "\nstatic const struct diamond_kat diamond_kats[] = {\n");
		for (i = 0; i < n; i++)
			fprintf(out,
				"\t{ \"%s\", diamond_kat_%u_key,\n"
				"\t  sizeof(diamond_kat_%u_key), %u, diamond_kat_%u },\n",
				table[i].name, i, i, table[i].nsteps, i);
		fprintf(out, "};\n\n#endif /* DIAMOND_KAT_H */\n");
	}
	free(table);
	return rc;
}

/* What check() hands same_file() for generate(). */
struct gen_args {
	const char *path;
	char **names;
	int nnames;
};

static int generate_args(FILE *out, const void *ctx)
{
	const struct gen_args *a = ctx;

	return generate(out, a->path, a->names, a->nnames);
}

static int check(const char *header, const char *path, char **names,
		 int nnames)
{
	const struct gen_args a = { path, names, nnames };

	return same_file("vec2c", header, path, generate_args, &a);
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "--check"))
		return check(argv[2], argv[3], argv + 4, argc - 4);
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr,
			"usage: vec2c VECFILE [NAME...]\n"
			"       vec2c --check HEADER VECFILE [NAME...]\n");
		return 2;
	}
	return generate(stdout, argv[1], argv + 2, argc - 2) ? 1 : 0;
}
