# files.sh - files in a new directory: mkdir, cp, mv, rm, ls -l, cat, find,
# redirection (> >> < 2>).
W=${W:-/w}
mkdir -p $W/files/sub
cd $W/files
echo one > a
echo two >> a
printf 'x\ny\nz\n' > sub/b
cp a c
mv c sub/d
ls
ls sub
cat a sub/d
cat < sub/b
ls -l a sub/b
ls -ld sub
find . | sort
find . -type f -name 'b' -o -type f -name 'd' | sort
cat nosuch 2> err
echo "cat: $?"
cat err
mkdir sub 2>/dev/null || echo "mkdir sub: exists"
rm sub/b
ls sub
rm -r sub
ls -a
cd /
rm -r $W/files
ls $W
echo done
