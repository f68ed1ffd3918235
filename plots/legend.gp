# legend.gp - the legend under a plot (loaded by the scripts after `titles`
# and `n` are set): as many columns (at most 4) as the longest title allows
# in the 1000-pixel width, and the screen height the rows take, kb, so that
# the plot's bottom margin can leave room for them (legends never cover data
# or the x label).  Then: set bmargin at screen kb + 0.08 (or more).
maxl = 1
do for [i = 1:n] { maxl = strlen(word(titles, i)) > maxl ? strlen(word(titles, i)) : maxl }
kcols = int(900 / (maxl * 6.5 + 60))
kcols = kcols < 1 ? 1 : (kcols > 4 ? 4 : kcols)
krows = int((n + kcols - 1) / kcols)
kb = 0.03 * krows + 0.02
set key at screen 0.5, 0.01 center bottom horizontal maxcols kcols noenhanced samplen 2.5
