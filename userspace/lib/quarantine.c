// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The quarantine, @state_dir/quarantine/: the frames of each rejected
 * epoch that its sender closed (a tag frame arrived; for a grouped device,
 * an epoch with a group rejected and a group tag frame held) in a frame
 * file of its own, named <seq>-<device>-<epoch>-<reason>.frames, for
 * inspection or to be fed again (diamondctl open --input). Epochs without
 * a tag are typically junk or lost and are only counted. Past
 * quarantine_max bytes or QUARANTINE_FILES files the lowest sequence
 * numbers are removed, down to 7/8 of either limit so that removal scans
 * stay rare. Quarantine files are not fsync'd: they are for inspection, a
 * flood of rejections must not become a flood of disk flushes.
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

#include "internal.h"

#define QUARANTINE_FILES	4096

/* ---- quarantine ------------------------------------------------------ */

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_qfile(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 7 && !strcmp(e->d_name + n - 7, ".frames");
}

/*
 * Sum the files and find the next sequence number; remove the oldest
 * until at most @keep bytes in @keep_files files remain.
 */
static void scan(struct diamond_gw *gw, size_t keep, size_t keep_files)
{
	struct dirent **list;
	struct stat sb;
	int i, n = scandir(gw->qdir, &list, is_qfile, by_name);
	size_t total = 0, files = n > 0 ? (size_t)n : 0;
	uint64_t seq;
	int dfd = open(gw->qdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	for (i = 0; i < n; i++)
		if (dfd >= 0 && fstatat(dfd, list[i]->d_name, &sb, 0) == 0)
			total += (size_t)sb.st_size;
	for (i = 0; i < n; i++) {
		seq = strtoull(list[i]->d_name, NULL, 10) + 1;
		if (seq > gw->qseq)
			gw->qseq = seq;
		if ((total > keep || files > keep_files) && dfd >= 0 &&
		    fstatat(dfd, list[i]->d_name, &sb, 0) == 0 &&
		    unlinkat(dfd, list[i]->d_name, 0) == 0) {
			total -= (size_t)sb.st_size;
			files--;
		}
		free(list[i]);
	}
	if (n > 0)
		free(list);
	if (dfd >= 0)
		close(dfd);
	gw->qused = total;
	gw->qfiles = files;
}

int dlib_quarantine_open(struct diamond_gw *gw, const char *state_dir,
			 size_t max)
{
	char path[4096];
	int rc = dlib_make_dir(path, sizeof(path), state_dir, "quarantine");

	if (rc) {
		snprintf(gw->detail, sizeof(gw->detail), "quarantine %s", path);
		return rc;
	}
	gw->qdir = strdup(path);
	if (!gw->qdir)
		return -ENOMEM;
	gw->qmax = max;
	scan(gw, max, QUARANTINE_FILES);
	return 0;
}

void dlib_quarantine(struct diamond_gw *gw, const struct dlib_ep *ep,
		     int err)
{
	char path[4400], tmp[4408];
	struct stat sb;
	int fd, rc;

	if (!gw->qdir || (!ep->tag.have && !ep->gtag))
		return;
	snprintf(path, sizeof(path), "%s/%010llu-%u-%llu-%s.frames", gw->qdir,
		 (unsigned long long)gw->qseq++, (unsigned int)ep->dev->id,
		 (unsigned long long)ep->epoch,
		 diamond_reason_name(diamond_reason(err)));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	rc = dlib_ep_frames(ep, dlib_emit_fd, &fd);
	if (!rc && fstat(fd, &sb) < 0)
		rc = -errno;
	close(fd);
	if (rc || rename(tmp, path) < 0) {
		unlink(tmp);
		return;
	}
	gw->qused += (size_t)sb.st_size;
	gw->qfiles++;
	if (gw->qused > gw->qmax || gw->qfiles > QUARANTINE_FILES)
		scan(gw, gw->qmax / 8 * 7, QUARANTINE_FILES / 8 * 7);
}
