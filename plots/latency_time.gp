# latency_time.gp - latency percentiles over time: a band from p50 to p99
# and the p50 line, one colour per run.  Data columns:
# time_s p50_us p99_us p999_us count.
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
files = ARG3
titles = ARG4
n = words(files)
set grid
set key below noenhanced
set datafile commentschars "#"

set title ARG5 noenhanced
set logscale y 10
if (fmt ne "dumb") { set format y "10^{%L}" }
set xlabel "time since start (s), by completion time"
set ylabel "latency, issue to completion (us, log scale)"
set style fill transparent solid 0.25 noborder
plot for [i=1:n] word(files,i) using 1:2:3 with filledcurves lc i title word(titles,i)." p50-p99", \
     for [i=1:n] word(files,i) using 1:2 with linespoints pt 7 ps 0.4 lw 1.5 lc i notitle
