# ioreel - plain GNU make.  Targets: all check bench demo install uninstall
# clean asan ubsan fuzz.  Quiet unless V=1.
CC ?= cc
CFLAGS ?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -I. -D_GNU_SOURCE \
	$(shell pkg-config --cflags libtracefs libtraceevent 2>/dev/null)
LDLIBS += -llz4 -lmsgpackc -laio -luring -ltracefs -ltraceevent -lblkid -linih -lpthread -lm
PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
Q := $(if $(V),,@)

MODULES := formats model capture replay plots suite
LIB_SRC := $(foreach m,$(MODULES),$(wildcard $(m)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:%.c=$(BUILD)/%)
FUZZ_SRC := $(filter-out tests/fuzz/driver.c,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:%.c=$(BUILD)/%)
BENCH_SRC := $(wildcard tests/bench/*.c)
BENCH_BIN := $(BENCH_SRC:%.c=$(BUILD)/%)

.PHONY: all check bench demo install uninstall clean asan ubsan fuzz deps
all: $(BUILD)/.deps $(BUILD)/ioreel $(UNIT_BIN) $(FUZZ_BIN) $(BENCH_BIN)

# Installs missing Debian packages when root, else prints the apt-get line.
$(BUILD)/.deps: scripts/deps.sh
	$(Q)mkdir -p $(BUILD) && sh scripts/deps.sh && touch $@
deps:
	$(Q)sh scripts/deps.sh

$(BUILD)/%.o: %.c $(wildcard */*.h) | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/libioreel.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/ioreel: $(BUILD)/ioreel.o $(BUILD)/libioreel.a
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/unit/%: tests/unit/%.c $(BUILD)/libioreel.a tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libioreel.a $(LDLIBS)

# Fuzz targets as standalone programs that replay their corpus.
$(BUILD)/tests/fuzz/%: tests/fuzz/%.c tests/fuzz/driver.c $(wildcard tests/fuzz/*.inc) $(BUILD)/libioreel.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/driver.c $(BUILD)/libioreel.a $(LDLIBS)

# Benchmark helper programs (tests/bench/*.c), built for make bench only.
$(BUILD)/tests/bench/%: tests/bench/%.c $(BUILD)/libioreel.a
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libioreel.a $(LDLIBS)

check: all
	$(Q)sh scripts/deps.sh check
	$(Q)BUILD=$(BUILD) sh tests/run.sh

bench: all
	$(Q)sh scripts/deps.sh check
	$(Q)BUILD=$(BUILD) sh tests/bench/run.sh

demo: all
	$(Q)$(BUILD)/ioreel demo

# libFuzzer builds (clang); run: build-fuzz/tests/fuzz/fuzz_X corpus-dir
fuzz:
	$(Q)$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address" \
		build-fuzz/libioreel.a
	$(Q)for f in $(FUZZ_SRC); do n=$$(basename $$f .c); \
		clang -O1 -g -I. -D_GNU_SOURCE -fsanitize=fuzzer,address -o build-fuzz/$$n $$f \
		build-fuzz/libioreel.a $(LDLIBS) || exit 1; echo "  FUZZ    build-fuzz/$$n"; done

asan:
	$(Q)$(MAKE) BUILD=build-asan CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address" check
ubsan:
	$(Q)$(MAKE) BUILD=build-ubsan CFLAGS="-O1 -g -fsanitize=undefined -fno-sanitize-recover=all" \
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

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ioreel $(DESTDIR)$(PREFIX)/share/man/man1/ioreel.1
	rm -rf $(DESTDIR)$(PREFIX)/share/ioreel
	rm -f $(DESTDIR)$(PREFIX)/lib/systemd/system/ioreel-boot.service

clean:
	rm -rf build build-asan build-ubsan build-fuzz
