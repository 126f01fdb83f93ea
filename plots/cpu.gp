# cpu.gp - CPU use over time: for each variant, the share of each sample interval that its
# busiest CPUs spent working (tasks, softirq, context switches), in %. sksim picks the CPUs
# (at least 25 % busy on average, at most 6 per variant) and computes the shares; one colour
# per variant, one dash type per CPU.
# Variables: n series; series i is column col<i> of file<i>, labelled label<i>, in palette colour
# color<i> with dash type dash<i>; warmup (s).
set xlabel 'time (s)'
set ylabel 'CPU busy (% of each sample interval)'
set yrange [0:105]
set key outside right top
if (exists("warmup") && warmup > 0) {
    set arrow from warmup, graph 0 to warmup, graph 1 nohead dt 3 lc rgb '#888888'
}
plot for [i=1:n] S('file', i) using 1:S('col', i) with lines lw 2 \
     lc rgb color(S('color', i)) dt S('dash', i) title S('label', i)
