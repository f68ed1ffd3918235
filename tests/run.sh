#!/bin/sh
# The test runner: unit programs, command-line scripts and fuzz corpora.
# Each test exits 0 (pass), 77 (skip, saying why) or anything else (fail).
# TESTS=glob limits the run; TIMEOUT (seconds, default 600) bounds each test.
BUILD=${BUILD:-build}
TOP=$(pwd)
# a BUILD given as an absolute path, made relative: the tests run $TOP/$BUILD/...
case $BUILD in /*) BUILD=$(realpath -m --relative-to="$TOP" "$BUILD") ;; esac
export TOP BUILD
export IOREEL="$TOP/$BUILD/ioreel"
export SHARED="${SHARED:-$TOP/../shared}"
TIMEOUT=${TIMEOUT:-600}
pass=0 fail=0 skip=0 failed=""
log=$(mktemp -d "${TMPDIR:-/tmp}/ioreel-tests.XXXXXX")
trap 'rm -rf "$log"' EXIT
# Sanitizer reports (make asan, make ubsan) go to one file per process in
# $log/san, not to stderr: a report from a command that a test expects to
# fail (exit 1 either way) must still fail the test.  The caller's options
# come after ours and win.
export ASAN_OPTIONS="log_path=$log/san/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="log_path=$log/san/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

run_one() { # name command...
	name=$1; shift
	case "$name" in ${TESTS:-*}) ;; *) return ;; esac
	start=$(date +%s)
	rm -rf "$log/san" && mkdir "$log/san"
	timeout -k 10 "$TIMEOUT" "$@" >"$log/out" 2>&1
	rc=$?
	if [ -n "$(ls "$log/san")" ]; then
		for r in "$log/san"/*; do echo "sanitizer report $(basename "$r"):"; cat "$r"; done >>"$log/out"
		rc=99
	fi
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS  $name (${secs}s)"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "SKIP  $name: $(tail -n 1 "$log/out")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		[ $rc -eq 124 ] && echo "  (timed out after ${TIMEOUT}s)" >>"$log/out"
		echo "FAIL  $name (exit $rc$([ $rc -eq 99 ] && echo ": sanitizer report"), ${secs}s):"
		if [ $rc -eq 99 ]; then
			sed -n '/^sanitizer report/,$p' "$log/out" | head -n 80
		else
			tail -n 40 "$log/out"
		fi | sed 's/^/    | /'
	fi
}

# a build's program whose source is gone (a test since removed) is not run
for t in "$BUILD"/tests/unit/*; do
	[ -x "$t" ] && [ -f "tests/unit/$(basename "$t").c" ] || continue
	run_one "unit/$(basename "$t")" "$t"
done
for t in tests/cli/*.sh; do
	[ -f "$t" ] || continue
	run_one "cli/$(basename "$t" .sh)" bash "$t"
done
for t in "$BUILD"/tests/fuzz/fuzz_*; do
	[ -x "$t" ] && [ -f "tests/fuzz/$(basename "$t").c" ] || continue
	n=$(basename "$t")
	run_one "fuzz/$n" "$t" "tests/fuzz/corpus/${n#fuzz_}"
done

[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
