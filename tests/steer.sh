#!/bin/bash
# Steering through the REPL fed by a pipe (cardiac -i): a started run steps
# while the shell waits for the next line; a change of D typed while it runs
# applies at one step boundary, and the result equals, bit for bit, the
# blocking run that steps to that boundary, changes D and steps on; a pause
# stops the stepping; Ctrl-C pauses (the session goes on); a run that fails
# is reported and the session goes on; a script's started runs end before
# the shell does. The same change of D under mpirun -np 2 (CPU backend), where
# every rank must apply it at the same step.
# A second argument "cuda" runs the simulations on the GPU (one per rank).
cardiac=${1:?usage: steer.sh CARDIAC [cpu|cuda]}
backend=${2:-cpu}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
expect() { if grep -qF -- "$2" "$1"; then ok "$3"; else bad "$3 (no '$2')"; fi; }

mk="cardiac.simulation{mesh = cardiac.mesh{n = {120, 100}, dx = 0.25}, model = 'karma', D = 0.1, backend = '$backend'}"
ic='cardiac.slab{axis = "x", from = 0, to = 1}'
# With D, typed on the same line: a parameter changed, a stimulus and a clamp
# added (from the step they are typed at)
steer='sim:set_param("eps", 0.011) sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "y", from = 0, to = 1}, amplitude = 2, duration = 1, start = sim.t + 0.5}) sim:clamp{region = cardiac.box{min = {10, 10}, max = {12, 12}}, var = "v", value = 0.5, start = sim.t, duration = 2}'
# Lines typed with pauses between them: while the shell waits, the run steps.
change_D() {   # $1: the output file, where the run says it started
  echo "sim = $mk; sim:set(\"U\", 3.0, $ic)"
  echo 'sim:step(1)'   # the first step's set-up (GPU modules, NCCL) before the timed pauses
  echo 'sim:start(1e6) print("ready") io.stdout:flush()'
  # the pauses count from when the run started, however long the set-up took
  for i in $(seq 1 600); do grep -q ready "$1" 2> /dev/null && break; sleep 0.1; done
  sleep 1.5
  echo 'print("A", sim.running, sim.steps > 0)'
  echo "sim:set_D(0.05) n1 = sim.steps $steer"
  sleep 1.5
  echo 'sim:pause() n2 = sim.steps'
  sleep 0.5
  echo 'print("B", sim.steps == n2, n1 > 0, n2 > n1, sim.running)'
  echo 'local _ = io.stderr:write(string.format("R%d %d %d\n", cardiac.rank, n1, n2))'
  echo "ref = $mk; ref:set(\"U\", 3.0, $ic) ref:step(n1) ref:set_D(0.05) $(echo "$steer" | sed 's/sim:/ref:/g; s/sim\./ref./g') ref:step(n2 - n1)"
  echo 'print("C", (sim:diff(ref, "U")), (sim:diff(ref, "v")))'
}
change_D "$dir/out" | "$cardiac" -i > "$dir/out" 2>&1
expect "$dir/out" "A	true	true" "the started run steps while the shell waits for input"
expect "$dir/out" "B	true	true	true	false" "a pause stops the stepping; the change of D came between two pauses"
expect "$dir/out" "C	0.0	0.0" "D, a parameter, a stimulus and a clamp changed while running equal the blocking run changed at that step, bit for bit"

mkfifo "$dir/fifo"
"$cardiac" -i < "$dir/fifo" > "$dir/out2" 2>&1 &
pid=$!
{
  echo "sim = $mk; sim:set(\"U\", 3.0, $ic)"
  echo 'print("started") io.stdout:flush() sim:start(1e6)'
  for i in $(seq 1 100); do grep -q started "$dir/out2" && break; sleep 0.1; done
  sleep 1
  kill -INT $pid
  sleep 0.5
  echo 'print("P", sim.running, sim.steps > 0)'
  echo 'sim:start() print("resumed", sim.running)'
  echo 'sim:pause()'
  echo "bad = $mk; bad:set(\"U\", 3.4e38, cardiac.box{min = {2, 2}, max = {2.2, 2.2}}) bad:start(5)"
  sleep 1.5
  echo 'print("N", bad.running, sim.running)'
  echo 'sim:start() print("waiting") io.stdout:flush() sim:wait()'
  for i in $(seq 1 100); do grep -q waiting "$dir/out2" && break; sleep 0.1; done
  sleep 1
  kill -INT $pid
  sleep 0.5
  echo 'print("W", sim.running)'
} > "$dir/fifo"
wait $pid
status=$?
expect "$dir/out2" "paused at t =" "Ctrl-C pauses the started run and says where"
expect "$dir/out2" "P	false	true" "the session goes on with the paused simulation"
expect "$dir/out2" "resumed	true" "sim:start() resumes it"
expect "$dir/out2" "became NaN or Inf" "a started run that fails is reported"
expect "$dir/out2" "N	false	false" "the failed run stops and the session goes on"
expect "$dir/out2" "simulation:wait: interrupted at t =" "Ctrl-C during sim:wait interrupts the wait"
expect "$dir/out2" "W	false" "and pauses the run"
[ $status -eq 0 ] && ok "the REPL exits 0 at the end of input" || bad "REPL exit status $status"

# a script that starts a run and ends: the shell waits for the run
"$cardiac" -e "sim = $mk; sim:output{file = '$dir/s.h5', every = 20}; sim:start(5)" > "$dir/out3" 2>&1
last=$("$cardiac" -e "local t = cardiac.h5read('$dir/s.h5', '/time') print(t[#t])" 2>&1)
[ "$last" = "5.0" ] && ok "a script's started run ends before the shell does (last frame t = $last)" \
  || bad "the started run did not end with the script: last frame t = '$last' $(cat "$dir/out3")"

# under mpirun: every rank applies the change at the same step
if command -v mpirun > /dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
  change_D "$dir/mpi" | mpirun -np 2 "$cardiac" -i > "$dir/mpi" 2>&1
  expect "$dir/mpi" "B	true	true	true	false" "mpirun -np 2: the change of D came while the run stepped"
  expect "$dir/mpi" "C	0.0	0.0" "mpirun -np 2: the same changes while running equal the blocking run, bit for bit"
  r0=$(grep -o 'R0 [0-9]* [0-9]*' "$dir/mpi" | cut -d' ' -f2-); r1=$(grep -o 'R1 [0-9]* [0-9]*' "$dir/mpi" | cut -d' ' -f2-)
  [ -n "$r0" ] && [ "$r0" = "$r1" ] && ok "mpirun -np 2: both ranks changed D and paused at the same steps ($r0)" \
    || bad "ranks disagree: rank 0 '$r0', rank 1 '$r1': $(cat "$dir/mpi")"
  # a watch under mpirun: rank 0 writes the picture the single process writes
  w='local s = '"$mk"' s:set("U", 3, '"$ic"') s:watch{file = F, every = 2} s:start(9) s:wait()'
  "$cardiac" -e "F = '$dir/w1.png' $w" > /dev/null 2>&1
  mpirun -np 2 "$cardiac" -e "F = '$dir/w2.png' $w" > /dev/null 2>&1
  cmp -s "$dir/w1.png" "$dir/w2.png" && ok "mpirun -np 2: sim:watch writes the single process's picture, byte for byte" \
    || bad "mpirun -np 2: the watched picture differs from the single process's"
else
  echo "SKIPPED: no mpirun for the MPI part"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
