# procs.sh - processes: ps, sleep, kill, background jobs, wait, uname -a,
# date.
uname -s -m
uname -a
date +%Y > /dev/null && echo "date: ok"
t0=$(date +%s)
sleep 1
t1=$(date +%s)
# At least 1 s; at most 10 however busy the host running QEMU is.
[ $((t1 - t0)) -ge 1 ] && [ $((t1 - t0)) -le 10 ] && echo "slept about 1 s"
date -u -d @0 '+%Y-%m-%d %H:%M:%S'
# ps lists the job. Its comm depends on how far it has got, on Linux
# too: "busybox" (the shell's fork), "exe" (the shell runs its applets
# by executing /proc/self/exe, and comm is the base name of the path
# execve was given), then "sleep" (the applet names itself).
sleep 30 &
pid=$!
ps -o pid,comm | grep "^ *$pid " | awk '{print "ps shows", $2}'
# The shell may say "Terminated" or not, as its wait or its SIGCHLD
# reaps the job first: a race on Linux too, so stderr goes.
{ kill $pid; wait $pid; } 2>/dev/null
echo "killed sleep: $?"
sleep 30 &
{ kill -9 $!; wait $!; } 2>/dev/null
echo "kill -9: $?"
ps -o pid,ppid,comm | awk -v me=$$ '$1 == me { print "ps shows this shell:", $3 }'
kill -0 $$ && echo "kill -0 self: ok"
kill 99999 2>/dev/null || echo "kill 99999: no such process"
trap 'echo got USR1' USR1
kill -USR1 $$
echo "after USR1"
