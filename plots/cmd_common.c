/*
 * plots/cmd_common.c - what `ioreel plot` and `ioreel compare` share on the
 * command line: loading the runs with the messages people see (their
 * --interval range is PLOTS_INTERVAL_MIN_MS..PLOTS_INTERVAL_MAX_MS).
 */
#include <stdio.h>
#include <stdlib.h>

#include "plots/plots.h"

int plots_cmd_load(const char *cmd, char *const *paths, size_t n, double interval_ms,
		   struct plots_run ***runs)
{
	char err[4096] = "";
	int rc = plots_runs_load(runs, (const char *const *)paths, n,
				 (int64_t)(interval_ms * 1e6), err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ioreel %s: %s\n", cmd, err[0] ? err : reel_strerror(rc));
		return rc;
	}
	for (size_t i = 0; i < n; i++)
		if (!(*runs)[i]->complete)
			fprintf(stderr, "ioreel %s: warning: %s was cut short (no trailer); "
					"using the records it holds\n",
				cmd, (*runs)[i]->path);
	return 0;
}
