# inflight.gp - mean I/Os in flight (queue depth seen by the device) per
# interval, one line per run.  Data columns as throughput.gp (column 6).
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
load here."legend.gp"
set lmargin at screen 0.09
set rmargin at screen 0.97
set bmargin at screen kb + 0.09
set datafile commentschars "#"

set title ARG5 noenhanced
norm = ARG6 eq "share"
set xlabel (norm ? "share of each run's length (%)" : "time since start (s)")
set ylabel "I/Os in flight (time-weighted mean)"
set yrange [0:*]
set offsets 0, 0, graph 0.06, 0
plot for [i=1:n] word(files,i) using (norm ? $7 : $1):6 with histeps lw 1.5 lc i title word(titles,i)
