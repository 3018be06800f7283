#!/bin/sh
# The REPL on a terminal (a pseudo-terminal from script(1)): Ctrl-C at the
# prompt clears the line being typed and the session goes on with its
# variables (it used to end the session, exit 130, losing every simulation in
# memory), and each line is in the history file as soon as it is entered.
cardiac=${1:?usage: repl_tty.sh CARDIAC}
command -v script > /dev/null || { echo "SKIPPED: no script(1) for a pseudo-terminal"; exit 77; }
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
fail=0
check() { if [ "$1" = 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=$((fail + 1)); fi; }
(printf 'x = 20\n'; sleep 1; printf 'y = 1 +'; sleep 0.5; printf '\003'; sleep 0.5
 printf 'print("answer", x + 22)\n'; sleep 1
 grep -q 'x + 22' "$home/.cardiac_history"; echo $? > "$home/early"; printf '\004'; sleep 0.5) |
  HOME=$home script -qec "$cardiac" /dev/null > "$home/out" 2>&1
status=$?
check $status "the session ends with Ctrl-D, exit 0 (got $status)"
grep -q "answer.42" "$home/out"; check $? "after Ctrl-C at the prompt the session goes on with its variables (x + 22 = 42)"
grep -q "y = 1" "$home/.cardiac_history"; [ $? -ne 0 ]; check $? "the line cleared by Ctrl-C is not in the history"
check "$(cat "$home/early")" "a line is in the history file before the session ends"
exit $fail
