#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Checks that a reader's text says what its JSON report says about triage:
the SIGNATURE line and the SITES block, site by site, in the same order.

Usage: /usr/bin/python3 tests/text-report.py JSON TEXT [SITES]

JSON is one reader's report (reason.json, oopslimit-reason -j, crash's
"oopslimit -j"); TEXT is the same reader's text of the same dump (reason.txt,
crash's "oopslimit"); SITES, when given, is crash's "oopslimit -s" output,
which must hold the same SITES block.  Prints one line per disagreement and
exits 1 when there is any; prints a one-line summary and exits 0 otherwise.
"""
import json
import re
import sys

LABEL = re.compile(r"^ *([A-Z_]+): (.*)$")


def blocks(path):
    """The text's labelled values: label -> list of lines (continuations
    are the unlabelled lines after it)."""
    out, last = {}, None
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f.read().splitlines():
            m = LABEL.match(line)
            if m:
                last = m.group(1)
                out.setdefault(last, []).append(m.group(2))
            elif last and line.startswith(" "):
                out[last].append(line.strip())
    return out


def site_prefix(s):
    text = "%dx %s" % (s["count"], s["title"])
    if s.get("where"):
        text += " (%s)" % s["where"]
    return text + " [" + s["origin"]


def check_sites(doc, text, who, bad):
    got = text.get("SITES")
    log = doc.get("log")
    if got is None:
        bad.append("%s: no SITES line" % who)
        return
    if not log:
        if not got[0].startswith("unknown"):
            bad.append("%s: SITES says '%s' of a log that was not read" % (who, got[0]))
        return
    sites = log.get("sites") or []
    if not sites:
        if got != ["none in the log"]:
            bad.append("%s: SITES says %r, the JSON has no site" % (who, got))
        return
    listed = [line for line in got if not line.startswith("(")]
    if len(listed) != len(sites):
        bad.append("%s: SITES lists %d sites, the JSON %d" % (who, len(listed), len(sites)))
    for line, s in zip(listed, sites):
        if not line.startswith(site_prefix(s)):
            bad.append("%s: SITES line '%s' is not the JSON's '%s ...'" % (who, line, site_prefix(s)))
    dropped = log.get("sites_dropped") or 0
    if dropped and not any(line == "(%d reports of further sites not listed)" % dropped for line in got):
        bad.append("%s: SITES does not say the %d reports of further sites" % (who, dropped))


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[2])
    doc = json.load(open(sys.argv[1]))
    bad = []
    text = blocks(sys.argv[2])
    sig = doc.get("signature")
    got = text.get("SIGNATURE")
    if sig and got != [sig]:
        bad.append("%s: SIGNATURE %r, the JSON's '%s'" % (sys.argv[2], got, sig))
    elif not sig and got:
        bad.append("%s: SIGNATURE %r, the JSON has none" % (sys.argv[2], got))
    check_sites(doc, text, sys.argv[2], bad)
    if len(sys.argv) == 4:
        check_sites(doc, blocks(sys.argv[3]), sys.argv[3], bad)
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    n = len((doc.get("log") or {}).get("sites") or [])
    print("text agrees: signature '%s', %d site%s" % (sig or "", n, "" if n == 1 else "s"))


main()
