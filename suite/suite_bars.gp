# suite_bars.gp DATA OUT TITLE XLABEL MAXY - a horizontal bar per row of DATA
# (columns: y mean ci_lo ci_hi rgb "label"), error bars = the 95% CI,
# the value printed at the end of each bar.  Called by ioreel suite.
maxy = int(ARG5)
h = 110 + 24 * (maxy + 1)
set terminal pngcairo size 1000, h font "sans,10" noenhanced
if (ARG2 ne "-") { set output ARG2 }
set title ARG3 font "sans,12"
set xlabel ARG4
set yrange [maxy + 0.7 : -0.7]
set xrange [0 : *]
set offsets 0, graph 0.12, 0, 0
set style fill solid 1.0 border lc rgb "#333333"
set grid xtics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror scale 0
set key off
set lmargin 28
plot ARG1 using (($2)/2):1:(0):2:($1-0.38):($1+0.38):5:ytic(6) with boxxyerror lc rgb variable, \
     '' using 2:1:3:4 with xerrorbars lc rgb "#000000" pt 0 lw 1.2, \
     '' using 4:1:($2 >= 1000 ? sprintf(" %.0f", $2) : sprintf(" %.3g", $2)) with labels left font "sans,9" tc rgb "#222222"
