# tests/cli/plots_lib.bash - sourced by the plots_*.sh tests (after tests/lib.sh).
# plots_trace: sets $TRACE to a real trace: the one bundled in traces/, else
# one captured here (fio on a loop device), else skips.
plots_trace() {
	TRACE=""
	for f in "$TOP"/traces/git.reel "$TOP"/traces/*.reel; do
		[ -f "$f" ] && { TRACE=$f; return; }
	done
	"$IOREEL" capture --help >/dev/null 2>&1 || skip "no bundled trace in traces/ and no ioreel capture"
	command -v fio >/dev/null || skip "no bundled trace in traces/ and no fio to make one"
	make_loop "$T/capture.img" 64
	"$IOREEL" capture -q -d "$(basename "$LOOP")" -o "$T/trace.reel" -- \
		fio --name=plots --filename="$LOOP" --rw=randrw --rwmixread=70 --bsrange=4k-64k \
		--iodepth=8 --ioengine=libaio --direct=1 --size=48M --runtime=1 --time_based \
		>"$T/capture.log" 2>&1 || { cat "$T/capture.log"; fail "ioreel capture"; }
	TRACE=$T/trace.reel
}
# plots_replay OUT ARGS...: replay $TRACE onto $LOOP, afap, offsets scaled to fit
plots_replay() {
	local out=$1
	shift
	"$IOREEL" replay "$TRACE" --target "$LOOP" --timing afap --fit scale -o "$out" "$@" \
		>"$out.log" 2>&1 || { cat "$out.log"; fail "ioreel replay $*"; }
}
