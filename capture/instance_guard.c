/*
 * capture/instance_guard.c - who owns a tracing instance (a lock held for
 * the capture's life, never a process name), the removal of instances left
 * by killed captures, and the watch that notices another program changing
 * a live capture's instance (see instance_guard.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "capture/instance_guard.h"

/* ---- the lock ------------------------------------------------------------ */
/* The lock folder: CAPTURE_LOCK_DIR, created 0700; refused when it is a
 * symbolic link or belongs to another user. */
static int lock_dir(char *err, size_t errlen)
{
	struct stat st;
	int made = mkdir(CAPTURE_LOCK_DIR, 0700) == 0 || errno == EEXIST;
	/* a user other than root fails here first: say what is missing, not
	 * that root's folder should go (it holds the locks of live captures) */
	if (geteuid() != 0 && (!made || (lstat(CAPTURE_LOCK_DIR, &st) == 0 && S_ISDIR(st.st_mode) &&
					 st.st_uid != geteuid())))
		return reel_errf(err, errlen, -EPERM,
				 "capture needs root (tracefs instances and the capture locks "
				 "in %s are root's): run it as root, e.g. sudo ioreel capture ...",
				 CAPTURE_LOCK_DIR);
	if (!made)
		return reel_errf(err, errlen, -errno, "cannot create %s for the capture's lock: %s",
				 CAPTURE_LOCK_DIR, strerror(errno));
	if (lstat(CAPTURE_LOCK_DIR, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return reel_errf(err, errlen, -EPERM,
				 "%s is not a folder of this user (a symbolic link, a file or "
				 "another user's): remove it, it holds only capture locks",
				 CAPTURE_LOCK_DIR);
	return 0;
}

static void lock_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s.lock", CAPTURE_LOCK_DIR, name);
}

/*
 * Older ioreel (before the lock) judged the owner of "ioreel-<pid>" alive
 * only when /proc/<pid>/comm starts with "ioreel": running beside a capture
 * started through a symbolic link or a renamed copy, it turned tracing off
 * and disabled the events in that live instance (and would have removed it
 * before its buffers were open).  So the owner names itself "ioreel-NAME"
 * (its own name kept after the dash, cut to fit) before its instance exists.
 */
static void name_owner(void)
{
	char comm[17] = "", name[16];
	if (prctl(PR_GET_NAME, comm, 0, 0, 0) < 0 || !strncmp(comm, "ioreel", 6))
		return;
	snprintf(name, sizeof(name), "ioreel-%.8s", comm);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

int guard_lock(struct capture_guard *g, const char *name, char *err, size_t errlen)
{
	int rc = lock_dir(err, errlen);
	if (rc < 0)
		return rc;
	name_owner();
	lock_path(g->lock_path, sizeof(g->lock_path), name);
	/* a cleaner may hold the lock of a dead capture that had our pid:
	 * wait for it, then make sure the file locked is still the one named */
	for (int tries = 0; tries < 100; tries++) {
		int fd = open(g->lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return reel_errf(err, errlen, -errno, "%s: %s", g->lock_path,
					 strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;
			close(fd);
			if (e != EWOULDBLOCK)
				return reel_errf(err, errlen, -e, "%s: cannot lock: %s",
						 g->lock_path, strerror(e));
			struct timespec ts = {0, 50 * 1000000L};
			nanosleep(&ts, NULL);
			continue;
		}
		struct stat a, b;
		if (fstat(fd, &a) == 0 && stat(g->lock_path, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			if (ftruncate(fd, 0) < 0) {
				/* the note is a courtesy: the lock is what counts */
			}
			g->lock_fd = fd;
			return 0;
		}
		close(fd); /* removed by a cleaner meanwhile: take the new one */
	}
	return reel_errf(err, errlen, -EBUSY, "%s is held by another process", g->lock_path);
}

void guard_note(struct capture_guard *g, const char *note)
{
	if (g->lock_fd < 0)
		return;
	if (ftruncate(g->lock_fd, 0) == 0 && pwrite(g->lock_fd, note, strlen(note), 0) < 0) {
		/* as above */
	}
}

void guard_release(struct capture_guard *g)
{
	if (g->lock_fd < 0)
		return;
	unlink(g->lock_path); /* while still held: no one else can be holding it */
	close(g->lock_fd);
	g->lock_fd = -1;
}

/* ---- stale instances ----------------------------------------------------- */
/*
 * Is the owner of instance name ("ioreel-PID") gone?  1: yes, and *held is
 * its lock, now ours (or -1 for an instance of an older ioreel, without a
 * lock file, whose process no longer exists); note gets what the owner left
 * there.  0: alive (or cannot tell): the instance must not be touched.
 */
static int owner_gone(const char *name, long pid, int *held, char *note, size_t len)
{
	char p[128];
	*held = -1;
	note[0] = 0;
	lock_path(p, sizeof(p), name);
	int fd = open(p, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		close(fd);
		return 0; /* its owner holds it: alive, whatever its name */
	}
	ssize_t n = pread(fd, note, len - 1, 0);
	note[n > 0 ? n : 0] = 0;
	*held = fd;
	return 1;
}

struct stale_ctx {
	char names[64][64];
	int n;
};

static int stale_cb(const char *name, void *ctx)
{
	struct stale_ctx *s = ctx;
	char *end;
	if (strncmp(name, "ioreel-", 7) != 0)
		return 0;
	long pid = strtol(name + 7, &end, 10);
	if (*end || pid <= 0)
		return 0;
	if (s->n < 64)
		snprintf(s->names[s->n++], sizeof(s->names[0]), "%s", name);
	return 0;
}

/* Turn off and remove instance name; then its lock file (held). */
static int remove_instance(const char *name, int held)
{
	int ok = 0;
	struct tracefs_instance *in = tracefs_instance_alloc(NULL, name);
	if (in) {
		tracefs_instance_file_write(in, "tracing_on", "0");
		tracefs_event_disable(in, NULL, NULL);
		ok = tracefs_instance_destroy(in) == 0;
		tracefs_instance_free(in);
	}
	if (held >= 0) {
		char p[128];
		lock_path(p, sizeof(p), name);
		if (ok)
			unlink(p);
		close(held);
	}
	return ok;
}

int capture_remove_stale(char *notes, size_t len)
{
	struct stale_ctx s = {.n = 0};
	int removed = 0;
	size_t off = 0;
	if (notes && len)
		notes[0] = 0;
	if (tracefs_instances_walk(stale_cb, &s) < 0)
		return 0; /* no instances directory: nothing stale */
	for (int i = 0; i < s.n; i++) {
		char note[1024];
		int held;
		if (!owner_gone(s.names[i], strtol(s.names[i] + 7, NULL, 10), &held, note,
				sizeof(note)))
			continue;
		if (!remove_instance(s.names[i], held))
			continue;
		removed++;
		if (notes && off < len)
			off += (size_t)snprintf(notes + off, len - off, "%s%s%s%s%s",
						off ? "; " : "", s.names[i], note[0] ? " (" : "",
						note, note[0] ? ")" : "");
	}
	return removed;
}

/* ---- the watch ----------------------------------------------------------- */
static char *read_trim(char *s)
{
	if (s) {
		size_t l = strlen(s);
		while (l && (s[l - 1] == '\n' || s[l - 1] == ' '))
			s[--l] = 0;
	}
	return s;
}

static void found(struct capture_guard *g, const char *what)
{
	size_t l = strlen(g->what);
	g->disturbed++;
	if (strstr(g->what, what) || l + strlen(what) + 3 >= sizeof(g->what))
		return;
	snprintf(g->what + l, sizeof(g->what) - l, "%s%s", l ? "; " : "", what);
}

void guard_watch_event(struct capture_guard *g, const char *system, const char *name)
{
	if (g->nev == GUARD_MAX_EVENTS)
		return;
	char *f = read_trim(tracefs_event_file_read(g->inst, system, name, "filter", NULL));
	g->ev[g->nev].system = system;
	g->ev[g->nev].name = name;
	snprintf(g->ev[g->nev].filter, sizeof(g->ev[0].filter), "%s", f ? f : "none");
	free(f);
	g->nev++;
}

void guard_watch_buffer(struct capture_guard *g)
{
	char *b = read_trim(tracefs_instance_file_read(g->inst, "buffer_size_kb", NULL));
	snprintf(g->buffer_kb, sizeof(g->buffer_kb), "%s", b ? b : "");
	free(b);
}

/* Each event still enabled, with its filter. */
static int check_events(struct capture_guard *g)
{
	int n = 0;
	char what[160];
	for (int i = 0; i < g->nev; i++) {
		const char *sys = g->ev[i].system, *name = g->ev[i].name;
		char *en = tracefs_event_file_read(g->inst, sys, name, "enable", NULL);
		if (!en || en[0] != '1') {
			snprintf(what, sizeof(what), "event %s was disabled", name);
			found(g, what);
			tracefs_event_enable(g->inst, sys, name);
			n++;
		}
		free(en);
		char *f = read_trim(tracefs_event_file_read(g->inst, sys, name, "filter", NULL));
		if (f && strcmp(f, g->ev[i].filter)) {
			snprintf(what, sizeof(what), "the filter of %s was changed", name);
			found(g, what);
			const char *keep = g->ev[i].filter;
			tracefs_event_file_write(g->inst, sys, name, "filter",
						 strcmp(keep, "none") ? keep : "0");
			n++;
		}
		free(f);
	}
	return n;
}

/* The clock, the buffer size and the overwrite mode. */
static int check_settings(struct capture_guard *g)
{
	int n = 0;
	char *clk = tracefs_instance_file_read(g->inst, "trace_clock", NULL);
	if (clk && !strstr(clk, "[mono]")) {
		found(g, "the trace clock was changed");
		tracefs_instance_file_write(g->inst, "trace_clock", "mono");
		n++;
	}
	free(clk);
	char *b = read_trim(tracefs_instance_file_read(g->inst, "buffer_size_kb", NULL));
	if (b && g->buffer_kb[0] && strcmp(b, g->buffer_kb)) {
		found(g, "the buffer size was changed");
		tracefs_instance_file_write(g->inst, "buffer_size_kb", g->buffer_kb);
		n++;
	}
	free(b);
	char *ow = tracefs_instance_file_read(g->inst, "options/overwrite", NULL);
	if (ow && ow[0] != '0') {
		found(g, "the buffer was set to overwrite unread events");
		tracefs_instance_file_write(g->inst, "options/overwrite", "0");
		n++;
	}
	free(ow);
	return n;
}

int guard_check(struct capture_guard *g, int tracing_should_be_on, int full)
{
	if (!g->inst || strstr(g->what, "instance was removed"))
		return 0;
	int n = 0;
	char *on = tracefs_instance_file_read(g->inst, "tracing_on", NULL);
	if (!on) {
		found(g, "the instance was removed");
		return 1;
	}
	if (tracing_should_be_on && on[0] != '1') {
		found(g, "tracing was turned off");
		tracefs_instance_file_write(g->inst, "tracing_on", "1");
		n++;
	}
	free(on);
	if (full)
		n += check_events(g) + check_settings(g);
	return n;
}
