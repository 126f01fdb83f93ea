#!/usr/bin/env bash
# Every relative link in the project's Markdown (README.md, docs/, scenarios/, plots/) points at a
# file that exists, and every #anchor at a heading of that file (GitHub's slug: lower case,
# punctuation but '-' and '_' dropped, spaces to '-'). Documents get moved and split (the seed
# analysis left the README on Dec 3); a link left behind fails here instead of on a reader.
source "$(dirname "$0")/common.bash"
command -v python3 >/dev/null || { echo "skipped: no python3"; exit 0; }

python3 - <<'PY' || fail "a Markdown link is broken (above)"
import glob, os, re, sys

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")

def anchors(path):
    found, seen = set(), {}
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
            continue
        m = None if in_code else re.match(r"#{1,6} (.*)", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found

files = ["README.md"] + sorted(glob.glob("docs/*.md") + glob.glob("scenarios/*.md")
                               + glob.glob("plots/*.md"))
bad = 0
for f in files:
    text = open(f, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:
        path, _, frag = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest):
            print(f"{f}: link to {target}: {dest} does not exist", file=sys.stderr)
            bad += 1
        elif frag and dest.endswith(".md") and frag not in anchors(dest):
            print(f"{f}: link to {target}: no heading '#{frag}' in {dest}", file=sys.stderr)
            bad += 1
print(f"{len(files)} files checked, {bad} broken links")
sys.exit(1 if bad else 0)
PY
