// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open --metrics: the gateway's counters in the Prometheus text
 * exposition format (version 0.0.4), for a node_exporter textfile
 * collector (a file replaced atomically) or a scraper that reads a unix
 * socket. Totals and per-device series have different metric names, so
 * summing a per-device series never counts anything twice.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "open.h"

static void head(FILE *f, const char *name, const char *type,
		 const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void total(FILE *f, const char *name, const char *type,
		  const char *help, uint64_t v)
{
	head(f, name, type, help);
	fprintf(f, "%s %llu\n", name, (unsigned long long)v);
}

#define REJECTED	((size_t)-1)	/* one line per non-zero reason */
#define FIELD(x)	offsetof(struct diamond_dev_stats, x)

/* One per-device family: @off is the counter's offset in the struct. */
struct family {
	FILE *f;
	const char *name;
	size_t off;
};

static void dev_line(void *arg, const struct diamond_dev_stats *s)
{
	const struct family *fam = arg;
	uint64_t v;

	memcpy(&v, (const uint8_t *)s + fam->off, sizeof(v));
	if (fam->off == FIELD(last_epoch) && !s->verified)
		return;		/* no epoch verified yet: no value */
	fprintf(fam->f, "%s{device=\"%u\"} %llu\n", fam->name,
		(unsigned int)s->device_id, (unsigned long long)v);
}

static void dev_rejected(void *arg, const struct diamond_dev_stats *s)
{
	FILE *f = arg;
	int r;

	for (r = 0; r < DIAMOND_REASON_COUNT; r++)
		if (s->rejected_by[r])
			fprintf(f, "diamond_device_epochs_rejected_total{device=\"%u\",reason=\"%s\"} %llu\n",
				(unsigned int)s->device_id,
				diamond_reason_name(r),
				(unsigned long long)s->rejected_by[r]);
}

static const struct dev_family {
	const char *name, *type, *help;
	size_t off;
} dev_families[] = {
	{ "diamond_device_epochs_verified_total", "counter",
	  "Epochs verified, per device.", FIELD(verified) },
	{ "diamond_device_epochs_rejected_total", "counter",
	  "Epochs rejected, per device and reason (non-zero only).", REJECTED },
	{ "diamond_device_records_total", "counter",
	  "Records delivered, per device.", FIELD(records) },
	{ "diamond_device_frames_dropped_total", "counter",
	  "Frames not used, per device.", FIELD(frames_dropped) },
	{ "diamond_device_bytes_total", "counter",
	  "Bytes of the device's frames received.", FIELD(bytes) },
	{ "diamond_device_groups_verified_total", "counter",
	  "Groups released, per grouped device.", FIELD(groups_verified) },
	{ "diamond_device_groups_rejected_total", "counter",
	  "Groups rejected or given up, per grouped device.",
	  FIELD(groups_rejected) },
	{ "diamond_device_last_epoch", "gauge",
	  "The last epoch verified, per device.", FIELD(last_epoch) },
};

static void write_metrics(FILE *f, const struct diamond_gw *gw)
{
	struct diamond_gw_stats st;
	int r;

	diamond_gw_stats(gw, &st);
	total(f, "diamond_epochs_verified_total", "counter",
	      "Epochs verified, all devices.", st.verified);
	head(f, "diamond_epochs_rejected_total", "counter",
	     "Epochs rejected, all devices, by reason.");
	for (r = 0; r < DIAMOND_REASON_COUNT; r++)
		fprintf(f, "diamond_epochs_rejected_total{reason=\"%s\"} %llu\n",
			diamond_reason_name(r),
			(unsigned long long)st.rejected_by[r]);
	total(f, "diamond_groups_verified_total", "counter",
	      "Groups of grouped devices released (final groups too).",
	      st.groups_verified);
	total(f, "diamond_groups_rejected_total", "counter",
	      "Groups rejected (bad tag) or given up (incomplete).",
	      st.groups_rejected);
	total(f, "diamond_chain_steps_total", "counter",
	      "Chain steps walked to reach units of grouped devices (their own records not counted).",
	      diamond_gw_chain_steps(gw));
	total(f, "diamond_records_total", "counter",
	      "Records delivered, all devices.", st.records);
	total(f, "diamond_frames_dropped_total", "counter",
	      "Well-formed frames not used (unknown device, stale, beyond the window or buffer).",
	      st.frames_dropped);
	total(f, "diamond_frame_errors_total", "counter",
	      "Malformed, truncated or unsynchronised input events.",
	      st.frame_errors);
	total(f, "diamond_bytes_total", "counter", "Bytes received.",
	      st.bytes);
	total(f, "diamond_open_epochs", "gauge",
	      "Epochs being assembled.", st.open_epochs);
	total(f, "diamond_buffered_bytes", "gauge",
	      "Bytes held by open epochs (at most --max-buffer).",
	      st.buffered);
	for (r = 0; r < (int)(sizeof(dev_families) / sizeof(dev_families[0])); r++) {
		const struct dev_family *df = &dev_families[r];
		struct family fam = { f, df->name, df->off };

		head(f, df->name, df->type, df->help);
		if (df->off == REJECTED)
			diamond_gw_foreach_dev(gw, dev_rejected, f);
		else
			diamond_gw_foreach_dev(gw, dev_line, &fam);
	}
}

int metrics_write_file(const struct diamond_gw *gw, const char *path)
{
	char tmp[4200];
	FILE *f;
	int rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	write_metrics(f, gw);
	if (fflush(f) || ferror(f))
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}

int metrics_listen(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	unlink(path);		/* a socket left by an earlier run */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 8) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

void metrics_serve(const struct diamond_gw *gw, int lfd)
{
	struct timeval tv = { .tv_sec = 1 };	/* a stalled scraper */
	int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	FILE *f;

	if (c < 0)
		return;
	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	f = fdopen(c, "w");
	if (!f) {
		close(c);
		return;
	}
	write_metrics(f, gw);
	fclose(f);
}
