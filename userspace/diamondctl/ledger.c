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

/* The highest generation recorded for @id, or -1. */
static long recorded(int fd, uint32_t id)
{
	unsigned long dev, gen;
	long best = -1;
	char line[80];
	FILE *f;
	int dup_fd = dup(fd);

	if (dup_fd < 0 || !(f = fdopen(dup_fd, "r"))) {
		if (dup_fd >= 0)
			close(dup_fd);
		return -2;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lu %lu", &dev, &gen) == 2 && dev == id &&
		    (long)gen > best)
			best = (long)gen;
	fclose(f);
	return best;
}

int ledger_take(const char *root_path, uint32_t id, long want,
		const uint8_t nonce[DIAMOND_PROV_NONCE_SIZE],
		unsigned int *gen)
{
	char path[4200], line[80];
	long have;
	int fd, n, i, rc = 0;

	ledger_path(root_path, path, sizeof(path));
	fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC | (want >= 0 ? O_CREAT : 0),
		  0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX) < 0) {
		rc = -errno;
		goto out;
	}
	have = recorded(fd, id);
	if (have < -1) {
		rc = -EIO;
		goto out;
	}
	if (want >= 0 && want <= have) {
		rc = -EEXIST;	/* that generation was used: its keys exist */
		goto out;
	}
	if (want < 0)
		want = have + 1;
	if (want > DMD_GEN_MAX) {
		rc = -EOVERFLOW;
		goto out;
	}
	n = snprintf(line, sizeof(line), "%u %ld ", (unsigned int)id, want);
	for (i = 0; i < DIAMOND_PROV_NONCE_SIZE; i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%02x",
			      nonce[i]);
	line[n++] = '\n';
	if (write(fd, line, (size_t)n) != n || fsync(fd) < 0)
		rc = errno ? -errno : -EIO;
	else
		*gen = (unsigned int)want;
out:
	close(fd);
	return rc;
}
