#!/usr/bin/env bash
# --pcap, --trace and --log: the files they write and where, the event log's line format, the
# trace as JSON (python3 when present), per-variant trace names, and bad values (exit 2,
# nothing created). Without them a run writes none of these files. Also the diagnosis counters
# (Sksim*Peer*) of a run whose reader holds its socket while it copies, and the nic log's itr.
source "$(dirname "$0")/common.bash"

f=tests/data/observe_loss.yaml

# nothing requested: no capture, no log, no trace
expect_status 0 "$SKSIM_BIN" run "$f" --out "$TMP/plain" --quiet
[ -z "$(find "$TMP/plain" -name '*.pcap' -o -name '*.log' -o -name '*.tmp')" ] ||
  fail "files written without --pcap/--log: $(ls "$TMP/plain/base")"

# all three at once
out="$TMP/o"
expect_status 0 "$SKSIM_BIN" run "$f" --out "$out" --quiet --pcap client --pcap server:eth0 \
  --snaplen 200 --trace "$TMP/t.json" --log tcp,timer
for file in client-lo.pcap client-eth0.pcap server-eth0.pcap events.log metrics.json; do
  [ -s "$out/base/$file" ] || fail "$out/base/$file missing or empty"
done
[ ! -e "$out/base/server-lo.pcap" ] || fail "server:eth0 also captured lo"
[ -s "$TMP/t.json" ] || fail "no trace"
[ -z "$(find "$TMP" -name '*.tmp')" ] || fail "temporary files left: $(find "$TMP" -name '*.tmp')"
# the pcap header: nanosecond magic, snaplen 200, Ethernet
[ "$(od -An -tx1 -N4 "$out/base/client-eth0.pcap" | tr -d ' ')" = "4d3cb2a1" ] || fail "pcap magic"
[ "$(od -An -tu4 -j16 -N4 "$out/base/client-eth0.pcap" | tr -d ' ')" = "200" ] || fail "snaplen"

# each capture opens with the handshake of every connection its device carries (one flow over
# eth0, none over lo): SYN, SYN-ACK, ACK at time 0, then data; the loopback capture has no SYN
if command -v python3 >/dev/null; then
  python3 - "$out/base/client-eth0.pcap" "$out/base/client-lo.pcap" <<'EOF' || fail "capture handshake"
import struct, sys
def flags(path):
    d = open(path, "rb").read()
    off, out = 24, []
    while off < len(d):
        _, _, caplen, _ = struct.unpack_from("<IIII", d, off)
        rec = d[off + 16: off + 16 + caplen]
        out.append(rec[14 + 20 + 13])  # Ethernet, IPv4 without options, TCP flags
        off += 16 + caplen
    return out
eth, lo = flags(sys.argv[1]), flags(sys.argv[2])
assert eth[:3] == [0x02, 0x12, 0x10], eth[:3]
assert sum(1 for f in eth if f & 0x02) == 2, "one SYN and one SYN-ACK"
assert not any(f & 0x02 for f in lo), lo[:3]
EOF
fi

# the log: "<s>.<9 digits> <host>:<cpu> <context> <event> key=value...", categories tcp and timer
log="$out/base/events.log"
expect_grep '^[0-9]+\.[0-9]{9} client:[0-9]+ softirq RTO sk=1 snd_una=[0-9]+ packets_out=[0-9]+ rto_ms=[0-9]+ backoff=[0-9]+ peer=(owner_off_cpu|owner_on_cpu|delayed_ack|other)$' "$log"
expect_grep '^[0-9]+\.[0-9]{9} client:[0-9]+ \S+ retransmit sk=1 seq=[0-9]+ end_seq=[0-9]+ segs=[0-9]+ state=[0-9]$' "$log"
expect_grep ' ca_state sk=1 from=Open to=(Disorder|Recovery|Loss) ' "$log"
bad="$(grep -Ev '^[0-9]+\.[0-9]{9} [a-z]+:([0-9]+|-) \S+ (ca_state|undo|retransmit|DSACK|TLP|RTO|tcp_reo_timeout|write_timer_deferred|delack_timer|delack_timer_deferred)( [a-z_]+=\S+)+$' "$log" || true)"
[ -z "$bad" ] || fail "log lines outside the format or the categories: $(echo "$bad" | head -3)"
sort -s -n -k1,1 "$log" | cmp -s - "$log" || fail "log not in time order"

# --log nic with ixgbe's dynamic ITR: each change of the throttle interval is a line; a bulk
# stream's first moves it from 50 us to 52 us (itr 212 & 0xFF8 = 208 quarter us, nic_itr.c)
expect_status 0 "$SKSIM_BIN" run tests/data/cli_tiny.yaml --out "$TMP/itr" --quiet --duration 60ms \
  --variant before --set hosts.server.nic.irq_mode=ixgbe --log nic
itrs="$(grep ' itr ' "$TMP/itr/before/events.log" || true)"
[ -n "$itrs" ] || fail "no itr line with nic.irq_mode ixgbe"
echo "$itrs" | head -1 | grep -Eq '^[0-9]+\.[0-9]{9} server:[0-9]+ softirq itr dev=eth0 queue=0 interval_ns=52000$' ||
  fail "first itr line: $(echo "$itrs" | head -1)"

# the trace is one JSON object with the events of a lossy run
if command -v python3 >/dev/null; then
  python3 - "$TMP/t.json" <<'EOF' || fail "trace is not the expected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert d["displayTimeUnit"] == "ns" and d["otherData"]["scenario"] == "observe_loss"
phs = {e["ph"] for e in ev}
assert {"M", "X", "C", "i"} <= phs, phs
names = {e["name"] for e in ev if e["ph"] == "i"}
assert {"RTO", "TLP", "ca_state"} <= names, names
for e in ev:
    assert isinstance(e["pid"], int)
    if e["ph"] == "X":
        assert e["dur"] > 0 and e["ts"] >= 0 and isinstance(e["tid"], int)
EOF
else
  echo "python3 not found: JSON check skipped"
fi

# several variants: one trace each, FILE with .<variant> before its extension
expect_status 0 "$SKSIM_BIN" run tests/data/cli_tiny.yaml --out "$TMP/v" --quiet --duration 60ms \
  --trace "$TMP/tr/x.json"
[ -s "$TMP/tr/x.before.json" ] && [ -s "$TMP/tr/x.after.json" ] && [ ! -e "$TMP/tr/x.json" ] ||
  fail "per-variant traces: $(ls "$TMP/tr" 2>&1)"
expect_status 0 "$SKSIM_BIN" run tests/data/cli_tiny.yaml --out "$TMP/v" --quiet --duration 60ms \
  --variant after --trace "$TMP/one.json" --trace-window 10ms:20ms
[ -s "$TMP/one.json" ] || fail "--variant after --trace FILE did not write FILE"

# an interrupted run (SIGINT) still closes its trace and log: valid JSON, renamed into place
expect_interrupted INT 130 "$SKSIM_BIN" run tests/data/cli_tiny.yaml --variant after \
  --duration 100000s --max-wall 60 --quiet --out "$TMP/int" --trace "$TMP/int.json" \
  --trace-window 0:1ms --log tcp
[ -s "$TMP/int.json" ] && [ ! -e "$TMP/int.json.tmp" ] || fail "interrupted trace not in place"
[ -e "$TMP/int/after/events.log" ] && [ ! -e "$TMP/int/after/events.log.tmp" ] ||
  fail "interrupted log not in place"
[ "$(tail -n 1 "$TMP/int.json")" = "]}" ] || fail "interrupted trace does not end the array"
if command -v python3 >/dev/null; then
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/int.json" ||
    fail "interrupted trace is not JSON"
fi

# bad values: exit 2, message, no output directory
bad_run() { # EXPECTED-MESSAGE ARGS...
  local msg="$1"
  shift
  rm -rf "$TMP/bad"
  expect_status 2 "$SKSIM_BIN" run "$f" --out "$TMP/bad" "$@"
  expect_grep "$msg" "$TMP/err"
  [ ! -e "$TMP/bad" ] || fail "'$*' created $TMP/bad"
}
bad_run "--pcap 'nosuch': unknown host 'nosuch' \(hosts: client, server\)" --pcap nosuch
bad_run "--pcap 'client:eth1': host 'client' has no device 'eth1' \(devices: lo, eth0\)" --pcap client:eth1
bad_run "--pcap 'client:': host 'client' has no device ''" --pcap client:
bad_run "--log: unknown log category 'tcpp'" --log tcp,tcpp
bad_run "--log: no category given" --log ,
bad_run "--trace-window needs --trace FILE" --trace-window 1ms:2ms
bad_run "--trace-window '2ms:1ms': T1 must be after T0" --trace "$TMP/x.json" --trace-window 2ms:1ms
bad_run "--trace-window 'abc': expected T0:T1" --trace "$TMP/x.json" --trace-window abc
bad_run "--snaplen: must be between" --snaplen -1
bad_run "--trace-window 5000s: starts at or after the end of the run" --trace "$TMP/x.json" --trace-window 5000s:
# compare takes the same options
expect_status 2 "$SKSIM_BIN" compare tests/data/cli_tiny.yaml --out "$TMP/bad" --pcap client:eth7
expect_grep "no device 'eth7'" "$TMP/err"
# sksim's diagnosis of each probe (README, "Why each loss probe and RTO fired"): a reader that
# copies at 1 ms per KiB holds its socket on its CPU for a whole 64 KiB read, so the client's
# loss probes find the owner running; never off its CPU (nothing else runs on CPU 0), and the
# classes add up to TCPLossProbes (the timer_diag invariant would stop the run otherwise).
expect_status 0 "$SKSIM_BIN" run scenarios/example.yaml --variant after --duration 1s --quiet \
  --out "$TMP/diag" --set hosts.server.costs.copy_per_kb=1ms --set hosts.client.tcp.rto_min=5ms
# client_ctr NAME: the client host's counter in metrics.json (its block comes first)
client_ctr() {
  awk -v k="\"$1\":" '
    $1 == "\"client\":" { c = 1 }
    c && $1 == k { sub(/,$/, "", $2); print $2; exit }' "$TMP/diag/after/metrics.json"
}
on=$(client_ctr SksimTLPPeerOwnerOnCpu)
[ "${on:-0}" -gt 0 ] || fail "no loss probe found the slow reader on its CPU"
[ "$(client_ctr SksimTLPPeerOwnerOffCpu)" = 0 ] || fail "a loss probe found the reader off its CPU"
[ "$(client_ctr TcpExtTCPLossProbes)" = "$on" ] || fail "loss probes other than owner-on-CPU"
echo "ok"
