#!/bin/bash
# Issue 11 for replay: every output goes through the one output policy.
# -o and --json: regular files only, never the trace (R intact), an
# existing file replaced only when it is ioreel's own of that kind or with
# --overwrite; --json - is JSON alone on stdout; the result goes to disk
# each second, so a SIGKILL leaves the I/Os done so far (under the
# temporary name .NAME.ioreel-PID-N); --read-only creates nothing; a huge
# slow-down is refused, not overflowed; a cut-short trace warns.
. "$TOP/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 absent"
TOOL="$TOP/$BUILD/tests/unit/test_replay_tool"
"$TOOL" gen "$T/t.reel" n=2000 iops=20000 rw=mix:50 bs=4096 lat=50000 || fail gen
tgt="$T/target.img"
rp() { "$IOREEL" replay "$@" --target "$tgt" --buffered --timing afap; }
rp "$T/t.reel" >/dev/null 2>&1 || fail "a plain replay"

# -o the trace itself: refused, the trace intact
cp "$T/t.reel" "$T/R.reel"
sum=$(md5sum <"$T/R.reel")
rp "$T/R.reel" -o "$T/R.reel" >"$T/out" 2>&1 && { cat "$T/out"; fail "-o R.reel over the trace R.reel was accepted"; }
grep -q "same file as the input" "$T/out" || { cat "$T/out"; fail "the refusal should say it is the input"; }
[ "$(md5sum <"$T/R.reel")" = "$sum" ] || fail "-o over the trace changed it"
ln -s "$T/R.reel" "$T/link.reel"
rp "$T/R.reel" -o "$T/link.reel" >"$T/out" 2>&1 && fail "-o through a symlink to the trace was accepted"
[ "$(md5sum <"$T/R.reel")" = "$sum" ] || fail "-o through a symlink changed the trace"

# -o over something that is not a replay result: refused unless --overwrite
echo "precious" >"$T/notes.txt"
rp "$T/t.reel" -o "$T/notes.txt" >"$T/out" 2>&1 && fail "-o over a text file was accepted"
grep -q precious "$T/notes.txt" || fail "the refused -o changed the file"
rp "$T/t.reel" -o "$T/notes.txt" --overwrite >/dev/null 2>&1 || fail "-o with --overwrite refused"
"$IOREEL" info "$T/notes.txt" >/dev/null 2>&1 || fail "the result written with --overwrite is unreadable"
# over a replay result of ours: replaced without asking
rp "$T/t.reel" -o "$T/r.reel" >/dev/null 2>&1 || fail "-o new"
rp "$T/t.reel" -o "$T/r.reel" >/dev/null 2>&1 || fail "-o over our own result refused"
mkfifo "$T/fifo"
rp "$T/t.reel" -o "$T/fifo" >/dev/null 2>&1 && fail "-o into a FIFO was accepted"
rp "$T/t.reel" -o /dev/null >/dev/null 2>&1 && fail "-o /dev/null (a device) was accepted"
ls -a "$T" | grep -q '\.ioreel-' && fail "a temporary was left behind: $(ls -a "$T")"

# --json: the same policy
echo '{"mine": 1}' >"$T/mine.json"
rp "$T/t.reel" --json "$T/mine.json" >"$T/out" 2>&1 && fail "--json over a foreign file was accepted"
grep -q '"mine"' "$T/mine.json" || fail "the refused --json changed the file"
rp "$T/t.reel" --json "$T/t.reel" >/dev/null 2>&1 && fail "--json over the trace was accepted"
[ "$(md5sum <"$T/R.reel")" = "$sum" ] || fail "trace changed"
rp "$T/t.reel" --json "$T/fifo" >/dev/null 2>&1 && fail "--json into a FIFO was accepted"
rp "$T/t.reel" --json /dev/null >/dev/null 2>&1 && fail "--json /dev/null (a device) was accepted"
rp "$T/t.reel" --json "$T/mine.json" --overwrite >/dev/null 2>&1 || fail "--json with --overwrite refused"
rp "$T/t.reel" --json "$T/mine.json" >/dev/null 2>&1 || fail "--json over our own summary refused"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/mine.json" || fail "--json FILE is not JSON"

# --json -: only JSON on stdout, the summary on stderr
rp "$T/t.reel" --json - >"$T/stdout" 2>"$T/stderr" || fail "--json -"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/stdout" ||
	{ head -5 "$T/stdout"; fail "--json - : stdout is not JSON alone"; }
grep -q "^I/Os " "$T/stderr" || fail "--json - : the summary should go to stderr"

# --read-only creates nothing
rp "$T/t.reel" >/dev/null 2>&1
"$IOREEL" replay "$T/t.reel" --target "$T/absent.img" --read-only --timing afap --buffered \
	>"$T/out" 2>&1 && fail "--read-only on an absent file succeeded"
[ -e "$T/absent.img" ] && fail "--read-only created $T/absent.img"
grep -q "creates nothing" "$T/out" || { cat "$T/out"; fail "the refusal should say why"; }

# --speed: out of range is a usage error; in range but overflowing refused
"$IOREEL" replay "$T/t.reel" --target "$tgt" --buffered --speed 1e-300 >/dev/null 2>&1
[ $? = 2 ] || fail "--speed 1e-300 should be a usage error (exit 2)"
"$TOOL" gen "$T/long.reel" n=2 iops=0.0001 bs=4096 rw=read || fail "gen long"
timeout 20 "$IOREEL" replay "$T/long.reel" --target "$tgt" --buffered --speed 1e-6 >"$T/out" 2>&1 &&
	{ cat "$T/out"; fail "--speed 1e-6 on a 10,000 s trace (3e8 years) was accepted"; }
grep -q "larger --speed" "$T/out" || { cat "$T/out"; fail "--speed overflow: no clear refusal"; }

# a cut-short trace: replayed, with a warning (as info and dump give)
"$TOOL" gen "$T/big.reel" n=200000 iops=1000000 bs=4096 rw=read || fail "gen big"
head -c $(($(stat -c %s "$T/big.reel") * 2 / 3)) "$T/big.reel" >"$T/cut.reel"
rp "$T/cut.reel" --fit wrap >"$T/out" 2>&1 || { cat "$T/out"; fail "replay of a cut-short trace"; }
grep -q "warning" "$T/out" || { cat "$T/out"; fail "no warning for a cut-short trace"; }

# SIGKILL after a while: the I/Os done so far are on disk (under the
# temporary name); nothing under the final name
"$TOOL" gen "$T/slow.reel" n=30000 iops=2000 bs=4096 rw=read lat=50000 || fail "gen slow"
"$IOREEL" replay "$T/slow.reel" --target "$tgt" --buffered --fit wrap -o "$T/k.reel" >/dev/null 2>&1 &
pid=$!
sleep 3.5
kill -9 $pid
wait $pid 2>/dev/null
[ -e "$T/k.reel" ] && fail "a killed replay left a file under the final name"
tmp=$(ls -a "$T" | grep '^\.k\.reel\.ioreel-' | head -1)
[ -n "$tmp" ] || fail "no temporary result after SIGKILL: $(ls -a "$T")"
n=$("$IOREEL" dump "$T/$tmp" 2>/dev/null | grep -vc '^#')
echo "SIGKILL after 3.5 s: $n I/Os readable in $tmp"
[ "$n" -ge 2000 ] || fail "only $n I/Os readable after SIGKILL at 3.5 s (2000 per s)"
echo ok
