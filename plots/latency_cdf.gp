# latency_cdf.gp - latency percentiles (issue to completion) on a "nines"
# axis (x = -log10(1 - p): 50, 90, 99, 99.9, 99.99), where the tail that a
# linear CDF hides gets as much room as the median, against a log latency
# axis; one line per run.  Data columns: latency_us fraction_at_or_below.
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

set title ARG5 noenhanced
set logscale y 10
if (fmt ne "dumb") { set format y "10^{%L}" }
set xrange [0:5.05]
set xtics ("0" 0, "50" log10(2), "90" 1, "99" 2, "99.9" 3, "99.99" 4, "99.999" 5)
set xlabel "percentile of I/Os (nines axis)"
set ylabel "latency, issue to completion (us, log scale)"
set key inside top left vertical noenhanced box lc rgb "#bbbbbb" opaque
nines(q) = q < 1 ? -log10(1 - q) : 1/0
plot for [i=1:n] word(files,i) using (nines($2)):1 with lines lw 1.5 lc i title word(titles,i)
