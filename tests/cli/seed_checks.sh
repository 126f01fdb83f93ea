#!/usr/bin/env bash
# The seed scenarios' expect checks that the model meets today, each scenario compared at a
# reduced duration (seed 1). This is the reproduction's floor: a model change that loses one of
# these checks fails here, where the goldens would only say that something moved. The checks the
# model does not meet yet (README, "What the seed scenarios show today") are printed, not asserted;
# when one starts to pass, move it into its must_pass list below and into tests/seed-effects-floor,
# which asserts the same checks over five seeds.
#   000: every "before" check (a netserver that yields in __release_sock() while it owns its
#        socket stalls its flow until the client's TLP and RTO fire; the RTOs come while the
#        owner is off its CPU, by sksim's diagnosis) and "after - RTOs vanish".
#   003: the arming check (the slack's, ~0.04 %, only at 3 s over five seeds in
#        tests/seed-effects-floor). With load balancing (hosts.H.sched.load_balance) no flow is
#        stranded on the interrupt CPU any more, and the median flow gains: the timer re-arm
#        cost is the effect.
#   004: "after" drops no ACK. "before" near 6.05 Gbit/s (5.7) and its ACK drops pass with seed
#        1 but are asserted over five seeds only (below). "after" is no faster: the receiver,
#        ~1.9 us a segment, holds both variants near 5.7 Gbit/s (docs/seed-results.md, 004).
#   001: the check's band is not met, but batching the flush must still speed loopback up.
source "$(dirname "$0")/common.bash"

# compare SCENARIO DURATION: run it into $TMP/<scenario>; a failing check (exit 1) is allowed.
compare() {
  local rc=0
  "$SKSIM_BIN" compare "scenarios/$1.yaml" --duration "$2" --seed 1 --quiet --out "$TMP/$1" \
    >"$TMP/out" 2>"$TMP/err" || rc=$?
  [ "$rc" -le 1 ] || { cat "$TMP/err" >&2; fail "compare $1 exited $rc"; }
  [ -s "$TMP/$1/compare.md" ] || fail "compare $1 wrote no compare.md"
}

# must_pass SCENARIO 'check name'...: each named check is reported as passing.
must_pass() {
  local s="$1" name
  shift
  for name in "$@"; do
    grep -qF -- "- PASS $name:" "$TMP/$s/compare.md" ||
      { cat "$TMP/$s/compare.md" >&2; fail "$s: check '$name' does not pass"; }
  done
}

# known_gaps SCENARIO: print the checks that still fail (informational).
known_gaps() {
  grep -F -- "- FAIL " "$TMP/$1/compare.md" | sed "s/^/  known gap ($1): /" || true
}

compare release-sock-resched 2s
must_pass release-sock-resched \
  "before - retransmissions are rare but present" "before - TLPs fire" "before - RTOs fire" \
  "before - the retransmits were duplicates (DSACK)" \
  "before - the RTOs fire while a netserver holds its socket off the CPU" "after - RTOs vanish"
known_gaps release-sock-resched

compare delack-prequeue 500ms
must_pass delack-prequeue "arming at min(ato, ...) speeds request/response up"
# "slack does at least as well" is a ~0.04 % gain, within a 500 ms run's noise (seed 1: 0.9992);
# tests/seed-effects-floor asserts it over five seeds at 3 s
known_gaps delack-prequeue

compare backlog-limit 2s
# "before - goodput near 6.05 Gbit/s" left this list with 3.4's FACK loss detection
# (tcp.loss_detection): with seed 1 the first recovery stalls on a lost retransmission that FACK
# cannot see (nothing sent after it is SACKed), the RTO restarts the flow at 0.2 s and "before"
# then runs 7.7 Gbit/s (1.27); seeds 3 and 5 stay at 5.7 (docs/seed-results.md, 004). Its five-seed mean still
# meets the band (tests/seed-effects-floor).
# "before - ACKs dropped at the backlog" left it with the receiver's tcp_prune_queue: with seed 1
# the 128 ACKs "before" dropped all followed an RTO at 0.2 s, itself the work of a receive queue
# that stayed above sk_rcvbuf (out-of-order frames at 2624 bytes of truesize each, never
# collapsed), so that every segment met a full backlog. 3.4 collapses that queue and grows the
# unlocked buffer (tcp_clamp_window): no RTO. "before" now drops ACKs in some seeds only: with
# 3.4's own HyStart (tcp.hystart 3.x, Dec 1) 15 in seeds 1, 3, 4 and 5 and none in seed 2 at
# 2 s, each time in one episode (seed 1: at 1.27 s), too marginal to pin for one seed; the
# five-seed mean, tests/seed-effects-floor, meets the check.
must_pass backlog-limit "after - no backlog drops"
known_gaps backlog-limit

compare sendmsg-flush-backlog 1s
ratio=$(sed -n 's/^- [A-Z]* batching the flush speeds loopback up: \([0-9.e+-]*\) .*/\1/p' \
  "$TMP/sendmsg-flush-backlog/compare.md")
[ -n "$ratio" ] || fail "sendmsg-flush-backlog: no goodput ratio in compare.md"
awk -v r="$ratio" 'BEGIN { exit !(r > 1.01) }' ||
  fail "sendmsg-flush-backlog: batching the flush no longer speeds loopback up (after/before $ratio)"
known_gaps sendmsg-flush-backlog
echo ok
