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
/*
 * The formats as events/SYSTEM/NAME/format reads them: each starts with the
 * common fields, each block event with dev and sector, and the events of
 * the kernel's block_bio template (bio_queue, bio_backmerge, bio_frontmerge,
 * getrq) differ only in name and ID.
 */
#define EVENT(name, id, fields)                                                                    \
	"name: " name "\n"                                                                         \
	"ID: " id "\n"                                                                             \
	"format:\n"                                                                                \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                                 \
	"\n" fields
#define BLOCK_EVENT(name, id, fields)                                                              \
	EVENT(name, id,                                                                            \
	      "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"                                \
	      "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n" fields)
#define BLOCK_BIO(name, id)                                                                        \
	BLOCK_EVENT(name, id,                                                                      \
		    "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"            \
		    "\tfield:char rwbs[10];\toffset:28;\tsize:10;\tsigned:0;\n"                    \
		    "\tfield:char comm[16];\toffset:38;\tsize:16;\tsigned:0;\n"                    \
		    "\n"                                                                           \
		    "print fmt: \"%d,%d %s %llu + %u [%s]\", ((unsigned int) ((REC->dev) >> "      \
		    "20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, "          \
		    "(unsigned long long)REC->sector, REC->nr_sector, REC->comm\n")

/* The print format of block_rq_complete and block_rq_requeue, whose last
 * value is the error (requeue: 0). */
#define RQ_DONE_PRINT(error)                                                                       \
	"print fmt: \"%d,%d %s (%s) %llu + %u %s,%u,%u [%d]\", ((unsigned int) "                   \
	"((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), "                  \
	"REC->rwbs, __get_str(cmd), (unsigned long long)REC->sector, "                             \
	"REC->nr_sector, __print_symbolic((((REC->ioprio) >> 13) & (8 - 1)), { "                   \
	"IOPRIO_CLASS_NONE, \"none\" }, { IOPRIO_CLASS_RT, \"rt\" }, { "                           \
	"IOPRIO_CLASS_BE, \"be\" }, { IOPRIO_CLASS_IDLE, \"idle\" }, { "                           \
	"IOPRIO_CLASS_INVALID, \"invalid\"}), (((REC->ioprio) >> 3) & ((1 << 10) "                 \
	"- 1)), ((REC->ioprio) & ((1 << 3) - 1)), " error "\n"

static const char *const formats[] = {
    /* block:block_bio_queue */
    BLOCK_BIO("block_bio_queue", "2097"),
    /* block:block_bio_backmerge */
    BLOCK_BIO("block_bio_backmerge", "2099"),
    /* block:block_bio_frontmerge */
    BLOCK_BIO("block_bio_frontmerge", "2098"),
    /* block:block_split */
    BLOCK_EVENT("block_split", "2092",
		"\tfield:sector_t new_sector;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:char rwbs[10];\toffset:32;\tsize:10;\tsigned:0;\n"
		"\tfield:char comm[16];\toffset:42;\tsize:16;\tsigned:0;\n"
		"\n"
		"print fmt: \"%d,%d %s %llu / %llu [%s]\", ((unsigned int) ((REC->dev) "
		">> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, "
		"(unsigned long long)REC->sector, (unsigned long long)REC->new_sector, "
		"REC->comm\n"),
    /* block:block_bio_remap */
    BLOCK_EVENT("block_bio_remap", "2091",
		"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:dev_t old_dev;\toffset:28;\tsize:4;\tsigned:0;\n"
		"\tfield:sector_t old_sector;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:char rwbs[10];\toffset:40;\tsize:10;\tsigned:0;\n"
		"\n"
		"print fmt: \"%d,%d %s %llu + %u <- (%d,%d) %llu\", ((unsigned int) "
		"((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), "
		"REC->rwbs, (unsigned long long)REC->sector, REC->nr_sector, ((unsigned "
		"int) ((REC->old_dev) >> 20)), ((unsigned int) ((REC->old_dev) & ((1U << "
		"20) - 1))), (unsigned long long)REC->old_sector\n"),
    /* block:block_rq_remap */
    BLOCK_EVENT("block_rq_remap", "2090",
		"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:dev_t old_dev;\toffset:28;\tsize:4;\tsigned:0;\n"
		"\tfield:sector_t old_sector;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned int nr_bios;\toffset:40;\tsize:4;\tsigned:0;\n"
		"\tfield:char rwbs[10];\toffset:44;\tsize:10;\tsigned:0;\n"
		"\n"
		"print fmt: \"%d,%d %s %llu + %u <- (%d,%d) %llu %u\", ((unsigned int) "
		"((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), "
		"REC->rwbs, (unsigned long long)REC->sector, REC->nr_sector, ((unsigned "
		"int) ((REC->old_dev) >> 20)), ((unsigned int) ((REC->old_dev) & ((1U << "
		"20) - 1))), (unsigned long long)REC->old_sector, REC->nr_bios\n"),
    /* block:block_getrq */
    BLOCK_BIO("block_getrq", "2096"),
    /* block:block_rq_issue */
    BLOCK_EVENT("block_rq_issue", "2104",
		"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
		"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
		"\tfield:char comm[16];\toffset:44;\tsize:16;\tsigned:0;\n"
		"\tfield:__data_loc char[] cmd;\toffset:60;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]\", ((unsigned "
		"int) ((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - "
		"1))), REC->rwbs, REC->bytes, __get_str(cmd), (unsigned long "
		"long)REC->sector, REC->nr_sector, __print_symbolic((((REC->ioprio) >> "
		"13) & (8 - 1)), { IOPRIO_CLASS_NONE, \"none\" }, { IOPRIO_CLASS_RT, "
		"\"rt\" }, { IOPRIO_CLASS_BE, \"be\" }, { IOPRIO_CLASS_IDLE, \"idle\" }, "
		"{ IOPRIO_CLASS_INVALID, \"invalid\"}), (((REC->ioprio) >> 3) & ((1 << "
		"10) - 1)), ((REC->ioprio) & ((1 << 3) - 1)), REC->comm\n"),
    /* block:block_rq_complete */
    BLOCK_EVENT("block_rq_complete", "2107",
		"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
		"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
		"\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n"
		"\n" RQ_DONE_PRINT("REC->error")),
    /* block:block_rq_requeue */
    BLOCK_EVENT("block_rq_requeue", "2108",
		"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned short ioprio;\toffset:28;\tsize:2;\tsigned:0;\n"
		"\tfield:char rwbs[10];\toffset:30;\tsize:10;\tsigned:0;\n"
		"\tfield:__data_loc char[] cmd;\toffset:40;\tsize:4;\tsigned:0;\n"
		"\n" RQ_DONE_PRINT("0")),
    /* sched:sched_process_fork */
    EVENT("sched_process_fork", "366",
	  "\tfield:__data_loc char[] parent_comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	  "\tfield:pid_t parent_pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	  "\tfield:__data_loc char[] child_comm;\toffset:16;\tsize:4;\tsigned:0;\n"
	  "\tfield:pid_t child_pid;\toffset:20;\tsize:4;\tsigned:1;\n"
	  "\n"
	  "print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", "
	  "__get_str(parent_comm), REC->parent_pid, __get_str(child_comm), "
	  "REC->child_pid\n"),
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
