/*
 * replay/safety.c - nothing lost that the user did not choose to lose.
 * Block devices: mounted (the device or a partition, from
 * /proc/self/mountinfo), held (/sys/class/block/X/holders), swap
 * (/proc/swaps), signatures (libblkid: filesystems, RAID, partition
 * tables).  Regular files: created by ioreel (xattr) or --overwrite.
 */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "replay/replay.h"

#define CREATED_XATTR "user.ioreel"

/* Kernel name of a block device ("loop3", "nvme0n1p2") from its dev_t. */
static int devname_of(dev_t rdev, char *name, size_t len)
{
	char link[PATH_MAX], p[64];
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	ssize_t n = readlink(p, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = 0;
	const char *b = strrchr(link, '/');
	b = b ? b + 1 : link;
	size_t l = strlen(b);
	if (l >= len)
		l = len - 1;
	memcpy(name, b, l);
	name[l] = 0;
	return 0;
}

/* Is dev (or a partition of it: same name prefix under /sys/class/block/NAME)
 * mounted?  Fills where with the mount point. */
static int is_mounted(const char *name, dev_t rdev, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return 0;
	char line[4096];
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned id, parent, ma, mi;
		char root[1024], mnt[1024];
		if (sscanf(line, "%u %u %u:%u %1023s %1023s", &id, &parent, &ma, &mi, root, mnt) !=
		    6)
			continue;
		dev_t d = makedev(ma, mi);
		if (d == rdev) {
			found = 1;
		} else {
			/* a partition of ours: /sys/class/block/NAME/<part>/dev */
			char part[64], p[PATH_MAX];
			if (devname_of(d, part, sizeof(part)) == 0 &&
			    !strncmp(part, name, strlen(name)) && strcmp(part, name)) {
				snprintf(p, sizeof(p), "/sys/class/block/%s/%s", name, part);
				found = access(p, F_OK) == 0;
			}
		}
		if (found)
			snprintf(where, len, "%s", mnt);
	}
	fclose(f);
	return found;
}

/* First holder (dm-0, md0, ...) of the device or its partitions. */
static int held_by(const char *name, char *who, size_t len)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "/sys/class/block/%s/holders", name);
	DIR *d = opendir(p);
	if (!d)
		return 0;
	struct dirent *e;
	int found = 0;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(who, len, "%s", e->d_name);
		found = 1;
	}
	closedir(d);
	if (found)
		return 1;
	/* partitions: /sys/class/block/NAME/NAMEpN/holders */
	snprintf(p, sizeof(p), "/sys/class/block/%s", name);
	d = opendir(p);
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, name, strlen(name)) || !strcmp(e->d_name, name))
			continue;
		found = held_by(e->d_name, who, len);
	}
	closedir(d);
	return found;
}

static int is_swap(dev_t rdev)
{
	FILE *f = fopen("/proc/swaps", "r");
	if (!f)
		return 0;
	char line[1024];
	int found = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char path[1024];
		struct stat st;
		if (sscanf(line, "%1023s", path) == 1 && path[0] == '/' && stat(path, &st) == 0 &&
		    S_ISBLK(st.st_mode) && st.st_rdev == rdev)
			found = 1;
	}
	fclose(f);
	return found;
}

/* libblkid: what signature does the device carry?  0 none, 1 found. */
static int signature(const char *path, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return 0;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	int rc = blkid_do_safeprobe(pr);
	int found = 0;
	if (rc == 0) {
		const char *v = NULL;
		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0 && v) {
			snprintf(what, len, "a filesystem signature (%s)", v);
			found = 1;
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0 && v) {
			snprintf(what, len, "a partition table (%s)", v);
			found = 1;
		} else {
			snprintf(what, len, "a signature");
			found = 1;
		}
	} else if (rc == -2) {
		snprintf(what, len, "several conflicting signatures");
		found = 1;
	}
	blkid_free_probe(pr);
	return found;
}

/* Would a new file at path land on the /dev filesystem (devtmpfs, in RAM:
 * a mistyped device name), not on a filesystem mounted under it (/dev/shm)? */
static int on_dev_fs(const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = 0; /* "/x" -> "/" */
	struct stat d, devfs;
	if (!realpath(dir, real)) /* no such folder: open() will say so */
		return 0;
	if (strcmp(real, "/dev") && strncmp(real, "/dev/", 5))
		return 0;
	return stat(real, &d) == 0 && stat("/dev", &devfs) == 0 && d.st_dev == devfs.st_dev;
}

int replay_safety_names_it(const char *name, const char *path)
{
	struct stat st, ns;
	char kn[64];
	if (!strcmp(name, path))
		return 1;
	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	if (name[0] == '/' && stat(name, &ns) == 0 && S_ISBLK(ns.st_mode) &&
	    ns.st_rdev == st.st_rdev)
		return 1; /* another path to the same device (/dev/disk/by-id/...) */
	if (devname_of(st.st_rdev, kn, sizeof(kn)) < 0)
		return 0;
	return !strcmp(name, kn) || (!strncmp(name, "/dev/", 5) && !strcmp(name + 5, kn));
}

static int named(const struct replay_safety_opts *o, const char *path)
{
	if (o->destroy_name && replay_safety_names_it(o->destroy_name, path))
		return 1;
	for (size_t i = 0; i < o->ndestroy; i++)
		if (replay_safety_names_it(o->destroy_names[i], path))
			return 1;
	return 0;
}

int replay_safety_check(const char *path, const struct replay_safety_opts *o, int *created,
			char *errmsg, size_t errlen)
{
	struct stat st;
	*created = 0;
	if (stat(path, &st) < 0) {
		int e = errno;
		if (e == ENOENT && on_dev_fs(path))
			return reel_errf(errmsg, errlen, -ENOENT,
					 "no such device: %s; a target file is created only "
					 "outside /dev (lsblk lists the block devices)",
					 path);
		if (e == ENOENT) {
			*created = 1;
			return 0;
		}
		return reel_errf(errmsg, errlen, -e, "%s: %s", path, strerror(e));
	}
	if (S_ISREG(st.st_mode)) {
		if (!o->will_write || o->overwrite)
			return 0;
		char v[8];
		if (getxattr(path, CREATED_XATTR, v, sizeof(v)) > 0)
			return 0;
		return reel_errf(
		    errmsg, errlen, REEL_E_EXISTS,
		    "%s: the file exists and was not created by ioreel; the replay writes, so "
		    "it would be overwritten: pass --overwrite to allow it, or name a new file",
		    path);
	}
	if (!S_ISBLK(st.st_mode)) {
		return reel_errf(errmsg, errlen, REEL_E_ARG,
				 "%s: not a block device or regular file", path);
	}
	if (!o->will_write)
		return 0;
	char name[64], what[PATH_MAX + 64];
	if (devname_of(st.st_rdev, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (is_mounted(name, st.st_rdev, what, sizeof(what))) {
		return reel_errf(
		    errmsg, errlen, -EBUSY,
		    "%s (%s) is mounted on %s: refusing to write to it; unmount it first "
		    "(or replay with --read-only)",
		    path, name, what);
	}
	if (held_by(name, what, sizeof(what))) {
		return reel_errf(
		    errmsg, errlen, -EBUSY,
		    "%s (%s) is in use by %s (device mapper, md or similar): refusing to write; "
		    "stop %s first (or replay with --read-only)",
		    path, name, what, what);
	}
	if (is_swap(st.st_rdev)) {
		return reel_errf(
		    errmsg, errlen, -EBUSY,
		    "%s (%s) is active swap: refusing to write; swapoff it first (or replay "
		    "with --read-only)",
		    path, name);
	}
	if (signature(path, what, sizeof(what)) && !named(o, path)) {
		return reel_errf(
		    errmsg, errlen, REEL_E_EXISTS,
		    "%s (%s) carries %s: the replay writes and would destroy it; if that is "
		    "what you want, pass --destroy-data=%s (or replay with --read-only)",
		    path, name, what, name);
	}
	return 0;
}

void replay_safety_mark_created(int fd) { (void)fsetxattr(fd, CREATED_XATTR, "1", 1, 0); }
