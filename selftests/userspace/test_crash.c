// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Crash test for the gateway's state: many runs of `diamondctl open
 * --software`, each fed the next epochs of several devices mixed with
 * replays, forged and incomplete epochs, and most killed with SIGKILL after
 * a random delay. After every run:
 *
 *   - every state file loads (zero corrupted state files);
 *   - every delivered record is the true plaintext (zero accepted forgeries);
 *   - no epoch is delivered twice across runs, and no state moves backwards
 *     (no old state came back);
 *   - each device's state epoch is above every epoch the run reported as
 *     verified (zero verified epochs lost) and at most one past the last
 *     epoch it was fed (never beyond what was available).
 *
 * Custody (CRASH_CUSTODY=1, issue 34 item 5; in a VM with diamond.ko
 * loaded, as root): the devices are provisioned into a root-only key
 * directory and every run is the service's start, `diamondctl keys load
 * --keys KEYS --state-dir STATE --user 65534:65534 [--wrap-states] --
 * diamondctl open --custody ...`, so a kill lands in the loader (its
 * keyring adds, its exports and state writes with --wrap-states) or in
 * the unprivileged ingest (its setkeys by reference or of wrapped states,
 * opens, exports and state writes). The state files are wrapped
 * (version 4): their clear header gives the epoch, and every one must
 * still parse. Every CRASH_RELOAD runs (default 10) diamond.ko is
 * unloaded and loaded again, which ends every key, tfm and precompute of
 * the kernel: the next run's loader adds the keys again, as after a
 * reboot. The last run is never killed, and it must deliver the next
 * epoch of every device, so every state file also opens in the module.
 *
 * usage: test_crash WORKDIR   (DIAMONDCTL: the diamondctl binary;
 * CRASH_RUNS: runs, default 200)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <diamond/core.h>
#include <diamond/libdiamond.h>

#include "../../userspace/lib/internal.h"
#include "tap.h"

#define NDEV		4
#define B		4
#define EPOCHS		1200	/* sealed per device, more than runs * K */
#define K		5	/* new epochs fed per device per run */

struct epoch_frames {
	uint8_t *real, *forged, *incomplete;
	size_t real_len, forged_len, incomplete_len;
};

static struct epoch_frames ef[NDEV][EPOCHS];
static uint8_t delivered[NDEV][EPOCHS];
static const uint32_t dev_ids[NDEV] = { 3, 1000, 77777, 4000000000u };
static const uint8_t dev_suite[NDEV] = { 1, 2, 1, 2 };
static const uint8_t dev_agg[NDEV] = { 0, 1, 2, 0 };

static void append(uint8_t **buf, size_t *len, const uint8_t *p, size_t n)
{
	*buf = realloc(*buf, *len + n);
	memcpy(*buf + *len, p, n);
	*len += n;
}

static void record_text(char *out, size_t size, int d, uint64_t e, uint32_t j)
{
	snprintf(out, size, "dev%u-e%llu-r%u", (unsigned int)dev_ids[d],
		 (unsigned long long)e, (unsigned int)j);
}

/* Seal EPOCHS epochs per device with the core; keep real, forged and
 * incomplete frame sequences per epoch. */
static int make_frames(const char *dir)
{
	static uint8_t win[1], frame[DIAMOND_FRAME_MAX + 64];
	struct diamond_store *st;
	struct dmd_sender s;
	struct dmd_state state;
	struct diamond_frame f;
	uint8_t root[32], blob[DIAMOND_BLOB_MAX], ct[64], tag[16];
	char text[64];
	uint32_t j, n;
	int d, e, w;

	(void)win;
	memset(root, 0xc3, sizeof(root));
	if (diamond_store_open(&st, dir, DIAMOND_STORE_CREATE))
		return -1;
	for (d = 0; d < NDEV; d++) {
		memset(&state, 0, sizeof(state));
		state.suite = dev_suite[d];
		state.agg = dev_agg[d];
		state.b = B;
		state.device_id = dev_ids[d];
		dmd_derive_initial(&state, root);
		dmd_blob_write(blob, &state);
		if (diamond_store_create(st, blob, dmd_blob_size(state.suite)))
			return -1;
		dmd_sender_init(&s, &state, NULL, 0, 0);
		for (e = 0; e < EPOCHS; e++) {
			struct epoch_frames *x = &ef[d][e];
			uint32_t nrec = 1 + (uint32_t)(e % B);

			dmd_sender_begin(&s, NULL);
			for (j = 0; j < nrec; j++) {
				record_text(text, sizeof(text), d, (uint64_t)e, j);
				dmd_sender_seal(&s, (uint8_t *)text, strlen(text), ct, NULL);
				f = (struct diamond_frame){ DIAMOND_FRAME_RECORD,
					dev_suite[d], dev_ids[d], (uint64_t)e,
					(uint16_t)j, (uint16_t)strlen(text), ct };
				w = diamond_frame_write(frame, sizeof(frame), &f);
				append(&x->real, &x->real_len, frame, (size_t)w);
				if (j + 1 < nrec || nrec == 1)
					append(&x->incomplete, &x->incomplete_len,
					       frame, (size_t)w);
				/* The forgery flips a ciphertext bit of the
				 * last record: a different plaintext. */
				if (j + 1 == nrec)
					frame[DIAMOND_FRAME_HDR + 3] ^= 0x20;
				append(&x->forged, &x->forged_len, frame, (size_t)w);
			}
			dmd_sender_close(&s, NULL, 0, tag, &n);
			f = (struct diamond_frame){ DIAMOND_FRAME_TAG, dev_suite[d],
				dev_ids[d], (uint64_t)e, (uint16_t)n, 16, tag };
			w = diamond_frame_write(frame, sizeof(frame), &f);
			append(&x->real, &x->real_len, frame, (size_t)w);
			append(&x->forged, &x->forged_len, frame, (size_t)w);
			if (nrec == 1)	/* one record: drop it, keep the tag */
				x->incomplete_len = 0;
			append(&x->incomplete, &x->incomplete_len, frame, (size_t)w);
		}
		dmd_sender_wipe(&s);
	}
	diamond_store_close(st);
	return 0;
}

/* Custody mode: the loader's key directory, the ingest's user. */
static const char *keys_dir;
static int reload_every = 10;
#define INGEST_UID	65534

/* The epoch device @d's ingest state stands at: its wrapped header. */
static int custody_epoch(struct diamond_store *st, int d, int64_t *epoch)
{
	struct dlib_wstate w;
	int rc = dlib_store_load_w(st, dev_ids[d], &w, NULL);

	/* Before the first load the loader has written nothing: epoch 0. */
	if (rc == -ENOENT || rc == -DIAMOND_ENODEVICE) {
		*epoch = 0;
		return 0;
	}
	if (!rc)
		*epoch = (int64_t)(w.cursor ? w.st.epoch - 1 : w.st.epoch);
	dmd_wipe(&w, sizeof(w));
	return rc;
}

/* diamond.ko out and in again: every key, tfm and precompute gone. */
static int reload_module(void)
{
	return system("rmmod diamond && modprobe diamond && "
		      "echo 65534 >/sys/module/diamond/parameters/afalg_gid");
}

/* The gateway's command line of run @r into @av (NULL-terminated). */
static void gateway_argv(const char *ctl, const char *dir, const char *input,
			 int r, const char **av)
{
	int n = 0;

	av[n++] = "diamondctl";
	if (keys_dir) {
		av[n++] = "keys";
		av[n++] = "load";
		av[n++] = "--keys";
		av[n++] = keys_dir;
		av[n++] = "--state-dir";
		av[n++] = dir;
		av[n++] = "--user";
		av[n++] = "65534:65534";
		/* Some runs export at load: the loader's own tfms. */
		if (r % 4 == 1)
			av[n++] = "--wrap-states";
		av[n++] = "--";
		av[n++] = ctl;
		av[n++] = "open";
		av[n++] = "--custody";
	} else {
		av[n++] = "open";
		av[n++] = "--software";
	}
	av[n++] = "--state-dir";
	av[n++] = dir;
	av[n++] = "--input";
	av[n++] = input;
	av[n] = NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dev_index(uint32_t id)
{
	int d;

	for (d = 0; d < NDEV; d++)
		if (dev_ids[d] == id)
			return d;
	return -1;
}

/* The state epoch of each device; -1 when a file does not load. */
static int read_states(const char *dir, int64_t *epoch, int *corrupt)
{
	struct diamond_store *st;
	struct diamond_params p;
	uint8_t blob[DIAMOND_BLOB_MAX];
	size_t len;
	int d, rc;

	*corrupt = 0;
	if (diamond_store_open(&st, dir, 0))
		return -1;
	for (d = 0; d < NDEV; d++) {
		if (keys_dir) {
			rc = custody_epoch(st, d, &epoch[d]);
		} else {
			rc = diamond_store_load(st, dev_ids[d], blob, &len);
			if (!rc)
				rc = diamond_blob_info(blob, len, &p);
			if (!rc)
				epoch[d] = (int64_t)p.epoch;
		}
		if (rc) {
			tap_diag("device %u: state file: %s", dev_ids[d],
				 diamond_strerror(rc));
			(*corrupt)++;
			epoch[d] = -1;
		}
	}
	diamond_store_close(st);
	return 0;
}

int main(int argc, char **argv)
{
	const char *ctl = getenv("DIAMONDCTL");
	const char *runs_env = getenv("CRASH_RUNS");
	int runs = runs_env ? atoi(runs_env) : 200;
	char dir[512], input[512];
	int64_t before[NDEV], after[NDEV], last_fed[NDEV], reported[NDEV];
	unsigned long corrupted = 0, forgeries = 0, lost = 0, rollback = 0,
		      doubles = 0, beyond = 0, killed = 0, finished = 0,
		      verified_total = 0, forged_fed = 0, bad_exit = 0;
	double t_run = 0.05, t0;
	unsigned long reloads = 0, last_short = 0;
	const char *seed_env = getenv("DMD_SEED");
	unsigned int seed;
	char keys[512];
	int r, d, rc, corrupt;

	tap_header();
	if (argc < 2 || !ctl) {
		tap_result(0, "usage: DIAMONDCTL=... test_crash WORKDIR");
		tap_trailing_plan();
		return 1;
	}
	if (getenv("CRASH_CUSTODY")) {
		snprintf(keys, sizeof(keys), "%s/keys", argv[1]);
		keys_dir = keys;
		if (getenv("CRASH_RELOAD"))
			reload_every = atoi(getenv("CRASH_RELOAD"));
	}
	/* In custody the ingest (uid 65534) reads the input from here. */
	mkdir(argv[1], keys_dir ? 0755 : 0700);
	snprintf(dir, sizeof(dir), "%s/state", argv[1]);
	snprintf(input, sizeof(input), "%s/frames.bin", argv[1]);
	if (system("true") || access(ctl, X_OK)) {
		tap_result(0, "diamondctl at %s", ctl);
		tap_trailing_plan();
		return 1;
	}
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s/keys'", dir, argv[1]);
		if (system(cmd))
			return 1;
	}
	if (keys_dir && (mkdir(keys_dir, 0700) || mkdir(dir, 0700) ||
			 chown(dir, INGEST_UID, INGEST_UID))) {
		tap_result(0, "setup: the key and state directories");
		tap_trailing_plan();
		return 1;
	}
	if (make_frames(keys_dir ? keys_dir : dir)) {
		tap_result(0, "setup: sealing and provisioning");
		tap_trailing_plan();
		return 1;
	}
	seed = seed_env ? (unsigned int)strtoul(seed_env, NULL, 0) :
			  (unsigned int)time(NULL) ^ (unsigned int)getpid();
	srand(seed);
	tap_diag("seed %u (set DMD_SEED to repeat the choices; the kill times are the clock's), %d runs, %d devices, b=%d, %d new epochs per device per run%s",
		 seed, runs, NDEV, B, K, keys_dir ? ", custody" : "");

	for (r = 0; r < runs; r++) {
		uint8_t *buf = NULL;
		size_t len = 0;
		FILE *out;
		char line[256];
		int pfd[2], status, k, kill_it;
		pid_t pid;

		if (keys_dir && r && reload_every > 0 && r % reload_every == 0) {
			if (reload_module()) {
				tap_diag("run %d: diamond.ko did not reload", r);
				bad_exit++;
			}
			reloads++;
		}
		read_states(dir, before, &corrupt);
		corrupted += (unsigned long)corrupt;
		/* Input: per device a replay, a forged or an incomplete copy of
		 * the next epoch, then K real epochs, interleaved. */
		for (d = 0; d < NDEV; d++) {
			last_fed[d] = before[d] + K - 1;
			reported[d] = -1;
		}
		for (k = -1; k <= K; k++) {
			for (d = 0; d < NDEV; d++) {
				int64_t e = before[d] + k;
				struct epoch_frames *x;

				if (before[d] < 0 || e < 0 || e >= EPOCHS)
					continue;
				x = &ef[d][e];
				if (k == -1)		/* replay of the last one */
					append(&buf, &len, x->real, x->real_len);
				else if (k == K)	/* a forgery at the end */
					append(&buf, &len, x->forged, x->forged_len);
				else if (k == 0) {
					if (r % 3 == 2)
						append(&buf, &len, x->incomplete,
						       x->incomplete_len);
					else
						append(&buf, &len, x->forged,
						       x->forged_len);
					forged_fed++;
					append(&buf, &len, x->real, x->real_len);
				} else
					append(&buf, &len, x->real, x->real_len);
			}
		}
		forged_fed += NDEV;
		{
			int fd = open(input, O_WRONLY | O_CREAT | O_TRUNC, 0600);

			if (fd < 0 || write(fd, buf, len) != (ssize_t)len ||
			    fchmod(fd, keys_dir ? 0644 : 0600))
				return 1;
			close(fd);
		}
		free(buf);

		if (pipe(pfd))
			return 1;
		t0 = now();
		pid = fork();
		if (pid == 0) {
			int nul = open("/dev/null", O_WRONLY);
			const char *av[24];

			dup2(pfd[1], 1);
			dup2(nul, 2);
			close(pfd[0]);
			gateway_argv(ctl, dir, input, r, av);
			execv(ctl, (char *const *)av);
			_exit(127);
		}
		close(pfd[1]);
		/* The first runs calibrate; then 85% are killed at a random
		 * point within the first 80% of the run time, which every
		 * run left alone re-measures, so a machine that gets slower
		 * or faster under other load still sees most runs killed. */
		kill_it = r >= 3 && rand() % 100 < 85 && r != runs - 1;
		if (kill_it) {
			useconds_t us = (useconds_t)(t_run * 0.8e6 *
						     ((double)rand() / RAND_MAX));

			usleep(us);
			kill(pid, SIGKILL);
		}
		out = fdopen(pfd[0], "r");
		while (fgets(line, sizeof(line), out)) {
			unsigned int dev, idx;
			unsigned long long e;
			char data[128], want[64];
			int di;

			if (sscanf(line, "{\"device\":%u,\"epoch\":%llu,\"index\":%u,\"data\":\"%127[^\"]\"}",
				   &dev, &e, &idx, data) != 4)
				continue;	/* a line cut by the kill */
			di = dev_index(dev);
			if (di < 0 || e >= EPOCHS) {
				forgeries++;
				continue;
			}
			record_text(want, sizeof(want), di, e, idx);
			if (strcmp(data, want)) {
				tap_diag("run %d: device %u epoch %llu index %u: '%s' delivered",
					 r, dev, e, idx, data);
				forgeries++;
			}
			if (idx == 0) {
				if (delivered[di][e]) {
					tap_diag("run %d: device %u epoch %llu delivered twice",
						 r, dev, e);
					doubles++;
				}
				delivered[di][e] = 1;
				verified_total++;
			}
			if ((int64_t)e > reported[di])
				reported[di] = (int64_t)e;
		}
		fclose(out);
		waitpid(pid, &status, 0);
		if (!kill_it && r < 3)
			t_run = (t_run * r + (now() - t0)) / (r + 1);
		else if (!kill_it)
			t_run = 0.7 * t_run + 0.3 * (now() - t0);
		if (WIFSIGNALED(status)) {
			killed++;
		} else {
			finished++;
			/* Forged epochs were fed: a clean run exits 1. */
			if (WEXITSTATUS(status) != 1) {
				tap_diag("run %d: exit status %d", r,
					 WEXITSTATUS(status));
				bad_exit++;
			}
		}

		read_states(dir, after, &corrupt);
		corrupted += (unsigned long)corrupt;
		for (d = 0; d < NDEV; d++) {
			if (after[d] < 0)
				continue;
			if (after[d] < before[d]) {
				tap_diag("run %d: device %u went back %lld -> %lld",
					 r, dev_ids[d], (long long)before[d],
					 (long long)after[d]);
				rollback++;
			}
			if (reported[d] >= 0 && after[d] <= reported[d]) {
				tap_diag("run %d: device %u at %lld but epoch %lld reported",
					 r, dev_ids[d], (long long)after[d],
					 (long long)reported[d]);
				lost++;
			}
			if (after[d] > last_fed[d] + 1) {
				beyond++;
			}
			/* The last run, never killed, opens from every state. */
			if (r == runs - 1 && reported[d] < before[d]) {
				tap_diag("last run: device %u delivered nothing from epoch %lld",
					 dev_ids[d], (long long)before[d]);
				last_short++;
			}
		}
	}
	rc = 0;
	tap_diag("runs %d: killed %lu, finished %lu; epochs delivered %lu; forged or incomplete epochs fed %lu",
		 runs, killed, finished, verified_total, forged_fed);
	tap_result(runs >= 200 || getenv("CRASH_RUNS"), "%d runs of open (%lu killed with SIGKILL)",
		   runs, killed);
	tap_result(killed >= (unsigned long)runs / 4, "at least a quarter of the runs were killed mid-run (%lu)", killed);
	tap_result(corrupted == 0, "zero corrupted state files (%lu)", corrupted);
	tap_result(forgeries == 0, "zero accepted forgeries (%lu)", forgeries);
	tap_result(lost == 0, "zero verified epochs lost (%lu)", lost);
	tap_result(rollback == 0 && doubles == 0,
		   "no old state came back (%lu rollbacks, %lu double deliveries)",
		   rollback, doubles);
	tap_result(beyond == 0, "state never beyond the epochs available (%lu)", beyond);
	tap_result(bad_exit == 0, "runs that finished exit 1 (rejections reported) (%lu)",
		   bad_exit);
	tap_result(verified_total > (unsigned long)runs, "progress: %lu epochs delivered",
		   verified_total);
	tap_result(last_short == 0,
		   "every state file opens: the last run (not killed) delivered the next epoch of each device (%lu short)",
		   last_short);
	if (keys_dir)
		tap_result(reloads >= (unsigned long)(runs - 1) / reload_every,
			   "custody: diamond.ko unloaded and loaded again %lu times, the keys loaded again each time",
			   reloads);
	for (d = 0; d < NDEV; d++)
		tap_diag("device %u: final state epoch %lld", dev_ids[d],
			 (long long)after[d]);
	(void)rc;
	tap_trailing_plan();
	return tap_finish();
}
