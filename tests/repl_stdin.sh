#!/bin/sh
# The REPL fed through standard input (cardiac -i): expressions are printed,
# multi-line statements continue, an error is reported and the session goes
# on with its objects intact, help() answers, and the exit status is 0.
cardiac=${1:?usage: repl_stdin.sh CARDIAC}
out=$("$cardiac" -i 2>&1 <<'LUA'
1 + 1
m = cardiac.mesh{n = {10}, dx = 0.5}
sim = cardiac.simulation{mesh = m, model = "karma"}
function twice(x)
  return 2 * x
end
twice(21)
for i = 1, 2 do
  print("line", i)
end
sim:run(-1)
cardiac.mesh{n = {"bad"}, dx = 1}
sim:run(1)
sim.steps
help(sim.run)
LUA
)
status=$?
fail=0
expect() {
  if printf '%s\n' "$out" | grep -qF -- "$1"; then echo "ok   $1"; else echo "FAIL $1"; fail=$((fail + 1)); fi
}
expect "2"
expect "42"
expect "line	2"
expect "duration must be a non-negative, finite number"
expect "'n'[1] must be a number"
expect "20"
expect "sim:run(ms) -> t"
[ "$status" -eq 0 ] && echo "ok   exit status 0" || { echo "FAIL exit status $status"; fail=$((fail + 1)); }
[ $fail -eq 0 ] || { printf '%s\n' "--- output:" "$out"; }
echo "$((8 - fail)) passed, $fail failed"
[ $fail -eq 0 ]
