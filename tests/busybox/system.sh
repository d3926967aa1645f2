# system.sh - the system-wide /proc files and statfs (docs/files.md):
# free, uptime, df, top, mount. Figures vary from boot to boot, so the
# lines say what holds of them.
free | awk 'NR == 1 { print "free:", $1, $2, $3 }
            $1 == "Mem:" { print "Mem: total > 0:", ($2 > 0), "used <= total:", ($3 <= $2) }
            $1 == "Swap:" { print "Swap:", $2, $3, $4 }'
uptime | grep -q "load average: [0-9]*\.[0-9][0-9], [0-9]*\.[0-9][0-9], [0-9]*\.[0-9][0-9]" &&
	echo "uptime: load averages"
# df skips the mount named rootfs (on Linux too: the initramfs root), so
# it is asked about /proc.
df /proc | awk 'NR == 1 { print "df:", $1, $2 } NR > 1 { print "df:", $1, $2, $NF }'
stat -f -c '%T %s %l' / /proc
mount | sort
top -b -n 1 | awk 'NR <= 4 { print $1 }' | sort -u
top -b -n 1 | grep -q "top -b" && echo "top lists itself"
cat /proc/loadavg | awk '{ print NF, "fields" }'
