# counters.gp - the scenario's report counters, one panel per counter (each with its own
# scale), one bar per variant: before vs after, from compare.json.
# Variables: file (row k: counter name, then one value per variant in columns 2..nvar+1),
# ncounters, cname<k> (panel titles), ylabel<k> (their units), nvar, label<i>, color<i> (variant i).
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#333333'
set boxwidth 0.9 relative
set yrange [0:*]
set xtics scale 0
set format x ''
set key below horizontal nobox
ncols = ncounters < 4 ? ncounters : 4
nrows = int(ceil(ncounters / 4.0))
unset title
set multiplot layout nrows, ncols title fig_title
do for [k=1:ncounters] {
    set title S('cname', k)
    set ylabel S('ylabel', k)
    plot for [i=1:nvar] file every ::(k-1)::(k-1) using (column(i+1)) \
         lc rgb color(S('color', i)) title S('label', i)
}
unset multiplot
