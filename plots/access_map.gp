# access_map.gp - offset against time, reads and writes in two colours
# (what iowatcher shows).  Data columns: time_s offset_MiB dir (0 read,
# 1 write, 2 other).  One data file (the first word of ARG3).  ARG6 "other":
# also draw discards and flushes.
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
set xlabel "time since start (s)"
set ylabel "offset (MiB)"
f = word(files,1)
if (ARG6 eq "other") {
    plot f using 1:($3==0 ? $2 : 1/0) with points pt 7 ps 0.4 lc rgb "#1f77b4" title "read", \
         f using 1:($3==1 ? $2 : 1/0) with points pt 7 ps 0.4 lc rgb "#d62728" title "write", \
         f using 1:($3==2 ? $2 : 1/0) with points pt 7 ps 0.4 lc rgb "#7f7f7f" title "discard/flush"
} else {
    plot f using 1:($3==0 ? $2 : 1/0) with points pt 7 ps 0.4 lc rgb "#1f77b4" title "read", \
         f using 1:($3==1 ? $2 : 1/0) with points pt 7 ps 0.4 lc rgb "#d62728" title "write"
}
