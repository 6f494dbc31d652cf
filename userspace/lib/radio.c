// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A packet-mode device's radio configuration (spec 14.2): its address
 * width and short address, kept beside its key, never in it, as one line
 * "packet a=A addr=X" in "<id>.radio" of the state directory. The key blob
 * and its state file are untouched: renumbering a network rewrites this
 * line and the key chain goes on.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define RADIO_LINE_MAX	64

static void radio_path(struct diamond_store *store, uint32_t id, char *buf,
		       size_t size)
{
	snprintf(buf, size, "%s/%u.radio", dlib_store_dir(store),
		 (unsigned int)id);
}

static int valid(unsigned int a, uint32_t addr)
{
	return a >= 1 && a <= DMD_PKT_ADDR_MAX &&
	       (a == 4 || addr < (1u << (8 * a)));
}

/* One "packet a=A addr=X" line; -EUCLEAN for anything else. */
static int parse_line(const char *s, unsigned int *a, uint32_t *addr)
{
	unsigned int wa;
	unsigned long x;
	char end;

	if (sscanf(s, "packet a=%u addr=%lx%c", &wa, &x, &end) != 3 ||
	    end != '\n' || x > UINT32_MAX || !valid(wa, (uint32_t)x))
		return -EUCLEAN;
	*a = wa;
	*addr = (uint32_t)x;
	return 0;
}

int diamond_radio_get(struct diamond_store *store, uint32_t device_id,
		      unsigned int *a, uint32_t *addr)
{
	char path[4096], line[RADIO_LINE_MAX + 1];
	ssize_t n;
	int fd;

	radio_path(store, device_id, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, line, RADIO_LINE_MAX);
	close(fd);
	if (n < 0)
		return -errno;
	line[n] = 0;
	return parse_line(line, a, addr);
}

int diamond_radio_list(struct diamond_store *store,
		       int (*fn)(void *arg, uint32_t device_id, unsigned int a,
				 uint32_t addr),
		       void *arg)
{
	DIR *dir = opendir(dlib_store_dir(store));
	struct dirent *e;
	unsigned long id;
	uint32_t addr;
	unsigned int a;
	char *end;
	int rc = 0;

	if (!dir)
		return -errno;
	while (!rc && (e = readdir(dir))) {
		id = strtoul(e->d_name, &end, 10);
		if (end == e->d_name || strcmp(end, ".radio") || id > UINT32_MAX)
			continue;
		if (diamond_radio_get(store, (uint32_t)id, &a, &addr) == 0)
			rc = fn(arg, (uint32_t)id, a, addr);
	}
	closedir(dir);
	return rc;
}

struct clash {
	uint32_t id, addr;
	unsigned int a;
};

/* Do the two addresses' bytes on the air begin one another (le)? */
static int prefix_clash(void *arg, uint32_t id, unsigned int a, uint32_t addr)
{
	const struct clash *c = arg;
	unsigned int w = a < c->a ? a : c->a;
	uint32_t mask = w == 4 ? UINT32_MAX : (1u << (8 * w)) - 1;

	if (id == c->id)
		return 0;
	return (addr & mask) == (c->addr & mask) ? -EADDRINUSE : 0;
}

int diamond_radio_free(struct diamond_store *store, uint32_t device_id,
		       unsigned int a, uint32_t addr)
{
	struct clash c = { .id = device_id, .addr = addr, .a = a };

	if (!store || !valid(a, addr))
		return -EINVAL;
	return diamond_radio_list(store, prefix_clash, &c);
}

int diamond_radio_set(struct diamond_store *store, uint32_t device_id,
		      unsigned int a, uint32_t addr)
{
	char path[4096], line[RADIO_LINE_MAX];
	struct dlib_pstate ps;
	int rc, n;

	if (!store || !valid(a, addr))
		return -EINVAL;
	/* The key must be one packet mode accepts (spec 14.2). */
	rc = dlib_store_load_pkt(store, device_id, &ps);
	dmd_wipe(&ps, sizeof(ps));
	if (rc)
		return rc;
	rc = diamond_radio_free(store, device_id, a, addr);
	if (rc)
		return rc;
	n = snprintf(line, sizeof(line), "packet a=%u addr=%x\n", a,
		     (unsigned int)addr);
	radio_path(store, device_id, path, sizeof(path));
	return diamond_file_replace(path, line, (size_t)n, 0600);
}
