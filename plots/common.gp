# common.gp - terminal, palette and style shared by every sksim figure.
#
# sksim runs each figure as
#     gnuplot -e "VARS" plots/common.gp plots/<figure>.gp
# so this file sets the terminal and the look, and the figure script only says what to plot.
# Variables (set by sksim with -e):
#     out        output file (sksim writes to a temporary name and renames it)
#     fmt        'png' (pngcairo, 1000x600) or 'svg' (1000x600)
#     fig_title  the figure's title (the scenario's title and what the figure shows)
#     fig_h      optional: the figure's height in pixels (default 600; the width is 1000)
# To run a figure by hand, give the same variables, e.g.
#     gnuplot -e "out='x.png'; fmt='png'; fig_title='t'; n=1; file1='a.dat'; col1=2; \
#                 label1='before'; color1=1; dash1=1" plots/common.gp plots/throughput.gp

if (!exists("fmt")) fmt = 'png'
if (!exists("fig_h")) fig_h = 600
if (fmt eq 'svg') {
    set terminal svg size 1000,fig_h dynamic noenhanced font 'Sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1000,fig_h noenhanced font 'Sans,11' background rgb 'white'
}
set output out
set encoding utf8

# One colour per variant, the same in every figure: sksim passes the palette index of each
# variant (before = 1, after = 2, base = 3, others in order). Okabe-Ito colours, which stay
# distinguishable with the common forms of colour blindness.
array PALETTE[8] = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#999999']
color(i) = PALETTE[(int(i) - 1) % 8 + 1]
# The value of the variable NAME<i>, e.g. S('file', 2) is file2.
S(name, i) = value(sprintf('%s%d', name, i))

set title fig_title
set grid lc rgb '#dddddd'
set border 3
set tics nomirror
set key top left box opaque
set datafile missing 'NaN'
