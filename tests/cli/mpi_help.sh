#!/bin/bash
# The --help of capture --mpi and replay --mpi: each usage line names
# --mpi once, right after the command, as the docs write it.
. "$TOP/tests/cli/mpi.lib"
for c in capture replay; do
	"$MPI" $c --mpi --help >"$T/help" 2>&1 || fail "$c --mpi --help: exit $?"
	u=$(head -n 1 "$T/help")
	[[ $u == "usage: ioreel $c --mpi "* ]] || fail "$c: usage line: $u"
	[ "$(grep -o -- '--mpi' <<<"$u" | wc -l)" = 1 ] || fail "$c: --mpi more than once: $u"
done
exit 0
