# tests/cli/boot_compare.awk - the same boot seen from two vantage points:
# the guest's own trace of its virtio disk (ioreel-boot.service) and the
# host's trace of the loop device under it (QEMU, cache=none).
#   awk -v gdev=ID -v out=DIR -f boot_compare.awk HOST.dump GUEST.dump
# Inputs are `ioreel dump` texts; gdev is the guest trace's device id of vda.
# The guest's sector numbers are the host's (the root fs is the whole disk).
#
# 1. Window: the guest records only from its unit's start to "running".
#    The offset between the clocks is the 100 ms bin where most guest
#    records find a host record of the same op and offset; a guest record
#    matches a host record of the same op and offset 0-300 ms later in that
#    frame.  The window is the host records from the first matched one to
#    the last; host records before it (QEMU's probes, the firmware, the
#    initramfs and the boot before the unit) and after it (the guest
#    writing its trace, the shutdown) are counted, not compared.
# 2. Writes out/host.rec (the window) and out/guest.rec (vda), one line per
#    record but flushes: "time op offset length", time the issue time (the
#    queue time when it was never issued), for extents (boot.lib).
# Prints "key value" lines: records, what lies outside the window, and in
# it the raw counts and bytes per op and the flushes.
FNR == 1 { file++ }
/^#/ { next }
file == 1 {
	n++
	hq[n] = $1; hop[n] = $5; hfl[n] = $6; hoff[n] = $7; hlen[n] = $8; hiss[n] = $2; hc[n] = $3
	k = $5 " " $7
	hidx[k] = hidx[k] " " n
	next
}
file == 2 && $4 == gdev {
	m++
	gq[m] = $1; giss[m] = $2; gc[m] = $3; gop[m] = $5; gfl[m] = $6; goff[m] = $7; glen[m] = $8
}
END {
	if (n == 0 || m == 0) { print "error no records (host " n ", guest " m ")"; exit 1 }
	for (j = 1; j <= m; j++) {
		k = gop[j] " " goff[j]
		if (!(k in hidx)) continue
		s = split(hidx[k], a, " ")
		for (t = 1; t <= s; t++) vote[int((hq[a[t]] - gq[j]) / 1e8)]++
	}
	best = ""
	for (b in vote) if (best == "" || vote[b] + 0 > vote[best] + 0) best = b
	if (best == "") { print "error no guest record found on the host"; exit 1 }
	lo = best * 1e8 - 1e8; hi = best * 1e8 + 3e8
	first = 0; last = 0; matched = 0
	for (j = 1; j <= m; j++) {
		k = gop[j] " " goff[j]
		if (!(k in hidx)) continue
		s = split(hidx[k], a, " ")
		for (t = 1; t <= s; t++) {
			d = hq[a[t]] - gq[j]
			if (d < lo || d > hi) continue
			matched++
			if (!first || a[t] < first) first = a[t]
			if (a[t] > last) last = a[t]
			if (!gmatch_first) { gmatch_first = j; delta = d }
			break
		}
	}
	# host records outside the window; QEMU's own: queued within 2 s of
	# the first host record (the guest kernel takes far longer to start),
	# or never issued
	for (i = 1; i < first; i++) {
		if (hq[i] - hq[1] < 2e9 || hiss[i] == "-") qemu++
		else before++
	}
	after = n - last
	# the window, raw
	w = 0
	for (i = first; i <= last; i++) {
		w++
		wq[w] = hq[i]; wop[w] = hop[i]; woff[w] = hoff[i]; wlen[w] = hlen[i]
		if (hop[i] == "flush") { hflush++; continue }
		hraw[hop[i]]++; hbytes[hop[i]] += hlen[i]
		# bios merged into one request share its issue and completion
		if (!((hop[i], hiss[i], hc[i]) in hrq)) { hrq[hop[i], hiss[i], hc[i]]; hreq[hop[i]]++ }
	}
	for (j = 1; j <= m; j++) {
		if (gop[j] == "flush") { gflush++; continue }
		graw[gop[j]]++; gbytes[gop[j]] += glen[j]
		if (!((gop[j], giss[j], gc[j]) in grq)) { grq[gop[j], giss[j], gc[j]]; greq[gop[j]]++ }
		if (gfl[j] ~ /preflush/) gpre++
		if (gfl[j] ~ /fua/) gfua++
	}
	for (i = first; i <= last; i++)
		if (hop[i] != "flush") printf "%.0f %s %.0f %d\n", hiss[i] == "-" ? hq[i] : hiss[i], hop[i], hoff[i], hlen[i] > (out "/host.rec")
	for (j = 1; j <= m; j++)
		if (gop[j] != "flush") printf "%.0f %s %.0f %d\n", giss[j] == "-" ? gq[j] : giss[j], gop[j], goff[j], glen[j] > (out "/guest.rec")
	printf "host_records %d\nguest_records %d\n", n, m
	printf "host_qemu_probes %d\nhost_before_window %d\nhost_after_window %d\n", qemu, before, after
	printf "clock_offset_ms %.1f\nguest_matched_records %d\n", delta / 1e6, matched
	printf "window_host_records %d\n", w
	printf "raw_read host %d guest %d\nraw_write host %d guest %d\n", hraw["read"], graw["read"], hraw["write"], graw["write"]
	printf "requests_read host %d guest %d\nrequests_write host %d guest %d\n", hreq["read"], greq["read"], hreq["write"], greq["write"]
	printf "bytes_read host %d guest %d\nbytes_write host %d guest %d\n", hbytes["read"], gbytes["read"], hbytes["write"], gbytes["write"]
	printf "flush host %d guest %d guest_preflush %d guest_fua %d\n", hflush, gflush, gpre, gfua
}
