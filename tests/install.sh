#!/bin/sh
# make install into a temporary prefix, then a protocol run with the
# installed binary from another folder: it must find the installed Lua
# library (not the source tree's) and write its results where it runs.
#   sh tests/install.sh BUILD_DIR
set -u
build=$1
prefix=$(mktemp -d) work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
for f in bin/cardiac share/cardiac/scripts/tables.lua share/cardiac/protocols/quickstart.lua share/doc/cardiac/README.md \
         share/doc/cardiac/docs/user-guide.md; do
  [ -e "$prefix/$f" ] || fail "$f was not installed"
done
cd "$work" || fail "cd $work"
found=$(OMP_NUM_THREADS=1 "$prefix/bin/cardiac" -e 'io.write(package.searchpath("tables", package.path) or "nothing")')
case "$found" in
  "$prefix"/*) echo "ok    the installed binary loads the installed library ($found)" ;;
  *) fail "the installed binary loads 'tables' from $found, not from $prefix" ;;
esac
OMP_NUM_THREADS=1 "$prefix/bin/cardiac" "$prefix/share/cardiac/protocols/quickstart.lua" > run.log 2>&1 || { cat run.log; fail "quickstart"; }
[ -s "$work/results/quickstart.h5" ] && [ -s "$work/results/quickstart.png" ] || fail "quickstart wrote no results in $work"
echo "ok    the installed quickstart ran from $work and wrote results/quickstart.h5 and .png there"
