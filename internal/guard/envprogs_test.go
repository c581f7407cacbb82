package guard

import "testing"

// TestEnvironmentThatCarriesCommands: variables a program reads commands or
// options from — VIMINIT/EXINIT (Ex commands vim runs at start-up),
// PERL5DB (code perl -d runs), TAR_OPTIONS and ZIPOPT (options, such as
// --checkpoint-action=exec= and -TT), more pagers — and variables that move
// the start-up files a program reads by itself (HOME=/tmp/x git st read an
// alias from /tmp/x/.gitconfig the command wrote). Attacker pass 12
// findings 6, 7.
func TestEnvironmentThatCarriesCommands(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`VIMINIT=':!cat .e""nv' vim -c q`, KindUnverifiable},
		{`EXINIT=':!cat .e""nv' ex -c q`, KindUnverifiable},
		{`env VIMINIT=':r .env' vim -c q`, KindDeny},
		{`PERL5DB='BEGIN{system q(cat .e""nv)}' perl -d -e 1`, KindDeny},
		{`TAR_OPTIONS='--checkpoint=1 --checkpoint-action=exec=cat\ .e""nv' tar cf /dev/null a.txt`, KindUnverifiable},
		{`export TAR_OPTIONS='--to-command=sh'; tar tf a.tar`, KindUnverifiable},
		{`ZIPOPT='-T -TT "cat .e\"\"nv #"' zip -q /tmp/z.zip a.txt`, KindUnverifiable},
		{`AWS_PAGER='cat .e""nv #' aws s3 ls`, KindDeny},
		{`PSQL_PAGER='cat .e""nv #' psql -c 'select 1'`, KindDeny},
		// start-up files moved by the command
		{"printf '[alias]\\n\\tst = !cat .e\"\"nv\\n' > /tmp/h/.gitconfig; HOME=/tmp/h git st", KindUnverifiable},
		{"printf '[alias]\\n\\tst = !cat .e\"\"nv\\n' > /tmp/x/git/config; XDG_CONFIG_HOME=/tmp/x git st", KindUnverifiable},
		{"cd /tmp/h; printf '[alias]\\n\\tst = !cat .e\"\"nv\\n' > .gitconfig; cd -; export HOME=/tmp/h; git st", KindUnverifiable},
		{"echo 'cat .e\"\"nv' > /tmp/z/.zshenv; ZDOTDIR=/tmp/z zsh -c :", KindUnverifiable},
		{"echo 'x' > /tmp/a; env HOME=/tmp git st", KindUnverifiable},
		// everyday
		{`VIMINIT='set ts=4' vim a.txt`, ""},
		{`HOME=/tmp git status`, ""},
		{`echo x > out.txt; git status`, ""},
		{`TAR_OPTIONS= tar cf /tmp/a.tar a.txt`, ""},
		{`cd /tmp && HOME=/tmp ls`, ""},
	})
}

// TestPerlRubyQuoteOperators: perl's q(…) (one letter, any bracket or
// delimiter, spaces before it) and ruby's %q/%Q/%(…)/%x literals are
// strings like quoted ones — perl -e 'system q(cat .e""nv)' and ruby -e
// 'puts %x(cat .e""nv)' ran cat unseen. Attacker pass 12 finding 8.
func TestPerlRubyQuoteOperators(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`perl -e 'system q(cat .e""nv)'`, KindDeny},
		{`perl -e 'system q{cat .e""nv}'`, KindDeny},
		{`perl -e 'system q /cat .e""nv/'`, KindDeny},
		{`perl -e 'exec q!cat .e""nv!'`, KindDeny},
		{`perl -e 'open(F, q(-|), q(cat .e""nv)); print <F>'`, KindDeny},
		{`perl -e 'open my $f, q(<), q(.e).q(nv); print <$f>'`, KindDeny},
		{`ruby -e 'system %q(cat .e""nv)'`, KindDeny},
		{`ruby -e 'system %Q{cat .e""nv}'`, KindDeny},
		{`ruby -e 'system %(cat .e""nv)'`, KindDeny},
		{`ruby -e 'puts %x(cat .e""nv)'`, KindDeny},
		// everyday
		{`perl -e 'my %h = (q => 1); print $h{q}'`, ""},
		{`perl -e 'print q(hello), qw(a b)'`, ""},
		{`ruby -e 'puts 10 % 3'`, ""},
		{`ruby -e 'puts %w(a b).join'`, ""},
	})
}

// TestListingReceiverCalls: a listing called on a call's value lists the
// folder that call names only for a path constructor (Path('src').iterdir(),
// Dir.new('src')); any other call's string argument is not its folder —
// __import__('os').listdir() listed the cwd, with 'os' taken for the
// folder. Attacker pass 12 finding 9.
func TestListingReceiverCalls(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`python3 -c "print(open(sorted(__import__('os').listdir())[0]).read())"`, KindFolder},
		{`python3 -c "print(open(__import__('os').listdir()[0]).read())"`, KindFolder},
		{`python3 -c "print(open(helper('a').listdir()[0]).read())"`, KindFolder},
		// everyday
		{`python3 -c "import pathlib; [print(p.read_text()) for p in pathlib.Path('src').iterdir()]"`, ""},
		{`ruby -e 'Dir.new("src").children.each{|f| puts File.read("src/"+f)}'`, ""},
	})
}

// TestBindMounts: a bind mount (mount --bind/--rbind/-B/-o bind, bindfs)
// shows a folder under another name, like a link made in the command —
// mount --bind . /mnt; grep -r S /mnt read .env (as root). Mount options
// that name folders (overlay's lowerdir=) are unverifiable. Attacker pass
// 12 finding 10.
func TestBindMounts(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`mount --bind . /mnt; grep -r S /mnt`, KindFolder},
		{`mount --rbind "$PWD" /mnt && tar cf - /mnt`, KindFolder},
		{`mount -o bind . /mnt; cp -r /mnt /tmp/x`, KindFolder},
		{`mount -B ~ /mnt; cat /mnt/.ssh/id_rsa`, KindDeny},
		{`bindfs . /mnt; grep -r S /mnt`, KindFolder},
		{`mount -t overlay overlay -o lowerdir=.,upperdir=/tmp/u,workdir=/tmp/w /mnt; grep -r S /mnt`, KindUnverifiable},
		// everyday
		{`mount`, ""},
		{`mount | grep sda`, ""},
		{`mount -t tmpfs tmpfs /tmp/t`, ""},
		{`mount --bind src /mnt/src; grep -r TODO /mnt/src`, ""},
	})
}

// TestShellsAndInterpretersOfOtherSyntax: shells whose syntax is not
// bash's (fish expands .e{n}v, rc joins .e^nv, nu/elvish/xonsh are their own
// languages) are unverifiable when given commands; more sh-family names
// (lksh, pdksh, osh) are shells; guile -c and erl -eval are code options;
// m4's input is macro code (esyscmd runs a command). Attacker pass 12
// finding 11.
func TestShellsAndInterpretersOfOtherSyntax(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`fish -c 'cat .e{n}v'`, KindUnverifiable},
		{`echo 'cat .e{n}v' | fish`, KindUnverifiable},
		{`rc -c 'cat .e^nv'`, KindUnverifiable},
		{`tcsh -c 'cat $x:r'`, KindUnverifiable},
		{`nu -c 'open .e(char n)v'`, KindDeny},
		{`nu -c 'open $"($x)"'`, KindUnverifiable},
		{`lksh -c 'cat .e""nv'`, KindDeny},
		{`pdksh -c 'cat .e""nv'`, KindDeny},
		{`osh -c 'cat .e""nv'`, KindDeny},
		{`guile -c '(display (call-with-input-file ".env" get-string-all))'`, KindDeny},
		{`erl -noshell -eval 'file:read_file(".env")' -s init stop`, KindDeny},
		{`m4 <<< 'esyscmd(cat .e""nv)'`, KindUnverifiable},
		{`echo 'syscmd(cat .e""nv)' | m4`, KindUnverifiable},
		// everyday
		{`fish --version`, ""},
		{`guile -c '(display 1)'`, ""},
		{`erl -noshell -eval 'io:format("hi")' -s init stop`, ""},
		{`bash -c 'echo hi'; zsh -c 'echo hi'`, ""},
	})
}

// TestGitCommandKeysMore: more git config keys whose value git runs —
// merge.<driver>.driver, instaweb.httpd, gpg.ssh.defaultKeyCommand,
// interactive.diffFilter, sendemail's smtpServer/sendmailCmd/toCmd/ccCmd —
// and URLs rewritten to the ext:: transport (url.*.insteadOf). Attacker
// pass 12 finding 12.
func TestGitCommandKeysMore(t *testing.T) {
	const run = `='bash -c "cat $(printf %s .e nv) >&2" #' status`
	runShellBoth(t, []shellCase{
		{`git -c merge.x.driver` + run, KindDeny},
		{`git -c instaweb.httpd` + run, KindDeny},
		{`git -c gpg.ssh.defaultKeyCommand` + run, KindDeny},
		{`git -c interactive.diffFilter` + run, KindDeny},
		{`git -c sendemail.sendmailCmd` + run, KindDeny},
		{`git -c sendemail.x.smtpServer` + run, KindDeny},
		{`git -c protocol.ext.allow=always -c 'url.ext::sh -c cat% .e""nv% >&2% #.insteadOf=x:' ls-remote x:y`, KindDeny},
		{`git -c protocol.ext.allow=always -c 'url.ext::sh -c cat% $(printf% %s% .e% nv)% >&2% #.insteadOf=x:' ls-remote x:y`, KindDeny},
		{`git config 'url.ext::sh -c cat% $(printf% %s% .e% nv)% >&2% #.insteadOf' x:; git -c protocol.ext.allow=always ls-remote x:y`, KindDeny},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0='url.ext::sh -c cat% $(printf% %s% .e% nv)% >&2% #.insteadOf' GIT_CONFIG_VALUE_0=x: git ls-remote x:y`, KindDeny},
		// everyday
		{`git config url.https://github.com/.insteadOf gh:`, ""},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=less git log`, ""},
		{`git -c url.https://github.com/.insteadOf=gh: clone gh:x/y`, ""},
		{`git -c merge.ours.driver=true merge-base x y`, ""},
	})
}

// TestTildeWithExpansion: a tilde-prefix that is not all literal (~$u,
// ~"x") is left as text by bash, a ~user that eval or sh -c expand later:
// u=root; eval cat ~$u/.ssh/id_rsa read /root/.ssh/id_rsa (the word was
// taken for $HOME followed by "root"). Attacker pass 12 finding 13.
func TestTildeWithExpansion(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`u=root; eval cat ~$u/.ssh/id_rsa`, KindUnverifiable},
		{`u=user; eval "cat ~$u/.pi/agent/auth.json"`, KindDeny},
		{`cat ~$(whoami)/.ssh/id_rsa`, KindDeny},
		// everyday
		{`cat ~/"a b.txt"; ls ~; cd ~/src`, ""},
		{`echo ~$USER`, ""},
	})
}
