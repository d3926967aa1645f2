# utils.sh - more applets on files: touch, stat, chmod, ln -s, readlink,
# cut, tr, xargs, tee, dd, od, md5sum, gzip, tar, du, id, env, timeout.
W=${W:-/w}
mkdir -p $W/utils
cd $W/utils
echo hello > f
touch -d '2020-01-02 03:04:05' f
ls -l --full-time f | awk '{ print $6, $7 }'
touch new
stat -c '%s %n' new
chmod 640 f
stat -c '%a %s %n' f
ln -s f lnk
readlink lnk
ls -l lnk | awk '{ print $1, $(NF-2), $(NF-1), $NF }'
cat lnk
echo a:b:c | cut -d: -f2
echo hello | tr a-z A-Z
printf 'one two\nthree\n' | xargs -n 1 echo item
echo teed | tee copy > /dev/null
cat copy
dd if=/dev/zero of=zeros bs=512 count=4 2> /dev/null
wc -c < zeros
od -An -tx1 -N4 f
md5sum f
echo compress me | gzip | gunzip
tar cf both.tar f copy
tar tf both.tar
mkdir x
tar xf both.tar -C x
cat x/copy
du -s x | awk '{ print ($1 > 0), $2 }'
id
env -i A=1 B=2 env | sort
# The shell says "Terminated" for the killed command: stderr goes.
{ timeout 1 sleep 5; } 2> /dev/null
echo "timeout: $?"
seq 3 | tac | tr '\n' ' '
echo
basename /a/b/c.txt .txt
dirname /a/b/c.txt
cd /
rm -r $W/utils
