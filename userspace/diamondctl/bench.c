// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl bench: throughput of open. Devices are provisioned into
 * fresh state directories, epochs are sealed round-robin over the devices
 * with the portable core, and the same frames are fed to a software
 * gateway and (unless --software) a kernel gateway in the same run, so
 * the figures are comparable as ratios. Each gateway does everything open
 * does, state files with fsync included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <diamond/core.h>

#include "diamondctl.h"

#define CHUNK_EPOCHS	8

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl bench --devices N --b N --size S [--software]\n"
		"                        [--epochs E] [--suite 1|2] [--agg MODE]\n"
		"                        [--dir DIR] [--max-tfms N] [--custody]\n\n"
		"Seal E epochs of b records of S bytes round-robin over N devices, and\n"
		"open them with the software gateway and (without --software) the kernel\n"
		"gateway in the same run. Prints epochs/s and records/s of seal, of open\n"
		"per path, and the kernel/software ratios. State files are written with\n"
		"fsync as open does, under DIR (default /dev/shm, else /tmp).\n\n"
		"  --devices N   devices (default 1)\n"
		"  --b N         records per epoch (default 1024)\n"
		"  --size S      bytes per record (default 16)\n"
		"  --epochs E    epochs in all (default max(N, 64))\n"
		"  --suite 1|2   default 2; --agg xor|add|hash, default xor\n"
		"  --software    software path only (no kernel module needed)\n"
		"  --dir DIR     where the temporary state directories go\n"
		"  --max-tfms N  kernel tfms kept open (default 16384)\n"
		"  --custody     the kernel gateway in custody mode: as root, load the\n"
		"                keys (keys load) into a new session keyring and open\n"
		"                from wrapped states, as a gateway service does\n"
		"  -h, --help    this text\n");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int make_states(const char *dir, const uint8_t root[32],
		       const struct diamond_params *tmpl, uint32_t n)
{
	struct diamond_store *st;
	struct diamond_params p = *tmpl;
	uint8_t blob[DIAMOND_BLOB_MAX];
	size_t len;
	uint32_t d;
	int rc;

	rc = diamond_store_open(&st, dir, DIAMOND_STORE_CREATE);
	for (d = 0; !rc && d < n; d++) {
		p.device_id = d;
		rc = diamond_provision(root, &p, blob, &len);
		if (!rc)
			rc = diamond_store_create(st, blob, len);
	}
	if (!rc)
		diamond_store_close(st);
	return rc;
}

/*
 * ns/epoch too: under qemu -icount shift=0 (make bench-userspace) guest
 * time is the instruction count, so that column is instructions per epoch.
 */
static void report(const char *what, double t, uint64_t epochs, uint64_t recs)
{
	printf("%-22s %10.1f epochs/s %12.0f records/s  (%.3f s, %.0f ns/epoch)\n",
	       what, (double)epochs / t, (double)recs / t, t,
	       epochs ? t * 1e9 / (double)epochs : 0);
}

/*
 * --custody: the clear states go to @top/keys (the loader's root-only
 * directory), the kernel gateway's @k_dir gets what the loader writes
 * (version 4), and the keys go into a new session keyring of this process.
 */
static int custody_load(const char *top, const char *k_dir, char *msg,
			size_t size)
{
	char keys[600];
	struct diamond_keys_opts o = { .key_dir = keys, .state_dir = k_dir,
		.flags = DIAMOND_KEYS_NEW_SESSION,
		.uid = (uid_t)-1, .gid = (gid_t)-1 };
	int rc;

	snprintf(keys, sizeof(keys), "%s/keys", top);
	if (rename(k_dir, keys))
		return -errno;
	rc = diamond_keys_load(&o, msg, size);
	return rc < 0 ? rc : 0;
}

int cmd_bench(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "devices", required_argument, NULL, 'n' },
		{ "b", required_argument, NULL, 'b' },
		{ "size", required_argument, NULL, 's' },
		{ "epochs", required_argument, NULL, 'e' },
		{ "suite", required_argument, NULL, 'S' },
		{ "agg", required_argument, NULL, 'a' },
		{ "software", no_argument, NULL, 'w' },
		{ "dir", required_argument, NULL, 'd' },
		{ "max-tfms", required_argument, NULL, 'T' },
		{ "custody", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct diamond_params p = { .suite = 2, .agg = 0, .b = 1024 };
	uint64_t ndev = 1, size = 16, epochs = 0, v, e, recs = 0, max_tfms = 0;
	int software = 0, custody = 0, c, rc, status = 0;
	const char *base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
	char top[512], sw_dir[600], k_dir[600], msg[512] = "", cmd[700];
	struct diamond_gw *gsw = NULL, *gk = NULL;
	struct diamond_gw_stats ssw, sk;
	struct dmd_state *dev = NULL;
	struct dmd_sender snd;
	struct rusage ru;
	uint8_t root[32], *rec = NULL, *buf = NULL, ct[DIAMOND_MAX_RECORD], tag[16];
	size_t len = 0, cap;
	double t_seal = 0, t_sw = 0, t_k = 0, t0;
	uint32_t j, n;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': if (parse_u64(optarg, 1u << 24, &ndev) || !ndev) goto bad; break;
		case 'b': if (parse_u64(optarg, 65535, &v) || !v) goto bad; p.b = (uint32_t)v; break;
		case 's': if (parse_u64(optarg, DIAMOND_MAX_RECORD, &size)) goto bad; break;
		case 'e': if (parse_u64(optarg, 1ull << 32, &epochs) || !epochs) goto bad; break;
		case 'S': if (parse_u64(optarg, 2, &v) || !v) goto bad; p.suite = (unsigned int)v; break;
		case 'a': if (parse_agg(optarg, &p.agg)) goto bad; break;
		case 'w': software = 1; break;
		case 'C': custody = 1; break;
		case 'd': base = optarg; break;
		case 'T': if (parse_u64(optarg, 1u << 20, &max_tfms) || !max_tfms) goto bad; break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		help(stderr);
		return EXIT_USAGE;
	}
	if (!epochs)
		epochs = ndev > 64 ? ndev : 64;
	if (!software && diamond_kernel_probe(msg, sizeof(msg))) {
		err_msg("%s; or measure only the software path with --software", msg);
		return EXIT_SETUP;
	}
	snprintf(top, sizeof(top), "%s/diamond-bench.XXXXXX", base);
	if (!mkdtemp(top)) {
		err_msg("%s: %m", top);
		return EXIT_SETUP;
	}
	snprintf(sw_dir, sizeof(sw_dir), "%s/software", top);
	snprintf(k_dir, sizeof(k_dir), "%s/kernel", top);
	if (getrandom(root, sizeof(root), 0) != sizeof(root) ||
	    make_states(sw_dir, root, &p, (uint32_t)ndev) ||
	    (!software && make_states(k_dir, root, &p, (uint32_t)ndev))) {
		err_msg("provisioning %llu devices under %s failed",
			(unsigned long long)ndev, top);
		status = EXIT_SETUP;
		goto out;
	}
	rc = custody && !software ? custody_load(top, k_dir, msg, sizeof(msg)) : 0;
	if (rc) {
		err_msg("keys load for --custody failed: %s",
			*msg ? msg : diamond_strerror(rc));
		status = EXIT_SETUP;
		goto out;
	}
	dev = calloc(ndev, sizeof(*dev));
	rec = malloc(size + 1);
	cap = CHUNK_EPOCHS * ((size_t)p.b * (DIAMOND_FRAME_HDR + size) +
			      DIAMOND_FRAME_HDR + DIAMOND_TAG_SIZE);
	buf = malloc(cap);
	if (!dev || !rec || !buf) {
		status = EXIT_SETUP;
		goto out;
	}
	for (v = 0; v < ndev; v++) {
		dev[v].suite = (uint8_t)p.suite;
		dev[v].agg = (uint8_t)p.agg;
		dev[v].b = p.b;
		dev[v].device_id = (uint32_t)v;
		dmd_derive_initial(&dev[v], root);
	}
	explicit_bzero(root, sizeof(root));
	memset(rec, 'r', size);
	{
		struct diamond_gw_opts o = { .state_dir = sw_dir,
			.backend = DIAMOND_BACKEND_SOFTWARE,
			.max_tfms = (unsigned int)max_tfms,
			.max_body = DIAMOND_MAX_BODY };

		rc = diamond_gw_new(&gsw, &o, NULL, msg, sizeof(msg));
		if (!rc && !software) {
			o.state_dir = k_dir;
			o.backend = DIAMOND_BACKEND_KERNEL;
			o.flags = custody ? DIAMOND_GW_CUSTODY : 0;
			rc = diamond_gw_new(&gk, &o, NULL, msg, sizeof(msg));
		}
		if (rc) {
			err_msg("%s", *msg ? msg : diamond_strerror(rc));
			status = EXIT_SETUP;
			goto out;
		}
	}

	for (e = 0; e < epochs; e++) {
		struct dmd_state *s = &dev[e % ndev];
		struct diamond_frame f;

		t0 = now();
		dmd_sender_init(&snd, s, NULL, 0, 0);
		dmd_sender_begin(&snd, NULL);
		for (j = 0; j < p.b; j++) {
			dmd_sender_seal(&snd, rec, size, ct, NULL);
			f = (struct diamond_frame){ DIAMOND_FRAME_RECORD,
				(uint8_t)p.suite, s->device_id, snd.epoch,
				(uint16_t)j, (uint16_t)size, ct };
			len += (size_t)diamond_frame_write(buf + len, cap - len, &f);
		}
		dmd_sender_close(&snd, NULL, 0, tag, &n);
		f = (struct diamond_frame){ DIAMOND_FRAME_TAG, (uint8_t)p.suite,
			s->device_id, snd.epoch, (uint16_t)n, 16, tag };
		len += (size_t)diamond_frame_write(buf + len, cap - len, &f);
		*s = snd.st;
		dmd_sender_wipe(&snd);
		t_seal += now() - t0;
		recs += p.b;
		if ((e + 1) % CHUNK_EPOCHS && e + 1 != epochs)
			continue;
		t0 = now();
		diamond_gw_feed(gsw, buf, len);
		t_sw += now() - t0;
		if (gk) {
			t0 = now();
			diamond_gw_feed(gk, buf, len);
			t_k += now() - t0;
		}
		len = 0;
	}
	diamond_gw_stats(gsw, &ssw);
	if (gk)
		diamond_gw_stats(gk, &sk);
	getrusage(RUSAGE_SELF, &ru);

	printf("bench: devices=%llu b=%u size=%llu suite=%u agg=%s epochs=%llu records=%llu state=%s\n",
	       (unsigned long long)ndev, (unsigned int)p.b,
	       (unsigned long long)size, p.suite, agg_name(p.agg),
	       (unsigned long long)epochs, (unsigned long long)recs, base);
	report("seal (software)", t_seal, epochs, recs);
	report("open (software)", t_sw, ssw.verified, ssw.records);
	report("seal+open (software)", t_seal + t_sw, ssw.verified, ssw.records);
	if (gk) {
		report("open (kernel)", t_k, sk.verified, sk.records);
		printf("ratio open kernel/software: %.3f   kernel open / software seal+open: %.3f\n",
		       t_k > 0 ? t_sw / t_k : 0, t_k > 0 ? (t_seal + t_sw) / t_k : 0);
		printf("kernel tfms: %llu created, %llu evicted (LRU cap %llu)\n",
		       (unsigned long long)sk.tfm_inits,
		       (unsigned long long)sk.tfm_evictions,
		       (unsigned long long)(max_tfms ? max_tfms : 16384));
	}
	printf("max RSS: %ld KiB\n", ru.ru_maxrss);
	if (ssw.verified != epochs || (gk && sk.verified != epochs)) {
		err_msg("not every epoch verified (software %llu, kernel %llu of %llu)",
			(unsigned long long)ssw.verified,
			(unsigned long long)(gk ? sk.verified : 0),
			(unsigned long long)epochs);
		status = EXIT_REJECTED;
	}
out:
	diamond_gw_free(gsw);
	diamond_gw_free(gk);
	if (dev)
		explicit_bzero(dev, ndev * sizeof(*dev));
	free(dev);
	free(rec);
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd))
		err_msg("could not remove %s", top);
	return status;
bad:
	err_msg("bad value '%s'", optarg);
	return EXIT_USAGE;
}
