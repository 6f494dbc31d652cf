// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: bytes from the radio into a software gateway over the
 * fixture's devices (fixture.h), as a byte stream or as datagrams, with a
 * restart in the middle through the spool and diamond_gw_resume().
 *
 * Input: a mode byte, a restart byte, then the input proper.
 *   mode bit 0  datagrams: the input is (le16 length, bytes)...; else one
 *               stream fed in pieces of 1 + (restart byte % 61) bytes
 *   mode bit 1  restart: free the gateway (no finish, the spool stays)
 *               after restart/256 of the input, then a new one resumes
 *   mode bit 2  end with diamond_gw_finish() (end of a file) or not
 *               (a stream cut off: the spool keeps the open epochs)
 *   mode bit 3  max_skip 2 in place of the default
 * Every record delivered is read whole, so a record pointing outside its
 * buffer is an ASan report, and a record longer than a record can be
 * aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static uint32_t sink;

static void on_record(void *arg, const struct diamond_record *r)
{
	size_t i;

	(void)arg;
	if (r->len > DIAMOND_MAX_RECORD || r->adlen > DIAMOND_MAX_AD ||
	    r->device_id < 1 || r->device_id > FX_DEVICES)
		abort();
	for (i = 0; i < r->len; i++)
		sink += r->data[i];
	for (i = 0; i < r->adlen; i++)
		sink += r->ad[i];
}

static void on_event(void *arg, const struct diamond_event *ev)
{
	uint32_t i;

	(void)arg;
	if (ev->detail)
		sink += (uint32_t)strlen(ev->detail);
	for (i = 0; ev->kind == DIAMOND_EV_EPOCH_GROUPS && i < ev->ngroups; i++)
		sink += (uint32_t)ev->group_err[i];
}

static struct diamond_gw *start(uint8_t mode)
{
	struct diamond_gw_opts o = {
		.backend = DIAMOND_BACKEND_SOFTWARE, .state_dir = fx_dir(),
		.flags = DIAMOND_GW_SPOOL | DIAMOND_GW_QUARANTINE,
		.quarantine_max = 1u << 16, .max_skip = mode & 8 ? 2 : 0,
	};
	struct diamond_gw_cbs cbs = { .record_ad = on_record, .event = on_event };
	struct diamond_gw *gw;

	if (diamond_gw_new(&gw, &o, &cbs, NULL, 0))
		abort();
	if (diamond_gw_resume(gw) < 0)
		abort();	/* its own spool must read back */
	return gw;
}

/* Feed @p[0..len) from @*pos on, up to @end. */
static void feed(struct diamond_gw *gw, uint8_t mode, uint8_t step,
		 const uint8_t *p, size_t *pos, size_t end)
{
	size_t n;

	while (*pos < end) {
		if (mode & 1) {
			if (end - *pos < 2) {
				*pos = end;
				break;
			}
			n = (size_t)p[*pos] | (size_t)p[*pos + 1] << 8;
			*pos += 2;
			n = n < end - *pos ? n : end - *pos;
			diamond_gw_feed_datagram(gw, p + *pos, n);
		} else {
			n = 1 + step % 61u;
			n = n < end - *pos ? n : end - *pos;
			diamond_gw_feed(gw, p + *pos, n);
		}
		*pos += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diamond_gw *gw;
	size_t pos = 0, cut;
	uint8_t mode, rs;

	if (size < 2)
		return 0;
	mode = data[0];
	rs = data[1];
	data += 2;
	size -= 2;
	if (fx_reset(fx_dir()))
		abort();
	gw = start(mode);
	if (mode & 2) {
		cut = size * rs / 256;
		feed(gw, mode, rs, data, &pos, cut);
		diamond_gw_free(gw);
		gw = start(mode);
	}
	feed(gw, mode, rs, data, &pos, size);
	if (mode & 4)
		diamond_gw_finish(gw);
	diamond_gw_free(gw);
	return 0;
}
