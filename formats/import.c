/*
 * formats/import.c - the importer and exporter tables.  Each format is one
 * file (formats/import_<name>.c, formats/export_<name>.c) defining one ops
 * struct, listed here.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "formats/reel.h"

#define IMPORTERS(X)                                                                               \
	X(blktrace) X(blkparse) X(msr) X(spc) X(fiu) X(disksim) X(alibaba) X(tencent) X(fio)
#define EXPORTERS(X) X(fio) X(csv) X(blkparse)

#define DECL_IMP(n) extern const struct reel_importer reel_imp_##n;
#define DECL_EXP(n) extern const struct reel_exporter reel_exp_##n;
IMPORTERS(DECL_IMP)
EXPORTERS(DECL_EXP)

#define REF_IMP(n) &reel_imp_##n,
#define REF_EXP(n) &reel_exp_##n,
static const struct reel_importer *const all_importers[] = {IMPORTERS(REF_IMP)};
static const struct reel_exporter *const all_exporters[] = {EXPORTERS(REF_EXP)};
#define NIMP (sizeof(all_importers) / sizeof(all_importers[0]))
#define NEXP (sizeof(all_exporters) / sizeof(all_exporters[0]))

const struct reel_importer *const *reel_importers(void)
{
	static const struct reel_importer *list[NIMP + 1];
	size_t n = 0;
	for (size_t i = 0; i < NIMP; i++)
		if (all_importers[i])
			list[n++] = all_importers[i];
	list[n] = NULL;
	return list;
}

const struct reel_exporter *const *reel_exporters(void)
{
	static const struct reel_exporter *list[NEXP + 1];
	size_t n = 0;
	for (size_t i = 0; i < NEXP; i++)
		if (all_exporters[i])
			list[n++] = all_exporters[i];
	list[n] = NULL;
	return list;
}

const struct reel_importer *reel_importer_find(const char *name)
{
	for (const struct reel_importer *const *p = reel_importers(); *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

const struct reel_exporter *reel_exporter_find(const char *name)
{
	for (const struct reel_exporter *const *p = reel_exporters(); *p; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

const struct reel_importer *reel_importer_detect(const char *path)
{
	unsigned char buf[65536];
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return NULL;
	const struct reel_importer *best = NULL;
	int best_score = 0;
	for (const struct reel_importer *const *p = reel_importers(); *p; p++) {
		int s = (*p)->detect ? (*p)->detect(buf, (size_t)n, path) : 0;
		if (s > best_score) {
			best_score = s;
			best = *p;
		}
	}
	return best;
}
