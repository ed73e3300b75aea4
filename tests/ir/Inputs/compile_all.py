#!/usr/bin/env python3
"""compile_all.py CAKEC SRCROOT EXPECT: compiles every IR file under SRCROOT/tests to PTX for
every target its kernels list (`cakec --input=ir --emit=ptx`, the default pipeline), so
that whatever the verifier accepts is seen to lower (issue: no internal compiler error).

Each file must compile (exit 0), except:
- err-*.ir files, which exist to be refused: exit 1 with a `file:line:col: error:` (their
  own tests pin the text), unless EXPECT lists them as compiling;
- the files EXPECT lists with a diagnostic: exit 1 and that text among the errors (files
  written for one pass or a parse/print round trip that the whole pipeline refuses).
Any other exit status (70: internal error; a signal) is a failure, for every file.
EXPECT lines: `PATH: error text` or `PATH: compiles` (comments with #)."""
import glob
import os
import subprocess
import sys
import tempfile


def main():
    cakec, root, expect_path = sys.argv[1:4]
    expect = {}
    for line in open(expect_path):
        line = line.split("#", 1)[0].strip()
        if line:
            path, text = line.split(":", 1)
            expect[path.strip()] = text.strip()
    files = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "tests", "**", "*.ir"), recursive=True))
    unknown = sorted(set(expect) - set(files))
    failures = ["EXPECT names %s, which does not exist" % p for p in unknown]
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            r = subprocess.run([cakec, "--input=ir", "--emit=ptx", "-o", tmp, os.path.join(root, f)],
                               capture_output=True, text=True, timeout=120)
            want = expect.get(f)
            if want is None:
                want = "refused" if os.path.basename(f).startswith("err-") else "compiles"
            if want == "compiles":
                ok = r.returncode == 0
            elif want == "refused":
                ok = r.returncode == 1 and ": error: " in r.stderr
            else:
                ok = r.returncode == 1 and want in r.stderr
            if not ok:
                failures.append("%s: expected %s, got exit %d:\n%s" % (f, want, r.returncode, r.stderr[:2000]))
    print("compiled %d IR files" % len(files))
    for msg in failures:
        print("FAIL " + msg)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
