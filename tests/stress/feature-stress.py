#!/usr/bin/env python3
"""feature-stress.py - random valid scenarios that mix every feature the keys offer.

Where sched-stress.py aims at the scheduler, this one draws from all of a scenario: 1-3 hosts
with 1-64 CPUs, loopback and wire workloads, links from 1 Mbit to 200 Gbit with delay, queue
and loss, every NIC option (MTU 68 to 64 KiB, GRO, TSO, RSS queues and IRQ CPUs, interrupt
moderation, ring sizes), every tcp.* key (TSO deferral, autotuning eras, window scaling, usec
timestamps, rto_min, buffers, TSQ, congestion control, F-RTO, SACK, TLP, pacing), every stack.*
era key, stream and request/response workloads with sizes from 1 byte to 1 GiB, late and
jittered starts, variants, and the observation options (--pcap, --trace, --log, --max-events).

Each run must exit 0 with no sanitizer report and no invariant violation (the Debug build checks
them continuously). With --release-bin, a share of the scenarios also runs twice in Release,
and the two runs' fingerprints and outputs must be identical. A failing scenario, its command
and the output's tail are kept in OUT/fail-N/ for replay.

  tests/stress/feature-stress.py --bin build-asan/sksim --runs 300 --seed 1 --jobs 2
  tests/stress/feature-stress.py --bin build/sksim --runs 40 --max-ms 50   # quick, Release

This generator found two bugs on Nov 30: a use-after-free when a run stopped with a flow's start
still queued (world_free), and a false backlog_limit invariant at MTU 68.

Exit status: 0 every run passed, 1 some run failed, 2 bad usage.
"""
import argparse
import concurrent.futures
import hashlib
import os
import random
import shutil
import subprocess
import sys

BAD_OUTPUT = ("AddressSanitizer", "runtime error:", "LeakSanitizer", "invariant violated",
              "CRITICAL", "ERROR:")
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
           UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1", G_DEBUG="fatal-criticals")


def flag(r, p_true=0.5):
    return "true" if r.random() < p_true else "false"


def cpu_list(r, ncpus):
    """None (any CPU), one CPU, a range "a-b" or a subset."""
    k = r.random()
    if k < 0.4 or ncpus == 1:
        return None
    if k < 0.65:
        return f"[{r.randrange(ncpus)}]"
    if k < 0.8 and ncpus > 2:
        a = r.randrange(ncpus - 1)
        return f'"{a}-{r.randrange(a + 1, ncpus)}"'
    return "[" + ", ".join(map(str, sorted(r.sample(range(ncpus), r.randint(2, ncpus))))) + "]"


def stack_block(r):
    return ["stack:",
            "  release_sock:", f"    resched_every: {r.choice([1, 1, 16, 16, 2, 65536])}",
            f"    bh_disabled: {flag(r, .3)}",
            "  sendmsg:", f"    flush_backlog_every: {r.choice([0, 1, 16, 16, 3])}",
            "  backlog:",
            f"    limit: {r.choice(['rcvbuf', 'rcvbuf+sndbuf', '2016', '2022', '2024'])}",
            f"    coalesce: {flag(r, .6)}", f"    ack_defer: {flag(r, .6)}",
            "  recvmsg:", f"    cleanup_before_flush: {flag(r, .4)}",
            "  prequeue:", f"    enabled: {flag(r, .4)}",
            f"    delack: {r.choice(['rto_min_3_4', 'min_ato'])}",
            f"    limit: {r.choice(['4.x', '3.x'])}",
            "  timer:", f"    slack: {r.choice([0, 0, 0, 1, 5])}",
            f"    owned: {r.choice(['5.10', '3.6', '2.6'])}",
            f"    wheel: {r.choice(['4.8', 'cascade'])}",
            "  softirq:", f"    limit: {r.choice(['3.9', 'restarts'])}",
            f"    defer_to_ksoftirqd: {flag(r, .3)}",
            f"    repoll_in_action: {flag(r, .3)}"]


def sched_lines(r):
    policy = r.choice(['cfs', 'eevdf'])
    lines = ["    sched:", f"      policy: {policy}",
             f"      preempt: {r.choice(['none', 'voluntary', 'full'])}",
             f"      wake_idle: {flag(r, .7)}", f"      load_balance: {flag(r, .7)}",
             f"      irq_time_accounting: {flag(r, .7)}",
             f"      newidle_avg_idle: {flag(r, .3)}"]
    if r.random() < 0.2:
        lines.append(f"      wakeup_granularity: {r.choice(['0', '1ms', '10ms'])}")
    if r.random() < 0.2:
        lines.append(f"      base_slice: {r.choice(['100us', '0.75ms', '3ms'])}")
    if r.random() < 0.2:
        lines.append(f"      latency: {r.choice(['100us', '6ms', '24ms'])}")
    if r.random() < 0.3:
        lines.append(f"      migration_cost: {r.choice(['0', '100us', '500us', '5ms'])}")
    if r.random() < 0.4:
        lines.append(f"      cpuidle: {r.choice(['poll', 'nhm', 'snb', 'skx', 'icx'])}")
    if policy == 'eevdf' and r.random() < 0.5:
        lines.append("      delay_dequeue: true")  # an EEVDF feature (ignored with cfs)
    return lines


def nic_lines(r, ncpus):
    lines = ["    nic:", f"      mtu: {r.choice([68, 576, 1500, 1500, 1500, 9000, 65536])}",
             f"      gro: {flag(r, .7)}", f"      tso: {flag(r, .8)}",
             f"      bql: {flag(r, .8)}",
             f"      gro_normal_batch: {r.choice([1, 8, 8])}",
             f"      rate: {r.choice(['0', '0', '0', '1Tbit'])}",
             f"      irq_cpu: {r.randrange(ncpus)}",
             f"      irq_coalesce: {r.choice(['0', '0', '10us', '100us', '1ms'])}",
             f"      irq_mode: {r.choice(['delay', 'delay', 'throttle', 'ixgbe'])}",
             f"      tx_coalesce: {r.choice(['0', '0', '5us', '48us', '500us'])}",
             f"      rx_queues: {r.choice([1, 1, 2, 4, 8, 64])}",
             f"      qdisc: {r.choice(['pfifo', 'pfifo', 'fq_codel'])}"]
    if r.random() < 0.4:
        cpus = sorted(r.sample(range(ncpus), r.randint(1, ncpus)))
        lines.append("      irq_cpus: [" + ", ".join(map(str, cpus)) + "]")
    if r.random() < 0.3:
        cpus = sorted(r.sample(range(ncpus), r.randint(1, ncpus)))
        lines.append("      rps_cpus: [" + ", ".join(map(str, cpus)) + "]")
    if r.random() < 0.3:
        lines.append("      rfs: true")
        if r.random() < 0.5:
            lines.append(f"      arfs: {flag(r, .5)}")
    if r.random() < 0.3:
        lines += [f"      rx_ring: {r.choice([1, 8, 64, 1024, 4096])}",
                  f"      tx_ring: {r.choice([1, 8, 64, 1024])}",
                  f"      qdisc_limit: {r.choice([1, 10, 1000])}",
                  f"      codel_target: {r.choice(['100us', '5ms'])}",
                  f"      codel_interval: {r.choice(['1ms', '100ms'])}",
                  f"      qdisc_memory_limit: {r.choice(['64KiB', '32MiB'])}"]
    return lines


def tcp_lines(r):
    lines = ["    tcp:", f"      tso_defer: {r.choice(['off', '3.x', '4.x'])}",
             f"      rcv_autotune: {r.choice(['legacy', '6.16', '6.18', '3.x'])}",
             "      win_scaling: "
             + r.choice(['adv_win_scale_2', 'adv_win_scale_1', 'scaling_ratio',
                         'scaling_ratio_6.5', 'scaling_ratio_6.10']),
             f"      usec_ts: {flag(r, .4)}",
             f"      rto_min: {r.choice(['1ms', '5ms', '200ms', '200ms'])}",
             f"      cwnd_count: {r.choice(['segments', 'acks'])}",
             f"      timeouts_count: {r.choice(['5.5', 'legacy'])}",
             f"      pingpong_thresh: {r.choice([1, 1, 3])}",
             f"      rcvbuf: {r.choice(['4608', '16KiB', '87380', '131072', '1MiB', '16MiB'])}",
             f"      sndbuf: {r.choice(['4608', '16384', '64KiB', '4MiB'])}",
             f"      rcvbuf_max: {r.choice(['4608', '6MiB', '6MiB', '64MiB'])}",
             f"      rcvbuf_autotune: {flag(r, .7)}",
             f"      limit_output_bytes: {r.choice(['1', '1500', '128KiB', '1MiB', '1MiB'])}",
             f"      cc: {r.choice(['cubic', 'reno'])}", f"      frto: {r.choice([0, 1, 2])}",
             f"      sack: {flag(r, .8)}", f"      timestamps: {flag(r, .8)}",
             f"      tlp: {flag(r, .8)}", f"      pacing: {flag(r, .3)}",
             f"      window_counts_backlog: {flag(r, .7)}",
             f"      quickack_route: {flag(r, .2)}",
             f"      delack_from_rto_min: {flag(r, .7)}",
             f"      autocorking: {flag(r, .7)}",
             f"      comp_sack_nr: {r.choice([0, 1, 44, 44, 255])}",
             f"      comp_sack_delay: {r.choice(['0', '50us', '1ms'])}",
             f"      comp_sack_slack: {r.choice(['0', '100us'])}"]
    if r.random() < 0.5:  # the era keys: older kernels' rules, in any mix
        lines += [f"      cwnd_limited: {r.choice(['tracked', 'in_flight', '3.16', '5.10'])}",
                  f"      hystart: {r.choice(['on', '3.x', 'off'])}",
                  f"      init_cwnd: {r.choice(['iw10', 'rfc3390'])}",
                  f"      loss_detection: {r.choice(['rack', 'fack'])}",
                  f"      moderate_cwnd: {flag(r, .5)}", f"      tso_half_cwnd: {flag(r, .5)}",
                  f"      tso_split_nagle: {flag(r, .5)}",
                  f"      push_full_mss: {flag(r, .5)}", f"      quickack_per_ack: {flag(r, .5)}",
                  f"      tsq: {flag(r, .7)}", f"      tsq_cap_paced: {flag(r, .3)}",
                  f"      sndbuf_autotune: {flag(r, .7)}",
                  f"      slow_start_after_idle: {flag(r, .7)}",
                  f"      ofo_grows_window: {flag(r, .7)}",
                  f"      rcvq_space_init: {r.choice(['init_cwnd', 'rcv_wnd'])}",
                  f"      ack_rcvlowat: {flag(r, .5)}", f"      gap_fill_ack_now: {flag(r, .5)}",
                  f"      check_space: {r.choice(['5.18', '5.10', 'queue_shrunk'])}",
                  f"      ofo_quickack: {flag(r, .3)}", f"      undo_without_rtx: {flag(r, .7)}",
                  f"      sendmsg_frag: {r.choice(['32k', '4k'])}",
                  f"      init_rcv_wnd: {r.choice(['64k', '10mss', 'rfc2414'])}",
                  f"      sndbuf_expand: {r.choice(['3.19', '3.x'])}",
                  f"      grow_window: {r.choice(['5.1', 'legacy'])}",
                  f"      select_window: {r.choice(['zero16', '3.x'])}",
                  f"      rcv_rtt_clock: {r.choice(['us', 'jiffies', 'us-every'])}",
                  f"      rcvq_admit: {r.choice(['6.6', '4.2', '3.x'])}",
                  f"      prune: {r.choice(['4.18', '3.x'])}",
                  f"      rcv_ingest: {r.choice(['legacy', '6.17', '6.18'])}"]
    if r.random() < 0.3:
        lines += [f"      netdev_budget: {r.choice([1, 8, 300])}",
                  f"      netdev_budget_usecs: {r.choice(['1us', '100us', '2000us'])}",
                  f"      napi_weight: {r.choice([1, 16, 64])}",
                  f"      netdev_max_backlog: {r.choice([1, 10, 1000])}"]
    return lines


def host_block(r, name):
    ncpus = r.choice([1, 1, 2, 2, 3, 4, 8, 16, 64])
    lines = [f"  {name}:", f"    cpus: {ncpus}"]
    if r.random() < 0.3:
        lines.append(f"    hz: {r.choice([100, 250, 1000])}")
    if r.random() < 0.3:
        lines.append(f"    tick_phase: {r.choice(['0', '100us', '333us', '1ms'])}")
    lines += sched_lines(r) + nic_lines(r, ncpus) + tcp_lines(r)
    if r.random() < 0.2:
        lines += ["    costs:", f"      ctx_switch: {r.choice(['0', '2us', '50us'])}",
                  f"      copy_per_kb: {r.choice(['0', '80ns', '1us'])}",
                  f"      rr_app: {r.choice(['0', '2us', '100us'])}"]
    return ncpus, lines


def links_block(r, hosts):
    pairs = [(a, b) for i, a in enumerate(hosts) for b in hosts[i + 1:]]
    links = [p for p in pairs if r.random() < 0.8] or pairs[:1]
    lines = ["links:"] if links else []
    for i, (a, b) in enumerate(links):
        if r.random() < 0.5:
            a, b = b, a
        lines += [f"  l{i}:", f"    a: {a}", f"    b: {b}",
                  "    rate: " + r.choice(['1Mbit', '10Mbit', '100Mbit', '1Gbit', '10Gbit',
                                           '25Gbit', '100Gbit', '200Gbit']),
                  f"    delay: {r.choice(['0', '1us', '10us', '100us', '1ms', '5ms', '100ms'])}",
                  "    queue: " + r.choice(['1pkt', '10pkt', '1000pkt', '64KiB', '1MiB',
                                            '1500B']),
                  "    loss: " + r.choice(['0', '0', '0', '0.1%', '1%', '5%', '0.001', '30%',
                                           '100%'])]
    return links, lines


def workload_block(r, name, hosts, links, ncpus, ms):
    if links and r.random() < 0.7:
        a, b = r.choice(links)
        if r.random() < 0.5:
            a, b = b, a
    else:
        a = b = r.choice(hosts)  # loopback
    kind = r.choice(["stream", "rr"])
    lines = [f"  {name}:", f"    type: {kind}", f"    from: {a}", f"    to: {b}",
             f"    flows: {r.choice([1, 1, 1, 2, 3, 4, 8, 16, 32, 64, 128, 500])}"]
    if kind == "stream":
        lines.append("    write_size: " + r.choice(['1', '7', '100', '1448', '1KiB', '16KiB',
                                                    '64KiB', '65537', '1MiB', '4MiB', '1GiB']))
        if r.random() < 0.3:  # netperf -M; else netserver's default, the initial SO_RCVBUF
            lines.append("    read_size: " + r.choice(['100', '1448', '16KiB', '128KiB', '1MiB']))
    else:
        lines += ["    request_size: " + r.choice(['1', '100', '1448', '4000', '64KiB', '1MiB']),
                  "    response_size: " + r.choice(['1', '1000', '64000', '1MiB', '3MiB'])]
    for key, host in (("from_cpus", a), ("to_cpus", b)):
        cl = cpu_list(r, ncpus[host])
        if cl is not None:
            lines.append(f"    {key}: {cl}")
    start = r.choice([0, 0, 0, 1, ms // 2, ms - 1])
    if start:
        lines.append(f"    start: {start}ms")
    if r.random() < 0.3 and ms - start > 1:  # start + start_jitter stays inside the run
        lines.append(f"    start_jitter: {r.choice(['1us', '1ms', f'{ms - start - 1}ms'])}")
    return lines


def random_scenario(r, idx, ms):
    hosts = ["h0", "h1", "h2"][:r.choice([1, 2, 2, 2, 3, 3])]
    text = [f"name: feature-{idx}", f"seed: {r.randrange(100000)}", f"duration: {ms}ms"]
    if r.random() < 0.3:
        text.append(f"warmup: {r.randint(0, ms - 1)}ms")
    text.append(f"hz: {r.choice([1, 24, 100, 250, 300, 1000, 1000, 10000])}")
    if r.random() < 0.3:
        text.append(f"sample_interval: {r.choice(['1ms', '5ms', '10ms', '50ms'])}")
    text += stack_block(r) + ["hosts:"]
    ncpus = {}
    for h in hosts:
        ncpus[h], lines = host_block(r, h)
        text += lines
    links, lines = links_block(r, hosts)
    text += lines + ["workloads:"]
    for w in range(r.choice([1, 1, 2, 3, 4])):
        text += workload_block(r, f"w{w}", hosts, links, ncpus, ms)
    if r.random() < 0.3:
        text += ["variants:", "  v1:",
                 f"    stack.release_sock.resched_every: {r.choice([1, 16])}", "  v2:",
                 f"    hosts.{hosts[0]}.sched.policy: {r.choice(['cfs', 'eevdf'])}"]
    return "\n".join(text) + "\n"


def observe_args(r, tmp):
    extra = []
    if r.random() < 0.25:
        extra += ["--pcap", "h0", "--snaplen", r.choice(["0", "64", "262144"])]
    if r.random() < 0.25:
        extra += ["--trace", os.path.join(tmp, "trace.json")]
        if r.random() < 0.5:
            extra += ["--trace-window", "5ms:"]
    if r.random() < 0.25:
        extra += ["--log", r.choice(["all", "tcp,timer", "sched", "softirq,backlog,nic"])]
    if r.random() < 0.25:
        extra += ["--max-events", str(r.choice([1, 100, 5000, 200000]))]
    return extra


MAX_MEMORY = "4GiB"  # below any machine this runs on (the runs themselves need far less)


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def outputs_digest(out_dir):
    """Hash of every metrics.json, nstat and csv file, without the wall-clock fields."""
    h = hashlib.sha256()
    for root, dirs, files in os.walk(out_dir):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(("metrics.json", ".nstat", ".csv")):
                with open(os.path.join(root, name), "rb") as f:
                    for line in f:
                        if b"wall" not in line and b"events_per_s" not in line:
                            h.update(line)
    return h.hexdigest()


def one(job):
    """Generate and run scenario idx; returns (idx, failure text or None)."""
    args, idx, seed, ms, check_determinism = job
    r = random.Random(seed)
    text = random_scenario(r, idx, ms)
    tmp = os.path.join(args.out, f"run-{idx}")
    os.makedirs(tmp, exist_ok=True)
    path = os.path.join(tmp, "scenario.yaml")
    with open(path, "w") as f:
        f.write(text)
    cmdname = "compare" if "variants:" in text and r.random() < 0.5 else "run"
    # --max-memory fixed, not 75 % of this machine's RAM: which scenarios are refused up front
    # (exit 2, "would need") must not depend on the machine the test runs on
    cmd = [args.bin, cmdname, path, "--quiet", "--out", os.path.join(tmp, "out"),
           "--max-wall", str(args.timeout), "--max-memory", MAX_MEMORY] + observe_args(r, tmp)
    rc, out = run(cmd, args.timeout * 3)
    bad = [b for b in BAD_OUTPUT if b in out]
    failure = None
    refused = rc == 2 and "scenario would need" in out and not bad
    if refused:
        rc = 0  # the memory guard refused it up front, as it should (nothing to check further)
        check_determinism = False
    if rc != 0 or bad:
        failure = f"exit {rc} {bad}\n{' '.join(cmd)}\n{out[-4000:]}"
    elif check_determinism:
        digests = []
        for k in range(2):
            d = os.path.join(tmp, f"det{k}")
            rc2, out2 = run([args.release_bin, "run", path, "--quiet", "--fingerprint",
                             "--max-memory", MAX_MEMORY, "--out", d], args.timeout * 3)
            digests.append((rc2, out2, outputs_digest(d)))
        if digests[0] != digests[1]:
            failure = f"two Release runs differ\n{args.release_bin} run {path} --fingerprint"
    if failure is None:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        with open(os.path.join(tmp, "failure.txt"), "w") as f:
            f.write(failure + "\n")
    return idx, failure, refused


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="sksim to test (normally the ASan+UBSan build)")
    ap.add_argument("--release-bin", help="a Release sksim: also check determinism with it")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-ms", type=int, default=20)
    ap.add_argument("--max-ms", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=60, help="wall seconds per run (--max-wall)")
    ap.add_argument("--out", default="feature-stress-out")
    args = ap.parse_args()
    if args.runs < 1 or not 2 <= args.min_ms <= args.max_ms or args.jobs < 1:
        ap.error("need --runs >= 1, 2 <= --min-ms <= --max-ms, --jobs >= 1")
    os.makedirs(args.out, exist_ok=True)
    r = random.Random(args.seed)
    jobs = []
    for i in range(args.runs):
        ms = r.randint(args.min_ms, args.max_ms)
        jobs.append((args, i, r.randrange(1 << 30), ms,
                     bool(args.release_bin) and r.random() < 0.35))
    failed = refused = 0
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as ex:
        for idx, failure, was_refused in ex.map(one, jobs):
            refused += was_refused
            if failure:
                failed += 1
                print(f"run {idx}: FAIL (kept in {args.out}/run-{idx})\n{failure[:600]}",
                      flush=True)
    print(f"{args.runs} runs, {failed} failed, {refused} refused by the memory guard "
          f"(--max-memory {MAX_MEMORY})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
