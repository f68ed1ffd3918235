#!/bin/bash
# tests/bench/mpi.sh - aggregate afap IOPS of N ranks of `ioreel-mpi replay
# --mpi` (N = 1, 2, 4) on N loop devices over /dev/shm, beside N independent
# `ioreel replay` processes on the same devices and traces, in the same run:
# 3 interleaved repeats, median and range; and the start skew the ranks
# measured.  Target: MPI within 5% of the independent processes, skew under
# 50 us on one host.  mpirun runs with --bind-to none: the independent
# processes are not bound either (docs/mpi.md, CPU binding).  Environment:
# MPI_N (I/Os per device, default 200000), MPI_REPEATS (default 3),
# MPI_RANKS (default "1 2 4").
set -u
: "${IOREEL:?run through make bench}"
MPI="$TOP/$BUILD/ioreel-mpi"
[ "$(id -u)" = 0 ] || { echo "   mpi bench needs root (loop devices)"; exit 0; }
command -v mpirun >/dev/null && [ -x "$MPI" ] || { echo "   Open MPI absent: no mpi bench"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
N_IOS=${MPI_N:-200000}
REPEATS=${MPI_REPEATS:-3}
S=$(mktemp -d /dev/shm/ioreel-bench-mpi.XXXXXX)
LOOPS=()
cleanup() {
	for l in "${LOOPS[@]}"; do losetup -d "$l"; done
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for i in 0 1 2 3; do
	truncate -s 256M "$S/disk$i"
	LOOPS+=("$(losetup -f --show --direct-io=on "$S/disk$i")")
	# random 4 KiB reads over 256 MiB, one device per trace
	python3 - "$S/t$i.csv" "$N_IOS" "$i" <<'PY'
import random, sys
random.seed(int(sys.argv[3]))
with open(sys.argv[1], "w") as f:
    for k in range(int(sys.argv[2])):
        f.write("%d,h,0,Read,%d,4096,100\n" % (1000000000 + k * 100, random.randrange(65536) * 4096))
PY
	"$IOREEL" import --from msr "$S/t$i.csv" -o "$S/t$i.reel" >/dev/null 2>&1
done
echo "   machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $N_IOS random 4 KiB reads per device, afap, qd 32, libaio"

json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# run_mpi N: aggregate IOPS and start skew (us) of N ranks
run_mpi() {
	local n=$1 traces targets
	traces=$(for i in $(seq 0 $((n - 1))); do printf '%s,' "$S/t$i.reel"; done)
	targets=$(IFS=,; echo "${LOOPS[*]:0:$n}")
	mpirun --oversubscribe --bind-to none -np "$n" "$MPI" replay --mpi --trace-per-rank "${traces%,}" \
		--target "$targets" --timing afap --qd 32 --json "$S/m.json" -q >/dev/null 2>&1 ||
		{ echo "0 0"; return; }
	json "$S/m.json" '"%.0f %.1f" % (d["aggregate"]["iops"], d["start_skew_ns"] / 1e3)'
}
# run_indep N: N `ioreel replay` at once; aggregate = all I/Os / longest run
run_indep() {
	local n=$1 pids=()
	for i in $(seq 0 $((n - 1))); do
		"$IOREEL" replay "$S/t$i.reel" --target "${LOOPS[$i]}" --timing afap --qd 32 \
			--json "$S/i$i.json" >/dev/null 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	python3 - "$n" "$S" <<'PY'
import json, sys
n, s = int(sys.argv[1]), sys.argv[2]
d = [json.load(open("%s/i%d.json" % (s, i))) for i in range(n)]
print("%.0f" % (sum(x["ios"] for x in d) / (max(x["duration_ns"] for x in d) / 1e9)))
PY
}
stats() { sort -n | awk '{ v[NR] = $1 } END { printf "%.0f [%.0f..%.0f]", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
printf "   %-5s %-28s %-28s %7s %-24s\n" ranks "MPI IOPS median [range]" "independent IOPS" ratio "start skew us median [range]"
for n in ${MPI_RANKS:-1 2 4}; do
	: >"$S/mpi.$n"; : >"$S/ind.$n"; : >"$S/skew.$n"
	for rep in $(seq "$REPEATS"); do # interleaved: MPI, then independent, each repeat
		read -r iops skew < <(run_mpi "$n")
		echo "$iops" >>"$S/mpi.$n"
		echo "$skew" >>"$S/skew.$n"
		run_indep "$n" >>"$S/ind.$n"
	done
	m=$(stats <"$S/mpi.$n")
	i=$(stats <"$S/ind.$n")
	r=$(awk -v a="${m%% *}" -v b="${i%% *}" 'BEGIN { printf "%.3f", b ? a / b : 0 }')
	printf "   %-5s %-28s %-28s %7s %-24s\n" "$n" "$m" "$i" "$r" "$(stats <"$S/skew.$n")"
done
echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   (fio --client with N servers on localhost: not measured yet)"
