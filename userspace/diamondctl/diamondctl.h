/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* diamondctl: one file per subcommand; helpers in util.c. */
#ifndef DIAMONDCTL_H
#define DIAMONDCTL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <diamond/libdiamond.h>
#include <diamond/spec.h>

/* Exit statuses (diamondctl.1, EXIT STATUS). */
#define EXIT_REJECTED	1	/* an epoch or frame was rejected */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_SETUP	3	/* files, state directory, kernel support */

int cmd_keygen(int argc, char **argv);
int cmd_provision(int argc, char **argv);
int cmd_seal(int argc, char **argv);
int cmd_open(int argc, char **argv);
int cmd_state(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_keys(int argc, char **argv);
/* packet.c: packet mode (spec section 14). */
int cmd_seal_packet(int argc, char **argv);
int cmd_open_packet(int argc, char **argv);
int cmd_radio(int argc, char **argv);
int has_packet(int argc, char **argv);
int packet_width(const char *s, unsigned int *a);
int packet_addr(const char *s, uint32_t *addr);
/* A provisioned device's radio configuration into DIR: 0 or -errno. */
int provision_radio(const char *dir, uint32_t id, unsigned int a,
		    uint32_t addr);
struct diamond_params;
/* Before provisioning: a packet key (spec 14.2) and a free address; 0 or an
 * exit status, with the message printed. */
int provision_radio_check(const char *dir, const struct diamond_params *p,
			  unsigned int a, uint32_t addr);
int cmd_forward(int argc, char **argv);	/* forward.c, with MQTT */

/* 0 quiet (-q), 1 normal, 2 verbose (-v); see note(). */
extern int verbosity;
/* An error on stderr: "diamondctl: ..." or, after set_json_errors(), one
 * JSON line {"error":"...","command":"..."}. */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void set_json_errors(const char *command);
/* The command named by set_json_errors(), or NULL: errors are text. */
const char *json_errors(void);
/* @s as a JSON string body: quotes, backslashes and controls escaped. */
void json_string(void *f, const char *s);
/* A message shown at @level (1: normal, 2: -v) and above, on stderr. */
void note(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Decimal only, no sign, no leading zero ("010" is refused); 0 on success. */
int parse_u64(const char *s, uint64_t max, uint64_t *out);
/*
 * "FIRST-LAST", device IDs (parse_u64's rules), FIRST <= LAST, at most
 * @max_count of them; 0 or -1.
 */
int parse_id_range(const char *s, uint64_t max_count, uint32_t *first,
		   uint32_t *last);
/* A path pattern with one "%u" (a device ID) and no other '%': 1 or 0. */
int id_pattern_ok(const char *pat);
/* The pattern's path for device @id (id_pattern_ok() patterns only). */
void id_path(char *buf, size_t size, const char *pat, uint32_t id);
/* Hex to bytes; the number of bytes, or -1. */
long parse_hex(const char *s, uint8_t *out, size_t max);
/* Read a whole small file; bytes read or a negative errno. */
long read_file(const char *path, uint8_t *buf, size_t size);
/* @len bytes from getrandom(2) (blocking until seeded); 0 or -errno. */
int random_bytes(uint8_t *buf, size_t len);
/* Write a new file with @mode, refusing to replace one; 0 or -errno. */
int write_new_file(const char *path, const void *data, size_t len,
		   unsigned int mode);
/* Up to 8 new files, all or none of them (fsync, link, cleanup). */
int write_new_files(const char *const *paths, const void *const *data,
		    const size_t *lens, size_t n, unsigned int mode);
/* The provisioning ledger beside a root secret (ledger.c). */
void ledger_path(const char *root_path, char *buf, size_t size);
/*
 * Record and return in @gen device @id's next generation (@want < 0) or
 * generation @want, with the provisioning's fresh value @nonce (spec
 * section 2) on the same line. -ENOENT without a ledger (only @want >= 0
 * creates one), -EEXIST if @want is not above every recorded one,
 * -EOVERFLOW past 65535.
 */
int ledger_take(const char *root_path, uint32_t id, long want,
		const uint8_t nonce[DIAMOND_PROV_NONCE_SIZE],
		unsigned int *gen);
/*
 * The same for the @n devices @first..@first + @n - 1 (provision
 * --devices), the ledger read once: @nonces holds their @n fresh values,
 * @gens receives their generations. All or none: on an error nothing is
 * recorded and *@at names the device it is about.
 */
int ledger_take_range(const char *root_path, uint32_t first, size_t n,
		      long want, const uint8_t *nonces, unsigned int *gens,
		      uint32_t *at);
int parse_agg(const char *s, unsigned int *agg);
const char *agg_name(unsigned int agg);
/* A JSON line for one record and its epoch's AD (hex, if any), into @f. */
void json_record(void *f, uint32_t dev, uint64_t epoch, uint32_t index,
		 const uint8_t *data, size_t len, const uint8_t *ad,
		 size_t adlen);
/*
 * {"device":D,"epoch":E,"event":"lost","first":F,"count":C}: records F to
 * F + C - 1 of a packet-mode device given up (diamond_prx_cbs.lost).
 */
void json_lost(void *f, uint32_t dev, uint64_t epoch, uint32_t first,
	       uint32_t count);
/*
 * What @json writes for @x, without its final newline (*@len bytes,
 * malloc'd, NUL-terminated), or NULL when out of memory.
 */
char *json_text(void (*json)(FILE *f, const void *x), const void *x,
		size_t *len);

#endif
