/*
 * capture/devices.c - block device descriptions from sysfs.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capture/capture.h"

#define DEVT(ma, mi) (((uint32_t)(ma) << 20) | (uint32_t)(mi))

static int read_u64(const char *dir, const char *file, uint64_t *v)
{
	char p[PATH_MAX], buf[64];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	FILE *f = fopen(p, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	*v = strtoull(buf, NULL, 10);
	return 0;
}

static int read_devno(const char *dir, unsigned *ma, unsigned *mi)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/dev", dir);
	FILE *f = fopen(p, "r");
	if (!f)
		return -1;
	int n = fscanf(f, "%u:%u", ma, mi);
	fclose(f);
	return n == 2 ? 0 : -1;
}

/* Fill d from the sysfs directory of a block device (resolved path). */
static int describe(const char *sysdir, struct capture_device *d, char *err, size_t errlen)
{
	char disk[PATH_MAX], tmp[PATH_MAX + 32];
	unsigned ma, mi;
	uint64_t v;

	memset(d, 0, sizeof(*d));
	if (read_devno(sysdir, &ma, &mi))
		return reel_errf(err, errlen, -ENODEV, "%s/dev: cannot read the device number",
				 sysdir);
	const char *base = strrchr(sysdir, '/');
	base = base ? base + 1 : sysdir;
	snprintf(d->info.name, sizeof(d->info.name), "%s", base);
	d->info.major = ma;
	d->info.minor = mi;
	d->devt = DEVT(ma, mi);
	d->disk_devt = d->devt;
	snprintf(tmp, sizeof(tmp), "%s/partition", sysdir);
	snprintf(disk, sizeof(disk), "%s", sysdir);
	if (access(tmp, F_OK) == 0) {
		d->partition = 1;
		read_u64(sysdir, "start", &d->start_sector);
		char *slash = strrchr(disk, '/');
		if (slash)
			*slash = 0;
		if (read_devno(disk, &ma, &mi) == 0)
			d->disk_devt = DEVT(ma, mi);
	}
	if (read_u64(sysdir, "size", &v) == 0)
		d->info.capacity = v * 512;
	snprintf(tmp, sizeof(tmp), "%s/queue", disk);
	if (read_u64(tmp, "logical_block_size", &v) == 0)
		d->info.lbs = (uint32_t)v;
	if (read_u64(tmp, "physical_block_size", &v) == 0)
		d->info.pbs = (uint32_t)v;
	return 0;
}

int capture_device_lookup(const char *path, struct capture_device *d, char *err, size_t errlen)
{
	struct stat st;
	char p[PATH_MAX], real[PATH_MAX];

	if (stat(path, &st) != 0) {
		/* a bare name: "loop0" */
		snprintf(p, sizeof(p), "/sys/class/block/%s", path);
		if (strchr(path, '/') || !realpath(p, real))
			return reel_errf(err, errlen, -ENOENT,
					 "%s: %s (give a block device such as /dev/loop0)", path,
					 strerror(errno));
	} else {
		if (!S_ISBLK(st.st_mode))
			return reel_errf(err, errlen, -ENOTBLK,
					 "%s: not a block device (give one such as /dev/sda)",
					 path);
		snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(st.st_rdev),
			 minor(st.st_rdev));
		if (!realpath(p, real))
			return reel_errf(err, errlen, -ENOENT, "%s: %s: %s (is sysfs mounted?)",
					 path, p, strerror(errno));
	}
	return describe(real, d, err, errlen);
}

static int cmp_dev(const void *a, const void *b)
{
	const struct capture_device *x = a, *y = b;
	return strcmp(x->info.name, y->info.name);
}

long capture_device_all(struct capture_device **out)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *de;
	struct capture_device *v = NULL;
	size_t n = 0, cap = 0;
	char p[PATH_MAX], real[PATH_MAX], err[256];

	*out = NULL;
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s", de->d_name);
		if (!realpath(p, real))
			continue;
		struct capture_device d;
		if (describe(real, &d, err, sizeof(err)) || d.info.capacity == 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			void *nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(dir);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n++] = d;
	}
	closedir(dir);
	if (n)
		qsort(v, n, sizeof(*v), cmp_dev);
	*out = v;
	return (long)n;
}

static size_t add_devt(uint32_t *devts, size_t n, size_t max, uint32_t devt)
{
	for (size_t i = 0; i < n; i++)
		if (devts[i] == devt)
			return n;
	if (n < max)
		devts[n++] = devt;
	return n;
}

static size_t add_slaves(const char *sysdir, uint32_t *devts, size_t n, size_t max, int depth)
{
	char p[PATH_MAX], real[PATH_MAX];
	snprintf(p, sizeof(p), "%s/slaves", sysdir);
	DIR *dir = opendir(p);
	struct dirent *de;
	if (!dir || depth > 8) {
		if (dir)
			closedir(dir);
		return n;
	}
	while ((de = readdir(dir))) {
		unsigned ma, mi;
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/class/block/%s", de->d_name);
		if (!realpath(p, real) || read_devno(real, &ma, &mi))
			continue;
		n = add_devt(devts, n, max, DEVT(ma, mi));
		n = add_slaves(real, devts, n, max, depth + 1);
		/* a slave that is a partition: its disk carries the requests */
		char part[PATH_MAX + 16];
		snprintf(part, sizeof(part), "%s/partition", real);
		if (access(part, F_OK) == 0) {
			char *slash = strrchr(real, '/');
			if (slash) {
				*slash = 0;
				if (read_devno(real, &ma, &mi) == 0)
					n = add_devt(devts, n, max, DEVT(ma, mi));
			}
		}
	}
	closedir(dir);
	return n;
}

size_t capture_device_related(const struct capture_device *d, uint32_t *devts, size_t n, size_t max)
{
	char p[PATH_MAX], real[PATH_MAX];
	n = add_devt(devts, n, max, d->devt);
	n = add_devt(devts, n, max, d->disk_devt);
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", d->info.major, d->info.minor);
	if (realpath(p, real))
		n = add_slaves(real, devts, n, max, 0);
	return n;
}
