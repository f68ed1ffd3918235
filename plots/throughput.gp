# throughput.gp - throughput over time: MB/s (top) and IOPS (bottom), read
# (solid) and write (dashed), one colour per run.  Data columns:
# time_s read_MBps write_MBps read_IOPS write_IOPS inflight.
# ARG6: what the time axis counts ("completion" or "arrival").
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
# ARG6: "completion" or "arrival" (what the time axis counts), then
# ",share" when the runs' lengths differ so much that each is drawn over
# its own length (column 7: % of the run) rather than in seconds
norm = strstrt(ARG6, ",share") > 0
what = norm ? ARG6[1:strstrt(ARG6, ",share") - 1] : ARG6
tcol = norm ? 7 : 1
set grid lc rgb "#dddddd"
set datafile commentschars "#"
# two panels sharing the time axis: fixed margins so that they line up, the
# legend (one entry per run: read solid, write dashed) under them
load here."legend.gp"
set lmargin at screen 0.09
set rmargin at screen 0.97
set multiplot title ARG5." (solid: read, dashed: write)" noenhanced
set tmargin at screen 0.90
set bmargin at screen 0.90 - (0.90 - kb - 0.09) / 2 + 0.02
set format x ""
unset xlabel
set ylabel "MB/s"
set yrange [0:*]
plot for [i=1:n] word(files,i) using tcol:2 with lines lw 1.5 lc i dt 1 title word(titles,i), \
     for [i=1:n] word(files,i) using tcol:3 with lines lw 1.5 lc i dt 2 notitle
unset key
set tmargin at screen 0.90 - (0.90 - kb - 0.09) / 2 - 0.01
set bmargin at screen kb + 0.09
set format x "%g"
set xlabel (norm ? "share of each run's length (%), by ".what." time" : "time since start (s), by ".what." time")
set ylabel "IOPS"
plot for [i=1:n] word(files,i) using tcol:4 with lines lw 1.5 lc i dt 1 notitle, \
     for [i=1:n] word(files,i) using tcol:5 with lines lw 1.5 lc i dt 2 notitle
unset multiplot
