# text.sh - text through pipes: grep, sed, awk, sort, wc, head, tail.
W=${W:-/w}
mkdir -p $W/text
cd $W/text
cat > fruit <<'END'
banana 3
apple 12
cherry 7
apple 5
date 1
END
wc -l < fruit
wc fruit
grep apple fruit
grep -c an fruit
grep -v a fruit
sort fruit | head -n 2
sort -k2 -n fruit | tail -n 1
sort -u fruit | awk '{print $1}' | uniq -c | sort -rn | head -n 1
awk '{ s += $2 } END { print "total", s }' fruit
awk -F' ' '$2 > 4 { print NR ": " $1 }' fruit
sed -e 's/apple/APPLE/g' -e '/date/d' fruit
sed -n '2,3p' fruit
sed 's/\([a-z]*\) \([0-9]*\)/\2=\1/' fruit | sort -t= -k1 -n
tail -n 2 fruit | head -n 1
head -c 10 fruit; echo
cat fruit fruit | wc -l
grep -o '[0-9][0-9]*' fruit | sort -n | tr '\n' ' '; echo
cd /
rm -r $W/text
