# throughput.gp - throughput over time: MB/s (top) and IOPS (bottom), read
# (solid) and write (dashed), one colour per run.  Data columns:
# time_s read_MBps write_MBps read_IOPS write_IOPS inflight.
# ARG6: what the time axis counts ("completion" or "arrival").
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
set key above noenhanced
set datafile commentschars "#"

set multiplot layout 2,1 title ARG5 noenhanced
unset xlabel
set ylabel "MB/s"
set yrange [0:*]
plot for [i=1:n] word(files,i) using 1:2 with lines lw 1.5 lc i dt 1 title word(titles,i)." read", \
     for [i=1:n] word(files,i) using 1:3 with lines lw 1.5 lc i dt 2 title word(titles,i)." write"
unset key
set xlabel "time since start (s), by ".ARG6." time"
set ylabel "IOPS"
plot for [i=1:n] word(files,i) using 1:4 with lines lw 1.5 lc i dt 1 title word(titles,i)." read", \
     for [i=1:n] word(files,i) using 1:5 with lines lw 1.5 lc i dt 2 title word(titles,i)." write"
unset multiplot
