// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl keys load: the custody loader, the privileged step at
 * service start (Documentation/userspace.rst section 1, "Custody";
 * install.rst section 4). As root it loads the keys (diamond_keys_load())
 * into a keyring of its own, drops to the ingest's user and executes the
 * ingest, which inherits the keyring across execve: systemd gives every
 * command of a unit a fresh session keyring (KeyringMode=private), so an
 * ExecStartPre= could not hand keys to ExecStart=.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "diamondctl.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl keys load --keys DIR --state-dir DIR [--user NAME]\n"
		"                            [--wrap-states] [--keyring session|user]\n"
		"                            [-- COMMAND [ARG...]]\n\n"
		"As root: load the key diamond:wrap (DIR/wrap.key, made when\n"
		"missing) and the device keys of the clear state files in --keys\n"
		"into the kernel keyring as keys of diamond.ko's type \"diamond\"\n"
		"(no process can read them, nothing else can use them), and write\n"
		"the ingest's --state-dir in wrapped form (version 4): the ingest\n"
		"never reads a key. With a COMMAND: a new session keyring, closed\n"
		"once loaded, then the\n"
		"privileges of --user (its groups too), then COMMAND, which keeps\n"
		"the keyring. Without one: the caller's session keyring, or with\n"
		"--keyring user a keyring \"diamond\" linked into --user's user keyring\n"
		"(systemd: ExecStartPre=+ this, KeyringMode=shared, User= the ingest).\n\n"
		"  --keys DIR       root-only clear state files and wrap.key\n"
		"  --state-dir DIR  the ingest's state directory\n"
		"  --user NAME      owner of the files written, the user COMMAND runs as\n"
		"                   (or UID[:GID])\n"
		"  --keyring user   the keys for every process of --user (no COMMAND)\n"
		"  --wrap-states    store the module's wrapped state for every device\n"
		"                   (the default keys each device by reference)\n"
		"  -h, --help       this text\n");
}

/*
 * --user: a name, or UID[:GID] for a system without that user in its
 * passwd (a minimal VM); *@pw filled either way (pw_name NULL: numeric).
 */
static int parse_user(const char *s, struct passwd *pw)
{
	struct passwd *p = getpwnam(s);
	uint64_t u, g;
	char *colon;

	if (p) {
		*pw = *p;
		return 0;
	}
	memset(pw, 0, sizeof(*pw));
	colon = strchr(s, ':');
	if (colon)
		*colon = 0;
	if (parse_u64(s, UINT32_MAX - 1, &u) ||
	    (colon && parse_u64(colon + 1, UINT32_MAX - 1, &g)))
		return -EINVAL;
	pw->pw_uid = (uid_t)u;
	pw->pw_gid = colon ? (gid_t)g : (gid_t)u;
	return 0;
}

/* Become @pw's user and groups for good; 0 or -errno. */
static int drop_to(const struct passwd *pw)
{
	if ((pw->pw_name ? initgroups(pw->pw_name, pw->pw_gid) :
	     setgroups(0, NULL)) ||
	    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid))
		return -errno;
	if (pw->pw_uid && (setuid(0) == 0 || geteuid() == 0))
		return -EPERM;	/* the drop did not stick */
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ? -errno : 0;
}

static int keys_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "keys", required_argument, NULL, 'k' },
		{ "state-dir", required_argument, NULL, 'D' },
		{ "user", required_argument, NULL, 'u' },
		{ "wrap-states", no_argument, NULL, 'w' },
		{ "keyring", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct diamond_keys_opts o = { .uid = (uid_t)-1, .gid = (gid_t)-1 };
	struct passwd user, *pw = NULL;
	char msg[512] = "";
	int c, rc, user_ring = 0;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'k': o.key_dir = optarg; break;
		case 'D': o.state_dir = optarg; break;
		case 'u':
			if (parse_user(optarg, &user)) {
				err_msg("no user '%s' (a name, or UID[:GID])",
					optarg);
				return EXIT_USAGE;
			}
			pw = &user;
			o.uid = pw->pw_uid;
			o.gid = pw->pw_gid;
			break;
		case 'w': o.flags |= DIAMOND_KEYS_WRAP; break;
		case 'r':
			if (strcmp(optarg, "user") && strcmp(optarg, "session"))
				goto bad;
			user_ring = !strcmp(optarg, "user");
			break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (!o.key_dir || !o.state_dir || (user_ring && (!pw || optind < argc)))
		goto bad;
	if (optind < argc)
		o.flags |= DIAMOND_KEYS_NEW_SESSION;
	if (user_ring)
		o.flags |= DIAMOND_KEYS_USER;
	rc = diamond_keys_load(&o, msg, sizeof(msg));
	if (rc < 0) {
		err_msg("keys load: %s", *msg ? msg : diamond_strerror(rc));
		return EXIT_SETUP;
	}
	note(1, "%s", msg);
	if (optind >= argc)
		return 0;
	rc = pw ? drop_to(pw) : 0;
	if (rc) {
		err_msg("keys load: dropping to uid %u: %s",
			(unsigned int)pw->pw_uid, strerror(-rc));
		return EXIT_SETUP;
	}
	execvp(argv[optind], argv + optind);
	err_msg("keys load: %s: %s", argv[optind], strerror(errno));
	return EXIT_SETUP;
bad:
	help(stderr);
	return EXIT_USAGE;
}

int cmd_keys(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "load"))
		return keys_load(argc - 1, argv + 1);
	help(argc > 1 && !strcmp(argv[1], "--help") ? stdout : stderr);
	return argc > 1 && !strcmp(argv[1], "--help") ? 0 : EXIT_USAGE;
}
