# sizes.gp - request size histogram: % of I/Os per size class, one bar per
# series.  One data file: column 1 the size class ("4k"), then one column
# per series (ARG4 names them).
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
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xlabel "request size (up to, bytes)"
set ylabel "% of I/Os"
set yrange [0:*]
f = word(files,1)
m = words(titles)
plot for [i=1:m] f using (column(i+1)):xtic(1) lc i title word(titles,i)
