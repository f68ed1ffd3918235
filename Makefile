# ioreel - plain GNU make.  Targets: all check bench demo deps install
# uninstall clean asan ubsan fuzz format-check.  Quiet unless V=1.
#
# make all      ioreel, the unit tests, the fuzz drivers and the benchmark
#               programs; never installs packages (make deps does).
# make demo     installs missing Debian packages when root, builds only
#               build/ioreel (in parallel) and runs `ioreel demo`.
# make check    the same for the tests: ioreel, unit and fuzz drivers, then
#               tests/run.sh.  make bench builds and runs the benchmarks.
CC ?= cc
CFLAGS ?= -O2 -g
# -ffp-contract=off: a*b+c never made one FMA, whatever -march the user
# passes (GCC contracts where the target has FMA: x86-64 with -march=native,
# aarch64), so that gen's output is the same bytes on every build
# (model/MODEL.md, "Reproducibility").
override CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -I. -D_GNU_SOURCE -ffp-contract=off \
	$(shell pkg-config --cflags libtracefs libtraceevent json-c 2>/dev/null)
# header dependencies: each object's .d file lists the headers it includes
DEPFLAGS = -MMD -MP
LDLIBS += -llz4 -lz -lmsgpackc -ljson-c -laio -luring -ltracefs -ltraceevent -lblkid -linih -lpthread -lm
PREFIX ?= /usr/local
DESTDIR ?=
# the reference (README.md, docs/, model/MODEL.md, formats/FORMAT.md), laid
# out as in the source tree so that their links between them hold
DOCDIR ?= $(PREFIX)/share/doc/ioreel
BUILD ?= build
Q := $(if $(V),,@)
# The quick-start targets build in a sub-make: -j$(NPROC) unless the user
# gave -j (then the jobserver is inherited as it is).
NPROC := $(shell nproc 2>/dev/null || echo 2)
SUBJOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
SUBMAKE = $(MAKE) --no-print-directory $(SUBJOBS)

MODULES := formats model capture replay plots suite
LIB_SRC := $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:%.c=$(BUILD)/%)
FUZZ_SRC := $(filter-out tests/fuzz/driver.c,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:%.c=$(BUILD)/%)
BENCH_SRC := $(wildcard tests/bench/*.c)
BENCH_BIN := $(BENCH_SRC:%.c=$(BUILD)/%)
ALL_OBJ := $(LIB_OBJ) $(BUILD)/ioreel.o $(UNIT_BIN:=.o) $(FUZZ_BIN:=.o) \
	$(BUILD)/tests/fuzz/driver.o $(BENCH_BIN:=.o)

# build/ioreel-mpi (cluster/, docs/mpi.md): beside build/ioreel when Open MPI's
# mpicc exists; ioreel.c and cluster/ compiled with -DIOREEL_MPI, the rest shared.
MPICC ?= mpicc
MPI_BIN := $(if $(shell command -v $(MPICC) 2>/dev/null),$(BUILD)/ioreel-mpi)
CLUSTER_OBJ := $(patsubst %.c,$(BUILD)/mpi/%.o,$(wildcard cluster/*.c) ioreel.c)
ALL_OBJ += $(if $(MPI_BIN),$(CLUSTER_OBJ))

.PHONY: check-boot all check bench demo install uninstall clean asan ubsan fuzz fuzz-run deps format-check \
	check-programs bench-programs
all: $(BUILD)/ioreel $(MPI_BIN) $(UNIT_BIN) $(FUZZ_BIN) $(BENCH_BIN)
# what the tests run (gen_reel, a benchmark program, also makes test traces),
# and what the benchmarks run besides
check-programs: $(BUILD)/ioreel $(MPI_BIN) $(UNIT_BIN) $(FUZZ_BIN) $(BUILD)/tests/bench/gen_reel
bench-programs: check-programs $(BENCH_BIN)

# Installs missing Debian packages when root, else prints the apt-get line.
deps:
	$(Q)sh scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

-include $(ALL_OBJ:.o=.d)

$(BUILD)/libioreel.a: $(LIB_OBJ)
	$(if $(Q),@echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/ioreel: $(BUILD)/ioreel.o $(BUILD)/libioreel.a
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Unit tests and benchmark helper programs: one source file each.
$(UNIT_BIN) $(BENCH_BIN): $(BUILD)/%: $(BUILD)/%.o $(BUILD)/libioreel.a
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/mpi/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  MPICC   $<")
	$(Q)$(MPICC) $(CFLAGS) $(DEPFLAGS) -DIOREEL_MPI -c -o $@ $<

$(BUILD)/ioreel-mpi: $(CLUSTER_OBJ) $(BUILD)/libioreel.a
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Fuzz targets as standalone programs that replay their corpus.
$(FUZZ_BIN): $(BUILD)/%: $(BUILD)/%.o $(BUILD)/tests/fuzz/driver.o $(BUILD)/libioreel.a
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The quick-start targets: packages first (they install what is missing when
# root), then a parallel build of only what they run.
check:
	$(Q)sh scripts/deps.sh check
	$(Q)$(SUBMAKE) check-programs
	$(Q)BUILD=$(BUILD) sh tests/run.sh

# The QEMU boot test (tests/cli/boot_qemu.sh, docs/boot-capture.md): root;
# installs qemu-system-x86, mmdebstrap and systemd-container when missing and
# builds a Debian 12 image once (cached in $$IOREEL_BOOT_CACHE, default
# /var/cache/ioreel-boot).  Apart from make check to keep that short.
check-boot:
	$(Q)sh scripts/deps.sh check
	$(Q)$(SUBMAKE) check-programs
	$(Q)IOREEL_BOOT_TEST=1 BUILD=$(BUILD) TESTS=cli/boot_qemu TIMEOUT=1200 sh tests/run.sh

bench:
	$(Q)sh scripts/deps.sh check
	$(Q)$(SUBMAKE) bench-programs
	$(Q)BUILD=$(BUILD) sh tests/bench/run.sh

demo:
	$(Q)sh scripts/deps.sh
	$(Q)$(SUBMAKE) $(BUILD)/ioreel
	$(Q)$(BUILD)/ioreel demo

# clang-format --dry-run -Werror over the C sources; changes nothing.
format-check:
	$(Q)sh scripts/format-check.sh

# libFuzzer builds (clang); run: build-fuzz/fuzz_X corpus-dir
fuzz:
	$(Q)$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address" \
		build-fuzz/libioreel.a
	$(Q)for f in $(FUZZ_SRC); do n=$$(basename $$f .c); \
		clang -O1 -g -I. -D_GNU_SOURCE -fsanitize=fuzzer,address -o build-fuzz/$$n $$f \
		build-fuzz/libioreel.a $(LDLIBS) || exit 1; echo "  FUZZ    build-fuzz/$$n"; done

# the fast (parser-only) targets, each run FUZZ_SECONDS under libFuzzer
# from its seed corpus (new inputs go to build-fuzz/found/NAME); prints
# executions per second per target.  Not part of make check.
FUZZ_SECONDS ?= 20
FUZZ_FAST := $(sort $(wildcard tests/fuzz/fuzz_*_parse.c)) tests/fuzz/fuzz_reel.c
fuzz-run: fuzz
	$(Q)for f in $(FUZZ_FAST); do n=$$(basename $$f .c); mkdir -p build-fuzz/found/$$n; \
		build-fuzz/$$n -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -max_len=4096 \
		build-fuzz/found/$$n tests/fuzz/corpus/$${n#fuzz_} >build-fuzz/found/$$n.log 2>&1 || \
		{ tail -n 30 build-fuzz/found/$$n.log; exit 1; }; \
		awk -v n=$$n '/number_of_executed_units/ {r=$$2} /average_exec_per_sec/ {e=$$2} \
		END {printf "  FUZZ    %-22s %10d runs %8d exec/s\n", n, r, e}' build-fuzz/found/$$n.log; \
		done

# The whole suite (build/ioreel-mpi and the MPI tests too) under a sanitizer:
# leaks are checked (LeakSanitizer), the first report stops the process, and
# tests/run.sh fails a test when any process it ran wrote a report.
# The MPI tests suppress Open MPI's own leaks (tests/cli/mpi.lib).  ubsan adds
# float-cast-overflow (a double out of an integer's range), not in gcc's set.
SAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=all
asan:
	$(Q)ASAN_OPTIONS="detect_leaks=1:halt_on_error=1$${ASAN_OPTIONS:+:$$ASAN_OPTIONS}" \
		$(MAKE) BUILD=build-asan CFLAGS="$(SAN_CFLAGS) -fsanitize=address" \
		LDFLAGS="-fsanitize=address" check
ubsan:
	$(Q)UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1$${UBSAN_OPTIONS:+:$$UBSAN_OPTIONS}" \
		$(MAKE) BUILD=build-ubsan CFLAGS="$(SAN_CFLAGS) -fsanitize=undefined,float-cast-overflow" \
		LDFLAGS="-fsanitize=undefined" check

install: $(BUILD)/ioreel
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ioreel/plots \
		$(DESTDIR)$(PREFIX)/share/ioreel/traces $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/ioreel $(DESTDIR)$(PREFIX)/bin/ioreel
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/ioreel/plots/ 2>/dev/null || true
	install -d $(DESTDIR)$(PREFIX)/share/ioreel/suite
	install -m 644 suite/*.gp $(DESTDIR)$(PREFIX)/share/ioreel/suite/
	install -m 644 traces/*.reel $(DESTDIR)$(PREFIX)/share/ioreel/traces/ 2>/dev/null || true
	install -m 644 ioreel.1 $(DESTDIR)$(PREFIX)/share/man/man1/ioreel.1
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/system
	install -m 644 capture/ioreel-boot.service $(DESTDIR)$(PREFIX)/lib/systemd/system/ 2>/dev/null || true
	install -d $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR)/model $(DESTDIR)$(DOCDIR)/formats
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	install -m 644 model/MODEL.md model/HISTORY.md $(DESTDIR)$(DOCDIR)/model/
	install -m 644 formats/FORMAT.md $(DESTDIR)$(DOCDIR)/formats/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ioreel $(DESTDIR)$(PREFIX)/share/man/man1/ioreel.1
	rm -rf $(DESTDIR)$(PREFIX)/share/ioreel
	rm -f $(DESTDIR)$(PREFIX)/lib/systemd/system/ioreel-boot.service
	rm -rf $(DESTDIR)$(DOCDIR)

# every build folder: the default, the sanitizers', libFuzzer's, CI's clang
# build, and BUILD when it is another build-* folder
clean:
	rm -rf build build-asan build-ubsan build-fuzz build-clang $(filter build-%,$(BUILD))
