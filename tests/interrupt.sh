#!/bin/bash
# Ctrl-C (SIGINT): in a script, a long run stops at a step boundary, the
# script ends with an error and the HDF5 output holds the frames written so
# far; in the REPL, the run stops, the prompt comes back and the same
# simulation continues.
cardiac=${1:?usage: interrupt.sh CARDIAC}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

cat > "$dir/long.lua" <<LUA
local sim = cardiac.simulation{mesh = cardiac.mesh{n = {300, 300}, dx = 0.25}, model = "karma", D = 0.1}
sim:set("U", 3.0, cardiac.slab{axis = "x", from = 0, to = 1})
sim:output{file = "$dir/long.h5", every = 20}
print("started")
io.stdout:flush()
sim:run(1e6)
LUA
"$cardiac" "$dir/long.lua" > "$dir/out" 2>&1 &
pid=$!
for i in $(seq 1 100); do grep -q started "$dir/out" && break; sleep 0.1; done
sleep 1.5
kill -INT $pid
wait $pid
status=$?
[ $status -ne 0 ] && ok "script exits non-zero after Ctrl-C ($status)" || bad "script exit status $status"
grep -q "interrupted at t =" "$dir/out" && ok "the error says where the run stopped" || bad "no interruption message: $(cat "$dir/out")"
frames=$("$cardiac" -e "local t = cardiac.h5read('$dir/long.h5', '/time') print(#t)" 2>&1)
[ "${frames:-0}" -ge 2 ] 2>/dev/null && ok "the HDF5 file is valid and holds $frames frames" || bad "HDF5 file unreadable: $frames"
n=$(grep -c "<Time Value" "$dir/long.xmf")
[ "$n" = "$frames" ] && ok "the XDMF sidecar lists the same $n frames" || bad "XDMF has $n frames, HDF5 $frames"

mkfifo "$dir/in"
"$cardiac" -i < "$dir/in" > "$dir/repl" 2>&1 &
pid=$!
exec 3> "$dir/in"
echo 'sim = cardiac.simulation{mesh = cardiac.mesh{n = {300, 300}, dx = 0.25}, model = "karma", D = 0.1}' >&3
echo 'print("started") io.stdout:flush() sim:run(1e6)' >&3
for i in $(seq 1 100); do grep -q started "$dir/repl" && break; sleep 0.1; done
sleep 1
kill -INT $pid
sleep 0.5
echo 'before = sim.steps' >&3
echo 'sim:step(3)' >&3
echo 'print("continued", sim.steps - before, before > 0)' >&3
exec 3>&-
wait $pid
status=$?
grep -q "interrupted at t =" "$dir/repl" && ok "REPL reports the interruption" || bad "REPL: no interruption message"
grep -q "continued	3	true" "$dir/repl" && ok "REPL goes on and the simulation continues" || bad "REPL did not continue: $(cat "$dir/repl")"
[ $status -eq 0 ] && ok "REPL exits 0 at end of input" || bad "REPL exit status $status"
echo "$((7 - fail)) passed, $fail failed"
[ $fail -eq 0 ]
