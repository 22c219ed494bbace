"""The data side of run.sh (written by `cargo xtask gpu-bundle`): reads libtest's
JSON events and the skip log of each test, writes one JSON line per test, and
prints the summary table. Commands:

  list EVENTS                      test names and ignore reasons (tab-separated) from `--list`
  run BINARY TEST RC SECONDS EVENTS SKIPS   the outcome of one test run, printing its output
  outcome BINARY TEST OUTCOME REASON        an outcome known without running
  binary-failed BINARY LOG LIBCUDA FUNCTIONS a binary that does not start
  table RESULTS                    the human table and totals; exit 1 if a test failed
"""
import ctypes
import json
import sys


def events(path):
    """libtest's JSON events; other lines (output that bypassed capture) are printed."""
    for line in open(path, errors="replace"):
        try:
            event = json.loads(line)
        except ValueError:
            event = None
        if isinstance(event, dict) and "type" in event:
            yield event
        elif line.strip():
            sys.stderr.write(line)


def emit(binary, test, outcome, reason="", seconds=None):
    row = {"binary": binary, "test": test, "outcome": outcome, "reason": reason}
    if seconds is not None:
        row["seconds"] = seconds
    print(json.dumps(row))


def panic_message(output):
    """The line after libtest's `panicked at <place>:` line."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if "panicked at" in line:
            return lines[i + 1].strip() if i + 1 < len(lines) else line.strip()
    return ""


def run(binary, test, rc, seconds, events_path, skips_path):
    rc, seconds = int(rc), float(seconds)
    event = None
    for e in events(events_path):
        if e.get("type") == "test" and e.get("name") == test and e.get("event") in ("ok", "failed", "ignored"):
            event = e
    if event and event.get("stdout"):
        sys.stderr.write(event["stdout"])
    skips = []
    try:
        skips = [json.loads(l) for l in open(skips_path) if l.strip()]
    except (OSError, ValueError):
        pass
    if rc == 124:
        emit(binary, test, "failed", "timed out after 600 s", seconds)
    elif event is None:
        emit(binary, test, "failed", f"no result from libtest (exit status {rc}"
             + (f", signal {rc - 128})" if rc > 128 else ")"), seconds)
    elif event["event"] == "failed":
        emit(binary, test, "failed", panic_message(event.get("stdout", "")) or f"exit status {rc}", seconds)
    elif event["event"] == "ignored":
        emit(binary, test, "skipped", event.get("message") or "#[ignore]", seconds)
    elif skips:
        emit(binary, test, "skipped", "; ".join(s.get("reason", "") for s in skips), seconds)
    else:
        emit(binary, test, "ok", "", seconds)


def listing(path):
    for e in events(path):
        if e.get("event") == "discovered":
            reason = (e.get("ignore_message") or "#[ignore]") if e.get("ignore") else ""
            print(f"{e['name']}\t{reason}")


def binary_failed(binary, log, libcuda, functions):
    text = open(log, errors="replace").read()
    first = next((l for l in text.splitlines() if l.strip()), "")
    emit(binary, "(binary)", "failed", f"does not start: {first}")
    if "undefined symbol" in text:
        lib = ctypes.CDLL(libcuda)
        missing = [n.strip() for n in open(functions) if n.strip() and not hasattr(lib, n.strip())]
        sys.stderr.write(f"--- bound functions this libcuda.so.1 lacks: {len(missing)}: {' '.join(missing) or 'none'}\n")


def table(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    label = {"ok": "ok", "failed": "FAILED", "skipped": "skipped"}
    cells = [["BINARY", "TEST", "SECONDS", "RESULT", "REASON"]]
    for r in rows:
        secs = "-" if r.get("seconds") is None else f"{r['seconds']:.2f}"
        cells.append([r["binary"], r["test"], secs, label.get(r["outcome"], r["outcome"]), r.get("reason", "")])
    width = [max(len(c[i]) for c in cells) for i in range(4)]
    for c in cells:
        used = c if c[4] else c[:4]
        print("  ".join(v.ljust(width[i]) if i < len(used) - 1 else v for i, v in enumerate(used)))
    count = {k: sum(r["outcome"] == k for r in rows) for k in label}
    print(f"{count['ok']} passed, {count['failed']} failed, {count['skipped']} skipped")
    return 1 if count["failed"] else 0


def main(cmd, *args):
    if cmd == "list":
        listing(*args)
    elif cmd == "run":
        run(*args)
    elif cmd == "outcome":
        emit(*args)
    elif cmd == "binary-failed":
        binary_failed(*args)
    elif cmd == "table":
        return table(*args)
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
