#!/bin/sh
# Checks, changing nothing, that the C sources are laid out as .clang-format
# says, with Debian's clang-format (package clang-format) in --dry-run
# -Werror mode.  Exit 0 when every file is clean, 1 when some are not (they
# are listed), 2 when clang-format is missing.
#   scripts/format-check.sh [FILE...]    default: every tracked *.c and *.h
#   V=1: print clang-format's own diagnostics for each file that differs.
# .ci/run runs it: a file that differs fails CI (clang-format -i FILE
# lays it out).
set -eu
cd "$(dirname "$0")/.."
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
	echo "format-check: $cf not found: apt-get install clang-format (scripts/deps.sh check does)" >&2
	exit 2
fi
if [ $# -eq 0 ]; then
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		set -- $(git ls-files '*.c' '*.h')
	else
		set -- $(find . -path './build*' -prune -o \( -name '*.c' -o -name '*.h' \) -print | sort)
	fi
fi
bad=0
for f in "$@"; do
	if ! "$cf" --dry-run -Werror --style=file "$f" >/dev/null 2>&1; then
		bad=$((bad + 1))
		echo "  $f"
		[ -z "${V:-}" ] || "$cf" --dry-run --style=file "$f" 2>&1 | sed 's/^/    /'
	fi
done
if [ "$bad" -gt 0 ]; then
	echo "format-check: $bad of $# files differ from .clang-format ($("$cf" --version | head -n 1));" \
		"see them with V=1, fix with clang-format -i FILE" >&2
	exit 1
fi
echo "format-check: all $# files match .clang-format"
