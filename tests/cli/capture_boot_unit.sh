#!/bin/bash
# capture/ioreel-boot.service: systemd-analyze verify accepts it, and its
# ExecStart line, run here with the built ioreel, a scratch state directory
# and a stand-in `systemctl is-system-running --wait` (boot "finishes" after
# 1 s of disk I/O), writes a complete dated trace of that I/O.
. "$TOP/tests/cli/capture.lib"
UNIT="$TOP/capture/ioreel-boot.service"
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify --man=no "$UNIT" >"$T/verify" 2>&1 || { cat "$T/verify"; fail "systemd-analyze verify"; }
	[ -s "$T/verify" ] && { cat "$T/verify"; fail "systemd-analyze verify printed warnings"; }
	echo "systemd-analyze verify: clean"
else
	echo "systemd-analyze not installed: unit not verified"
fi
# ExecStart, continuation lines joined, %% unescaped
cmd=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$UNIT" | sed 's/\\$//' | tr -d '\n' | sed 's/^ExecStart=//; s/%%/%/g')
[ -n "$cmd" ] || fail "no ExecStart in $UNIT"
cmd=${cmd//\/usr\/local\/bin\/ioreel/$IOREEL}
cmd=${cmd//\/var\/lib\/ioreel/$T\/state}
mkdir -p "$T/state" "$T/bin"
make_loop "$T/disk" 16
cat >"$T/bin/systemctl" <<STUB
#!/bin/sh
# stand-in: the boot does some I/O, then is "running"
dd if=$LOOP of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null
sleep 1
echo running
STUB
chmod +x "$T/bin/systemctl"
PATH="$T/bin:$PATH" sh -c "$cmd" &
CAP=$!
_cap_pids="$_cap_pids $CAP"
wait $CAP
rc=$?
[ $rc = 0 ] || fail "the unit's command exited $rc"
f=$(ls "$T"/state/boot-*.reel 2>/dev/null | head -1)
[ -n "$f" ] || fail "no $T/state/boot-DATE.reel written"
[[ $(basename "$f") =~ ^boot-[0-9]{8}-[0-9]{6}\.reel$ ]] || fail "unexpected name $(basename "$f")"
"$DUMP" dump "$f" >"$T/dump" || fail "unreadable boot trace"
grep -q '^complete 1$' "$T/dump" || fail "boot trace has no trailer"
grep -q "^device [0-9]* $(basename $LOOP) " "$T/dump" || fail "all-disks capture lacks $(basename $LOOP)"
n=$(awk -v d="$(basename $LOOP)" '$1 == "device" && $3 == d { id = $2 } $1 == "read" && $8 == id && $3 == 4096 { n++ } END { print n + 0 }' "$T/dump")
[ "$n" -ge 64 ] || fail "boot trace has $n 4k reads of $(basename $LOOP), expected 64"
echo "ok: $(basename "$f") with $n reads of the stand-in boot"
