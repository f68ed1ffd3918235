/*
 * tests/bench/capture_evcost.c - the CPU time of N getppid() calls on one
 * CPU, in ns per call (the calling thread's CPU time, so that other
 * programs on the machine change it little).  tests/bench/capture_events.sh
 * runs it with raw_syscalls:sys_enter recorded in a private instance, set
 * up as the capture sets up its block events, to price one traced event.
 *
 * usage: capture_evcost N CPU    (capture_evcost --nr: getppid's syscall number)
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double thread_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--nr")) {
		printf("%d\n", (int)SYS_getppid);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s N CPU\n", argv[0]);
		return 2;
	}
	long n = atol(argv[1]);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[2]), &set);
	if (n <= 0 || sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("capture_evcost");
		return 1;
	}
	for (long i = 0; i < n / 10; i++) /* warm up: the first pages of the buffer */
		syscall(SYS_getppid);
	double t0 = thread_ns();
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("%.1f\n", (thread_ns() - t0) / (double)n);
	return 0;
}
