/*
 * plots/cmd_common.c - what `ioreel plot` and `ioreel compare` share on the
 * command line: loading the runs with the messages people see (their
 * --interval range is PLOTS_INTERVAL_MIN_MS..PLOTS_INTERVAL_MAX_MS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plots/plots.h"

int plots_cmd_load_labeled(const char *cmd, char *const *paths, const char *const *labels, size_t n,
			   double interval_ms, struct plots_run ***runs, size_t *nout)
{
	char err[4096] = "";
	int rc = plots_runs_load_labeled(runs, nout, (const char *const *)paths, labels, n,
					 (int64_t)(interval_ms * 1e6), err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "ioreel %s: %s\n", cmd, err[0] ? err : reel_strerror(rc));
		return rc;
	}
	for (size_t i = 0; i < *nout; i++)
		if (!(*runs)[i]->complete && (*runs)[i]->part_of < 0)
			fprintf(stderr,
				"ioreel %s: warning: %s was cut short (no trailer); "
				"using the records it holds\n",
				cmd, (*runs)[i]->path);
	return 0;
}

int plots_cmd_load(const char *cmd, char *const *paths, size_t n, double interval_ms,
		   struct plots_run ***runs)
{
	size_t nout;
	return plots_cmd_load_labeled(cmd, paths, NULL, n, interval_ms, runs, &nout);
}

int plots_label_opt(const char *arg, void *dest, char *err, size_t errlen)
{
	struct plots_label_args *la = dest;
	const char *name = strrchr(arg, '=');
	name = name ? name + 1 : arg;
	if (!*name)
		return reel_errf(err, errlen, -1, "--label '%s': the name is empty", arg);
	for (const char *c = arg; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f || strchr("\"'\\<>&|`", *c))
			return reel_errf(
			    err, errlen, -1,
			    "--label '%s': a name may not hold quotes, \\, <, >, &, |, "
			    "` or control characters",
			    arg);
	if (la->n >= PLOTS_MAX_LABELS)
		return reel_errf(err, errlen, -1, "--label: at most %d", PLOTS_MAX_LABELS);
	la->arg[la->n++] = arg;
	return 0;
}

/* FILE=NAME whose FILE was not given: an error, not a label, when the part
 * before '=' looks like a file (a .reel, a path, or something existing);
 * "qd=32" stays a label. */
static int names_a_file(const char *a, size_t len)
{
	char f[4096];
	struct stat st;
	if (!len || len >= sizeof(f))
		return 0;
	memcpy(f, a, len);
	f[len] = 0;
	return memchr(a, '/', len) || (len > 5 && !strcmp(f + len - 5, ".reel")) ||
	       stat(f, &st) == 0;
}

int plots_labels_resolve(const struct plots_label_args *la, char *const *paths, size_t n,
			 const char **out, char *err, size_t errlen)
{
	size_t next = 0;
	for (size_t i = 0; i < n; i++)
		out[i] = NULL;
	for (size_t k = 0; k < la->n; k++) {
		const char *a = la->arg[k], *eq = strrchr(a, '=');
		size_t i = n;
		for (size_t j = 0; eq && j < n && i == n; j++)
			if (strlen(paths[j]) == (size_t)(eq - a) && !strncmp(paths[j], a, eq - a))
				i = j;
		if (i < n) {
			out[i] = eq + 1;
			continue;
		}
		if (eq && names_a_file(a, (size_t)(eq - a)))
			return reel_errf(
			    err, errlen, REEL_E_ARG,
			    "--label '%s': %.*s is not one of the result files given "
			    "(FILE=NAME names a file exactly as given on the command line)",
			    a, (int)(eq - a), a);
		while (next < n && out[next])
			next++;
		if (next >= n)
			return reel_errf(err, errlen, -1,
					 "--label '%s': more labels than result files (%zu)", a, n);
		out[next++] = a;
	}
	return 0;
}
