# What tests/tempnames.sh must find (lines 3 and 4) and let pass (the rest);
# tests/check.sh runs it on this file and bad.c.  Not a script to run.
echo x >"$f.tmp" && mv "$f.tmp" "$f"
sort </tmp/list >/tmp/sorted
# a comment: x.tmp and /tmp/y are fine here
m=$(mktemp "$f.tmp.XXXXXX")
rm -f "$f".tmp.*
expect_refused /tmp/crash "a value naming /tmp, not a file written"
