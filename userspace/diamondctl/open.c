// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open: the gateway. Frames from a file, stdin, a serial device
 * or a UDP port (open_src.c); every epoch verified (in the kernel unless
 * --software), its new state durable, then its records written as JSON
 * lines on stdout. Open epochs are spooled and taken up again by the next
 * run; rejected ones are quarantined; messages are rate-limited
 * (open_log.c); counters go out as Prometheus metrics (metrics.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "open.h"
/* Its options and help are parsed without MQTT too (then --mqtt fails). */
#include "mqtt.h"
#ifndef DIAMONDCTL_NO_MQTT
#include "fleet.h"
#include "lease.h"
#else
#define FLEET_DEFAULT_LEASE_MS	0
#endif

static volatile sig_atomic_t stop;

static void help(FILE *f)
{
	fprintf(f,
		"usage: diamondctl open --state-dir DIR [--software | --custody]\n"
		"                       [--input FILE | --serial DEV | --udp PORT [--bind ADDR]]\n"
		"                       [--max-tfms N] [--max-skip N] [--max-buffer MIB]\n"
		"                       [--no-spool] [--quarantine-max MIB]\n"
		"                       [--metrics FILE] [--metrics-socket PATH]\n"
		"                       [--metrics-interval S] [--log-rate N] [--json-errors]\n"
		"       diamondctl open --state-dir DIR --mqtt HOST[:PORT][,...] [--shards N]\n"
		"                       [--shard LIST] [--topic-prefix P] [--client-id ID]\n"
		"                       [--max-owed N]\n"
		"                       [--user NAME] [--cafile FILE [--cert FILE --key FILE]]\n"
		"                       [the options above but the input]\n"
		"       diamondctl open --fleet DIR --client-id NAME --mqtt HOST[:PORT][,...]\n"
		"                       [--shards N] [--shard LIST] [--lease-ms MS]\n"
		"                       [--no-rebalance] [...]\n\n"
		"Verify every epoch of the frames read (stdin by default) and write\n"
		"its records to stdout as JSON lines:\n"
		"  {\"device\":ID,\"epoch\":E,\"index\":J,\"data\":\"...\"[,\"ad\":\"HEX\"]}\n"
		"data is the record as a JSON string when it is printable ASCII, else\n"
		"hex with \"encoding\":\"hex\" added; ad, the epoch's associated data, is\n"
		"always hex and present only when the epoch has some. Records are\n"
		"written only after the device's new state is durable in DIR. Rejected\n"
		"epochs are reported on stderr with device, epoch and reason; a summary\n"
		"line ends the run. For a device with group tags (provision --group-size)\n"
		"each group is released as soon as it verifies, and once an epoch of\n"
		"which a group verified is done one more line says which groups were\n"
		"released and which rejected (runs of one reason: \"last\" for more than\n"
		"one group):\n"
		"  {\"device\":ID,\"epoch\":E,\"closed\":true,\"count\":N,\"released\":[0,1],\n"
		"   \"rejected\":[{\"group\":2,\"last\":4,\"reason\":\"incomplete\"}]}\n"
		"(closed false, no count: the epoch tag never verified, or the input\n"
		"ended inside it; then only the groups decided so far are named, and a\n"
		"later run's line repeats those decisions). An epoch of\n"
		"which nothing verified gets no line: its groups go to stderr and the\n"
		"metrics. Either backend opens grouped devices.\n\n"
		"  --state-dir DIR  the state directory (one file per device, provision)\n"
		"  --software       verify with the portable core instead of the kernel\n"
		"                   (the default needs the diamond module: modprobe diamond)\n"
		"  --custody        device keys in the kernel only, or stop (exit 3):\n"
		"                   needs the keys diamondctl keys load gives (custody\n"
		"                   is also on whenever its key diamond:wrap is found)\n"
		"  --input FILE     read frames from FILE\n"
		"  --serial DEV     read frames from a serial device (raw mode) until\n"
		"                   SIGINT/SIGTERM; reconnects when it goes away\n"
		"  --udp PORT       read datagrams until SIGINT/SIGTERM, each parsed on its own\n"
		"  --bind ADDR      the address --udp binds, IPv4 or IPv6 (default 127.0.0.1)\n"
		"  --max-tfms N     kernel tfms kept open at once, LRU (default 16384:\n"
		"                   about 49 KiB of kernel memory each at b = 1024)\n"
		"  --max-skip N     lost epochs a device may skip (default 4096)\n"
		"  --max-buffer MIB memory all open epochs may hold together (default 32,\n"
		"                   at least 4)\n"
		"  --no-spool       do not keep open epochs in DIR/spool for the next run\n"
		"  --quarantine-max MIB  size of DIR/quarantine, the frames of rejected\n"
		"                   epochs (default 64; 0 keeps none)\n"
		"  --metrics FILE   write Prometheus metrics to FILE (replaced atomically)\n"
		"  --metrics-socket PATH  serve them on a unix socket at PATH\n"
		"  --metrics-interval S   seconds between --metrics writes (default 10)\n"
		"  --log-rate N     stderr lines per second per kind of message (default\n"
		"                   10; 0 unlimited); the rest are counted as suppressed\n"
		"  --json-errors    write every message on stderr as a JSON line\n"
		"  --mqtt HOST[:PORT][,HOST[:PORT]...]  the fleet's verifier: frames from\n"
		"                   the broker's P/frames/<shard>/+ (persistent session,\n"
		"                   QoS 1), readings to P/readings/<shard>/<device>,\n"
		"                   rejected and lost units to P/events/<shard>/<device>\n"
		"                   (QoS 1, through DIR/mqtt/outbox); a frame is\n"
		"                   acknowledged once what it produced is durable. Runs\n"
		"                   until SIGINT/SIGTERM. Several addresses are the nodes\n"
		"                   of one broker cluster: when the connection drops, the\n"
		"                   next one takes the session over. Packet-mode\n"
		"                   devices' packets from P/packets/<shard>/+ too\n"
		"                   (forward --packet; DIR/spool/packets)\n"
		"  --shards N       the fleet's shard count: device ID mod N, a packet-mode\n"
		"                   device's address's low byte mod N (default 1)\n"
		"  --shard LIST     the shards this verifier takes, as 0,2,5-7 (default all)\n"
		"  --topic-prefix P the topics' first level (default diamond)\n"
		"  --client-id ID   the MQTT session, the same across restarts (default\n"
		"                   diamond-verifier-LIST-of-N)\n"
		"  --user NAME      broker username; the password from $DIAMOND_MQTT_PASSWORD\n"
		"  --max-owed N     backpressure: while N readings and events await the\n"
		"                   broker's PUBACK, frames are read but not fed (held,\n"
		"                   or left to come again), so a fast feed cannot grow\n"
		"                   memory without bound (default 16384; 256 are in\n"
		"                   flight at once)\n"
		"  --fleet DIR      one of several verifiers sharing the shards, with\n"
		"                   failover: shard s lives in DIR/s (device states,\n"
		"                   spool, outbox, fence), shared by every verifier that\n"
		"                   may take it; --shard names those this one may take,\n"
		"                   --client-id its name in the fleet (required)\n"
		"  --lease-ms MS    with --fleet: a shard's lease, renewed every MS/3; a\n"
		"                   silent holder's shard is taken after MS (default 3000)\n"
		"  --no-rebalance   with --fleet: keep the shards held when a verifier\n"
		"                   joins (default: hand it its share)\n"
		MQ_TLS_HELP
		"  -h, --help       this text\n\n"
		"Exit status: 0; 1 an epoch or frame was rejected (file or stdin input);\n"
		"2 usage; 3 setup (state directory, missing kernel module, I/O: a\n"
		"spool, state file or outbox that cannot be written; --mqtt: a broker\n"
		"not reached, a TLS certificate that does not verify, a refused client).\n");
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_record(void *arg, const struct diamond_record *r)
{
	(void)arg;
	json_record(stdout, r->device_id, r->epoch, r->index, r->data, r->len,
		    r->ad, r->adlen);
}

static void on_rejected(const struct diamond_event *ev)
{
	int reason = diamond_reason(ev->err);
	struct olog_ctx c = {
		.what = "rejected", .reason = diamond_reason_name(reason),
		.has_device = 1, .device = ev->device_id, .epoch = ev->epoch,
	};

	if (ev->err == -ENOPKG)
		olog(reason, &c, "device %u epoch %llu rejected: the diamond kernel module is missing (modprobe diamond)",
		     (unsigned int)ev->device_id, (unsigned long long)ev->epoch);
	else
		olog(reason, &c, "device %u epoch %llu rejected: %s%s%s",
		     (unsigned int)ev->device_id, (unsigned long long)ev->epoch,
		     diamond_strerror(ev->err),
		     ev->detail && *ev->detail ? ": " : "",
		     ev->detail ? ev->detail : "");
}

/*
 * A group of a grouped device failed for good, or a stale copy came; or
 * (@ev DIAMOND_EV_GROUP_UNDECIDED) its try failed and the input ended
 * before anything decided it.
 */
static void on_group_rejected(const struct diamond_event *ev)
{
	int reason = diamond_reason(ev->err);
	int undecided = ev->kind == DIAMOND_EV_GROUP_UNDECIDED;
	struct olog_ctx c = {
		.what = undecided ? "undecided" : "rejected",
		.reason = diamond_reason_name(reason),
		.has_device = 1, .device = ev->device_id, .epoch = ev->epoch,
		.has_group = 1, .group = ev->group,
	};

	char groups[32], records[40];

	if (ev->ngroups > 1)
		snprintf(groups, sizeof(groups), "groups %u-%u",
			 (unsigned int)ev->group,
			 (unsigned int)(ev->group + ev->ngroups - 1));
	else
		snprintf(groups, sizeof(groups), "group %u",
			 (unsigned int)ev->group);
	if (ev->count > 1)
		snprintf(records, sizeof(records), "records %u-%u",
			 (unsigned int)ev->first,
			 (unsigned int)(ev->first + ev->count - 1));
	else if (ev->count)
		snprintf(records, sizeof(records), "record %u",
			 (unsigned int)ev->first);
	else
		snprintf(records, sizeof(records), "no records");
	olog(reason, &c, "device %u epoch %llu %s (%s) %s: %s%s%s%s",
	     (unsigned int)ev->device_id, (unsigned long long)ev->epoch,
	     groups, records, c.what,
	     ev->err == -ENOMSG ? "incomplete (records or its tag lost)" :
	     diamond_strerror(ev->err),
	     ev->detail && *ev->detail ? ": " : "",
	     ev->detail ? ev->detail : "",
	     undecided ? "; kept for the next run" : "");
}

static void on_epoch_groups(const struct diamond_event *ev)
{
	epoch_groups_json(stdout, ev);
	fflush(stdout);
}

static void on_event(void *arg, const struct diamond_event *ev)
{
	struct olog_ctx c = { .what = "frame" };

	(void)arg;
	switch (ev->kind) {
	case DIAMOND_EV_VERIFIED:
	case DIAMOND_EV_GROUP_VERIFIED:
		fflush(stdout);
		break;
	case DIAMOND_EV_REJECTED:
		on_rejected(ev);
		break;
	case DIAMOND_EV_GROUP_REJECTED:
	case DIAMOND_EV_GROUP_UNDECIDED:
		on_group_rejected(ev);
		break;
	case DIAMOND_EV_EPOCH_GROUPS:
		on_epoch_groups(ev);
		break;
	default:
		if (ev->err == -EILSEQ)
			olog(OLOG_FRAME_SYNC, &c,
			     "input: %u bytes without frame sync skipped",
			     (unsigned int)ev->count);
		else if (ev->err == -ENODATA)
			olog(OLOG_FRAME_TRUNC, &c,
			     "input: truncated frame (%u bytes)",
			     (unsigned int)ev->count);
		else
			olog(OLOG_FRAME_HDR, &c, "input: malformed frame header (%s)",
			     diamond_strerror(ev->err));
		break;
	}
}

struct run {
	struct src src;
	const char *metrics, *msock;
	unsigned int interval;		/* seconds between --metrics writes */
	int lfd;			/* metrics socket or -1 */
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_metrics(struct run *r, struct diamond_gw *gw)
{
	static const struct olog_ctx c = { .what = "metrics" };
	int rc;

	if (!r->metrics)
		return;
	rc = metrics_write_file(gw, r->metrics);
	if (rc)
		olog(OLOG_SOURCE, &c, "metrics %s: %s", r->metrics, strerror(-rc));
}

/*
 * Until the input ends or a signal: poll the input, the metrics socket and
 * the clock (metrics file, serial reconnect). 0, or -1 on a fatal error.
 */
static int loop(struct run *r, struct diamond_gw *gw)
{
	static uint8_t buf[65536];
	double next_metrics = mono() + r->interval, retry = 0, t;
	struct pollfd p[2];
	int n, rc;

	while (!stop) {
		t = mono();
		if (r->metrics && t >= next_metrics) {
			write_metrics(r, gw);
			next_metrics = t + r->interval;
		}
		if (r->src.fd < 0 && t >= retry && !src_reopen(&r->src))
			retry = t + 0.2;	/* the serial port is still away */
		p[0] = (struct pollfd){ .fd = r->src.fd, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = r->lfd, .events = POLLIN };
		n = poll(p, 2, r->src.kind == SRC_SERIAL ? 200 :
			 r->metrics ? 1000 : -1);
		if (n < 0 && errno == EINTR)
			continue;
		src_check(&r->src, gw);
		if (n > 0 && (p[1].revents & POLLIN))
			metrics_serve(gw, r->lfd);
		if (n <= 0 || !(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		rc = src_pump(&r->src, gw, buf, sizeof(buf));
		if (rc <= 0)
			return rc;
	}
	return 0;
}

static void summary(const struct diamond_gw_opts *go, struct diamond_gw *gw,
		    int stream)
{
	struct diamond_gw_stats st;
	struct olog_ctx c = { .what = "summary" };
	char groups[96] = "";

	diamond_gw_stats(gw, &st);
	if (st.groups_verified || st.groups_rejected)
		snprintf(groups, sizeof(groups),
			 ", %llu groups released, %llu groups rejected",
			 (unsigned long long)st.groups_verified,
			 (unsigned long long)st.groups_rejected);
	olog_info(1, &c, "open (%s): %llu devices, %llu epochs verified, "
	     "%llu rejected, %llu records, %llu frame errors, %llu frames dropped%s%s%s",
	     go->backend == DIAMOND_BACKEND_KERNEL ? "kernel" : "software",
	     (unsigned long long)st.devices, (unsigned long long)st.verified,
	     (unsigned long long)st.rejected, (unsigned long long)st.records,
	     (unsigned long long)st.frame_errors,
	     (unsigned long long)st.frames_dropped, groups,
	     stream && st.open_epochs ? ", open epochs kept in the spool" : "",
	     olog_suppressed() ? ", some messages suppressed by --log-rate" : "");
	if (olog_suppressed())
		olog_info(1, &c, "%llu log lines suppressed by --log-rate",
		     (unsigned long long)olog_suppressed());
}

static int start(struct diamond_gw **gw, const struct diamond_gw_opts *go)
{
	static const struct olog_ctx c = { .what = "setup" };
	struct diamond_gw_cbs cbs = { .event = on_event, .record_ad = on_record };
	char msg[512] = "";
	int rc = diamond_gw_new(gw, go, &cbs, msg, sizeof(msg));

	if (rc == -ENOPKG)
		olog(OLOG_SETUP, &c, "%s; or verify in software with --software", msg);
	else if (rc)
		olog(OLOG_SETUP, &c, "%s", *msg ? msg : diamond_strerror(rc));
	if (rc)
		return rc;
	if (*msg)	/* which way the kernel path goes, when not the usual */
		olog_info(1, &c, "%s", msg);
	rc = diamond_gw_resume(*gw);
	if (rc > 0)
		olog_info(1, &c, "%d open epochs taken up from the spool", rc);
	if (rc < 0) {
		olog(OLOG_SETUP, &c, "spool: %s", diamond_strerror(rc));
		diamond_gw_free(*gw);
		return rc;
	}
	return 0;
}

/* open --mqtt's own options, checked by open_mqtt_args(). */
struct mqtt_args {
	const char *broker, *shard, *prefix, *client_id, *user, *fleet;
	const char *cafile, *cert, *key;
	uint32_t shards, lease_ms;
	size_t max_owed;
	int no_rebalance;
};

static int open_mqtt_args(const struct diamond_gw_opts *go,
			  const struct mqtt_args *a)
{
#ifdef DIAMONDCTL_NO_MQTT
	(void)go;
	(void)a;
	err_msg("--mqtt: this diamondctl is built without MQTT (libmosquitto)");
	return EXIT_USAGE;
#else
	struct mq_opts mo = { .prefix = a->prefix, .client_id = a->client_id,
			      .user = a->user, .shards = a->shards,
			      .max_owed = a->max_owed,
			      .cafile = a->cafile, .cert = a->cert, .key = a->key };

	if (mq_parse_brokers(a->broker, &mo) || mq_tls_check(&mo))
		return EXIT_USAGE;
	if (!(go->flags & DIAMOND_GW_SPOOL)) {
		err_msg("--mqtt needs the spool: a frame is acknowledged once it is in it");
		return EXIT_USAGE;
	}
	if (!*a->prefix || strpbrk(a->prefix, "+#")) {
		err_msg("--topic-prefix: not empty, no + or #");
		return EXIT_USAGE;
	}
	if (a->fleet) {
		struct fleet_opts fo = { .dir = a->fleet, .name = a->client_id,
					 .shards = a->shard,
					 .lease_ms = a->lease_ms,
					 .no_rebalance = a->no_rebalance };

		if (!a->client_id || !lease_name_ok(a->client_id)) {
			err_msg("--fleet needs --client-id NAME, this verifier's "
				"name in the fleet: [A-Za-z0-9._-]{1,64}");
			return EXIT_USAGE;
		}
		return fleet_run(go, &mo, &fo);
	}
	return open_mqtt(go, &mo, a->shard);
#endif
}

int cmd_open(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state-dir", required_argument, NULL, 'D' },
		{ "software", no_argument, NULL, 's' },
		{ "custody", no_argument, NULL, 'C' },
		{ "input", required_argument, NULL, 'i' },
		{ "serial", required_argument, NULL, 'S' },
		{ "udp", required_argument, NULL, 'u' },
		{ "bind", required_argument, NULL, 'B' },
		{ "max-tfms", required_argument, NULL, 'T' },
		{ "max-skip", required_argument, NULL, 'K' },
		{ "max-buffer", required_argument, NULL, 'M' },
		{ "no-spool", no_argument, NULL, 'n' },
		{ "quarantine-max", required_argument, NULL, 'Q' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "metrics-socket", required_argument, NULL, 'x' },
		{ "metrics-interval", required_argument, NULL, 'I' },
		{ "log-rate", required_argument, NULL, 'L' },
		{ "json-errors", no_argument, NULL, 'j' },
		{ "mqtt", required_argument, NULL, 'q' },
		{ "shards", required_argument, NULL, 'N' },
		{ "shard", required_argument, NULL, 'H' },
		{ "topic-prefix", required_argument, NULL, 'P' },
		{ "client-id", required_argument, NULL, 'c' },
		{ "user", required_argument, NULL, 'U' },
		{ "fleet", required_argument, NULL, 'F' },
		{ "lease-ms", required_argument, NULL, 'l' },
		{ "no-rebalance", no_argument, NULL, 'R' },
		{ "max-owed", required_argument, NULL, 'O' },
		MQ_TLS_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct mqtt_args mq = { .prefix = "diamond", .shards = 1,
				.max_owed = MQ_DEFAULT_MAX_OWED,
				.lease_ms = FLEET_DEFAULT_LEASE_MS };
	struct diamond_gw_opts go = {
		.backend = DIAMOND_BACKEND_KERNEL,
		.flags = DIAMOND_GW_SPOOL | DIAMOND_GW_QUARANTINE,
	};
	struct run r = { .src = { .kind = SRC_FD, .bind = "127.0.0.1" },
			 .interval = 10, .lfd = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	struct diamond_gw *gw;
	unsigned int rate = 10;
	int c, rc, nsrc = 0, json = 0, stream;
	uint64_t v;

	if (has_packet(argc, argv))
		return cmd_open_packet(argc, argv);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'D': go.state_dir = optarg; break;
		case 's': go.backend = DIAMOND_BACKEND_SOFTWARE; break;
		case 'C': go.flags |= DIAMOND_GW_CUSTODY; break;
		case 'i': r.src.kind = SRC_FILE; r.src.name = optarg; nsrc++; break;
		case 'S': r.src.kind = SRC_SERIAL; r.src.name = optarg; nsrc++; break;
		case 'u': r.src.kind = SRC_UDP; r.src.name = optarg; nsrc++; break;
		case 'B': r.src.bind = optarg; break;
		case 'n': go.flags &= ~(unsigned int)DIAMOND_GW_SPOOL; break;
		case 'm': r.metrics = optarg; break;
		case 'x': r.msock = optarg; break;
		case 'j': json = 1; break;
		case 'T':
			if (parse_u64(optarg, 1u << 20, &v) || !v)
				goto bad;
			go.max_tfms = (unsigned int)v;
			break;
		case 'K':
			if (parse_u64(optarg, UINT32_MAX, &v) || !v)
				goto bad;
			go.max_skip = (uint32_t)v;
			break;
		case 'M':
			if (parse_u64(optarg, 1u << 16, &v) ||
			    v << 20 < DIAMOND_MIN_MAX_BUFFER)
				goto bad;	/* room for one largest epoch */
			go.max_buffer = (size_t)v << 20;
			break;
		case 'Q':
			if (parse_u64(optarg, 1u << 20, &v))
				goto bad;
			if (!v)
				go.flags &= ~(unsigned int)DIAMOND_GW_QUARANTINE;
			go.quarantine_max = (size_t)v << 20;
			break;
		case 'I':
			if (parse_u64(optarg, 86400, &v) || !v)
				goto bad;
			r.interval = (unsigned int)v;
			break;
		case 'L':
			if (parse_u64(optarg, 1000000, &v))
				goto bad;
			rate = (unsigned int)v;
			break;
		case 'q': mq.broker = optarg; nsrc++; break;
		case 'H': mq.shard = optarg; break;
		case 'P': mq.prefix = optarg; break;
		case 'c': mq.client_id = optarg; break;
		case 'U': mq.user = optarg; break;
		case 'F': mq.fleet = optarg; break;
		case 'l':
			if (parse_u64(optarg, 600000, &v) || v < 300)
				goto bad;
			mq.lease_ms = (uint32_t)v;
			break;
		case 'R': mq.no_rebalance = 1; break;
		case 'O':
			if (parse_u64(optarg, 1u << 24, &v) || !v)
				goto bad;
			mq.max_owed = (size_t)v;
			break;
		case MQ_OPT_CAFILE: mq.cafile = optarg; break;
		case MQ_OPT_CERT: mq.cert = optarg; break;
		case MQ_OPT_KEY: mq.key = optarg; break;
		case 'N':
			if (parse_u64(optarg, 65536, &v) || !v)
				goto bad;
			mq.shards = (uint32_t)v;
			break;
		case 'h': help(stdout); return 0;
		default: help(stderr); return EXIT_USAGE;
		}
	}
	if (json)
		set_json_errors("open");
	olog_setup(rate);
	if (mq.fleet && !go.state_dir)
		go.state_dir = mq.fleet;	/* each shard has its own */
	if (!go.state_dir || nsrc > 1 || optind != argc ||
	    (mq.fleet && !mq.broker)) {
		if (nsrc > 1)
			err_msg("choose one of --input, --serial, --udp, --mqtt");
		help(stderr);
		return EXIT_USAGE;
	}
	if (mq.broker)
		return open_mqtt_args(&go, &mq);
	if (start(&gw, &go))
		return EXIT_SETUP;
	stream = r.src.kind == SRC_SERIAL || r.src.kind == SRC_UDP;
	if (src_open(&r.src)) {
		diamond_gw_free(gw);
		return EXIT_SETUP;
	}
	if (r.msock && (r.lfd = metrics_listen(r.msock)) < 0) {
		olog(OLOG_SETUP, NULL, "--metrics-socket %s: %m", r.msock);
		src_close(&r.src);
		diamond_gw_free(gw);
		return EXIT_SETUP;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a scraper that hangs up early */
	rc = loop(&r, gw) < 0 ? EXIT_SETUP : 0;
	/* The input ended: nothing more comes (after a failure: spooled). */
	if (!stream && !rc) {
		c = diamond_gw_finish(gw);
		if (c < 0 && feed_failed(gw, c))
			rc = EXIT_SETUP;
	}
	fflush(stdout);
	write_metrics(&r, gw);
	summary(&go, gw, stream);
	if (!rc && !stream) {
		struct diamond_gw_stats st;

		diamond_gw_stats(gw, &st);
		if (st.rejected || st.frame_errors || st.groups_rejected)
			rc = EXIT_REJECTED;
	}
	diamond_gw_free(gw);
	src_close(&r.src);
	if (r.lfd >= 0) {
		close(r.lfd);
		unlink(r.msock);
	}
	return rc;
bad:
	err_msg("bad value '%s'", optarg);
	return EXIT_USAGE;
}
