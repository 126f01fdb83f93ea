# throughput.gp - throughput over time of each variant: the bytes delivered to the receiving
# applications, summed over flows, differentiated between samples by sksim (Gbit/s at the end
# of each sample interval).
# Variables: n series; series i is column col<i> of file<i>, labelled label<i>, in palette colour
# color<i> with dash type dash<i>; warmup (s).
set xlabel 'time (s)'
set ylabel 'throughput (Gbit/s)'
set yrange [0:*]
if (exists("warmup") && warmup > 0) {
    set arrow from warmup, graph 0 to warmup, graph 1 nohead dt 3 lc rgb '#888888'
}
plot for [i=1:n] S('file', i) using 1:S('col', i) with lines lw 2 \
     lc rgb color(S('color', i)) dt S('dash', i) title S('label', i)
