#!/bin/sh
# Writes the ioreel(1) man page to stdout from the commands' own --help, so
# the page cannot drift from the program: scripts/gen-man.sh build/ioreel > ioreel.1
# (tests/cli/docs_help.sh checks that the committed page is current).
set -eu
bin=${1:-build/ioreel}
esc() { sed -e 's/\\/\\e/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\\&'/"; }
cat <<'HEAD'
.TH IOREEL 1 "" "ioreel" "User Commands"
.SH NAME
ioreel \- capture, store, replay, model and compare block I/O traces
.SH SYNOPSIS
.B ioreel
.I COMMAND
.RI [ ARGS ]
.SH DESCRIPTION
ioreel captures the block I/O of a real workload through tracefs, keeps it in
a compact .reel file, replays it against block devices or files at the
original or a changed queue depth and speed with write data of a chosen,
measured compressibility, fits workload models to scale it, and compares
drives with tables and gnuplot plots.
The .reel format is specified in formats/FORMAT.md of the source tree;
docs/ioreel-COMMAND.md there is the reference of each command, with examples,
and model/MODEL.md describes the workload model and compare's targets.
make install puts them, laid out as in the source tree, under
PREFIX/share/doc/ioreel (PREFIX is /usr/local by default).
.SH COMMANDS
HEAD
for c in capture import export info dump replay model "model fit" "model gen" "model compare" plot compare suite demo; do
	printf '.SS "ioreel %s"\n.nf\n' "$c"
	# shellcheck disable=SC2086
	$bin $c --help 2>&1 | esc
	printf '.fi\n'
done
cat <<'TAIL'
.SH EXIT STATUS
0 on success; 1 on an error (the message names the file, line or chunk and
says what to do); 2 on bad usage; capture returns 3 when events were lost
(unless \-\-allow\-loss) and, with a command, that command's status; replay
returns 130 when interrupted (its result file is still complete).
.SH FILES
.TP
.I /sys/kernel/tracing/instances/ioreel-PID
the private tracing instance of a running capture
.TP
.I /var/lib/ioreel/
boot captures of ioreel-boot.service
.TP
.I /usr/local/share/doc/ioreel/
the reference: README.md, docs/ioreel-COMMAND.md, model/MODEL.md,
formats/FORMAT.md (PREFIX/share/doc/ioreel for another PREFIX)
.SH SEE ALSO
.BR fio (1),
.BR blktrace (8),
.BR blkparse (1),
.BR gnuplot (1)
TAIL
