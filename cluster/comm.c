/*
 * cluster/comm.c - the MPI side of the cluster module: start-up, waits that
 * sleep instead of spinning, the same-version check, gathers and moving
 * per-rank files to rank 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cluster/cluster.h"

#define TAG_FILE 71
#define FILE_CHUNK (1 << 20)

int cluster_init(struct cluster_world *w, int *argc, char ***argv, char *err, size_t errlen)
{
	int provided = 0, len = 0;
	char name[MPI_MAX_PROCESSOR_NAME];
	memset(w, 0, sizeof(*w));
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return reel_errf(err, errlen, REEL_E_IO,
				 "MPI_Init_thread failed (run under mpirun)");
	MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &w->size);
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS || !len)
		gethostname(name, sizeof(name));
	snprintf(w->host, sizeof(w->host), "%.63s", name);
	return 0;
}

void cluster_finalize(void)
{
	int done = 0;
	MPI_Finalized(&done);
	if (!done)
		MPI_Finalize();
}

void cluster_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

int64_t cluster_now(const struct cluster_world *w) { return reel_now_ns() + w->shift_ns; }

int cluster_wait(void *mpi_request)
{
	MPI_Request *rq = mpi_request;
	for (;;) {
		int flag = 0;
		if (MPI_Test(rq, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return REEL_E_IO;
		if (flag)
			return 0;
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}
}

int cluster_barrier(void)
{
	MPI_Request rq;
	if (MPI_Ibarrier(MPI_COMM_WORLD, &rq) != MPI_SUCCESS)
		return REEL_E_IO;
	return cluster_wait(&rq);
}

int cluster_gather(const struct cluster_world *w, const void *mine, size_t n, void *all)
{
	MPI_Request rq;
	if (n > INT32_MAX)
		return REEL_E_RANGE;
	if (MPI_Igather(mine, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq) !=
	    MPI_SUCCESS)
		return REEL_E_IO;
	(void)w;
	return cluster_wait(&rq);
}

#define SAME_MAX 256
struct same_rec {
	char host[CLUSTER_HOST_MAX];
	char s[SAME_MAX];
};

int cluster_check_same(const struct cluster_world *w, const char *what, const char *s, char *err,
		       size_t errlen)
{
	struct same_rec mine, *all = calloc((size_t)w->size, sizeof(*all));
	MPI_Request rq;
	int rc = 0;
	if (!all)
		return reel_errf(err, errlen, REEL_E_NOMEM, "out of memory");
	memset(&mine, 0, sizeof(mine));
	snprintf(mine.host, sizeof(mine.host), "%s", w->host);
	snprintf(mine.s, sizeof(mine.s), "%s", s);
	if (MPI_Iallgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE,
			   MPI_COMM_WORLD, &rq) != MPI_SUCCESS ||
	    cluster_wait(&rq)) {
		free(all);
		return reel_errf(err, errlen, REEL_E_IO, "MPI_Iallgather failed comparing %s",
				 what);
	}
	for (int r = 1; r < w->size; r++)
		if (strcmp(all[r].s, all[0].s)) {
			rc = reel_errf(
			    err, errlen, REEL_E_VERSION,
			    "rank %d on %s has %s %s, rank 0 on %s has %s: every rank must run "
			    "the same ioreel on the same trace; refusing to run",
			    r, all[r].host, what, all[r].s, all[0].host, all[0].s);
			break;
		}
	free(all);
	return rc;
}

static int send_file(const char *path, char *err, size_t errlen)
{
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	int64_t size = -1;
	MPI_Request rq;
	if (fd >= 0) {
		off_t e = lseek(fd, 0, SEEK_END);
		size = e < 0 ? -1 : (int64_t)e;
		lseek(fd, 0, SEEK_SET);
	}
	if (MPI_Isend(&size, 1, MPI_INT64_T, 0, TAG_FILE, MPI_COMM_WORLD, &rq) != MPI_SUCCESS ||
	    cluster_wait(&rq)) {
		if (fd >= 0)
			close(fd);
		return reel_errf(err, errlen, REEL_E_IO, "sending %s to rank 0 failed", path);
	}
	if (size < 0)
		return 0;
	char *buf = malloc(FILE_CHUNK);
	int rc = buf ? 0 : REEL_E_NOMEM;
	for (int64_t off = 0; off < size && !rc;) {
		/* always send the announced bytes: rank 0 waits for them */
		size_t n = (size_t)(size - off < FILE_CHUNK ? size - off : FILE_CHUNK);
		ssize_t got = pread(fd, buf, n, off);
		if (got < (ssize_t)n)
			memset(buf + (got > 0 ? got : 0), 0, n - (size_t)(got > 0 ? got : 0));
		if (MPI_Isend(buf, (int)n, MPI_BYTE, 0, TAG_FILE, MPI_COMM_WORLD, &rq) !=
			MPI_SUCCESS ||
		    cluster_wait(&rq))
			rc = REEL_E_IO;
		off += (int64_t)n;
	}
	free(buf);
	close(fd);
	return rc ? reel_errf(err, errlen, rc, "sending %s to rank 0 failed", path) : 0;
}

static int recv_file(int from, const char *dest, int *got, char *err, size_t errlen)
{
	int64_t size = -1;
	MPI_Request rq;
	*got = 0;
	if (MPI_Irecv(&size, 1, MPI_INT64_T, from, TAG_FILE, MPI_COMM_WORLD, &rq) != MPI_SUCCESS ||
	    cluster_wait(&rq))
		return reel_errf(err, errlen, REEL_E_IO, "receiving rank %d's file failed", from);
	if (size < 0)
		return 0;
	static char buf[FILE_CHUNK]; /* rank 0's main thread only */
	int fd = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = fd < 0 ? -errno : 0;
	for (int64_t off = 0; off < size; off += FILE_CHUNK) {
		int n = (int)(size - off < FILE_CHUNK ? size - off : FILE_CHUNK);
		/* receive every chunk even after a local failure: the sender waits */
		if (MPI_Irecv(buf, n, MPI_BYTE, from, TAG_FILE, MPI_COMM_WORLD, &rq) !=
			MPI_SUCCESS ||
		    cluster_wait(&rq))
			rc = REEL_E_IO;
		if (!rc && write(fd, buf, (size_t)n) != n)
			rc = -errno;
	}
	if (fd >= 0 && close(fd) && !rc)
		rc = -errno;
	if (rc)
		return reel_errf(err, errlen, rc, "%s: cannot store rank %d's file: %s", dest, from,
				 reel_strerror(rc));
	*got = 1;
	return 0;
}

int cluster_collect_files(const struct cluster_world *w, const char *path, char *const *dest,
			  int *got, char *err, size_t errlen)
{
	if (w->rank) {
		int rc = send_file(path, err, errlen);
		return rc;
	}
	int rc = 0;
	/* rank 0's own file: used where it is */
	got[0] = path && access(path, R_OK) == 0;
	for (int r = 1; r < w->size; r++) {
		char e2[512];
		int x = recv_file(r, dest[r], &got[r], e2, sizeof(e2));
		if (x && !rc)
			rc = reel_errf(err, errlen, x, "%s", e2);
	}
	return rc;
}

int cluster_file_checksum(const char *path, char out[17], char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return reel_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned char *buf = malloc(FILE_CHUNK);
	ssize_t n;
	if (!buf) {
		close(fd);
		return reel_errf(err, errlen, REEL_E_NOMEM, "out of memory");
	}
	while ((n = read(fd, buf, FILE_CHUNK)) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	int e = errno;
	free(buf);
	close(fd);
	if (n < 0)
		return reel_errf(err, errlen, -e, "%s: %s", path, strerror(e));
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}
