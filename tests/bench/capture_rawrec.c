/*
 * tests/bench/capture_rawrec.c - the anchor of the capture benchmark when
 * `trace-cmd record` cannot run (it writes /proc/sys/kernel/ftrace_enabled
 * and set_ftrace_filter, which some kernels and VMs refuse): what trace-cmd
 * record's per-CPU recorders do, with the same library (libtracefs): one
 * thread per CPU splicing whole raw ring-buffer pages of a private instance
 * into a file, no parsing.
 *
 * usage: capture_rawrec OUT BUFFER_KB FILTER EVENT...   (until SIGINT/SIGTERM)
 * Writes OUT.cpuN; prints "bytes N lost N" on stdout at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <tracefs/tracefs.h>

static volatile sig_atomic_t stop;
static void on_sig(int s)
{
	(void)s;
	stop = 1;
}

struct rec {
	struct tracefs_cpu *tcpu;
	int fd;
	pthread_t th;
};

static void *run(void *arg)
{
	struct rec *r = arg;
	while (!stop) {
		int n = tracefs_cpu_write(r->tcpu, r->fd, true);
		if (n <= 0)
			usleep(20000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: %s OUT BUFFER_KB FILTER EVENT...\n", argv[0]);
		return 2;
	}
	char name[64];
	snprintf(name, sizeof(name), "ioreel-rawrec-%ld", (long)getpid());
	struct tracefs_instance *in = tracefs_instance_create(name);
	if (!in) {
		perror("instance");
		return 1;
	}
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	tracefs_trace_off(in);
	tracefs_instance_file_write(in, "trace_clock", "mono");
	tracefs_instance_file_write(in, "options/overwrite", "0");
	tracefs_instance_file_write(in, "buffer_size_kb", argv[2]);
	for (int i = 4; i < argc; i++) {
		if (argv[3][0])
			tracefs_event_file_write(in, "block", argv[i], "filter", argv[3]);
		tracefs_event_enable(in, "block", argv[i]);
	}
	int ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	struct rec *r = calloc((size_t)ncpu, sizeof(*r));
	char path[4096];
	for (int c = 0; c < ncpu; c++) {
		snprintf(path, sizeof(path), "%s.cpu%d", argv[1], c);
		r[c].fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		r[c].tcpu = tracefs_cpu_open(in, c, true);
		if (r[c].tcpu && r[c].fd >= 0)
			pthread_create(&r[c].th, NULL, run, &r[c]);
	}
	tracefs_trace_on(in);
	while (!stop)
		pause();
	tracefs_trace_off(in);
	unsigned long long bytes = 0, lost = 0;
	for (int c = 0; c < ncpu; c++) {
		if (!r[c].tcpu)
			continue;
		pthread_join(r[c].th, NULL);
		tracefs_cpu_flush_write(r[c].tcpu, r[c].fd);
		struct stat st;
		if (fstat(r[c].fd, &st) == 0)
			bytes += (unsigned long long)st.st_size;
		close(r[c].fd);
		tracefs_cpu_close(r[c].tcpu);
		char f[64];
		snprintf(f, sizeof(f), "per_cpu/cpu%d/stats", c);
		char *s = tracefs_instance_file_read(in, f, NULL);
		for (char *l = s ? strtok(s, "\n") : NULL; l; l = strtok(NULL, "\n")) {
			unsigned long long v;
			if (sscanf(l, "overrun: %llu", &v) == 1 ||
			    sscanf(l, "commit overrun: %llu", &v) == 1 ||
			    sscanf(l, "dropped events: %llu", &v) == 1)
				lost += v;
		}
		free(s);
	}
	tracefs_event_disable(in, NULL, NULL);
	tracefs_instance_destroy(in);
	tracefs_instance_free(in);
	printf("bytes %llu lost %llu\n", bytes, lost);
	return 0;
}
