// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * diamondctl open: the JSON of what the gateway decided about an epoch,
 * for stdout (open.c) and for the events topic (open_mqtt.c) alike.
 */
#include <stdio.h>

#include "open.h"

/*
 * The rejected groups of @ev as runs of one reason:
 * {"group":I,"reason":"..."} for one group, {"group":I,"last":J,...} for
 * groups I..J, so a line grows with the runs, not with the groups.
 */
static void rejected_runs(FILE *f, const struct diamond_event *ev)
{
	uint32_t i, j;
	int first = 1;

	for (i = 0; i < ev->ngroups; i = j) {
		for (j = i + 1; j < ev->ngroups &&
		     ev->group_err[j] == ev->group_err[i]; j++)
			;
		if (!ev->group_err[i])
			continue;
		fprintf(f, "%s{\"group\":%u", first ? "" : ",", (unsigned int)i);
		if (j - i > 1)
			fprintf(f, ",\"last\":%u", (unsigned int)(j - 1));
		fprintf(f, ",\"reason\":\"%s\"}",
			diamond_reason_name(diamond_reason(ev->group_err[i])));
		first = 0;
	}
}

void epoch_groups_json(FILE *f, const struct diamond_event *ev)
{
	uint32_t i;
	int first = 1;

	fprintf(f, "{\"device\":%u,\"epoch\":%llu,\"closed\":%s",
		(unsigned int)ev->device_id, (unsigned long long)ev->epoch,
		ev->closed ? "true" : "false");
	if (ev->closed)
		fprintf(f, ",\"count\":%u", (unsigned int)ev->count);
	fputs(",\"released\":[", f);
	for (i = 0; i < ev->ngroups; i++)
		if (!ev->group_err[i]) {
			fprintf(f, "%s%u", first ? "" : ",", (unsigned int)i);
			first = 0;
		}
	fputs("],\"rejected\":[", f);
	rejected_runs(f, ev);
	fputs("]}\n", f);
}

void unit_event_json(FILE *f, const struct diamond_event *ev)
{
	const char *what = ev->kind == DIAMOND_EV_REJECTED ? "rejected" :
			   ev->kind == DIAMOND_EV_GROUP_UNDECIDED ? "undecided" :
			   "group_rejected";

	fprintf(f, "{\"device\":%u,\"epoch\":%llu,\"event\":\"%s\"",
		(unsigned int)ev->device_id, (unsigned long long)ev->epoch,
		what);
	if (ev->kind != DIAMOND_EV_REJECTED) {
		fprintf(f, ",\"group\":%u", (unsigned int)ev->group);
		if (ev->ngroups > 1)
			fprintf(f, ",\"last\":%u",
				(unsigned int)(ev->group + ev->ngroups - 1));
		fprintf(f, ",\"first\":%u,\"count\":%u",
			(unsigned int)ev->first, (unsigned int)ev->count);
	}
	fprintf(f, ",\"reason\":\"%s\"}\n",
		diamond_reason_name(diamond_reason(ev->err)));
}
