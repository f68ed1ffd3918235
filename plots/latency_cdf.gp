# latency_cdf.gp - latency CDF (issue to completion) on a log axis, one line
# per run.  Data columns: latency_us fraction_at_or_below.
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
set logscale x 10
if (fmt ne "dumb") { set format x "10^{%L}" }
set xlabel "latency, issue to completion (us, log scale)"
set ylabel "fraction of I/Os at or below"
set yrange [0:1.02]
set ytics 0.1
plot for [i=1:n] word(files,i) using 1:2 with steps lw 1.5 lc i title word(titles,i)
