#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The capture fuzz-vmcoreinfo puts its notes into, and its seeds.

  template.py CACHE OUTDIR

OUTDIR/template.kdump: the head of the newest kdump-compressed capture in
CACHE/runs (its headers, bitmaps and page descriptors, and 1 MiB of page
data; the rest reads as a cut file); OUTDIR/seeds/vmcoreinfo/: the
VMCOREINFO text of every capture there, and tests/fuzz/seeds/*.  Exit
status 1, saying so, when the cache has no kdump-compressed capture.
"""
import glob
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "damage"))
import generate  # noqa: E402


def main():
    cache, out = sys.argv[1:3]
    seeds = os.path.join(out, "seeds", "vmcoreinfo")
    os.makedirs(seeds, exist_ok=True)
    for f in glob.glob(os.path.join(HERE, "seeds", "*")):
        shutil.copy(f, seeds)
    dumps = sorted(glob.glob(os.path.join(cache, "runs", "*", "dumps", "*", "vmcore")),
                   key=os.path.getmtime, reverse=True)
    template = None
    for i, path in enumerate(dumps):
        with open(path, "rb") as f:
            if f.read(8) != b"KDUMP   ":
                continue
        d = generate.Dump(path)
        if d.vmci:
            with open(os.path.join(seeds, f"capture-{i}.txt"), "wb") as f:
                f.write(d.vmci)
        if template is None and d.note_off < d.descs:
            template = (path, d.descs + 24 * len(d.set_bits) + (1 << 20))
    if template is None:
        sys.exit(f"template.py: no kdump-compressed capture under {cache}/runs: make test "
                 "SCENARIOS=kdump-warn-limit makes one")
    path, cut = template
    with open(path, "rb") as src, tempfile.NamedTemporaryFile(dir=out, prefix=".template.",
                                                              delete=False) as dst:
        dst.write(src.read(cut))
    os.replace(dst.name, os.path.join(out, "template.kdump"))
    print(f"template.py: {out}/template.kdump from {path}, {len(dumps)} captures seen")


if __name__ == "__main__":
    main()
