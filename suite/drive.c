/*
 * suite/drive.c - a drive under test: its identity from sysfs, purge
 * (BLKDISCARD of the whole device, else BLKZEROOUT) and the PTS
 * workload-independent preconditioning (sequential 128 KiB writes of random
 * data over twice the capacity).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "suite/suite.h"

/* First line of a sysfs file, trimmed; "" when absent. */
static void sysfs_read(const char *dir, const char *name, char *buf, size_t len)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	buf[0] = 0;
	FILE *f = fopen(p, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	char *s = buf;
	while (*s == ' ')
		s++;
	memmove(buf, s, strlen(s) + 1);
}

static unsigned long long sysfs_num(const char *dir, const char *name)
{
	char b[64];
	sysfs_read(dir, name, b, sizeof(b));
	return strtoull(b, NULL, 10);
}

/* "mq-deadline" out of "[mq-deadline] kyber none" */
static void selected_word(char *s)
{
	char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = 0;
		memmove(s, a + 1, strlen(a + 1) + 1);
	}
}

/* A description for devices without a model string (zram, loop). */
static void virtual_model(struct suite_drive *d, const char *sys)
{
	char b[512] = "";
	if (!strncmp(d->kname, "zram", 4)) {
		sysfs_read(sys, "comp_algorithm", b, sizeof(b));
		selected_word(b);
		if (snprintf(d->model, sizeof(d->model), "zram (compressing RAM disk, %s)",
			     b[0] ? b : "?") >= (int)sizeof(d->model))
			d->model[sizeof(d->model) - 1] = 0; /* cut: it is a label */
	} else if (!strncmp(d->kname, "loop", 4)) {
		char dio[16];
		sysfs_read(sys, "loop/backing_file", b, sizeof(b));
		sysfs_read(sys, "loop/dio", dio, sizeof(dio));
		snprintf(d->model, sizeof(d->model), "loop over %.80s%s", b[0] ? b : "?",
			 dio[0] == '1' ? " (direct I/O)" : "");
	}
}

int suite_drive_identify(struct suite_drive *d, char *errmsg, size_t errlen)
{
	struct stat st;
	if (stat(d->path, &st) < 0)
		return reel_errf(errmsg, errlen, -errno, "--drive %s=%s: %s", d->name, d->path,
				 strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return reel_errf(errmsg, errlen, REEL_E_ARG,
				 "--drive %s=%s: not a block device (the suite purges and fills "
				 "whole devices)",
				 d->name, d->path);
	char link[PATH_MAX], real[PATH_MAX];
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(link, real))
		return reel_errf(errmsg, errlen, -errno, "--drive %s=%s: %s: %s", d->name, d->path,
				 link, strerror(errno));
	const char *base = strrchr(real, '/');
	snprintf(d->kname, sizeof(d->kname), "%.63s", base ? base + 1 : real);
	char q[PATH_MAX + 16], dev[PATH_MAX + 16];
	snprintf(q, sizeof(q), "%s/queue", real);
	snprintf(dev, sizeof(dev), "%s/device", real);
	sysfs_read(dev, "model", d->model, sizeof(d->model));
	sysfs_read(dev, "vendor", d->vendor, sizeof(d->vendor));
	sysfs_read(dev, "serial", d->serial, sizeof(d->serial));
	if (!d->serial[0])
		sysfs_read(real, "serial", d->serial, sizeof(d->serial));
	sysfs_read(dev, "firmware_rev", d->firmware, sizeof(d->firmware));
	if (!d->firmware[0])
		sysfs_read(dev, "rev", d->firmware, sizeof(d->firmware));
	if (!d->model[0])
		virtual_model(d, real);
	d->capacity = sysfs_num(real, "size") * 512;
	d->lbs = (unsigned)sysfs_num(q, "logical_block_size");
	d->pbs = (unsigned)sysfs_num(q, "physical_block_size");
	d->rotational = (unsigned)sysfs_num(q, "rotational");
	d->nr_requests = (unsigned)sysfs_num(q, "nr_requests");
	d->max_sectors_kb = (unsigned)sysfs_num(q, "max_sectors_kb");
	sysfs_read(q, "scheduler", d->scheduler, sizeof(d->scheduler));
	selected_word(d->scheduler);
	if (!d->capacity)
		return reel_errf(
		    errmsg, errlen, REEL_E_ARG,
		    "--drive %s=%s: the device has no capacity (zram without disksize?)", d->name,
		    d->path);
	return 0;
}

int suite_drive_purge(const struct suite_drive *d, char *method, size_t mlen, char *errmsg,
		      size_t errlen)
{
	int fd = open(d->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return reel_errf(errmsg, errlen, -errno, "%s (%s): purge: %s", d->name, d->path,
				 strerror(errno));
	uint64_t range[2] = {0, d->capacity};
	if (ioctl(fd, BLKDISCARD, range) == 0) {
		snprintf(method, mlen, "BLKDISCARD");
	} else if (ioctl(fd, BLKZEROOUT, range) == 0) {
		snprintf(method, mlen, "BLKZEROOUT (BLKDISCARD unsupported)");
	} else {
		int e = errno;
		close(fd);
		return reel_errf(errmsg, errlen, -e,
				 "%s (%s): purge: neither BLKDISCARD nor BLKZEROOUT works: %s",
				 d->name, d->path, strerror(e));
	}
	close(fd);
	return 0;
}

/* xorshift128+: random data fast enough not to slow the fill. */
static void fill_random(uint64_t *w, size_t n, uint64_t s[2])
{
	for (size_t i = 0; i < n; i++) {
		uint64_t x = s[0], y = s[1];
		s[0] = y;
		x ^= x << 23;
		s[1] = x ^ y ^ (x >> 17) ^ (y >> 26);
		w[i] = s[1] + y;
	}
}

#define FILL_BS (128u << 10)
int suite_drive_fill(const struct suite_drive *d, double factor,
		     void (*progress)(double frac, void *arg), void *arg, char *errmsg,
		     size_t errlen)
{
	int fd = open(d->path, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		return reel_errf(errmsg, errlen, -errno, "%s (%s): fill: %s", d->name, d->path,
				 strerror(errno));
	void *buf = NULL;
	if (posix_memalign(&buf, 4096, FILL_BS)) {
		close(fd);
		return reel_errf(errmsg, errlen, REEL_E_NOMEM, "out of memory");
	}
	uint64_t cap = d->capacity / FILL_BS * FILL_BS;
	uint64_t total = (uint64_t)(factor * (double)cap), done = 0;
	uint64_t seed[2] = {0x9e3779b97f4a7c15ull ^ d->capacity, 0xbf58476d1ce4e5b9ull};
	int rc = 0;
	int64_t last = reel_now_ns();
	while (done < total && cap) {
		fill_random(buf, FILL_BS / 8, seed);
		ssize_t w = pwrite(fd, buf, FILL_BS, (off_t)(done % cap));
		if (w != (ssize_t)FILL_BS) {
			rc = reel_errf(errmsg, errlen, w < 0 ? -errno : REEL_E_IO,
				       "%s (%s): fill: write at %llu: %s", d->name, d->path,
				       (unsigned long long)(done % cap),
				       w < 0 ? strerror(errno) : "short write");
			break;
		}
		done += FILL_BS;
		if (progress && reel_now_ns() - last > 250000000) {
			last = reel_now_ns();
			progress((double)done / (double)total, arg);
		}
	}
	if (!rc && fdatasync(fd) < 0)
		rc = reel_errf(errmsg, errlen, -errno, "%s: fill: fdatasync: %s", d->name,
			       strerror(errno));
	free(buf);
	close(fd);
	return rc;
}
