# suite_lines.gp OUT TITLE NPANELS PREFIX PANELS COLOURS POINTS YLABEL YMAX - one
# panel per trace (PREFIX1.dat ...), categories on x (column 2 holds the
# label), a line with 95% CI error bars per series (mean lo hi triples from
# column 3; the header line names the series; COLOURS and POINTS: a colour
# and a point type per series), series set slightly apart so
# their bars do not hide each other; y from 0 to YMAX (a word per panel).
# Called by ioreel suite.
n = int(ARG3)
set terminal pngcairo size (n > 1 ? 420 * n : 700), 460 font "sans,10" noenhanced
if (ARG1 ne "-") { set output ARG1 }
set multiplot layout 1, n title ARG2 font "sans,12"
set ylabel ARG8
set offsets 0.3, 0.3, graph 0.05, 0
set grid ytics lc rgb "#dddddd"
set key top left font "sans,9" box lc rgb "#bbbbbb" opaque
set border 3
set xtics nomirror
set ytics nomirror
do for [k = 1:n] {
	f = sprintf("%s%d.dat", ARG4, k)
	set title word(ARG5, k)
	set yrange [0 : real(word(ARG9, k))]
	ns = words(ARG6)
	# the category labels once, at the undodged positions; then the series
	plot f using 1:(1/0):xtic(2) notitle, \
	     for [i = 0:ns - 1] f using ($1 + (i - (ns - 1) / 2.0) * 0.05):(column(3 + 3 * i)):(column(4 + 3 * i)):(column(5 + 3 * i)) \
		with yerrorlines lc rgb word(ARG6, i + 1) pt int(word(ARG7, i + 1)) lw 2 ps 0.9 \
		title columnhead(3 + 3 * i)
	unset ylabel
	set key off
}
unset multiplot
