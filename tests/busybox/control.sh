# control.sh - the shell language: loops, test, expr, case, functions,
# $(...), read, exit statuses.
cd /
i=0
while [ $i -lt 5 ]; do
    i=$(expr $i + 1)
    printf '%s ' $i
done
echo
for w in alpha beta gamma; do
    case $w in
    a*) echo "$w starts with a" ;;
    *m*) echo "$w has an m" ;;
    *) echo "$w: other" ;;
    esac
done
sq() { echo $(( $1 * $1 )); }
echo "sq 12 = $(sq 12)"
expr 7 \* 6
expr length hello
expr 10 / 3 \| 0
expr 2 \> 3
echo "expr status: $?"
if test -d /proc && test ! -e /nonexistent; then echo "test: ok"; fi
test 3 -eq 4 || echo "3 -ne 4"
[ abc = abc ] && echo "strings equal"
[ -z "" ] && [ -n x ] && echo "-z and -n"
n=0
seq 1 10 | while read x; do
    n=$((n + x))
    [ $x -eq 10 ] && echo "sum 1..10 = $n"
done
until false; do echo "until once"; break; done
sh -c 'exit 3'
echo "sh -c exit 3: $?"
false || echo "false: $?"
( cd /proc && pwd )
pwd
