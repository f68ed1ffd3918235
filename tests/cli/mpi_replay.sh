#!/bin/bash
# 4 ranks replay a 4-device trace on 4 loop devices: every I/O on the right
# rank's device, each record once, devices named host:device per rank, and
# the JSON has per-rank sections (host, rank) and an exact aggregate.
. "$TOP/tests/cli/mpi.lib"
make_loops 4
make_trace4 "$T/t.reel" 2 40
mpirun_n 4 replay "$T/t.reel" --mpi --target "${LOOPS// /,}" -o "$T/r.reel" --json "$T/r.json" \
	>"$T/out" 2>&1 || { rc=$?; cat "$T/out"; fail "replay --mpi exited $rc"; }
cat "$T/out"
"$IOREEL" dump "$T/r.reel" | grep -v '^#' >"$T/r.dump"
"$IOREEL" dump "$T/t.reel" | grep -v '^#' >"$T/t.dump"
[ "$(wc -l <"$T/r.dump")" = 40 ] || fail "$(wc -l <"$T/r.dump") records in the result, 40 in the trace"
[ "$(meta "$T/r.reel" replay.interrupted)" = 0 ] || fail "result marked interrupted"
# device i of the result: replayed by rank (trace device mod 4), named host:loopN
for i in 0 1 2 3; do
	td=$(meta "$T/r.reel" cluster.dev.$i.trace_dev)
	rk=$(meta "$T/r.reel" cluster.dev.$i.rank)
	[ -n "$td" ] && [ "$rk" = $((td % 4)) ] || fail "result device $i: trace device '$td' on rank '$rk'"
	loop=$(echo $LOOPS | cut -d' ' -f$((td + 1)))
	"$IOREEL" info "$T/r.reel" | grep -q "^device $i  *$HOST:$(basename $loop)\b" ||
		fail "result device $i is not named $HOST:$(basename $loop)"
	# the same I/Os (op, offset, length), each once
	awk -v d=$td '$4 == d { print $5, $7, $8 }' "$T/t.dump" | sort >"$T/want.$td"
	awk -v d=$i '$4 == d { print $5, $7, $8 }' "$T/r.dump" | sort >"$T/got.$td"
	cmp -s "$T/want.$td" "$T/got.$td" || { diff "$T/want.$td" "$T/got.$td"; fail "trace device $td's I/Os differ"; }
done
python3 - "$T/r.json" "$HOST" <<'PY' || fail "JSON summary"
import json, sys
d = json.load(open(sys.argv[1]))
ranks = d["per_rank"]
assert d["ranks"] == 4 and [r["rank"] for r in ranks] == [0, 1, 2, 3], ranks
assert all(r["host"] == sys.argv[2] for r in ranks)
assert sum(r["ios"] for r in ranks) == d["aggregate"]["ios"] == 40
# histograms merged exactly: counts add up, max is the largest max
for op in d["aggregate"]["ops"]:
    a = d["aggregate"]["ops"][op]["latency_ns"]
    per = [r["ops"][op]["latency_ns"] for r in ranks if op in r["ops"]]
    assert a["count"] == sum(p["count"] for p in per), op
    assert a["max"] == max(p["max"] for p in per), op
assert "start_skew_ns" in d and "clock_residual_max_ns" in d
PY
# every rank checks the trace's checksum: a different file on rank 3 (mpirun's
# MPMD form gives it another path) is refused before anything runs, naming it
cp "$T/t.reel" "$T/other.reel"
printf 'x' >>"$T/other.reel"
timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np 3 "$MPI" replay "$T/t.reel" --mpi --target "${LOOPS// /,}" \
	-o "$T/bad.reel" : -np 1 "$MPI" replay "$T/other.reel" --mpi --target "${LOOPS// /,}" \
	-o "$T/bad.reel" >"$T/mis" 2>&1 && fail "a checksum mismatch was not refused"
grep -q "rank 3 on $HOST has trace checksum" "$T/mis" || { cat "$T/mis"; fail "mismatch not named"; }
[ -e "$T/bad.reel" ] && fail "a refused job wrote a result"
# a rank bound to one CPU by mpirun's default, on a host with CPUs to
# spare, says so on stderr; with --bind-to none it does not
bound=$(timeout "$MPI_TIMEOUT" mpirun --oversubscribe -np 1 grep Cpus_allowed_list /proc/self/status | awk '{print $2}')
if [ "$(nproc)" -ge 2 ] && [[ $bound =~ ^[0-9]+$ ]]; then
	for b in default none; do
		opt=()
		[ $b = none ] && opt=(--bind-to none)
		timeout "$MPI_TIMEOUT" mpirun --oversubscribe "${opt[@]}" -np 1 "$MPI" \
			replay "$T/t.reel" --mpi --target "${LOOPS%% *}" -q >"$T/bind.$b" 2>&1 ||
			{ rc=$?; cat "$T/bind.$b"; fail "replay --mpi (binding $b) exited $rc"; }
	done
	grep -q "rank 0 on $HOST is bound to CPU $bound alone" "$T/bind.default" ||
		{ cat "$T/bind.default"; fail "a rank bound to CPU $bound did not say so"; }
	grep -q "bound to CPU" "$T/bind.none" && { cat "$T/bind.none"; fail "an unbound rank said it was bound"; }
	echo "ok: a rank bound to CPU $bound alone said so, unbound it did not"
else
	echo "note: mpirun -np 1 binds to '$bound' on $(nproc) CPUs: the binding note is not checked"
fi
echo "ok: 40 I/Os on the right ranks' devices, named $HOST:loopN; checksum mismatch refused"
