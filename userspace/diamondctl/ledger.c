// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The provisioning ledger: "ROOT.generations" beside a root secret, one
 * "DEVICE GENERATION N" line per provisioning (N the provisioning's fresh
 * value in hex; lines of older ledgers have no N). Each provisioning of an
 * ID takes a generation no earlier one used, so generations stay in
 * order; the keys never repeat even when the ledger is lost or restored,
 * because N enters E_0 (spec section 2), and N here lets ROOT recompute
 * them. The ledger is read, extended and fsynced under an exclusive
 * flock(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "diamondctl.h"

void ledger_path(const char *root_path, char *buf, size_t size)
{
	snprintf(buf, size, "%s.generations", root_path);
}

/*
 * The highest generation recorded for each device @first..@first + @n - 1
 * into @best (-1: none), from one pass over the ledger. 0 or -EIO.
 */
static int recorded(int fd, uint32_t first, size_t n, long *best)
{
	unsigned long dev, gen;
	char line[80];
	size_t i;
	FILE *f;
	int dup_fd = dup(fd);

	if (dup_fd < 0 || !(f = fdopen(dup_fd, "r"))) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -EIO;
	}
	for (i = 0; i < n; i++)
		best[i] = -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lu %lu", &dev, &gen) == 2 && dev >= first &&
		    dev - first < n && (long)gen > best[dev - first])
			best[dev - first] = (long)gen;
	fclose(f);
	return 0;
}

/* The generation device @first + @i takes, into gens[@i]; 0 or -errno. */
static int next_gen(const long *best, size_t i, long want, unsigned int *gens)
{
	long g = want >= 0 ? want : best[i] + 1;

	if (want >= 0 && want <= best[i])
		return -EEXIST;	/* that generation was used: its keys exist */
	if (g > DMD_GEN_MAX)
		return -EOVERFLOW;
	gens[i] = (unsigned int)g;
	return 0;
}

/* The ledger lines of @n devices, appended in one write, fsynced. */
static int append(int fd, uint32_t first, size_t n, const unsigned int *gens,
		  const uint8_t *nonces)
{
	size_t i, at = 0, cap = n * (24 + 2 * DIAMOND_PROV_NONCE_SIZE);
	char *buf = malloc(cap);
	int j, rc = 0;
	ssize_t w;

	if (!buf)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		at += (size_t)snprintf(buf + at, cap - at, "%u %u ",
				       (unsigned int)(first + i), gens[i]);
		for (j = 0; j < DIAMOND_PROV_NONCE_SIZE; j++)
			at += (size_t)snprintf(buf + at, cap - at, "%02x",
					       nonces[i * DIAMOND_PROV_NONCE_SIZE + (size_t)j]);
		buf[at++] = '\n';
	}
	for (i = 0; i < at && !rc; i += (size_t)w) {
		w = write(fd, buf + i, at - i);
		if (w < 0 && errno == EINTR)
			w = 0;
		else if (w <= 0)
			rc = w < 0 ? -errno : -EIO;
	}
	free(buf);
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	return rc;
}

int ledger_take_range(const char *root_path, uint32_t first, size_t n,
		      long want, const uint8_t *nonces, unsigned int *gens,
		      uint32_t *at)
{
	char path[4200];
	long *best = calloc(n, sizeof(*best));
	size_t i;
	int fd, rc;

	*at = first;
	if (!best)
		return -ENOMEM;
	ledger_path(root_path, path, sizeof(path));
	fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC | (want >= 0 ? O_CREAT : 0),
		  0600);
	if (fd < 0) {
		free(best);
		return -errno;
	}
	rc = flock(fd, LOCK_EX) < 0 ? -errno : recorded(fd, first, n, best);
	for (i = 0; i < n && !rc; i++) {
		rc = next_gen(best, i, want, gens);
		*at = first + (uint32_t)i;
	}
	if (!rc)
		rc = append(fd, first, n, gens, nonces);
	close(fd);
	free(best);
	return rc;
}

int ledger_take(const char *root_path, uint32_t id, long want,
		const uint8_t nonce[DIAMOND_PROV_NONCE_SIZE],
		unsigned int *gen)
{
	uint32_t at;

	return ledger_take_range(root_path, id, 1, want, nonce, gen, &at);
}
