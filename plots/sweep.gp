# sweep.gp - one metric of a sweep against the first swept parameter: the mean over seeds with
# its 95 % confidence interval (Student t), one line per variant (and per combination of the
# other parameters).
# Variables: file (block i-1, separated by two blank lines, is series i: x, mean, lo, hi, n,
# "x label"), nseries, label<i>, color<i>, dash<i>, xlab, ylab, logx (1: log2 x axis).
set xlabel xlab
set ylabel ylab
if (exists("logx") && logx) { set logscale x 2 }
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
plot for [i=1:nseries] file index (i-1) using 1:2:3:4:xtic(6) with yerrorlines lw 2 pt 7 ps 0.8 \
     lc rgb color(S('color', i)) dt S('dash', i) title S('label', i)
