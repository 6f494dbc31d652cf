// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fuzz targets' state directory (fixture.h). Reset before every input:
 * a target must see the same world each run, or a crash found after a
 * million inputs would not reproduce from its one input.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"

static const uint8_t root[DIAMOND_ROOT_SIZE] = "diamond fuzz fixture root 32 B!";

void fx_params(uint32_t id, struct diamond_params *p)
{
	static const struct diamond_params dev[FX_DEVICES] = {
		{ .suite = 1, .agg = 0, .b = 8, .device_id = 1 },
		{ .suite = 2, .agg = 1, .b = 8, .device_id = 2, .group_size = 3 },
		{ .suite = 2, .agg = 2, .b = 600, .device_id = 3, .group_size = 1 },
	};

	*p = dev[(id - 1) % FX_DEVICES];
}

size_t fx_blob(uint32_t id, uint8_t blob[DIAMOND_BLOB_MAX])
{
	struct diamond_params p;
	size_t len = 0;

	fx_params(id, &p);
	if (diamond_provision(root, &p, blob, &len))
		abort();	/* the fixture itself is wrong */
	return len;
}

int fx_write(const char *path, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = len ? write(fd, p, len) : 0;
	close(fd);
	return w == (ssize_t)len ? 0 : -EIO;
}

/* Remove every regular file in @dir (not recursive). */
static void empty_dir(const char *dir)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' || strcmp(e->d_name, ".lock") == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
}

int fx_reset(const char *dir)
{
	struct diamond_store *st;
	uint8_t blob[DIAMOND_BLOB_MAX];
	char sub[4096];
	uint32_t id;
	int rc;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	snprintf(sub, sizeof(sub), "%s/spool", dir);
	empty_dir(sub);
	snprintf(sub, sizeof(sub), "%s/quarantine", dir);
	empty_dir(sub);
	empty_dir(dir);
	rc = diamond_store_open(&st, dir, 0);
	if (rc)
		return rc;
	for (id = 1; !rc && id <= FX_DEVICES; id++)
		rc = diamond_store_create(st, blob, fx_blob(id, blob));
	diamond_store_close(st);
	return rc;
}

/* At exit: the directory goes (a crash leaves it for the post-mortem). */
static void remove_dir(void)
{
	char sub[4096];
	const char *dir = fx_dir();

	snprintf(sub, sizeof(sub), "%s/spool", dir);
	empty_dir(sub);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/quarantine", dir);
	empty_dir(sub);
	rmdir(sub);
	empty_dir(dir);
	rmdir(dir);
}

const char *fx_dir(void)
{
	static char dir[256];
	const char *base = getenv("TMPDIR");

	if (dir[0])
		return dir;
	/* tmpfs when there is one: a reset per input costs no disk I/O. */
	if (!base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof(dir), "%s/diamond-fuzz.XXXXXX", base);
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	return dir;
}

/* Append frame @f (length @n, or an error) to @out; 0 if it does not fit. */
static int put(uint8_t *out, size_t cap, size_t *len, const uint8_t *f,
	       int n)
{
	if (n < 0 || *len + (size_t)n > cap)
		return 0;
	memcpy(out + *len, f, (size_t)n);
	*len += (size_t)n;
	return 1;
}

size_t fx_seal(uint32_t id, unsigned int epochs, unsigned int per,
	       size_t adlen, uint8_t *out, size_t cap)
{
	static uint8_t frame[DIAMOND_FRAME_MAX + DIAMOND_MAX_AD];
	uint8_t blob[DIAMOND_BLOB_MAX], ad[DIAMOND_MAX_AD];
	char dir[] = "/tmp/diamond-seal.XXXXXX", path[64], rec[32];
	struct diamond_sender *s;
	unsigned int e, j;
	size_t len = 0, blen = fx_blob(id, blob);
	int full, ok = 1, n;

	memset(ad, 0xad, sizeof(ad));
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/blob", dir);
	if (fx_write(path, blob, blen) || diamond_sender_open(&s, path))
		abort();
	for (e = 0; ok && e < epochs; e++) {
		for (j = 0; ok && j < per; j++) {
			n = e % 2 && !j ? 0 :
			    snprintf(rec, sizeof(rec), "e%ur%u", e, j);
			ok = put(out, cap, &len, frame,
				 diamond_sender_seal(s, (uint8_t *)rec,
						     (size_t)n, frame, &full));
			n = diamond_sender_close_group(s, ad, adlen, frame);
			if (ok && n)
				ok = put(out, cap, &len, frame, n);
		}
		n = diamond_sender_close_epoch(s, ad, adlen, frame);
		ok = ok && put(out, cap, &len, frame, n);
	}
	diamond_sender_free(s);
	unlink(path);
	snprintf(path, sizeof(path), "%s/blob.lock", dir);
	unlink(path);
	rmdir(dir);
	return ok ? len : 0;
}
