#!/usr/bin/env bash
# hosts.H.nic.rps_cpus and nic.rfs move the receive softirq's IP and TCP work (ip_rcv, booked
# per CPU in metrics.json) off the interrupt CPU: tests/data/rps.yaml has the NIC interrupt on
# CPU 0 and two readers on each of CPUs 2 and 3. Without steering CPU 0 runs ip_rcv for all;
# with rps_cpus [1] CPU 1 does, and CPU 0 books rps_enqueue for each skb it hands over while
# CPU 1 books them cold (backlog_extra); with RFS each flow's work follows its reader, to CPUs
# 2 and 3. With accelerated RFS on a 4-queue NIC (one queue per CPU) the NIC puts each flow on
# its reader's CPU's queue, so the driver's work (rx_frame) moves there too, and the skbs stay
# warm (no backlog_extra). The goodput stays at the link rate either way.
source "$(dirname "$0")/common.bash"

# placement SETS...: "ip_rcv>0 per CPU as 0/1, then rps_enqueue>0 per CPU" for one run
placement() {
  expect_status 0 "$SKSIM_BIN" run tests/data/rps.yaml --quiet --out "$TMP/r" "$@"
  python3 - "$TMP/r/base/metrics.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
cpus = m["hosts"]["server"]["cpus"]
on = lambda row: "".join("1" if c["profile_s"].get(row, 0) > 0 else "0" for c in cpus)
goodput = sum(f["goodput_bps"] for f in m["flows"])
print(on("ip_rcv"), on("rps_enqueue"), on("backlog_extra")[1], "%.1f" % (goodput / 1e9))
PY
}

[ "$(placement)" = "1000 0000 0 9.4" ] || fail "no steering: $(placement)"
[ "$(placement --set 'hosts.server.nic.rps_cpus=[1]')" = "0100 1000 1 9.4" ] ||
  fail "rps_cpus [1]: $(placement --set 'hosts.server.nic.rps_cpus=[1]')"
[ "$(placement --set hosts.server.nic.rfs=true | cut -d' ' -f1,2,4)" = "0011 1000 9.4" ] ||
  fail "rfs: $(placement --set hosts.server.nic.rfs=true)"

# on   ROW: one 0/1 per CPU, whether it booked ROW
on() {
  python3 - "$TMP/r/base/metrics.json" "$1" <<'PY'
import json, sys
cpus = json.load(open(sys.argv[1]))["hosts"]["server"]["cpus"]
print("".join("1" if c["profile_s"].get(sys.argv[2], 0) > 0 else "0" for c in cpus))
PY
}
queues=(--set hosts.server.nic.rx_queues=4 --set 'hosts.server.nic.irq_cpus=[0,1,2,3]'
        --set hosts.server.nic.rfs=true)
placement "${queues[@]}" >/dev/null
[ "$(on rx_frame)" = 1110 ] || fail "RSS over 4 queues: rx_frame on $(on rx_frame), expected 1110"
[ "$(on backlog_extra)" = 0011 ] || fail "RFS across CPUs: backlog_extra on $(on backlog_extra)"
placement "${queues[@]}" --set hosts.server.nic.arfs=true >/dev/null
[ "$(on rx_frame)" = 0011 ] || fail "aRFS: rx_frame on $(on rx_frame), expected 0011"
[ "$(on ip_rcv)" = 0011 ] || fail "aRFS: ip_rcv on $(on ip_rcv), expected 0011"
[ "$(on backlog_extra)" = 0000 ] || fail "aRFS: backlog_extra on $(on backlog_extra), expected none"
expect_status 2 "$SKSIM_BIN" run tests/data/rps.yaml --quiet --out "$TMP/bad" \
  --set hosts.server.nic.arfs=true
expect_grep "hosts.server.nic.arfs needs hosts.server.nic.rfs: true" "$TMP/err"

# a CPU the host does not have is an error at the key
expect_status 2 "$SKSIM_BIN" run tests/data/rps.yaml --quiet --out "$TMP/bad" \
  --set 'hosts.server.nic.rps_cpus=[1,4]'
expect_grep "hosts.server.nic.rps_cpus" "$TMP/err"
echo ok
