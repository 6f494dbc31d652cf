// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DiamondSender: dmd_device_*() (device.c, in diamond-sender.c) with an
 * Arduino Print as the link and nv_provision() for the key header.
 */
#include "Diamond.h"

#include <string.h>

Print *DiamondSender::link_;

void DiamondSender::write(const uint8_t *p, size_t n)
{
	link_->write(p, n);
}

int DiamondSender::begin(Print &link, uint8_t *window, size_t window_size,
			 size_t record_len, const uint8_t *blob,
			 size_t blob_len, const char *ad)
{
	int rc = DMD_OK;

	link_ = &link;
	/* Once: a blank EEPROM takes the blob, any other keeps its state. */
	if (blob)
		rc = nv_provision(blob, blob_len);
	if (rc == NV_IN_USE)
		rc = DMD_OK;
	if (rc == DMD_OK)
		rc = dmd_device_start(&dev_, window, window_size, record_len,
				      write, (const uint8_t *)ad,
				      ad ? strlen(ad) : 0);
	return rc;
}

int DiamondSender::seal(uint8_t *record, size_t len)
{
	return dmd_device_seal(&dev_, record, len);
}

int DiamondSender::close()
{
	return dmd_device_close(&dev_);
}

size_t DiamondSender::idle(size_t slots)
{
	return dmd_device_idle(&dev_, slots);
}

uint64_t DiamondSender::epoch() const
{
	return dmd_device_epoch(&dev_);
}

uint32_t DiamondSender::deviceId() const
{
	return dev_.snd.st.device_id;
}

void DiamondSender::end()
{
	dmd_device_wipe(&dev_);
}
