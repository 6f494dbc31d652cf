// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Reader for the known-answer vector file format (spec section 13). */
#define _POSIX_C_SOURCE 200809L
#include "vecfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <diamond/spec.h>

struct vec_file {
	FILE *f;
	char *line;
	size_t cap;
	struct vec cur;
	int pending;	/* a "name" line was read ahead */
	int groups;	/* return grouped vectors too */
	char pending_name[64];
};

struct vec_file *vec_open(const char *path)
{
	struct vec_file *vf = calloc(1, sizeof(*vf));

	if (!vf)
		return NULL;
	vf->f = fopen(path, "r");
	if (!vf->f) {
		perror(path);
		free(vf);
		return NULL;
	}
	return vf;
}

struct vec_file *vec_open_groups(const char *path)
{
	struct vec_file *vf = vec_open(path);

	if (vf)
		vf->groups = 1;
	return vf;
}

static void buf_free(struct vec_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = 0;
}

static void vec_clear(struct vec *v)
{
	unsigned int i;

	buf_free(&v->key);
	for (i = 0; i < v->nsteps; i++) {
		buf_free(&v->step[i].ad);
		buf_free(&v->step[i].pt);
		buf_free(&v->step[i].ct);
		buf_free(&v->step[i].next);
	}
	memset(v, 0, sizeof(*v));
}

static int unhex(struct vec_buf *b, const char *s)
{
	size_t n = strlen(s), i;
	unsigned int x;

	if (n % 2)
		return -1;
	b->len = n / 2;
	b->p = malloc(b->len + 1);
	if (!b->p)
		return -1;
	for (i = 0; i < b->len; i++) {
		if (sscanf(s + 2 * i, "%2x", &x) != 1)
			return -1;
		b->p[i] = (uint8_t)x;
	}
	return 0;
}

/* Split "name = value" in place; returns 0 for a field line. */
static int field(char *line, char **name, char **value)
{
	char *eq = strchr(line, '=');
	char *end;

	if (line[0] == '#' || !eq)
		return -1;
	*eq = 0;
	*name = line;
	end = eq;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = 0;
	*value = eq + 1;
	while (**value == ' ')
		(*value)++;
	end = *value + strlen(*value);
	while (end > *value && (end[-1] == '\n' || end[-1] == '\r' ||
				end[-1] == ' '))
		*--end = 0;
	return 0;
}

static int set_field(struct vec *v, const char *name, const char *value)
{
	struct vec_step *s = v->nsteps ? &v->step[v->nsteps - 1] : NULL;

	if (!strcmp(name, "key"))
		return unhex(&v->key, value);
	if (!strcmp(name, "g") && !v->nsteps) {
		v->g = (uint32_t)strtoul(value, NULL, 10);
		return v->g ? 0 : -1;
	}
	if (!strcmp(name, "epoch")) {
		if (v->nsteps == VEC_MAX_STEPS)
			return -1;
		v->step[v->nsteps++].epoch = strtoull(value, NULL, 10);
		return 0;
	}
	if (!s)
		return -1;
	if (!strcmp(name, "ad"))
		return unhex(&s->ad, value);
	if (!strcmp(name, "pt"))
		return unhex(&s->pt, value);
	if (!strcmp(name, "ct"))
		return unhex(&s->ct, value);
	if (!strcmp(name, "next"))
		return unhex(&s->next, value);
	if (!strcmp(name, "group") && v->g) {
		s->group = (uint32_t)strtoul(value, NULL, 10);
		return 0;
	}
	if (!strcmp(name, "count") && v->g) {
		s->count = (uint32_t)strtoul(value, NULL, 10);
		return s->count ? 0 : -1;
	}
	if (!strcmp(name, "expect")) {
		snprintf(s->expect, sizeof(s->expect), "%s", value);
		return 0;
	}
	return -1;
}

static const struct vec *read_vec(struct vec_file *vf)
{
	struct vec *v = &vf->cur;
	char *name, *value;
	int have = 0;

	vec_clear(v);
	if (vf->pending) {
		snprintf(v->name, sizeof(v->name), "%s", vf->pending_name);
		vf->pending = 0;
		have = 1;
	}
	while (getline(&vf->line, &vf->cap, vf->f) > 0) {
		if (field(vf->line, &name, &value))
			continue;
		if (!strcmp(name, "name")) {
			if (have) {
				snprintf(vf->pending_name,
					 sizeof(vf->pending_name), "%s", value);
				vf->pending = 1;
				return v;
			}
			snprintf(v->name, sizeof(v->name), "%s", value);
			have = 1;
			continue;
		}
		if (!have || set_field(v, name, value)) {
			fprintf(stderr, "vecfile: bad line '%s' in %s\n", name,
				v->name);
			return NULL;
		}
	}
	return have ? v : NULL;
}

const struct vec *vec_next(struct vec_file *vf)
{
	const struct vec *v;

	while ((v = read_vec(vf)) && v->g && !vf->groups)
		;
	return v;
}

void vec_close(struct vec_file *vf)
{
	if (!vf)
		return;
	vec_clear(&vf->cur);
	free(vf->line);
	fclose(vf->f);
	free(vf);
}

int vec_expect_code(const char *expect)
{
	static const struct {
		const char *name;
		int code;
	} map[] = {
		{ "ok", DMD_OK },	      { "EBADMSG", DMD_EBADMSG },
		{ "EKEYEXPIRED", DMD_EEXPIRED }, { "ESKIP", DMD_ESKIP },
		{ "EFORMAT", DMD_EFORMAT },   { "ESIZE", DMD_ESIZE },
		{ "EFULL", DMD_EFULL },	      { "EKEY", DMD_EKEY },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].name, expect))
			return map[i].code;
	return 1;
}

int vec_code_errno(int code)
{
	switch (code) {
	case DMD_OK:
		return 0;
	case DMD_ESIZE:
		return -EMSGSIZE;
	case DMD_EFULL:
		return -ENOSPC;
	case DMD_EBADMSG:
		return -EBADMSG;
	case DMD_EEXPIRED:
		return -EKEYEXPIRED;
	case DMD_ESKIP:
		return -ERANGE;
	default:		/* EINVAL, EKEY, EFORMAT, ESPACE */
		return -EINVAL;
	}
}

int vec_expect_errno(const char *expect)
{
	int code = vec_expect_code(expect);

	return code == 1 ? 1 : vec_code_errno(code);
}
