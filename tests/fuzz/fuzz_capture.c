/*
 * tests/fuzz/fuzz_capture.c - libFuzzer target: the capture module's raw
 * ring-buffer page parser (page header and event bounds, libtraceevent field
 * reads, the CPU merge, the pid-tree filter) and the joiner behind it, on
 * arbitrary pages.  The event formats are those of the 6.18 kernel the
 * seeds were recorded on (events/SYSTEM/NAME/format, IDs included).
 *
 * Input: a flags byte (bit 0: --pid-tree of pid 1000), then records of
 * [cpu byte][length, 2 bytes little-endian][page bytes].  The seeds in
 * corpus/capture/ are real pages of trace_pipe_raw.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture/capture.h"

static const char *const systems[] = {"block", "block", "block", "block", "block", "block",
				      "block", "block", "block", "block", "sched"};
static const char *const formats[] = {
    /* block:block_bio_queue */
    "name: block_bio_queue\n"
    "ID: 2097\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:char rwbs[10];	offset:28;	size:10;	signed:0;\n"
    "	field:char comm[16];	offset:38;	size:16;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %llu + %u [%s]\", ((unsigned int) ((REC->dev) >> 20)), ((unsigned int) "
    "((REC->dev) & ((1U << 20) - 1))), REC->rwbs, (unsigned long long)REC->sector, REC->nr_sector, "
    "REC->comm\n",
    /* block:block_bio_backmerge */
    "name: block_bio_backmerge\n"
    "ID: 2099\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:char rwbs[10];	offset:28;	size:10;	signed:0;\n"
    "	field:char comm[16];	offset:38;	size:16;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %llu + %u [%s]\", ((unsigned int) ((REC->dev) >> 20)), ((unsigned int) "
    "((REC->dev) & ((1U << 20) - 1))), REC->rwbs, (unsigned long long)REC->sector, REC->nr_sector, "
    "REC->comm\n",
    /* block:block_bio_frontmerge */
    "name: block_bio_frontmerge\n"
    "ID: 2098\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:char rwbs[10];	offset:28;	size:10;	signed:0;\n"
    "	field:char comm[16];	offset:38;	size:16;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %llu + %u [%s]\", ((unsigned int) ((REC->dev) >> 20)), ((unsigned int) "
    "((REC->dev) & ((1U << 20) - 1))), REC->rwbs, (unsigned long long)REC->sector, REC->nr_sector, "
    "REC->comm\n",
    /* block:block_split */
    "name: block_split\n"
    "ID: 2092\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:sector_t new_sector;	offset:24;	size:8;	signed:0;\n"
    "	field:char rwbs[10];	offset:32;	size:10;	signed:0;\n"
    "	field:char comm[16];	offset:42;	size:16;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %llu / %llu [%s]\", ((unsigned int) ((REC->dev) >> 20)), ((unsigned "
    "int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, (unsigned long long)REC->sector, (unsigned "
    "long long)REC->new_sector, REC->comm\n",
    /* block:block_bio_remap */
    "name: block_bio_remap\n"
    "ID: 2091\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:dev_t old_dev;	offset:28;	size:4;	signed:0;\n"
    "	field:sector_t old_sector;	offset:32;	size:8;	signed:0;\n"
    "	field:char rwbs[10];	offset:40;	size:10;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %llu + %u <- (%d,%d) %llu\", ((unsigned int) ((REC->dev) >> 20)), "
    "((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, (unsigned long long)REC->sector, "
    "REC->nr_sector, ((unsigned int) ((REC->old_dev) >> 20)), ((unsigned int) ((REC->old_dev) & "
    "((1U << 20) - 1))), (unsigned long long)REC->old_sector\n",
    /* block:block_rq_remap */
    "name: block_rq_remap\n"
    "ID: 2090\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:dev_t old_dev;	offset:28;	size:4;	signed:0;\n"
    "	field:sector_t old_sector;	offset:32;	size:8;	signed:0;\n"
    "	field:unsigned int nr_bios;	offset:40;	size:4;	signed:0;\n"
    "	field:char rwbs[10];	offset:44;	size:10;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %llu + %u <- (%d,%d) %llu %u\", ((unsigned int) ((REC->dev) >> 20)), "
    "((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, (unsigned long long)REC->sector, "
    "REC->nr_sector, ((unsigned int) ((REC->old_dev) >> 20)), ((unsigned int) ((REC->old_dev) & "
    "((1U << 20) - 1))), (unsigned long long)REC->old_sector, REC->nr_bios\n",
    /* block:block_getrq */
    "name: block_getrq\n"
    "ID: 2096\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:char rwbs[10];	offset:28;	size:10;	signed:0;\n"
    "	field:char comm[16];	offset:38;	size:16;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %llu + %u [%s]\", ((unsigned int) ((REC->dev) >> 20)), ((unsigned int) "
    "((REC->dev) & ((1U << 20) - 1))), REC->rwbs, (unsigned long long)REC->sector, REC->nr_sector, "
    "REC->comm\n",
    /* block:block_rq_issue */
    "name: block_rq_issue\n"
    "ID: 2104\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:unsigned int bytes;	offset:28;	size:4;	signed:0;\n"
    "	field:unsigned short ioprio;	offset:32;	size:2;	signed:0;\n"
    "	field:char rwbs[10];	offset:34;	size:10;	signed:0;\n"
    "	field:char comm[16];	offset:44;	size:16;	signed:0;\n"
    "	field:__data_loc char[] cmd;	offset:60;	size:4;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]\", ((unsigned int) ((REC->dev) >> 20)), "
    "((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, REC->bytes, __get_str(cmd), "
    "(unsigned long long)REC->sector, REC->nr_sector, __print_symbolic((((REC->ioprio) >> 13) & (8 "
    "- 1)), { IOPRIO_CLASS_NONE, \"none\" }, { IOPRIO_CLASS_RT, \"rt\" }, { IOPRIO_CLASS_BE, "
    "\"be\" }, { IOPRIO_CLASS_IDLE, \"idle\" }, { IOPRIO_CLASS_INVALID, \"invalid\"}), "
    "(((REC->ioprio) >> 3) & ((1 << 10) - 1)), ((REC->ioprio) & ((1 << 3) - 1)), REC->comm\n",
    /* block:block_rq_complete */
    "name: block_rq_complete\n"
    "ID: 2107\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:int error;	offset:28;	size:4;	signed:1;\n"
    "	field:unsigned short ioprio;	offset:32;	size:2;	signed:0;\n"
    "	field:char rwbs[10];	offset:34;	size:10;	signed:0;\n"
    "	field:__data_loc char[] cmd;	offset:44;	size:4;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s (%s) %llu + %u %s,%u,%u [%d]\", ((unsigned int) ((REC->dev) >> 20)), "
    "((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, __get_str(cmd), (unsigned long "
    "long)REC->sector, REC->nr_sector, __print_symbolic((((REC->ioprio) >> 13) & (8 - 1)), { "
    "IOPRIO_CLASS_NONE, \"none\" }, { IOPRIO_CLASS_RT, \"rt\" }, { IOPRIO_CLASS_BE, \"be\" }, { "
    "IOPRIO_CLASS_IDLE, \"idle\" }, { IOPRIO_CLASS_INVALID, \"invalid\"}), (((REC->ioprio) >> 3) & "
    "((1 << 10) - 1)), ((REC->ioprio) & ((1 << 3) - 1)), REC->error\n",
    /* block:block_rq_requeue */
    "name: block_rq_requeue\n"
    "ID: 2108\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:dev_t dev;	offset:8;	size:4;	signed:0;\n"
    "	field:sector_t sector;	offset:16;	size:8;	signed:0;\n"
    "	field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;\n"
    "	field:unsigned short ioprio;	offset:28;	size:2;	signed:0;\n"
    "	field:char rwbs[10];	offset:30;	size:10;	signed:0;\n"
    "	field:__data_loc char[] cmd;	offset:40;	size:4;	signed:0;\n"
    "\n"
    "print fmt: \"%d,%d %s (%s) %llu + %u %s,%u,%u [%d]\", ((unsigned int) ((REC->dev) >> 20)), "
    "((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, __get_str(cmd), (unsigned long "
    "long)REC->sector, REC->nr_sector, __print_symbolic((((REC->ioprio) >> 13) & (8 - 1)), { "
    "IOPRIO_CLASS_NONE, \"none\" }, { IOPRIO_CLASS_RT, \"rt\" }, { IOPRIO_CLASS_BE, \"be\" }, { "
    "IOPRIO_CLASS_IDLE, \"idle\" }, { IOPRIO_CLASS_INVALID, \"invalid\"}), (((REC->ioprio) >> 3) & "
    "((1 << 10) - 1)), ((REC->ioprio) & ((1 << 3) - 1)), 0\n",
    /* sched:sched_process_fork */
    "name: sched_process_fork\n"
    "ID: 366\n"
    "format:\n"
    "	field:unsigned short common_type;	offset:0;	size:2;	signed:0;\n"
    "	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;\n"
    "	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;\n"
    "	field:int common_pid;	offset:4;	size:4;	signed:1;\n"
    "\n"
    "	field:__data_loc char[] parent_comm;	offset:8;	size:4;	signed:0;\n"
    "	field:pid_t parent_pid;	offset:12;	size:4;	signed:1;\n"
    "	field:__data_loc char[] child_comm;	offset:16;	size:4;	signed:0;\n"
    "	field:pid_t child_pid;	offset:20;	size:4;	signed:1;\n"
    "\n"
    "print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", __get_str(parent_comm), "
    "REC->parent_pid, __get_str(child_comm), REC->child_pid\n",
};

static int push(void *ctx, const struct reel_event *e) { return reel_join_push(ctx, e); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture *c;
	struct capture_opts o = {0};
	char err[256];
	if (size < 1)
		return 0;
	if (data[0] & 1)
		o.pid_tree = 1000;
	if (capture_open_offline(&c, systems, formats, sizeof(formats) / sizeof(formats[0]), 2, &o,
				 err, sizeof(err)))
		return 0;
	int fd = memfd_create("fuzz-out", MFD_CLOEXEC);
	struct reel_device dev = {.id = 0, .name = "loop0", .major = 7, .minor = 0};
	struct reel_header h = {.source = "captured", .devices = &dev, .ndevices = 1};
	struct reel_writer *w = NULL;
	struct reel_join *j = NULL;
	uint32_t devt = 7u << 20;
	if (fd < 0 || reel_writer_open(&w, NULL, fd, &h, 0) || reel_join_create(&j, w, &devt, 1))
		goto out;
	for (size_t off = 1; off + 3 <= size;) {
		int cpu = data[off] & 1;
		size_t len = (size_t)data[off + 1] | (size_t)data[off + 2] << 8;
		off += 3;
		if (len > size - off)
			len = size - off;
		if (capture_feed(c, cpu, data + off, len) < 0)
			break;
		off += len;
	}
	if (capture_poll(c, 1, push, j) >= 0)
		reel_join_finish(j);
out:
	reel_join_destroy(j);
	if (w)
		reel_writer_close(w);
	if (fd >= 0)
		close(fd);
	capture_close(c);
	return 0;
}
