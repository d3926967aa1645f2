# spindle.sh - busybox's shell starts Spindle's own programs (/bin/cat,
# /bin/ls, /bin/ps, /bin/sh, /bin/sleep: the seed's ABI, abi.md section 9)
# alone and in pipes with its applets (the linux personality).
/bin/cat /etc/motd | grep -c Spindle
echo "through Spindle's cat" | /bin/cat
seq 1 5 | /bin/cat | wc -l
printf 'b\nc\na\n' | /bin/cat | sort | /bin/cat | tail -n 1
/bin/ls /bin | grep -c ' busybox$'
/bin/sh -c 'exit 7'
echo "Spindle's sh: $?"
/bin/sleep 1 && echo "Spindle's sleep: $?"
/bin/ps | awk -v me=$$ '$1 == me { print "busybox sh is", $NF } $7 == "ps" { print "ps is", $NF }'
/bin/nosuch 2>/dev/null
echo "missing: $?"
