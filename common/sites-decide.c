// SPDX-License-Identifier: GPL-2.0
/*
 * What decided the panic, from the sites sites.c read out of the log: the
 * site of the deciding report, the signature a fleet buckets panics by, and
 * how a limit's count was spent.  See sites.h.
 */
#include <stdio.h>
#include <string.h>

#include "sites.h"
#include "sites-int.h"

/* ---- what decided the panic ---------------------------------------------- */

/* The reasons of common/panics.def (and verdict.c's) that a report decides. */
static const struct {
	const char *reason;
	enum ol_site_class class;
	const char *origin;	/* a warning of this origin, whatever the message */
	bool first;		/* the first report of the class, not the last */
} decided_by[] = {
	{ "warn_limit", OL_CLASS_WARNING, NULL, false },
	{ "panic_on_warn", OL_CLASS_WARNING, NULL, false },
	{ "panic_on_taint", OL_CLASS_WARNING, NULL, false },	/* the warning's taint, W */
	{ "kasan_fault", OL_CLASS_WARNING, "KASAN", false },
	{ "oops_limit", OL_CLASS_OOPS, NULL, false },
	{ "panic_on_oops", OL_CLASS_OOPS, NULL, false },
	{ "oops_in_interrupt", OL_CLASS_OOPS, NULL, false },
	{ "oops_in_init", OL_CLASS_OOPS, NULL, false },
	{ "oops_in_idle", OL_CLASS_OOPS, NULL, false },
	{ "init_killed", OL_CLASS_OOPS, NULL, false },
	{ "idle_killed", OL_CLASS_OOPS, NULL, false },
	{ "interrupt_handler_killed", OL_CLASS_OOPS, NULL, false },
	{ "oops_kill_failed", OL_CLASS_OOPS, NULL, false },
	{ "softlockup_panic", OL_CLASS_SOFTLOCKUP, NULL, false },
	{ "hardlockup_panic", OL_CLASS_HARDLOCKUP, NULL, false },
	/* kernel/hung_task.c: every blocked task of the pass is reported, then one panic: the first named it */
	{ "hung_task_panic", OL_CLASS_HUNG_TASK, NULL, true },
	{ "panic_on_rcu_stall", OL_CLASS_RCU, NULL, false },
	{ "stack_protector", OL_CLASS_PANIC, NULL, false },
	{ "stack_end_corrupted", OL_CLASS_PANIC, NULL, false },
	{ "double_fault", OL_CLASS_PANIC, NULL, false },
};

const struct ol_site *ol_sites_deciding(const struct ol_sites *s, const char *reason, const char *origin)
{
	const char *want;
	size_t i;
	int o, site;

	if (!reason)
		return NULL;
	for (i = 0; i < sizeof(decided_by) / sizeof(decided_by[0]); i++) {
		if (strcmp(decided_by[i].reason, reason) != 0)
			continue;
		site = decided_by[i].first ? s->first[decided_by[i].class] : s->last[decided_by[i].class];
		want = decided_by[i].origin ? decided_by[i].origin : origin;
		if (decided_by[i].class == OL_CLASS_WARNING && want && (o = site_warn_origin_of(want)) >= 0)
			site = s->last_origin[o];
		return site >= 0 ? &s->site[site] : NULL;
	}
	return NULL;
}

void ol_signature(char *buf, size_t len, const char *reason, const struct ol_site *decider)
{
	if (decider)
		snprintf(buf, len, "%s: %s", reason ? reason : "unknown", decider->title);
	else
		snprintf(buf, len, "%s", reason ? reason : "unknown");
}

unsigned long ol_sites_budget(const struct ol_sites *s, const char *counter, char *buf, size_t len)
{
	bool done[OL_SITES] = { false };
	unsigned long total = 0;
	size_t used = 0;
	unsigned int i, k;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < s->n; k++) {
		int best = -1;

		/* most first; of equal counts, the first seen */
		for (i = 0; i < s->n; i++)
			if (!done[i] && s->site[i].counts && strcmp(s->site[i].counts, counter) == 0 &&
			    s->site[i].count && (best < 0 || s->site[i].count > s->site[best].count))
				best = (int)i;
		if (best < 0)
			break;
		done[best] = true;
		total += s->site[best].count;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%lux %s%s%s%s", used ? ", " : "",
						 s->site[best].count, s->site[best].title,
						 s->site[best].where[0] ? " (" : "", s->site[best].where,
						 s->site[best].where[0] ? ")" : "");
	}
	return total;
}
