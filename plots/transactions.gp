# transactions.gp - request/response transactions per second of each variant over time, summed
# over its RR flows: the flow.<name>.transactions series differentiated between samples by
# sksim. Counters restart at the end of the warm-up (the dotted vertical line), where the
# line breaks.
# Variables: n series; series i is column col<i> of file<i>, labelled label<i>, in palette colour
# color<i> with dash type dash<i>; warmup (s).
set xlabel 'time (s)'
set ylabel 'transactions/s'
set yrange [0:*]
set format y '%.1s%c'
if (exists("warmup") && warmup > 0) {
    set arrow from warmup, graph 0 to warmup, graph 1 nohead dt 3 lc rgb '#888888'
}
plot for [i=1:n] S('file', i) using 1:S('col', i) with lines lw 2 \
     lc rgb color(S('color', i)) dt S('dash', i) title S('label', i)
