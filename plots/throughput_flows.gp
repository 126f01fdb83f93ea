# throughput_flows.gp - throughput over time of each flow of each variant (Gbit/s); colour =
# variant, dash type = flow.
# Variables: n series; series i is column col<i> of file<i>, labelled label<i> ("variant flow",
# or for a variant with many flows one label on its first line and '' on the others, which
# gnuplot leaves out of the key), in palette colour color<i> with dash type dash<i>; nkeys, the
# number of key entries; warmup (s).
set xlabel 'time (s)'
set ylabel 'throughput per flow (Gbit/s)'
set yrange [0:*]
if (exists("nkeys") && nkeys > 8) {
    set key outside right top nobox maxrows 30
} else {
    set key top left box opaque
}
if (exists("warmup") && warmup > 0) {
    set arrow from warmup, graph 0 to warmup, graph 1 nohead dt 3 lc rgb '#888888'
}
plot for [i=1:n] S('file', i) using 1:S('col', i) with lines lw 1.5 \
     lc rgb color(S('color', i)) dt S('dash', i) title S('label', i)
