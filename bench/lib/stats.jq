# Statistics shared by the bench summaries (jq -L bench/lib 'include "stats"; ...').
# Inputs are arrays of per-repeat figures; an interval is a 95% one using
# Student's t with n-1 degrees of freedom (repeats are few).
def mean: add / length;
def sd: mean as $m | if length < 2 then 0 else (map(. - $m | . * .) | add / (length - 1) | sqrt) end;
def t975($n): [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
	| if $n >= 2 and $n - 2 < length then .[$n - 2] elif $n < 2 then 1e9 else 1.96 end;
# ratio of means mean(a)/mean(b) with a delta-method interval:
# se(R) = R * sqrt(sa^2/(na ma^2) + sb^2/(nb mb^2)), t with min(na, nb)-1 df.
def ratio_ci($a; $b):
	($a | mean) as $ma | ($b | mean) as $mb | ($ma / $mb) as $r
	| ($r * ((($a | sd) / $ma | . * .) / ($a | length) + (($b | sd) / $mb | . * .) / ($b | length) | sqrt)) as $se
	| t975([($a | length), ($b | length)] | min) as $t
	| {ratio: $r, lo: ($r - $t * $se), hi: ($r + $t * $se)};
# paired (same-repeat) ratios a_i/b_i: mean and sd
# with a t interval of that mean (lo, hi)
def paired($a; $b): [range(0; [($a | length), ($b | length)] | min) | $a[.] / $b[.]]
	| {mean: mean, sd: sd, n: length} | .lo = .mean - t975(.n) * .sd / (.n | sqrt) | .hi = .mean + t975(.n) * .sd / (.n | sqrt);
def r0: . * 1 | round;
def f(d): (. * pow(10; d) | round) / pow(10; d);
# left-justify in a column of width n
def col(n): tostring | . + " " * (n - length);
