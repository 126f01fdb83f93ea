# counters.gp - the scenario's report counters, one panel per counter (each with its own
# scale), one bar per variant, its value printed above it: before vs after, from compare.json.
# Variables: file (row k: counter name, then one value per variant in columns 2..nvar+1),
# ncounters, ncols, nrows (the grid), cname<k> (panel titles), unit<k> (the panel's unit, ''
# for a plain count), nvar, label<i>, color<i> (variant i).
# Each panel names the variants under their bars, so the figure needs no key; the values
# replace a y axis, which thirteen small panels have no room to label legibly.

# A value in at most four significant digits, with k/M/G above 10^4.
fmtv(v) = abs(v) >= 1e9 ? sprintf('%.3gG', v / 1e9) : \
          abs(v) >= 1e6 ? sprintf('%.3gM', v / 1e6) : \
          abs(v) >= 1e4 ? sprintf('%.3gk', v / 1e3) : sprintf('%.4g', v)

set style fill solid 0.85 border rgb '#333333'
set boxwidth 0.7 absolute
set xrange [0.4:nvar + 0.6]
set yrange [0:*]
set offsets 0, 0, graph 0.25, 0
set xtics (S('label', 1) 1) scale 0 font ',10'
do for [i=2:nvar] { set xtics add (S('label', i) i) }
unset ytics
unset grid
set border 1
unset key
unset title
set multiplot layout nrows, ncols title fig_title . "\n(counts over the measured interval unless a panel gives a unit)"
do for [k=1:ncounters] {
    unit = S('unit', k)
    set title (unit eq '' ? S('cname', k) : S('cname', k) . "\n" . unit) font ',10'
    plot for [i=1:nvar] file every ::(k-1)::(k-1) using (i):(column(i+1)) with boxes \
             lc rgb color(S('color', i)), \
         for [i=1:nvar] file every ::(k-1)::(k-1) using (i):(column(i+1)):(fmtv(column(i+1))) \
             with labels offset 0, 0.7 font ',10'
}
unset multiplot
