// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A device's wrapped state (custody mode, issue 20 items 2-3): what the
 * gateway keeps of a device whose key only diamond.ko holds. The module
 * exports the state as a DMDW blob (kernel-api.rst, "Wrapped states"),
 * sealed under the kernel's diamond:wrap key; the gateway reads only its
 * clear header (device, generation, epoch, cursor) and stores the blob
 * whole. The public parameters (agg, b, group size) are not in that
 * header, so the state file carries them beside it (userspace.rst section
 * 3, version 4). This file is the format alone; store.c does the I/O.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define DMDW_MAGIC	"DMDW"
#define DMDW_VERSION	1
#define DMDW_CURSOR	0x01	/* header flags: a cursor follows the blob */
#define PARAMS_SIZE	8	/* agg, 0, le16 b, le16 group field, le16 0 */

/* The inner length the header of @w must name: blob (and cursor). */
static size_t inner_len(const struct dlib_wstate *w)
{
	size_t k = dmd_key_size(w->st.suite);

	return dmd_blob2_size(w->st.suite) + (w->cursor ? 12 + k : 0);
}

size_t dlib_wst_size(const struct dlib_wstate *w)
{
	return PARAMS_SIZE + DLIB_DMDW_HDR + w->len;
}

/* The DMDW header @w stands for, as the module writes it. */
void dlib_wst_header(const struct dlib_wstate *w, uint8_t *h)
{
	memcpy(h, DMDW_MAGIC, 4);
	h[4] = DMDW_VERSION;
	h[5] = w->st.suite;
	h[6] = w->cursor ? DMDW_CURSOR : 0;
	h[7] = 0;
	dmd_store32_le(h + 8, w->st.device_id);
	dmd_store16_le(h + 12, w->st.gen);
	h[14] = h[15] = 0;
	dmd_store64_le(h + 16, w->st.epoch);
	dmd_store32_le(h + 24, w->c);
	dmd_store32_le(h + 28, (uint32_t)inner_len(w));
}

/*
 * The header @h into @w (whose parameters agg, b, group are set): device,
 * suite, generation, epoch, cursor, each checked against the parameters.
 */
static int read_header(struct dlib_wstate *w, const uint8_t *h)
{
	uint32_t g;

	if (memcmp(h, DMDW_MAGIC, 4) || h[4] != DMDW_VERSION ||
	    (h[6] & ~DMDW_CURSOR) || h[7] || h[14] || h[15])
		return -EUCLEAN;
	w->st.suite = h[5];
	w->cursor = h[6] & DMDW_CURSOR;
	w->st.device_id = dmd_load32_le(h + 8);
	w->st.gen = dmd_load16_le(h + 12);
	w->st.epoch = dmd_load64_le(h + 16);
	w->c = dmd_load32_le(h + 24);
	if (dmd_state_check(&w->st) != DMD_OK ||
	    dmd_load32_le(h + 28) != inner_len(w))
		return -EUCLEAN;
	g = w->st.group ? w->st.group : w->st.b;
	if (!w->cursor)
		return w->c ? -EUCLEAN : 0;
	/* As a version 3 file's cursor: in the epoch before, 1 <= c <= q(b). */
	return g < w->st.b && w->st.epoch && w->c >= 1 &&
	       w->c <= (w->st.b - 1) / g ? 0 : -EUCLEAN;
}

int dlib_wst_adopt(struct dlib_wstate *w, const uint8_t *dmdw, size_t len)
{
	struct dlib_wstate t = *w;
	int rc;

	if (len < DLIB_DMDW_HDR || len > DLIB_DMDW_MAX)
		return -EUCLEAN;
	rc = read_header(&t, dmdw);
	if (rc || t.st.device_id != w->st.device_id || t.st.suite != w->st.suite ||
	    t.st.gen != w->st.gen || len != DLIB_DMDW_HDR + 24 + inner_len(&t) + 16)
		return rc ? rc : -EUCLEAN;
	memcpy(t.blob, dmdw, len);
	t.len = len;
	*w = t;
	return 0;
}

size_t dlib_wst_put(const struct dlib_wstate *w, uint8_t *out)
{
	out[0] = w->st.agg;
	out[1] = 0;
	dmd_store16_le(out + 2, (uint16_t)w->st.b);
	dmd_store16_le(out + 4, w->st.group);
	out[6] = out[7] = 0;
	dlib_wst_header(w, out + PARAMS_SIZE);
	memcpy(out + PARAMS_SIZE + DLIB_DMDW_HDR, w->blob, w->len);
	return dlib_wst_size(w);
}

int dlib_wst_get(struct dlib_wstate *w, const uint8_t *p, size_t left,
		 size_t wlen, uint32_t device_id)
{
	const uint8_t *h = p + PARAMS_SIZE;
	int rc;

	memset(w, 0, sizeof(*w));
	if (left < PARAMS_SIZE + DLIB_DMDW_HDR + wlen || p[1] || p[6] || p[7])
		return -EUCLEAN;
	w->st.agg = p[0];
	w->st.b = dmd_load16_le(p + 2);
	w->st.group = dmd_load16_le(p + 4);
	/*
	 * 0 and b both mean g = b, as in blobs (spec section 2): the field
	 * is kept as the device's blob has it, so a state provisioned with
	 * b there is read back, not refused.
	 */
	if (w->st.group > w->st.b)
		return -EUCLEAN;
	rc = read_header(w, h);
	if (rc)
		return rc;
	if (w->st.device_id != device_id)
		return -EXDEV;
	if (!wlen)
		return 0;		/* keyed by reference (diamond:<id>) */
	/* The blob's own header is the one beside it, byte for byte. */
	if (wlen != DLIB_DMDW_HDR + 24 + inner_len(w) + 16 ||
	    memcmp(h + DLIB_DMDW_HDR, h, DLIB_DMDW_HDR))
		return -EUCLEAN;
	memcpy(w->blob, h + DLIB_DMDW_HDR, wlen);
	w->len = wlen;
	return 0;
}

void dlib_wst_from_state(struct dlib_wstate *w, const struct dmd_state *st,
			 int cursor, uint32_t c)
{
	memset(w, 0, sizeof(*w));
	w->st = *st;
	dmd_wipe(w->st.key, sizeof(w->st.key));
	w->st.flags = 0;
	w->cursor = cursor ? 1 : 0;
	w->c = cursor ? c : 0;
}
