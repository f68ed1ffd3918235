#!/bin/bash
# capture/ioreel-boot.service inside a real boot, seen from both sides:
# a Debian 12 guest (tests/cli/boot.lib) with ioreel and the unit installed
# boots under QEMU (TCG) from a host loop device, cache=none, while the host
# records that loop device with ioreel capture.  After the guest powers off,
# its own trace (/var/lib/ioreel/boot-*.reel, read from the image) must agree
# with the host's trace over the same stretch of the boot, once the known
# differences are taken out (tests/cli/boot_compare.awk says which):
# extent counts within 2%, read bytes within 1%, request-size KS <= 0.02;
# a window of under 100 extents is also within target when the extents
# differ by one split (counts 1 apart, KS <= 2/n: one extent that one side
# splits in two moves the size CDF of n extents by up to 2/n).
# A boot-time oneshot unit writes and fsyncs during the boot, so writes,
# merges and flushes are in the comparison too.
#   IOREEL_BOOT_TEST=1 IOREEL=build/ioreel bash tests/cli/boot_qemu.sh
# The image is cached in $IOREEL_BOOT_CACHE (default /var/cache/ioreel-boot);
# BOOT_KEEP=DIR copies the traces and the comparison there; BOOT_UNIT=FILE
# installs FILE instead of capture/ioreel-boot.service (to try a variant).
if [ "${IOREEL_BOOT_TEST:-}" != 1 ]; then
	echo "skipped: set IOREEL_BOOT_TEST=1 (make check-boot) to run the QEMU boot test"
	exit 77
fi
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
IOREEL=${IOREEL:-$TOP/build/ioreel}
. "$TOP/tests/lib.sh"
. "$TOP/tests/cli/boot.lib"
need_root
[ -d /sys/kernel/tracing/instances ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
	skip "tracefs cannot be mounted at /sys/kernel/tracing"
[ -d /sys/kernel/tracing/events/block/block_rq_issue ] || skip "no block tracepoints in tracefs"
boot_need_tools 2>"$T/tools" || skip "QEMU cannot be installed: $(tail -n 1 "$T/tools")"
s0=$(date +%s)
boot_image || fail "building the guest image failed"
s1=$(date +%s)
echo "image: $BOOT_DIR ($((s1 - s0)) s)"

# the guest: a copy of the image with ioreel, the unit and the boot-time writer
boot_copy "$T/root.img" || fail "copying the image"
make_loop "$T/root.img" 2048
mkdir "$T/mnt"
mount "$LOOP" "$T/mnt" || fail "mount $LOOP"
boot_install_ioreel "$T/mnt" "$IOREEL" "${BOOT_UNIT:-$TOP/capture/ioreel-boot.service}" || fail "installing ioreel in the guest"
cat >"$T/mnt/etc/systemd/system/ioreel-boot-work.service" <<'UNIT'
[Unit]
Description=Boot-time writes for the ioreel boot test (data, fsync, journal commits)
After=local-fs.target

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'dd if=/dev/zero of=/var/tmp/ioreel-boot-work bs=64k count=64 conv=fsync status=none; for i in 1 2 3 4 5 6 7 8; do echo $$i >>/var/tmp/ioreel-boot-work.log; sync /var/tmp/ioreel-boot-work.log; done'

[Install]
WantedBy=multi-user.target
UNIT
systemctl --root="$T/mnt" --quiet enable ioreel-boot-work.service || fail "enabling the writer unit"
umount "$T/mnt" || fail "umount $T/mnt"

# the boot, recorded on the host; QEMU is killed if the guest hangs
boot_qemu_args "$LOOP"
s2=$(date +%s)
"$IOREEL" capture --drop-caches --quiet -d "$LOOP" -o "$T/host.reel" -- \
	timeout -k 5 600 "${BOOT_QEMU[@]}" >"$T/console" 2>&1 </dev/null &
CAP=$!
at_exit "pkill -TERM -P $CAP; kill -TERM $CAP"
wait $CAP
rc=$?
s3=$(date +%s)
echo "boot under capture: $((s3 - s2)) s, exit $rc"
grep -q "$BOOT_MARKER" "$T/console" || { tail -n 30 "$T/console"; fail "the guest did not finish its boot (no $BOOT_MARKER on the console)"; }
[ $rc = 0 ] || { tail -n 5 "$T/console"; fail "host capture exited $rc"; }
grep "$BOOT_MARKER" "$T/console"

# the guest's trace, read from the powered-off image
mount -o ro,noload "$LOOP" "$T/mnt" || fail "mount -o ro $LOOP"
g=$(ls "$T"/mnt/var/lib/ioreel/boot-*.reel 2>/dev/null | head -1)
[ -n "$g" ] || fail "the guest wrote no /var/lib/ioreel/boot-*.reel"
cp "$g" "$T/guest.reel"
umount "$T/mnt"
echo "guest trace: $(basename "$g")"
"$IOREEL" info "$T/guest.reel" | grep -E '^(source|device|I/Os|duration)' | sed 's/^/  guest: /'
"$IOREEL" info "$T/host.reel" | grep -E '^(I/Os|duration)' | sed 's/^/  host:  /'

mkdir "$T/cmp"
boot_compare "$IOREEL" "$T/host.reel" "$T/guest.reel" "$T/cmp" >"$T/cmp/numbers" || { cat "$T/cmp/numbers"; fail "comparison failed"; }
cat "$T/cmp/numbers"
"$IOREEL" model compare --json "$T/cmp/host.reel" "$T/cmp/guest.reel" >"$T/cmp/model.json" || fail "model compare"
"$IOREEL" model compare --json "$T/cmp/host-raw.reel" "$T/cmp/guest-raw.reel" >"$T/cmp/model-raw.json" || fail "model compare (raw)"
if [ -n "${BOOT_KEEP:-}" ]; then
	mkdir -p "$BOOT_KEEP/cmp" && cp "$T/host.reel" "$T/guest.reel" "$T/console" "$BOOT_KEEP/" &&
		cp "$T"/cmp/* "$BOOT_KEEP/cmp/"
fi
num() { awk -v k="$1" -v f="${2:-}" '$1 == k { for (i = 2; i < NF; i++) if ($i == f) { print $(i + 1); exit } if (f == "") print $2 }' "$T/cmp/numbers"; }
ks() { grep -o "\"$1\": [0-9.]*" "$2" | awk '{ print $2 }'; }
# pct A B: |A - B| / max(A, B) in percent
pct() { awk -v a="$1" -v b="$2" 'BEGIN { m = a > b ? a : b; d = a - b; if (d < 0) d = -d; printf "%.3f", m ? 100 * d / m : 0 }'; }
within() { awk -v x="$1" -v lim="$2" 'BEGIN { exit !(x <= lim) }'; }

he=$(num extents host) ge=$(num extents guest) both=$(num extents both)
hr=$(num bytes_read host) gr=$(num bytes_read guest)
hw=$(num bytes_write host) gw=$(num bytes_write guest)
kss=$(ks ks_size "$T/cmp/model.json") ksr=$(ks ks_size "$T/cmp/model-raw.json")
matched=$(num guest_matched_records)
[ "${matched:-0}" -gt 0 ] || fail "no guest record found in the host trace"
echo "extents: host $he guest $ge ($(pct "$he" "$ge")% apart), $both identical"
echo "read bytes: host $hr guest $gr ($(pct "$hr" "$gr")% apart); write bytes: host $hw guest $gw"
echo "request-size KS: extents $kss, raw records $ksr"
echo "flushes: host $(num flush host), guest preflush+fua writes $(num flush guest_preflush)"
d=$((he > ge ? he - ge : ge - he)) n=$((he < ge ? he : ge))
[ "$d" -le 1 ] || within "$(pct "$he" "$ge")" 2 || fail "extent counts $he (host) and $ge (guest) differ by more than 2%"
within "$(pct "$hr" "$gr")" 1 || fail "read bytes $hr (host) and $gr (guest) differ by more than 1%"
kslim=$(awk -v n="$n" 'BEGIN { l = n > 0 ? 2 / n : 1; printf "%.6f", (l > 0.02 ? l : 0.02) }')
within "$kss" "$kslim" || fail "request-size KS $kss > $kslim (0.02, or 2/n for n = $n extents)"
echo "ok: times: image $((s1 - s0)) s, boot $((s3 - s2)) s, total $(($(date +%s) - s0)) s"
