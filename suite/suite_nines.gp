# suite_nines.gp OUT TITLE NPANELS PREFIX PANELS COLOURS DASHES - latency percentiles
# on a "nines" axis (x = -log10(1 - p): 50, 90, 99, 99.9, 99.99) with a log
# latency axis, one panel per trace, a line per series (column 3 on; the
# header names them).  Called by ioreel suite.
n = int(ARG3)
set terminal pngcairo size (n > 1 ? 420 * n : 700), 460 font "sans,10" noenhanced
if (ARG1 ne "-") { set output ARG1 }
set multiplot layout 1, n title ARG2 font "sans,12"
set xrange [0.2 : 4.1]
set xtics ("50" log10(2), "90" 1, "99" 2, "99.9" 3, "99.99" 4) nomirror
set xlabel "percentile"
set ylabel "latency, us (log scale)"
set logscale y
set format y "%g"
set grid xtics ytics mytics lc rgb "#dddddd"
set key top left font "sans,9" box lc rgb "#bbbbbb" opaque
set border 3
set ytics nomirror
do for [k = 1:n] {
	f = sprintf("%s%d.dat", ARG4, k)
	set title word(ARG5, k)
	ns = words(ARG6)
	plot for [i = 0:ns - 1] f using 1:(column(3 + i)) with linespoints \
		lc rgb word(ARG6, i + 1) dt int(word(ARG7, i + 1)) lw 2 pt 7 ps 0.8 title columnhead(3 + i)
	unset ylabel
	set key off
}
unset multiplot
