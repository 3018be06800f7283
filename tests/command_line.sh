#!/bin/sh
# The command line: a script that cannot be read (a folder, a missing file)
# is an error naming it, with a non-zero exit status, instead of a silent 0.
# help() reads its list of models from the registry.
cardiac=${1:?usage: command_line.sh CARDIAC}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
check() {   # check WHAT STATUS OUTPUT EXPECTED
  if [ "$2" -ne 0 ] && printf '%s\n' "$3" | grep -qF -- "$4"; then echo "ok   $1: $3"
  else echo "FAIL $1 (status $2): $3"; fail=$((fail + 1)); fi
}
out=$("$cardiac" "$dir" 2>&1); check "a folder as the script" $? "$out" "cannot read $dir: Is a directory"
out=$("$cardiac" "$dir/missing.lua" 2>&1); check "a missing script" $? "$out" "cannot read $dir/missing.lua: No such file"
# help() lists the models of the registry (it named 7 of 8 when it was written by hand)
models=$("$cardiac" -e 'io.write(table.concat(cardiac.models(), ", "))')
out=$("$cardiac" -e 'help(cardiac.models)' 2>&1)
if [ -n "$models" ] && printf '%s\n' "$out" | grep -qF -- "$models"; then echo "ok   help(cardiac.models) lists $models"
else echo "FAIL help(cardiac.models) does not list every model ($models): $out"; fail=$((fail + 1)); fi
exit $fail
