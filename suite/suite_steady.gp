# suite_steady.gp OUT NDRIVES COLOURS - the steady-state rounds: the stimulus's
# IOPS per round for each drive (data/steady.dat; the header names them).
set terminal pngcairo size 800, 420 font "sans,10" noenhanced
if (ARG1 ne "-") { set output ARG1 }
set title "Steady-state rounds (PTS: 5-round window, range <= 20%, slope excursion <= 10%)" font "sans,11"
set xlabel "round"
set ylabel "IOPS of the round"
set yrange [0 : *]
set grid ytics lc rgb "#dddddd"
set key bottom right box lc rgb "#bbbbbb" opaque
set border 3
set xtics nomirror 1
set ytics nomirror
n = int(ARG2)
plot for [i = 1:n] "data/steady.dat" using 1:(column(1 + i)) with linespoints \
	lc rgb word(ARG3, i) lw 2 pt 7 ps 0.8 title columnhead(1 + i)
