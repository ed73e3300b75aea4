#!/usr/bin/env python3
"""Checks every kernel of kernels_src (or of the folders given with --dir, relative to
--root): PTX for each target assembled by ptxas without spills, IR round trip, and
deterministic output. Prints one line per check; exits 1 on any failure."""
import argparse
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cakec", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--no-ptxas", action="store_true",
                    help="skip the ptxas check (the sanitized build: its PTX is the plain build's)")
    ap.add_argument("--dir", action="append",
                    help="a folder of kernels, relative to --root (repeatable; default kernels_src)")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    dirs = a.dir or ["kernels_src"]
    # a file without a kernel is a library the others import (kernels_src/gdp/gdp_math.cake)
    files = [f for d in dirs
             for f in sorted(glob.glob(os.path.join(a.root, d, "**", "*.cake"), recursive=True))
             if re.search(r"^kernel\s", open(f).read(), re.M)]
    if not files:
        print("FAIL: no kernels found under %s" % ", ".join(dirs))
        return 1
    failures = 0
    nptx = 0
    for f in files:
        rel = os.path.relpath(f, a.root)
        stem = os.path.splitext(os.path.basename(f))[0]
        out1 = os.path.join(a.work, stem + ".1")
        out2 = os.path.join(a.work, stem + ".2")
        # each kernel is built for every target its targets(...) clause lists
        for out in (out1, out2):
            r = run([a.cakec, "--emit=ir,ptx,host", "-o", out, f])
            if r.returncode != 0:
                print(f"FAIL: {rel}: cakec exited {r.returncode}\n{r.stderr}")
                failures += 1
                break
        else:
            cmp = filecmp.dircmp(out1, out2)
            if cmp.diff_files or cmp.left_only or cmp.right_only:
                print(f"FAIL: {rel}: two compiles differ: {cmp.diff_files + cmp.left_only + cmp.right_only}")
                failures += 1
            else:
                print(f"ok: {rel}: deterministic ({len(os.listdir(out1))} files)")
            for ptx in [] if a.no_ptxas else sorted(glob.glob(os.path.join(out1, "*.ptx"))):
                target = ptx.rsplit(".", 2)[-2]
                r = run([a.ptxas, "-v", f"-arch={target}", "-o", ptx + ".cubin", ptx])
                log = r.stdout + r.stderr
                spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
                bad_spill = any(int(s) or int(l) for s, l in spills)
                if r.returncode != 0 or bad_spill:
                    print(f"FAIL: {rel}: ptxas {target}: rc={r.returncode}\n{log}")
                    failures += 1
                else:
                    print(f"ok: {rel}: ptxas {target}: {os.path.basename(ptx)}, no spills")
                    nptx += 1
            for ir in sorted(glob.glob(os.path.join(out1, "*.ir"))):
                r1 = run([a.cakec, "--input=ir", "--emit=ir", "--passes=", ir])
                if r1.returncode != 0 or r1.stdout != open(ir).read():
                    print(f"FAIL: {rel}: IR round trip of {os.path.basename(ir)} differs (rc={r1.returncode})\n{r1.stderr}")
                    failures += 1
                else:
                    print(f"ok: {rel}: IR round trip of {os.path.basename(ir)}")
    print(f"{len(files)} kernel files, {nptx} PTX files assembled, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
