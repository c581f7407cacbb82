package guard

import "testing"

// Pass 22: each attack row was allowed by `pruner hook` and really
// reached the protected file (checked by hand in a scratch project); each
// is denied with a reason naming what it reaches, next to near-benign rows
// that stay allowed. runGate20 checks every row with the disk and without.

// Copies that make links: a write through the new name is a write of the
// protected file (a hard link cannot be told from it later), as with ln.
func TestPass22LinkCopies(t *testing.T) {
	runGate20(t, []gate20Case{
		{`cp -l .pi/settings.json /tmp/h; echo x > /tmp/h`, true, []string{".pi/settings.json", "denies write"}},
		{`cp -l .pi/settings.json /tmp/h`, true, []string{".pi/settings.json", "denies write"}},
		{`cp --link .pi/settings.json /tmp/h`, true, []string{".pi/settings.json"}},
		{`cp --li .pi/settings.json /tmp/h`, true, []string{".pi/settings.json"}},
		{`cp -lf .pi/settings.json /tmp/h`, true, []string{".pi/settings.json"}},
		{`cp -t /tmp -l .pi/settings.json`, true, []string{".pi/settings.json"}},
		{`cp -s ` + tCwd + `/.pi/settings.json /tmp/l`, true, []string{".pi/settings.json"}},
		{`cp --symbolic-link ` + tCwd + `/.claude/settings.json /tmp/l`, true, []string{".claude/settings.json"}},
		{`cp --sym ` + tCwd + `/.claude/settings.json /tmp/l`, true, []string{".claude/settings.json"}},
		{`gcp -l .pi/settings.json h`, true, []string{".pi/settings.json"}},
		{`busybox cp -l .pi/settings.json h`, true, []string{".pi/settings.json"}},
		{`cp -al .pi /tmp/z; echo x > /tmp/z/settings.json`, true, []string{"cp making links", "writes files below", ".pi/settings.json"}},
		{`cp -rl .pi /tmp/z`, true, []string{"cp making links", ".pi/settings.json"}},
		{`cp --link -r .pi /tmp/z`, true, []string{".pi/settings.json"}},
		{`cp -a --link .pi/. /tmp/z`, true, []string{".pi/settings.json"}},
		{`cp -al .pi/extensions /tmp/z`, true, []string{".pi/extensions"}},
		{`cp -rs ` + tCwd + `/.pi /tmp/z`, true, []string{".pi/settings.json"}},
		{`rsync -a --link-dest=` + tCwd + `/.pi /tmp/x/ /tmp/y/`, true, []string{"rsync --link-dest", "writes files below", ".pi/settings.json"}},
		{`rsync -a --link-dest ` + tCwd + `/.pi /tmp/x/ /tmp/y/`, true, []string{"rsync --link-dest", ".pi/settings.json"}},
		// a relative --link-dest is relative to the destination
		{`rsync -a --link-dest=../proj/.pi /tmp/x/ ` + tHome + `/y/`, true, []string{"rsync --link-dest", ".pi/settings.json"}},
		{`pax -rwl .pi /tmp/z`, true, []string{".pi/settings.json"}},
		{`echo .pi/settings.json | cpio -pdl /tmp/z`, true, []string{".pi/settings.json", "denies write"}},
		{`echo .pi/settings.json | cpio -p --link /tmp/z`, true, []string{".pi/settings.json"}},
		{`lndir ` + tCwd + `/.pi /tmp/z`, true, []string{"lndir", "writes files below", ".pi/settings.json"}},
		// a read-protected file stays denied as a read
		{`cp -l .env /tmp/e`, true, []string{".env"}},
		// near-benign: links to unprotected files, copies (not links) of a
		// folder that holds protected files, a copy of a protected name
		{`cp -l /tmp/a /tmp/b`, false, nil},
		{`cp -al src /tmp/bak`, false, nil},
		{`cp -s /tmp/a /tmp/l`, false, nil},
		{`cp -a .pi /tmp/z`, false, nil},
		{`cp -r .pi /tmp/z`, false, nil},
		{`cp .pi/settings.json /tmp/s.json`, false, nil},
		{`rsync -a --link-dest=/tmp/prev src/ /tmp/new/`, false, nil},
		{`rsync -a --link-dest=../prev src/ /tmp/new/`, false, nil},
		{`pax -rw .pi /tmp/z`, false, nil},
		{`pax -rwl src /tmp/z`, false, nil},
		{`echo .pi/settings.json | cpio -pd /tmp/z`, false, nil},
		{`echo src/a | cpio -pdl /tmp/z`, false, nil},
		{`lndir ` + tCwd + `/src /tmp/z`, false, nil},
	})
}

// awk: FILENAME or ARGV[i] joined to a string literal names the
// operand's name with that suffix (concatenation binds tighter than `>`),
// not the operand itself; joined to anything else it is an expression.
func TestPass22AwkOperandSuffix(t *testing.T) {
	runGate20(t, []gate20Case{
		{`echo x > .pi/settings; awk '{print > FILENAME".json"}' .pi/settings`, true, []string{".pi/settings.json", "denies write"}},
		{`awk '{print > FILENAME ".json"}' .pi/settings`, true, []string{".pi/settings.json"}},
		{`awk '{print >> FILENAME".json"}' .pi/settings`, true, []string{".pi/settings.json"}},
		{`awk '{printf "%s", $0 > FILENAME ".json"}' .pi/settings`, true, []string{".pi/settings.json"}},
		{`awk '{print > ARGV[1]".json"}' /tmp/a .pi/settings`, true, []string{".pi/settings.json"}},
		{`awk '{print > ARGV[1] ".json"}' .claude/settings`, true, []string{".claude/settings.json"}},
		{`awk '{print > FILENAME ".js" "on"}' .pi/settings`, true, []string{"expression computed when it runs"}},
		{`awk '{print > FILENAME x}' .pi/settings`, true, []string{"expression computed when it runs"}},
		{`awk '{print > ARGV[1] $1}' .pi/settings`, true, []string{"expression computed when it runs"}},
		{`awk '{print > FILENAME}' .pi/settings.json`, true, []string{".pi/settings.json"}},
		// near-benign: the suffix on an unprotected operand, a literal
		{`awk '{print > FILENAME ".bak"}' /tmp/a`, false, nil},
		{`awk '{print > ARGV[1] ".out"}' /tmp/a`, false, nil},
		{`awk '{print > FILENAME; close(FILENAME)}' /tmp/a`, false, nil},
		{`awk '{print > "/tmp/out"}' /tmp/a`, false, nil},
	})
}

// An alias used with arguments runs its value with the words after the
// name appended: `alias ls='cp /tmp/a'` then `ls .pi/settings.json` is
// `cp /tmp/a .pi/settings.json` (bash expands an alias defined on an
// earlier line of the command; the gate takes it for any later use).
func TestPass22AliasArguments(t *testing.T) {
	runGate20(t, []gate20Case{
		{"shopt -s expand_aliases\nalias ls='cp /tmp/a'\nls .pi/settings.json", true, []string{".pi/settings.json", "denies write"}},
		{"shopt -s expand_aliases; alias ls='cp /tmp/a'; ls .pi/settings.json", true, []string{".pi/settings.json"}},
		{"shopt -s expand_aliases\nalias w='tee -a'\necho x | w .claude/settings.json", true, []string{".claude/settings.json"}},
		{"shopt -s expand_aliases\nalias c='cp /tmp/a'\nc .pi/*.json", true, []string{".pi/*.json"}},
		{"shopt -s expand_aliases\nalias c='cp /tmp/a'\nf=.pi/settings.json; c \"$f\"", true, []string{".pi/settings.json"}},
		{"shopt -s expand_aliases\nalias c='cp /tmp/a'\nc $(echo .pi/settings.json)", true, []string{".pi/settings.json"}},
		{"shopt -s expand_aliases\nalias s='sudo '\nalias c='cp /tmp/a'\ns c .pi/settings.json", true, []string{".pi/settings.json"}},
		{"shopt -s expand_aliases\nalias m='mv -t'\nm .pi/extensions /tmp/e.ts", true, []string{".pi/extensions"}},
		// a value ending in a blank: the next word is an alias too
		{"shopt -s expand_aliases\nalias x='cp /tmp/a '\nalias y='.pi/settings.json'\nx y", true, []string{".pi/settings.json", "denies write"}},
		{"shopt -s expand_aliases\nalias x='cp '\nalias y='/tmp/a '\nalias z='.claude/settings.json'\nx y z", true, []string{".claude/settings.json"}},
		// near-benign: everyday aliases with arguments
		{"shopt -s expand_aliases\nalias s='sudo '\nalias ll='ls -la'\ns ll src", false, nil},
		{"shopt -s expand_aliases\nalias x='x '\nx x x", false, nil},
		{"shopt -s expand_aliases\nalias ll='ls -la'\nll src", false, nil},
		{"shopt -s expand_aliases\nalias g='git status'\ng --short", false, nil},
		{"shopt -s expand_aliases\nalias c='cp /tmp/a'\nc /tmp/b", false, nil},
	})
}

// Archive members: a folder member brings everything below it, a member
// pattern any name below its literal folders; renaming options make any
// name below the extraction folder possible, absolute-name options any
// name at all.
func TestPass22ArchiveMembers(t *testing.T) {
	runGate20(t, []gate20Case{
		{`tar -xf /tmp/t.tar .pi`, true, []string{"tar -x (a folder member brings everything below it)", ".pi/settings.json"}},
		{`tar -xf /tmp/t.tar ./.pi`, true, []string{".pi/settings.json"}},
		{`tar -xf /tmp/t.tar -C ` + tCwd + ` .pi`, true, []string{".pi/settings.json"}},
		{`tar -xf /tmp/t.tar .pi/extensions`, true, []string{".pi/extensions"}},
		{`tar -xf /tmp/t.tar --strip-components=1 x`, true, []string{"tar -x --strip-components (the members are renamed)", "writes files below"}},
		{`tar -xf /tmp/t.tar --strip 1 x`, true, []string{"--strip-components"}},
		{`tar -xf /tmp/t.tar --xform s,^x/,, x`, true, []string{"tar -x --xform"}},
		{`tar -xf /tmp/t.tar --transform=s,^,.pi/,`, true, []string{"tar -x --transform"}},
		{`bsdtar -xf /tmp/t.tar -s ',^,.pi/,'`, true, []string{"tar -x -s"}},
		{`tar -xf /tmp/t.tar -C .pi --strip-components=1`, true, []string{".pi/settings.json"}},
		{`tar -xf /tmp/t.tar --wildcards '.pi/*'`, true, []string{"tar -x (a member pattern)", ".pi/settings.json"}},
		{`tar -xf /tmp/t.tar '.p*'`, true, []string{"a member pattern"}},
		{`tar -xf /tmp/t.tar --no-anchored settings.json`, true, []string{"a member pattern"}},
		{`tar -xPf /tmp/t.tar -C /tmp/z`, true, []string{"tar -x -P keeps the members' absolute names", "may be written anywhere"}},
		{`tar -xf /tmp/t.tar -C /tmp/z --absolute-names`, true, []string{"--absolute-names"}},
		{`bsdtar -xf /tmp/t.tar -C /tmp/z --insecure`, true, []string{"--insecure"}},
		{`unzip /tmp/t.zip '.pi/*'`, true, []string{"unzip (a member pattern)", ".pi/settings.json"}},
		{`unzip /tmp/t.zip '.pi/ext*'`, true, []string{".pi/settings.json"}},
		{`unzip -j -d .pi /tmp/t.zip evil/settings.json`, true, []string{"unzip -j (the members' folders are dropped)", ".pi/settings.json"}},
		{`unzip -: -d /tmp/z /tmp/t.zip`, true, []string{"unzip -: keeps the members' `../`"}},
		// near-benign: extraction in a folder of its own, member names and
		// patterns there, listing, to stdout
		{`tar -xf /tmp/t.tar -C /tmp/z`, false, nil},
		{`tar xzf /tmp/t.tgz -C /tmp/z`, false, nil},
		{`tar -xf /tmp/t.tar -C /tmp/z --strip-components=1`, false, nil},
		{`tar -xf /tmp/t.tar -C /tmp/z 'src/*'`, false, nil},
		{`tar -xf /tmp/t.tar src`, false, nil},
		{`tar -tf /tmp/t.tar`, false, nil},
		{`tar -xOf /tmp/t.tar x`, false, nil},
		{`unzip -d /tmp/z /tmp/t.zip`, false, nil},
		{`unzip -d /tmp/z /tmp/t.zip 'src/*'`, false, nil},
		{`unzip /tmp/t.zip 'src/*'`, false, nil},
		{`unzip -j -d /tmp/z /tmp/t.zip`, false, nil},
		{`unzip -l /tmp/t.zip`, false, nil},
		{`unzip /tmp/t.zip src/a.txt`, false, nil},
	})
}

// Code that writes through an API whose name has no write-like word:
// archive extraction (every name below the folder it is given, the
// working folder by default), database files, downloads, log files.
func TestPass22QuietCodeWrites(t *testing.T) {
	runGate20(t, []gate20Case{
		{`python3 -c 'import sqlite3; c=sqlite3.connect(".pi/settings.json"); c.execute("create table t(x)")'`, true, []string{".pi/settings.json", "denies write"}},
		{`python3 -c 'import dbm; dbm.open(".claude/settings.json","c")'`, true, []string{".claude/settings.json"}},
		{`python3 -c 'import urllib.request as u; u.urlretrieve("http://x", ".pi/settings.json")'`, true, []string{".pi/settings.json"}},
		{`python3 -c 'import logging; logging.basicConfig(filename=".pi/settings.json"); logging.warning(1)'`, true, []string{".pi/settings.json"}},
		{`python3 -c 'import tarfile; tarfile.open("/tmp/a.tar").extractall(".pi")'`, true, []string{"code that extracts an archive", "writes files below", ".pi/settings.json"}},
		{`python3 -c 'import tarfile; tarfile.open("/tmp/a.tar").extractall()'`, true, []string{"code that extracts an archive"}},
		{`python3 -c 'import zipfile; zipfile.ZipFile("/tmp/a.zip").extract("x", ".pi")'`, true, []string{"code that extracts an archive"}},
		{`python3 -c 'import shutil; shutil.unpack_archive("/tmp/a.tar", ".pi")'`, true, []string{".pi/settings.json"}},
		{`node -e 'require("tar").x({file:"/tmp/a.tgz", cwd:".pi"})'`, true, []string{"code that extracts an archive"}},
		{`python3 -c 'import tarfile,sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' a b`, true, []string{"extracts an archive into a folder computed when it runs"}},
		// near-benign: the same APIs on files of their own, reads
		{`python3 -c 'import tarfile; tarfile.open("/tmp/a.tar").extractall("/tmp/z")'`, false, nil},
		{`python3 -c 'import zipfile; zipfile.ZipFile("/tmp/a.zip").extractall("/tmp/z")'`, false, nil},
		{`python3 -c 'import sqlite3; sqlite3.connect("/tmp/x.db").execute("select 1")'`, false, nil},
		{`python3 -c 'import urllib.request as u; u.urlretrieve("http://x", "/tmp/f")'`, false, nil},
		{`python3 -c 'print(open(".pi/settings.json").read())'`, false, nil},
		{`python3 -c 'import pandas as pd; pd.Series(["a"]).str.extract("(a)")'`, false, nil},
		{`python3 -c 'import pandas as pd; s="start"; pd.Series([s]).str.extract("(a)")'`, false, nil},
		{`python3 -c 'import socket; s=socket.socket(); s.connect(("x",1))'`, false, nil},
	})
}

// Decompressors the gate did not know write NAME without its suffix, as
// gunzip does (lzip -d .pi/settings.json.lz writes .pi/settings.json).
func TestPass22Decompressors(t *testing.T) {
	runGate20(t, []gate20Case{
		{`lzip -d .pi/settings.json.lz`, true, []string{".pi/settings.json", "lzip writes it from"}},
		{`lunzip .pi/settings.json.lz`, true, []string{".pi/settings.json"}},
		{`brotli -d .claude/settings.json.br`, true, []string{".claude/settings.json"}},
		{`pigz -d .pi/settings.json.gz`, true, []string{".pi/settings.json"}},
		{`unpigz .pi/settings.json.gz`, true, []string{".pi/settings.json"}},
		{`lzop -d .pi/settings.json.lzo`, true, []string{".pi/settings.json"}},
		{`unlzma .pi/settings.json.lzma`, true, []string{".pi/settings.json"}},
		{`pbzip2 -d .pi/settings.json.bz2`, true, []string{".pi/settings.json"}},
		{`lbzip2 -d .pi/settings.json.bz2`, true, []string{".pi/settings.json"}},
		{`lzip .pi/settings.json`, true, []string{".pi/settings.json"}},
		// near-benign: files of their own, to stdout
		{`lzip /tmp/a`, false, nil},
		{`brotli -d /tmp/a.br`, false, nil},
		{`pigz -k /tmp/a`, false, nil},
		{`lzip -dc .pi/settings.json.lz`, false, nil},
		{`brotli /tmp/a -o /tmp/a.br`, false, nil},
	})
}

// Extractors the gate did not model write the archive's names below their
// folder (an option's, an operand's, the working folder by default);
// uudecode without -o and unshar are unverifiable.
func TestPass22Extractors(t *testing.T) {
	runGate20(t, []gate20Case{
		{`unar -o .pi /tmp/a.zip`, true, []string{"unar (it writes the archive's names below the folder)", ".pi/settings.json"}},
		{`unar /tmp/a.zip`, true, []string{"unar"}},
		{`dtrx /tmp/a.tgz`, true, []string{"dtrx"}},
		{`aunpack /tmp/a.tgz`, true, []string{"aunpack"}},
		{`atool -x /tmp/a.tgz`, true, []string{"atool"}},
		{`cabextract -d .pi /tmp/a.cab`, true, []string{".pi/settings.json"}},
		{`dpkg -x /tmp/a.deb .pi`, true, []string{"dpkg (it writes", ".pi/settings.json"}},
		{`dpkg-deb -x /tmp/a.deb .claude`, true, []string{".claude/settings.json"}},
		{`lha x /tmp/a.lzh`, true, []string{"lha"}},
		{`arj x /tmp/a.arj`, true, []string{"arj"}},
		{`gem unpack /tmp/a.gem --target=.pi`, true, []string{"gem (it writes", ".pi/settings.json"}},
		{`unrar x /tmp/a.rar .pi/`, true, []string{"unrar (it writes", ".pi/settings.json"}},
		{`zstd -d --output-dir-flat .pi /tmp/settings.json.zst`, true, []string{"zstd --output-dir-flat", ".pi/settings.json"}},
		{`uudecode /tmp/a.uu`, true, []string{"uudecode writes the file the encoded text names"}},
		{`unshar /tmp/a.shar`, true, []string{"unshar runs the archive as a shell script"}},
		// near-benign: a folder of their own, listings
		{`unar -o /tmp/z /tmp/a.zip`, false, nil},
		{`aunpack -X /tmp/z /tmp/a.tgz`, false, nil},
		{`atool -l /tmp/a.tgz`, false, nil},
		{`cabextract -d /tmp/z /tmp/a.cab`, false, nil},
		{`dpkg -x /tmp/a.deb /tmp/z`, false, nil},
		{`dpkg -l`, false, nil},
		{`dpkg-deb -c /tmp/a.deb`, false, nil},
		{`lha xw=/tmp/z /tmp/a.lzh`, false, nil},
		{`arj x /tmp/a.arj /tmp/z/`, false, nil},
		{`gem unpack /tmp/a.gem --target=/tmp/z`, false, nil},
		{`unrar x /tmp/a.rar /tmp/z/`, false, nil},
		{`unrar l /tmp/a.rar`, false, nil},
		{`zstd -d --output-dir-flat=/tmp/z /tmp/a.zst`, false, nil},
		{`uudecode -o /tmp/x /tmp/a.uu`, false, nil},
	})
}
