/*
 * formats/output.c - the one output policy: every file a command writes
 * goes through here.  Regular files only (or "-" for stdout): never a
 * device, FIFO, socket or symbolic link; never the same file as an input;
 * an existing file is replaced only with --overwrite or when it is
 * recognisably ioreel's own output of the same kind (the caller's ours():
 * commands whose output cannot be re-made or carries no mark - capture,
 * export - pass none, so anything existing needs --overwrite).  The data goes to a
 * temporary name in the same folder, created with O_EXCL | O_NOFOLLOW, and
 * is renamed into place only when complete: a failure or a signal never
 * leaves a half file under the final name and never deletes what was there.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/reel.h"

/* Temporaries still open, for reel_out_signal_cleanup(). */
#define OUT_LIVE_MAX 64
static struct reel_out *volatile live[OUT_LIVE_MAX];

static void live_add(struct reel_out *o)
{
	for (int i = 0; i < OUT_LIVE_MAX; i++)
		if (!live[i]) {
			live[i] = o;
			return;
		}
}

static void live_del(struct reel_out *o)
{
	for (int i = 0; i < OUT_LIVE_MAX; i++)
		if (live[i] == o)
			live[i] = NULL;
}

void reel_out_signal_cleanup(void)
{
	for (int i = 0; i < OUT_LIVE_MAX; i++) {
		struct reel_out *o = live[i];
		if (o && o->tmp[0])
			unlinkat(o->dirfd, o->tmp, 0); /* async-signal-safe */
	}
}

static void out_on_signal(int sig)
{
	reel_out_signal_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void reel_out_catch_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = out_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		/* a SIGHUP the caller ignores (nohup) stays ignored; SIGINT is
		 * caught even in a background job, whose shell ignores it */
		if (sigs[i] != SIGHUP ||
		    (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN))
			sigaction(sigs[i], &sa, NULL);
}

static const char *type_name(mode_t m)
{
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISDIR(m))
		return "a folder";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

/* Refuse when path (existing) is the same file as one of the inputs. */
static int check_inputs(const struct reel_out *o, const struct stat *st, const char *const *inputs,
			size_t ninputs, char *err, size_t errlen)
{
	for (size_t i = 0; i < ninputs; i++) {
		struct stat in;
		if (!inputs[i] || !strcmp(inputs[i], "-") || stat(inputs[i], &in) < 0)
			continue;
		if (in.st_dev == st->st_dev && in.st_ino == st->st_ino)
			return reel_errf(err, errlen, REEL_E_EXISTS,
					 "%s is the same file as the input %s: writing it would "
					 "destroy the input; name another output",
					 o->path, inputs[i]);
	}
	return 0;
}

/* The existing entry at o->path: may it be replaced? */
static int check_existing(struct reel_out *o, unsigned flags, reel_out_ours_fn ours,
			  const char *const *inputs, size_t ninputs, char *err, size_t errlen)
{
	struct stat st, target;
	if (fstatat(o->dirfd, o->path, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 0;
		return reel_errf(err, errlen, -errno, "%s: %s", o->path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode) && fstatat(o->dirfd, o->path, &target, 0) == 0) {
		int rc = check_inputs(o, &target, inputs, ninputs, err, errlen);
		if (rc < 0)
			return rc;
	}
	if (!S_ISREG(st.st_mode))
		return reel_errf(err, errlen, REEL_E_ARG,
				 "%s is %s: ioreel writes only regular files (or '-' for "
				 "standard output); name a file",
				 o->path, type_name(st.st_mode));
	int rc = check_inputs(o, &st, inputs, ninputs, err, errlen);
	if (rc < 0)
		return rc;
	if (flags & REEL_OUT_OVERWRITE)
		return 0;
	if (!ours)
		return reel_errf(err, errlen, REEL_E_EXISTS,
				 "%s exists: pass --overwrite to replace it, or name another file",
				 o->path);
	if (o->dirfd == AT_FDCWD && ours(o->path) == 1)
		return 0;
	return reel_errf(err, errlen, REEL_E_EXISTS,
			 "%s exists and was not written by this ioreel command (only its own "
			 "earlier output is replaced without asking): pass --overwrite to replace "
			 "it, or name another file",
			 o->path);
}

/* "dir/.name.ioreel-PID-N" beside the final name. */
static int make_tmp(struct reel_out *o, char *err, size_t errlen)
{
	static unsigned counter;
	const char *slash = strrchr(o->path, '/');
	int dlen = slash ? (int)(slash - o->path + 1) : 0;
	const char *base = slash ? slash + 1 : o->path;
	for (int tries = 0; tries < 100; tries++) {
		unsigned n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
		if (snprintf(o->tmp, sizeof(o->tmp), "%.*s.%s.ioreel-%ld-%u", dlen, o->path, base,
			     (long)getpid(), n) >= (int)sizeof(o->tmp))
			return reel_errf(err, errlen, REEL_E_ARG, "%s: name too long", o->path);
		o->fd = openat(o->dirfd, o->tmp,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	o->tmp[0] = 0;
	return reel_errf(err, errlen, -e, "%s: cannot create a file in its folder: %s", o->path,
			 strerror(e));
}

int reel_out_open(struct reel_out *o, int dirfd, const char *path, unsigned flags,
		  reel_out_ours_fn ours, const char *const *inputs, size_t ninputs, char *err,
		  size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->dirfd = dirfd;
	if (!path || !*path)
		return reel_errf(err, errlen, REEL_E_ARG, "no output file named");
	if (!strcmp(path, "-")) {
		if (!(flags & REEL_OUT_STDOUT))
			return reel_errf(err, errlen, REEL_E_ARG,
					 "this output cannot go to standard output; name a file");
		o->f = stdout;
		o->fd = STDOUT_FILENO;
		o->is_stdout = 1;
		snprintf(o->path, sizeof(o->path), "-");
		return 0;
	}
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path))
		return reel_errf(err, errlen, REEL_E_ARG, "%s: name too long", path);
	int rc = check_existing(o, flags, ours, inputs, ninputs, err, errlen);
	if (rc < 0)
		return rc;
	/* known to the signal cleanup before the temporary exists: a signal
	 * just after its creation removes it too (the name is this pid's) */
	live_add(o);
	rc = make_tmp(o, err, errlen);
	if (rc < 0) {
		live_del(o);
		return rc;
	}
	if (!(flags & REEL_OUT_FD_ONLY)) {
		o->f = fdopen(o->fd, "w");
		if (!o->f) {
			int e = errno;
			reel_out_abort(o);
			return reel_errf(err, errlen, -e, "%s: %s", path, strerror(e));
		}
	}
	return 0;
}

int reel_out_commit(struct reel_out *o, char *err, size_t errlen)
{
	int rc = 0, e = 0;
	if (o->is_stdout) {
		if (fflush(stdout) || ferror(stdout))
			return reel_errf(err, errlen, REEL_E_IO,
					 "standard output: write failed: %s", strerror(errno));
		return 0;
	}
	if (!o->tmp[0])
		return reel_errf(err, errlen, REEL_E_ARG, "%s: not open", o->path);
	if (o->f) {
		if (fflush(o->f) || ferror(o->f))
			e = errno ? errno : EIO;
	}
	if (!e && fsync(o->fd) < 0 && errno != EINVAL && errno != EROFS)
		e = errno;
	if (o->f) {
		if (fclose(o->f) && !e)
			e = errno ? errno : EIO;
	} else if (close(o->fd) < 0 && !e) {
		e = errno;
	}
	o->f = NULL;
	o->fd = -1;
	if (!e && renameat(o->dirfd, o->tmp, o->dirfd, o->path) < 0)
		e = errno;
	if (e) {
		rc = reel_errf(err, errlen, REEL_E_IO,
			       "%s: write failed (%s); nothing was written under that name and "
			       "what was there is unchanged",
			       o->path, strerror(e));
		unlinkat(o->dirfd, o->tmp, 0);
	}
	live_del(o);
	o->tmp[0] = 0;
	return rc;
}

void reel_out_abort(struct reel_out *o)
{
	if (!o || o->is_stdout)
		return;
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	if (o->tmp[0])
		unlinkat(o->dirfd, o->tmp, 0);
	live_del(o);
	o->tmp[0] = 0;
}

int reel_outdir_open(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return reel_errf(err, errlen, -errno, "%s: cannot create the folder: %s", dir,
				 strerror(errno));
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return reel_errf(err, errlen, -errno,
				 errno == ELOOP || errno == ENOTDIR
				     ? "%s: not a folder (or a symbolic link to one); name a "
				       "folder for the output"
				     : "%s: %s",
				 dir, strerror(errno));
	if (fstat(fd, &st) < 0 || (geteuid() == 0 && st.st_uid != 0) ||
	    (geteuid() != 0 && st.st_uid != geteuid())) {
		close(fd);
		return reel_errf(err, errlen, REEL_E_ARG,
				 "%s belongs to another user: files written there could be "
				 "redirected; name a folder of your own",
				 dir);
	}
	return fd;
}

int reel_outdir_sub(int dirfd, const char *name, char *err, size_t errlen)
{
	if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST)
		return reel_errf(err, errlen, -errno, "%s: cannot create the folder: %s", name,
				 strerror(errno));
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return reel_errf(err, errlen, -errno, "%s: not a folder of ours: %s", name,
				 strerror(errno));
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid()) {
		close(fd);
		return reel_errf(err, errlen, REEL_E_ARG, "%s belongs to another user", name);
	}
	return fd;
}

int reel_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!a || !b || stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int reel_out_starts_with(const char *path, const char *mark)
{
	size_t len = strlen(mark), k = 0;
	char *buf = malloc(len + 1);
	FILE *f = buf ? fopen(path, "r") : NULL;
	if (f) {
		k = fread(buf, 1, len, f);
		fclose(f);
	}
	int same = f && k == len && !memcmp(buf, mark, len);
	free(buf);
	return same;
}

int reel_out_reel_source(const char *path, const char *kind)
{
	struct reel_reader *rd = NULL;
	int ours = 0;
	if (reel_reader_open(&rd, path, 0) == 0) {
		const struct reel_header *h = reel_reader_header(rd);
		size_t n = strlen(kind);
		ours = h && h->source && !strncmp(h->source, kind, n) &&
		       (h->source[n] == 0 || h->source[n] == ':');
	}
	reel_reader_close(rd);
	return ours;
}
