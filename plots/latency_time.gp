# latency_time.gp - latency percentiles over time: p99 (solid) and p50
# (dashed) lines, one colour per run (no translucent bands, which hide each
# other).  Data columns: time_s p50_us p99_us p999_us count share_pct.
# ARG6 holds "share" (x: each run's share of its own length, column 6) and
# "p50" (also draw p50: when few runs, so that the lines stay readable).
# Arguments (gnuplot -c): ARG1 terminal png|svg|dumb, ARG2 output file ("-": stdout),
# ARG3 data files (space-separated words, quoted when needed), ARG4 legend
# titles (one quoted word per data file), ARG5 plot title, ARG6 extra.
fmt = ARG1
if (fmt eq "png") {
    set terminal pngcairo size 1000,600 enhanced font "DejaVu Sans,10"
} else {
    if (fmt eq "svg") {
        set terminal svg size 1000,600 fixed enhanced font "DejaVu Sans,10" background "#ffffff"
    } else {
        set terminal dumb size 120,40
    }
}
if (ARG2 ne "-") { set output ARG2 }
# the colours: palette.gp next to this script
here = ARG0
while (strlen(here) > 0 && here[strlen(here):strlen(here)] ne "/") { here = here[1:strlen(here) - 1] }
load here."palette.gp"
files = ARG3
titles = ARG4
n = words(files)
set grid
set key below noenhanced
set datafile commentschars "#"

norm = strstrt(ARG6, "share") > 0
p50 = strstrt(ARG6, "p50") > 0
set title ARG5.(p50 ? " (solid: p99, dashed: p50)" : ": p99") noenhanced
tcol = norm ? 6 : 1
set logscale y 10
if (fmt ne "dumb") { set format y "10^{%L}" }
set xlabel (norm ? "share of each run's length (%), by completion time" : "time since start (s), by completion time")
set ylabel "latency, issue to completion (us, log scale)"
set lmargin at screen 0.09
set rmargin at screen 0.97
load here."legend.gp"
set bmargin at screen kb + 0.09
plot for [i=1:n] word(files,i) using tcol:3 with lines lw 1.5 lc i dt 1 title word(titles,i), \
     for [i=1:(p50 ? n : 0)] word(files,i) using tcol:2 with lines lw 1 lc i dt 2 notitle
