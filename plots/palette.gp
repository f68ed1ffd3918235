# palette.gp - the line colours of every plot (loaded by the other scripts):
# dark enough on white, no yellow, the same as ioreel suite's drive colours
# (plots_palette[] in plots/render.c).  Run i is line type i.
set linetype 1 lc rgb "#1f5fa8" lw 1.5 pt 7
set linetype 2 lc rgb "#c0392b" lw 1.5 pt 5
set linetype 3 lc rgb "#2e8b3a" lw 1.5 pt 9
set linetype 4 lc rgb "#7b4fa0" lw 1.5 pt 11
set linetype 5 lc rgb "#8c564b" lw 1.5 pt 13
set linetype 6 lc rgb "#d0508f" lw 1.5 pt 7
set linetype 7 lc rgb "#138d90" lw 1.5 pt 5
set linetype 8 lc rgb "#555555" lw 1.5 pt 9
set linetype cycle 8
