#!/bin/sh
# The REPL on a terminal (a pseudo-terminal from script(1)): Ctrl-C at the
# prompt clears the line being typed and the session goes on with its
# variables (it used to end the session, exit 130, losing every simulation in
# memory), and each line is in the history file as soon as it is entered.
# Each keystroke waits for the terminal to show what it answers (a prompt, an
# echo), not for a fixed time, so a slow or busy machine does not change the
# order in which the REPL sees them.
cardiac=${1:?usage: repl_tty.sh CARDIAC}
command -v script > /dev/null || { echo "SKIPPED: no script(1) for a pseudo-terminal"; exit 77; }
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
fail=0
check() { if [ "$1" = 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=$((fail + 1)); fi; }

# waits (up to 60 s) until the terminal has shown at least $1 prompts
prompts() { grep -o '> ' "$home/out" 2> /dev/null | wc -l; }
await_prompts() {
  i=0
  while [ "$(prompts)" -lt "$1" ]; do
    i=$((i + 1)); [ $i -gt 600 ] && { echo "FAIL no prompt number $1 after 60 s"; cat "$home/out"; exit 1; }
    sleep 0.1
  done
}
await_text() {
  i=0
  until grep -qF "$1" "$home/out"; do
    i=$((i + 1)); [ $i -gt 600 ] && { echo "FAIL the terminal never showed '$1'"; exit 1; }
    sleep 0.1
  done
}

mkfifo "$home/in"
HOME=$home script -qec "$cardiac" /dev/null < "$home/in" > "$home/out" 2>&1 &
pid=$!
exec 3> "$home/in"
await_prompts 1; printf 'x = 20\n' >&3
await_prompts 2; printf 'y = 1 +' >&3
await_text 'y = 1 +'; printf '\003' >&3
await_prompts 3; printf 'print("answer", x + 22)\n' >&3
await_prompts 4
grep -q 'x + 22' "$home/.cardiac_history"; early=$?
printf '\004' >&3
wait $pid
status=$?
exec 3>&-
check $status "the session ends with Ctrl-D, exit 0 (got $status)"
grep -q "answer.42" "$home/out"; check $? "after Ctrl-C at the prompt the session goes on with its variables (x + 22 = 42)"
grep -q "y = 1" "$home/.cardiac_history"; [ $? -ne 0 ]; check $? "the line cleared by Ctrl-C is not in the history"
check $early "a line is in the history file before the session ends"
exit $fail
