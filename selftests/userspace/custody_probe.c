// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The start of issue 20 item 6, the compromised-gateway test: what the
 * ingest's own uid can get at. Static, for the VM.
 *
 *   custody_probe keys STATEFILE...
 *	the hex of E_e and E_{e+1} of each clear state file (the test's
 *	derivation from the state the root made), one per line
 *   custody_probe run N DIR FRAMES HEX... -- COMMAND [ARG...]
 *	as the current user: COMMAND (the gateway, reading stdin) as a
 *	child, FRAMES on its stdin, and once N lines came out on its
 *	stdout, while it runs, search for each HEX key (each 16-byte
 *	chunk of it) in /proc/CHILD/mem, in every file of DIR, and in
 *	what keyctl read gives of diamond:wrap and diamond:ID of every
 *	ID.state in DIR; print "hits mem N files N keys N" and "read
 *	DESC RESULT" lines. The child is its own, so Yama's ptrace_scope
 *	1 lets it read the memory: a 0 is a finding, not a refusal.
 *   custody_probe plant ID
 *	as the ingest could: its own logon key diamond:wrap (32 known
 *	bytes) in its thread keyring, searched before the session
 *	keyring, then a "diamond" tfm keyed by the serial of diamond:ID
 *	and its export asked for: "plant export LEN" means the module
 *	sealed the device's state under a key the process knows (the
 *	module must use a root-owned wrap key only), "plant export
 *	ERROR" that it refused.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../userspace/lib/internal.h"

#define MAXPAT	64
static uint8_t pat[MAXPAT][16];
static int npat;

static int add_hex(const char *h)
{
	size_t n = strlen(h) / 2, i, c;
	uint8_t k[32];
	unsigned int v;

	if (n != 16 && n != 32)
		return -1;
	for (i = 0; i < n; i++) {
		if (sscanf(h + 2 * i, "%2x", &v) != 1)
			return -1;
		k[i] = (uint8_t)v;
	}
	for (c = 0; c < n && npat < MAXPAT; c += 16)
		memcpy(pat[npat++], k + c, 16);
	return 0;
}

static long count(const uint8_t *p, size_t len)
{
	long hits = 0;
	size_t i;
	int j;

	for (i = 0; i + 16 <= len; i++)
		for (j = 0; j < npat; j++)
			if (p[i] == pat[j][0] && !memcmp(p + i, pat[j], 16))
				hits++;
	return hits;
}

/* Every readable mapping of @pid through /proc/PID/mem. */
static long search_mem(pid_t pid, long *bytes)
{
	char path[64], line[512];
	unsigned long a, b;
	char perm[8];
	long hits = 0;
	uint8_t *buf;
	FILE *maps;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "r");
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY);
	if (!maps || fd < 0) {
		printf("mem-open %s\n", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 ||
		    perm[0] != 'r' || strstr(line, "[vvar]"))
			continue;
		buf = malloc(b - a);
		if (buf && pread(fd, buf, b - a, (off_t)a) == (ssize_t)(b - a)) {
			hits += count(buf, b - a);
			*bytes += (long)(b - a);
		}
		free(buf);
	}
	fclose(maps);
	close(fd);
	return hits;
}

static long search_file(const char *path)
{
	uint8_t buf[1 << 16];
	long hits = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		hits += count(buf, (size_t)n);
	close(fd);
	return hits;
}

/* keyctl read of a logon key the process finds: what comes back. */
static long read_key(const char *desc)
{
	uint8_t buf[512];
	long serial = syscall(SYS_request_key, "logon", desc, NULL, 0), n;

	if (serial < 0) {
		printf("read %s find:%s\n", desc, strerror(errno));
		return 0;
	}
	n = syscall(SYS_keyctl, 11 /* KEYCTL_READ */, serial, buf, sizeof(buf));
	printf("read %s %s\n", desc, n < 0 ? strerror(errno) : "DATA");
	return n > 0 ? count(buf, (size_t)n) + 1 : 0;
}

static long search_dir(const char *dir, long *keys)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096], desc[64];
	unsigned int id;
	long hits = 0;

	*keys = read_key("diamond:wrap");
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		hits += search_file(path);
		if (sscanf(e->d_name, "%u.state", &id) == 1) {
			snprintf(desc, sizeof(desc), "diamond:%u", id);
			*keys += read_key(desc);
		}
	}
	closedir(d);
	return hits;
}

static int keys(int argc, char **argv)
{
	uint8_t blob[DIAMOND_BLOB_MAX];
	struct diamond_store *s;
	struct dmd_state st;
	char *dir, *slash;
	unsigned int id;
	size_t len, i, k;
	int a;

	for (a = 0; a < argc; a++) {
		dir = strdup(argv[a]);
		slash = strrchr(dir, '/');
		if (!slash || sscanf(slash + 1, "%u.state", &id) != 1)
			return 2;
		*slash = 0;
		if (diamond_store_open(&s, dir, 0) ||
		    diamond_store_load(s, id, blob, &len) ||
		    dmd_blob_parse(&st, blob, len) != DMD_OK)
			return 1;
		k = dmd_key_size(st.suite);
		for (i = 0; i < k; i++)
			printf("%02x", st.key[i]);
		printf("\n");
		dlib_state_advance(&st, st.epoch);	/* E_{e+1} */
		for (i = 0; i < k; i++)
			printf("%02x", st.key[i]);
		printf("\n");
		diamond_store_close(s);
		free(dir);
	}
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static int run(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int in[2], out[2], a = 3, lines = 0, want = atoi(argv[0]);
	long mem, files, kh, bytes = 0;
	char buf[4096], *p;
	FILE *fo, *frames;
	size_t n;
	pid_t pid;

	for (; a < argc && strcmp(argv[a], "--"); a++)
		if (add_hex(argv[a]))
			return 2;
	if (a + 1 >= argc || pipe(in) || pipe(out))
		return 2;
	pid = fork();
	if (!pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execvp(argv[a + 1], argv + a + 1);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	frames = fopen(argv[2], "r");
	while (frames && (n = fread(buf, 1, sizeof(buf), frames)) > 0)
		if (write(in[1], buf, n) != (ssize_t)n)
			break;
	fo = fdopen(out[0], "r");
	/* A gateway that never gives the lines: searched after 120 s. */
	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: fgets returns */
	alarm(120);
	while (lines < want && fgets(buf, sizeof(buf), fo))
		for (p = buf; (p = strchr(p, '\n')); p++)
			lines++;
	/* The gateway now waits for more input, every key it has in use. */
	mem = search_mem(pid, &bytes);
	files = search_dir(argv[1], &kh);
	printf("lines %d patterns %d mem-bytes %ld\n", lines, npat, bytes);
	printf("hits mem %ld files %ld keys %ld\n", mem, files, kh);
	alarm(0);
	close(in[1]);
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	return 0;
}

static int plant(const char *id)
{
	static const char *names[] = { "diamond(chacha20,poly1305)",
				       "diamond(ctr(aes),ghash)" };
	uint8_t known[32], out[DLIB_DMDW_MAX];
	struct dlib_ktfm *k;
	char desc[32];
	int32_t serial;
	ssize_t n = -ENOKEY;
	unsigned int i;

	memset(known, 0x41, sizeof(known));
	if (syscall(SYS_add_key, "logon", DLIB_WRAP_DESC, known, sizeof(known),
		    -1 /* KEY_SPEC_THREAD_KEYRING */) < 0) {
		printf("plant add_key %s\n", strerror(errno));
		return 0;
	}
	snprintf(desc, sizeof(desc), "diamond:%s", id);
	serial = dlib_key_find(desc);
	if (serial < 0) {
		printf("plant find %s %s\n", desc, strerror(-serial));
		return 0;
	}
	for (i = 0; i < 2; i++) {
		n = dlib_ktfm_open_custody(names[i], NULL, 0, serial, &k);
		if (n)
			continue;
		n = dlib_ktfm_export(k, out, sizeof(out));
		dlib_ktfm_close(k);
		break;
	}
	if (n < 0)
		printf("plant export %s\n", strerror((int)-n));
	else
		printf("plant export %zd\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "plant"))
		return plant(argv[2]);
	if (argc > 2 && !strcmp(argv[1], "keys"))
		return keys(argc - 2, argv + 2);
	if (argc > 6 && !strcmp(argv[1], "run"))
		return run(argc - 2, argv + 2);
	fprintf(stderr, "usage: custody_probe keys FILE... | run N DIR FRAMES HEX... -- CMD...\n");
	return 2;
}
