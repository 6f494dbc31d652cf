// SPDX-License-Identifier: GPL-2.0 OR MIT
/* diamondctl helpers: messages, parsing, files, JSON. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "diamondctl.h"

int verbosity = 1;
static const char *json_cmd;	/* set: errors are JSON lines */

void set_json_errors(const char *command)
{
	json_cmd = command;
}

const char *json_errors(void)
{
	return json_cmd;
}

void json_string(void *fp, const char *s)
{
	FILE *f = fp;

	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned int)(unsigned char)*s);
		else
			fputc(*s, f);
	}
}

void err_msg(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!json_cmd) {
		fprintf(stderr, "diamondctl: %s\n", msg);
		return;
	}
	/* One line, so a supervisor can parse stderr line by line. */
	fputs("{\"error\":\"", stderr);
	json_string(stderr, msg);
	fputs("\",\"command\":\"", stderr);
	json_string(stderr, json_cmd);
	fputs("\"}\n", stderr);
}

void note(int level, const char *fmt, ...)
{
	va_list ap;

	if (verbosity < level)
		return;
	fputs("diamondctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Decimal digits only, and no leading zero: strtoull's base 0 read
 * "010" as octal 8, and base 10 would silently read it as ten.
 */
int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	const char *p;
	char *end;

	if (!s || !*s || (s[0] == '0' && s[1]))
		return -1;
	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_id_range(const char *s, uint64_t max_count, uint32_t *first,
		   uint32_t *last)
{
	const char *dash = strchr(s, '-');
	char lo[16];
	uint64_t a, b;

	if (!dash || (size_t)(dash - s) >= sizeof(lo))
		return -1;
	memcpy(lo, s, (size_t)(dash - s));
	lo[dash - s] = 0;
	if (parse_u64(lo, UINT32_MAX, &a) || parse_u64(dash + 1, UINT32_MAX, &b) ||
	    a > b || b - a >= max_count)
		return -1;
	*first = (uint32_t)a;
	*last = (uint32_t)b;
	return 0;
}

int id_pattern_ok(const char *pat)
{
	const char *u = strstr(pat, "%u");

	return u && strchr(pat, '%') == u && !strchr(u + 2, '%');
}

void id_path(char *buf, size_t size, const char *pat, uint32_t id)
{
	const char *u = strstr(pat, "%u");

	snprintf(buf, size, "%.*s%u%s", (int)(u - pat), pat, (unsigned int)id,
		 u + 2);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long parse_hex(const char *s, uint8_t *out, size_t max)
{
	size_t n = strlen(s), i;
	int hi, lo;

	if (n % 2 || n / 2 > max)
		return -1;
	for (i = 0; i < n / 2; i++) {
		hi = hexval(s[2 * i]);
		lo = hexval(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

long read_file(const char *path, uint8_t *buf, size_t size)
{
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got < size) {
		n = read(fd, buf + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (long)got;
}

int random_bytes(uint8_t *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = getrandom(buf + got, len - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
	}
	return 0;
}

/* fsync the directory holding @path: its new name is durable. */
static int fsync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, rc = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

/* Write and fsync a new file at @path; on failure it is removed. */
static int write_fresh(const char *path, const void *data, size_t len,
		       unsigned int mode)
{
	const uint8_t *p = data;
	ssize_t n;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	while (len && !rc) {
		n = write(fd, p, len);
		if (n < 0 && errno != EINTR)
			rc = -errno;
		else if (n > 0) {
			p += n;
			len -= (size_t)n;
		}
	}
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		unlink(path);
	return rc;
}

int write_new_file(const char *path, const void *data, size_t len,
		   unsigned int mode)
{
	return write_new_files(&path, &data, &len, 1, mode);
}

/*
 * All or nothing: each file is written and fsynced under a temporary name
 * beside it, then linked to its name (link() never replaces), then the
 * temporary names go. If anything fails, every name already linked is
 * removed again, so a retry does not stop at "exists".
 */
int write_new_files(const char *const *paths, const void *const *data,
		    const size_t *lens, size_t n, unsigned int mode)
{
	char tmp[8][4200];
	size_t i, made = 0, linked = 0;
	int rc = 0;

	if (n > 8)
		return -EINVAL;
	for (i = 0; i < n && !rc; i++) {
		if ((size_t)snprintf(tmp[i], sizeof(tmp[i]), "%s.tmp.%ld",
				     paths[i], (long)getpid()) >= sizeof(tmp[i]))
			rc = -ENAMETOOLONG;
		else if (!(rc = write_fresh(tmp[i], data[i], lens[i], mode)))
			made++;
	}
	for (i = 0; i < made && !rc; i++) {
		if (link(tmp[i], paths[i]) < 0)
			rc = -errno;
		else
			linked++;
	}
	for (i = 0; i < made; i++)
		unlink(tmp[i]);
	for (i = 0; rc && i < linked; i++)
		unlink(paths[i]);
	for (i = 0; !rc && i < n; i++)
		rc = fsync_dir(paths[i]);
	return rc;
}

int parse_agg(const char *s, unsigned int *agg)
{
	if (!strcmp(s, "xor"))
		*agg = 0;
	else if (!strcmp(s, "add"))
		*agg = 1;
	else if (!strcmp(s, "hash"))
		*agg = 2;
	else
		return -1;
	return 0;
}

const char *agg_name(unsigned int agg)
{
	static const char *const names[] = { "xor", "add", "hash" };

	return agg < 3 ? names[agg] : "?";
}

/*
 * Printable ASCII (and tab) goes out as a JSON string; anything else as hex
 * with "encoding":"hex" added, so the two cannot be confused.
 */
static int printable(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((p[i] < 0x20 || p[i] > 0x7e) && p[i] != '\t')
			return 0;
	return 1;
}

void json_lost(void *fp, uint32_t dev, uint64_t epoch, uint32_t first,
	       uint32_t count)
{
	fprintf(fp, "{\"device\":%u,\"epoch\":%llu,\"event\":\"lost\","
		"\"first\":%u,\"count\":%u}\n", (unsigned int)dev,
		(unsigned long long)epoch, (unsigned int)first,
		(unsigned int)count);
}

char *json_text(void (*json)(FILE *f, const void *x), const void *x,
		size_t *len)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		return NULL;
	json(f, x);
	if (fclose(f) || !p) {
		free(p);
		return NULL;
	}
	if (n && p[n - 1] == '\n')
		n--;
	*len = n;
	return p;
}

static void hex(FILE *f, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(f, "%02x", p[i]);
}

void json_record(void *fp, uint32_t dev, uint64_t epoch, uint32_t index,
		 const uint8_t *data, size_t len, const uint8_t *ad,
		 size_t adlen)
{
	FILE *f = fp;
	size_t i;

	fprintf(f, "{\"device\":%u,\"epoch\":%llu,\"index\":%u,\"data\":\"",
		(unsigned int)dev, (unsigned long long)epoch,
		(unsigned int)index);
	if (printable(data, len)) {
		for (i = 0; i < len; i++) {
			if (data[i] == '"' || data[i] == '\\')
				fputc('\\', f);
			if (data[i] == '\t')
				fputs("\\t", f);
			else
				fputc(data[i], f);
		}
		fputc('"', f);
	} else {
		/* Marked, so hex never reads as a printable record. */
		hex(f, data, len);
		fputs("\",\"encoding\":\"hex\"", f);
	}
	/* The epoch's associated data, always hex: it is usually binary. */
	if (adlen) {
		fputs(",\"ad\":\"", f);
		hex(f, ad, adlen);
		fputc('"', f);
	}
	fputs("}\n", f);
}
