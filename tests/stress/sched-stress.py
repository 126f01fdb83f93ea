#!/usr/bin/env python3
"""sched-stress.py - random small scenarios against the scheduler's load balancing.

Generates many small scenario variants (CPUs, flows, stream/rr, pinning, irq_cpu, GRO, policy,
preemption, load_balance, wake_idle, loopback flows, seeds) and runs each for a short simulated
time, normally under the ASan+UBSan Debug build (which also checks the invariants continuously).
Every run must exit 0 with no sanitizer report; a failing run's scenario and command are kept in
OUT/fail-N/ so it can be replayed. Also runs the seed scenarios with random --set overrides.

  tests/stress/sched-stress.py --bin build-asan/sksim --runs 200 --seed 1
  tests/stress/sched-stress.py --bin build/sksim --runs 40 --max-ms 100   # quick, Release

Exit status: 0 every run passed, 1 some run failed, 2 bad usage.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

CPUS = [1, 2, 3, 4, 8, 16]
SEED_SCENARIOS = ["scenarios/example.yaml", "scenarios/release-sock-resched.yaml",
                  "scenarios/sendmsg-flush-backlog.yaml", "scenarios/delack-prequeue.yaml",
                  "scenarios/backlog-limit.yaml", "scenarios/ack-defer.yaml"]
BAD_OUTPUT = ("AddressSanitizer", "runtime error:", "LeakSanitizer", "invariant violated",
              "CRITICAL", "ERROR:")


def cpu_list(r, ncpus):
    """None (any CPU), one CPU, or a subset."""
    k = r.random()
    if k < 0.4 or ncpus == 1:
        return None
    if k < 0.7:
        return [r.randrange(ncpus)]
    n = r.randint(2, ncpus)
    return sorted(r.sample(range(ncpus), n))


def yaml_list(cpus):
    return "[" + ", ".join(str(c) for c in cpus) + "]"


def host_block(r, name):
    ncpus = r.choice(CPUS)
    lines = [f"  {name}:", f"    cpus: {ncpus}", "    sched:",
             f"      policy: {r.choice(['cfs', 'eevdf'])}",
             f"      preempt: {r.choice(['none', 'voluntary', 'full'])}",
             f"      load_balance: {r.choice(['true', 'true', 'false'])}",
             f"      wake_idle: {r.choice(['true', 'false'])}",
             f"      irq_time_accounting: {r.choice(['true', 'false'])}",
             f"      migration_cost: {r.choice(['0', '500us', '500us', '5ms'])}",
             "    nic:", f"      irq_cpu: {r.randrange(ncpus)}",
             f"      gro: {r.choice(['true', 'false'])}",
             f"      rx_queues: {r.choice([1, 1, 2, 4])}"]
    if r.random() < 0.3:
        lines.append(f"      irq_coalesce: {r.choice([10, 50])}us")
    if r.random() < 0.3:
        lines += ["    costs:", f"      lb_pull: {r.choice([0, 600, 5000])}ns"]
    return ncpus, lines


def workload_block(r, name, hosts, ncpus):
    src = r.choice(hosts)
    dst = src if r.random() < 0.25 else r.choice(hosts)  # loopback sometimes
    kind = r.choice(["stream", "rr"])
    lines = [f"  {name}:", f"    type: {kind}", f"    from: {src}", f"    to: {dst}",
             f"    flows: {r.choice([1, 1, 2, 3, 4, 8, 16, 32, 64])}"]
    if kind == "stream":
        lines.append(f"    write_size: {r.choice(['1KiB', '16KiB', '64KiB'])}")
    else:
        lines.append(f"    request_size: {r.choice([1, 100, 4000])}")
        lines.append(f"    response_size: {r.choice([1, 1000, 64000])}")
    for key, host in (("from_cpus", src), ("to_cpus", dst)):
        cl = cpu_list(r, ncpus[host])
        if cl is not None:
            lines.append(f"    {key}: {yaml_list(cl)}")
    if r.random() < 0.5:
        lines.append(f"    start_jitter: {r.choice([100, 1000])}us")
    return lines


def random_scenario(r, idx):
    hosts = ["a", "b"]
    ncpus = {}
    text = [f"name: stress-{idx}", f"seed: {r.randrange(1000)}", "duration: 100ms",
            f"hz: {r.choice([100, 250, 1000])}", "stack:", "  prequeue:",
            f"    enabled: {r.choice(['true', 'false'])}", "  release_sock:",
            f"    resched_every: {r.choice([1, 16])}", "hosts:"]
    for h in hosts:
        ncpus[h], lines = host_block(r, h)
        text += lines
    text += ["links:", "  wire:", "    a: a", "    b: b",
             f"    rate: {r.choice(['1Gbit', '10Gbit', '40Gbit'])}",
             f"    delay: {r.choice(['1us', '10us', '100us'])}",
             f"    loss: {r.choice([0, 0, 0.001])}", "workloads:"]
    for w in range(r.choice([1, 1, 2, 3])):
        text += workload_block(r, f"w{w}", hosts, ncpus)
    return "\n".join(text) + "\n"


def random_sets(r, path):
    """--set overrides for a seed scenario: the scheduler keys of every host it names."""
    hosts = []
    with open(path) as f:
        in_hosts = False
        for line in f:
            if line.startswith("hosts:"):
                in_hosts = True
            elif in_hosts and line[:1].isalpha():
                in_hosts = False
            elif in_hosts and line.startswith("  ") and not line.startswith("   ") and ":" in line:
                hosts.append(line.strip().split(":")[0])
    sets = []
    for h in hosts:
        sets += [f"hosts.{h}.sched.policy={r.choice(['cfs', 'eevdf'])}",
                 f"hosts.{h}.sched.preempt={r.choice(['none', 'voluntary', 'full'])}",
                 f"hosts.{h}.sched.load_balance={r.choice(['true', 'false'])}",
                 f"hosts.{h}.sched.wake_idle={r.choice(['true', 'false'])}"]
    sets += [f"seed={r.randrange(1000)}", "warmup=0"]
    return sets


def run_one(args, cmd, scen_text, tmp, n):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1", G_DEBUG="fatal-criticals")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=args.timeout)
        rc, out = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, out = "timeout", ""
    bad = [b for b in BAD_OUTPUT if b in out]
    if rc == 0 and not bad:
        return True
    d = os.path.join(args.out, f"fail-{n}")
    os.makedirs(d, exist_ok=True)
    if scen_text is not None:
        with open(os.path.join(d, "scenario.yaml"), "w") as f:
            f.write(scen_text)
    with open(os.path.join(d, "cmd"), "w") as f:
        f.write(" ".join(cmd) + "\n")
    with open(os.path.join(d, "output"), "w") as f:
        f.write(out)
    print(f"FAIL run {n}: status {rc} {bad} -> {d}", file=sys.stderr)
    print("\n".join(out.splitlines()[-15:]), file=sys.stderr)
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build-asan/sksim")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-ms", type=int, default=50)
    ap.add_argument("--max-ms", type=int, default=300)
    ap.add_argument("--seed-scenarios", type=float, default=0.2,
                    help="share of runs on the seed scenarios with --set overrides")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default=None, help="where failing runs are kept")
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        print(f"sched-stress: {args.bin} is not an executable", file=sys.stderr)
        return 2
    args.out = args.out or tempfile.mkdtemp(prefix="sksim-stress.")
    r = random.Random(args.seed)
    fails = 0
    work = tempfile.mkdtemp(prefix="sksim-stress-run.")
    try:
        for n in range(args.runs):
            ms = r.randint(args.min_ms, args.max_ms)
            outdir = os.path.join(work, "o")
            if r.random() < args.seed_scenarios:
                path, text = r.choice(SEED_SCENARIOS), None
                extra = sum((["--set", s] for s in random_sets(r, path)), [])
            else:
                text = random_scenario(r, n)
                path = os.path.join(work, f"s{n}.yaml")
                with open(path, "w") as f:
                    f.write(text)
                extra = []
            cmd = [args.bin, "run", path, "--duration", f"{ms}ms", "--quiet", "--out", outdir,
                   "--variant", "base" if text else first_variant(path)] + extra
            if not run_one(args, cmd, text, work, n):
                fails += 1
            shutil.rmtree(outdir, ignore_errors=True)
            if (n + 1) % 20 == 0:
                print(f"sched-stress: {n + 1}/{args.runs} runs, {fails} failed", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"sched-stress: {args.runs} runs, {fails} failed" + (f" (kept in {args.out})" if fails else ""))
    return 1 if fails else 0


def first_variant(path):
    """A seed scenario's first variant (or base)."""
    with open(path) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("variants:"):
            for nxt in lines[i + 1:]:
                if nxt.startswith("  ") and not nxt.startswith("   ") and nxt.strip().endswith(":"):
                    return nxt.strip()[:-1]
                if nxt[:1].isalpha():
                    break
    return "base"


if __name__ == "__main__":
    sys.exit(main())
