/*
 * cluster/clock.c - each rank's clock offset to rank 0, measured NTP style
 * over MPI, the agreed start time, and waiting for it.
 *
 * A round: rank 0 notes t1 and sends; rank r notes t2 on arrival and t3 as
 * it answers; rank 0 notes t4.  offset = ((t2 - t1) + (t3 - t4)) / 2 and
 * round trip = (t4 - t1) - (t3 - t2).  The round with the smallest round
 * trip wins: its offset is off by at most half of it.  MPI_Wtime is not a
 * global clock in Open MPI, so the times are CLOCK_MONOTONIC (the clock
 * replay and capture time stamp with), plus the test shift.
 */
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cluster/cluster.h"

#define TAG_PING 81
#define TAG_PONG 82
#define TAG_OFFSET 83

/* Rank 0 against rank r: best offset and round trip of `rounds`. */
static void ping_peer(const struct cluster_world *w, int r, int rounds, int64_t *off, int64_t *rtt)
{
	*rtt = INT64_MAX;
	*off = 0;
	for (int k = 0; k < rounds; k++) {
		int64_t t1 = cluster_now(w), t23[2];
		MPI_Send(&t1, 1, MPI_INT64_T, r, TAG_PING, MPI_COMM_WORLD);
		MPI_Recv(t23, 2, MPI_INT64_T, r, TAG_PONG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		int64_t t4 = cluster_now(w);
		int64_t rt = (t4 - t1) - (t23[1] - t23[0]);
		if (rt < *rtt) {
			*rtt = rt;
			*off = ((t23[0] - t1) + (t23[1] - t4)) / 2;
		}
	}
}

/* Rank r answers `rounds` pings, its times corrected by corr. */
static void pong(const struct cluster_world *w, int rounds, int64_t corr)
{
	for (int k = 0; k < rounds; k++) {
		int64_t t1, t23[2];
		if (k == 0) {
			/* sleep until rank 0 comes to this rank, not spin */
			MPI_Request rq;
			MPI_Irecv(&t1, 1, MPI_INT64_T, 0, TAG_PING, MPI_COMM_WORLD, &rq);
			cluster_wait(&rq);
		} else {
			MPI_Recv(&t1, 1, MPI_INT64_T, 0, TAG_PING, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
		t23[0] = cluster_now(w) - corr;
		t23[1] = cluster_now(w) - corr;
		MPI_Send(t23, 2, MPI_INT64_T, 0, TAG_PONG, MPI_COMM_WORLD);
	}
}

/* One measurement of every rank, this rank's clock corrected by corr[rank]
 * (rank 0 sends each rank its result).  res[0]: offset, res[1]: rtt. */
static void measure(const struct cluster_world *w, int rounds, int64_t corr, int64_t res[2])
{
	res[0] = res[1] = 0;
	if (w->rank == 0) {
		for (int r = 1; r < w->size; r++) {
			int64_t m[2];
			ping_peer(w, r, rounds, &m[0], &m[1]);
			MPI_Send(m, 2, MPI_INT64_T, r, TAG_OFFSET, MPI_COMM_WORLD);
		}
		return;
	}
	pong(w, rounds, corr);
	MPI_Recv(res, 2, MPI_INT64_T, 0, TAG_OFFSET, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int cluster_clock_sync(const struct cluster_world *w, int rounds, struct cluster_clock *c)
{
	int64_t m[2], again[2];
	memset(c, 0, sizeof(*c));
	if (rounds < 1)
		rounds = 1;
	measure(w, rounds, 0, m);
	c->offset_ns = m[0];
	c->rtt_ns = m[1];
	/* measure again on the corrected clocks: what is left is the residual */
	measure(w, rounds, c->offset_ns, again);
	c->residual_ns = again[0];
	return cluster_barrier();
}

int64_t cluster_agree_start(const struct cluster_world *w, const struct cluster_clock *c,
			    int64_t delay_ns)
{
	int64_t t = w->rank == 0 ? cluster_common_now(w, c) + delay_ns : 0;
	MPI_Request rq;
	MPI_Ibcast(&t, 1, MPI_INT64_T, 0, MPI_COMM_WORLD, &rq);
	cluster_wait(&rq);
	return t;
}

void cluster_sleep_until(const struct cluster_world *w, const struct cluster_clock *c, int64_t t)
{
	for (;;) {
		int64_t left = t - cluster_common_now(w, c);
		if (left <= 0)
			return;
		if (left > 200000) {
			left -= 200000;
			struct timespec ts = {(time_t)(left / 1000000000),
					      (long)(left % 1000000000)};
			nanosleep(&ts, NULL);
		}
	}
}
