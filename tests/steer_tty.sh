#!/bin/sh
# Steering on a terminal, driven through tmux: the prompt stays live while a
# started run steps (a line typed meanwhile is evaluated at once and sees the
# run advancing), the end of a run is announced above the prompt, Ctrl-C
# pauses the run and the session goes on; and under mpirun -np 2 rank 0 shows
# the prompt with line editing (a line recalled from the history with the up
# arrow and edited), Ctrl-C pauses there too, and Ctrl-D ends the job with
# status 0. Each key waits for what the terminal should show, not a fixed time.
cardiac=${1:?usage: steer_tty.sh CARDIAC}
command -v tmux > /dev/null || { echo "SKIPPED: no tmux (Debian: tmux)"; exit 77; }
home=$(mktemp -d)
sock="$home/tmux"
trap 'for s in "$home"/tmux-*; do tmux -S "$s" kill-server 2> /dev/null; done; rm -rf "$home"' EXIT
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# the screen with each run of blanks as one space (tmux shows a tab as blanks)
screen() { tmux -S "$sock" capture-pane -p -S -200 -t s 2> /dev/null | tr -s ' \t' '  '; }
# waits up to 60 s for the screen to show $1 (a fixed string)
await() {
  i=0
  until screen | grep -qF -- "$1"; do
    i=$((i + 1)); [ $i -gt 600 ] && return 1
    sleep 0.1
  done
}
keys() { tmux -S "$sock" send-keys -t s "$@"; }
step() { if await "$1"; then ok "$2"; else bad "$2 (the terminal never showed '$1')"; screen | tail -15; fi; }

mk='sim = cardiac.simulation{mesh = cardiac.mesh{n = {120, 100}, dx = 0.25}, model = "karma", D = 0.1}'

session() {   # $1: the command tmux runs; $2: a label
  sock="$home/tmux-$3"
  tmux -S "$sock" new-session -d -s s -x 160 -y 50 "HOME=$home $1; echo EXIT=\$?; sleep 60"
  step "Ctrl-D to leave" "$2: the banner"
  keys "$mk" Enter
  keys 'sim:start(1e6) print("run", "started")' Enter
  await "run started"
  sleep 1   # idle time: the run steps while the prompt waits
  keys 'print("live", sim.running, sim.steps > 0)' Enter
  step "live true true" "$2: a line typed while the run steps is evaluated, and the run has advanced"
  keys 'x = 20 print("x", "set")' Enter
  await "x set"   # Ctrl-C would discard keys still waiting to be read, as on any terminal
  keys C-c
  step "paused at t =" "$2: Ctrl-C pauses the started run"
  keys 'print("after", sim.running, x)' Enter
  step "after false 20" "$2: the session goes on with its variables"
  keys 'print("edit", x + 1)' Enter
  step "edit 21" "$2: a line"
  keys Up BSpace ' + 1)' Enter
  step "edit 22" "$2: recalled with the up arrow and edited"
  keys 'sim:start(2)' Enter
  step "simulation reached t =" "$2: the end of a run is announced above the prompt"
  keys C-d
  step "EXIT=0" "$2: Ctrl-D ends the session with status 0"
}

session "$cardiac" "alone" 1
if command -v mpirun > /dev/null; then
  session "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1 mpirun -np 2 $cardiac" "mpirun -np 2" 2
else
  echo "SKIPPED: no mpirun for the MPI part"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
