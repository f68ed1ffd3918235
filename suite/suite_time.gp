# suite_time.gp OUT TITLE DATA NSERIES COLOURS DASHES TITLES XMAX - one run of
# each drive and state over time, for one trace: data rate (top) and p99
# latency (bottom, log scale) in two panels that share the time axis (fixed
# margins, so they line up), drives overlaid (colour = drive, dash = state),
# one compact legend under both.  DATA holds a block per series (gnuplot
# index i): time_s MBps p99_us.  Called by ioreel suite.
ns = int(ARG4)
rows = int((ns + 3) / 4)
kb = 0.04 * rows + 0.04
set terminal pngcairo size 1000, 620 font "sans,10" noenhanced
if (ARG1 ne "-") { set output ARG1 }
set grid xtics ytics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set xrange [0 : real(ARG8)]
set lmargin at screen 0.09
set rmargin at screen 0.97
set multiplot title ARG2 font "sans,12"
mid = (0.90 + kb + 0.08) / 2
set tmargin at screen 0.90
set bmargin at screen mid + 0.02
set format x ""
set ylabel "MB/s"
set yrange [0 : *]
set key at screen 0.5, 0.01 center bottom horizontal maxcols 4 samplen 3 font "sans,9"
plot for [i = 0:ns - 1] ARG3 index i using 1:2 with lines lc rgb word(ARG5, i + 1) \
	dt int(word(ARG6, i + 1)) lw 1.5 title word(ARG7, i + 1)
unset key
set tmargin at screen mid - 0.01
set bmargin at screen kb + 0.08
set format x "%g"
set xlabel "time since the run's start (s)"
set ylabel "p99 latency, us (log scale)"
set logscale y
set format y "%g"
set yrange [* : *]
plot for [i = 0:ns - 1] ARG3 index i using 1:3 with lines lc rgb word(ARG5, i + 1) \
	dt int(word(ARG6, i + 1)) lw 1.5 notitle
unset multiplot
