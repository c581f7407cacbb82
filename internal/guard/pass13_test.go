package guard

import "testing"

// Attacker pass 13: wrappers whose option tables took a flag for an option
// with a value (unshare -n sh -c CMD ran CMD with sh taken for -n's value)
// or missed flock's FILE -c CMD; options that move the root (chroot,
// unshare -R/-w, nsenter -r/-w, systemd-run's / start).
func TestWrapperOptionTables(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`flock /tmp/l -c 'cat .e""nv'`, KindDeny},
		{`flock -w 5 /tmp/l --command 'cat .e""nv'`, KindDeny},
		{`flock -s /tmp/l sh -c 'cat .e""nv'`, KindDeny},
		{`flock -E 3 -xn /tmp/l sh -c 'cat .e""nv'`, KindDeny},
		{`unshare -n sh -c 'cat .e""nv'`, KindDeny},
		{`unshare -U sh -c 'cat .e""nv'`, KindDeny},
		{`unshare -pf --mount-proc sh -c 'cat .e""nv'`, KindDeny},
		{`prlimit -n sh -c 'cat .e""nv'`, KindDeny},
		{`nsenter -t 1 -u sh -c 'cat .e""nv'`, KindDeny},
		{`systemd-run -t sh -c 'cat .e""nv'`, KindDeny},
		{`firejail --private sh -c 'cat .e""nv'`, KindDeny},
		{`echo x | entr -s 'cat .e""nv'`, KindDeny},
		// a new root or working folder
		{`chroot / cat home/user/.ssh/id_rsa`, KindDeny},
		{`unshare -R / cat home/user/.ssh/id_rsa`, KindDeny},
		{`unshare -w / cat home/user/.ssh/id_rsa`, KindDeny},
		{`unshare --wd=/home cat user/.ssh/id_rsa`, KindDeny},
		{`chroot /mnt cat /home/user/x`, KindUnverifiable},
		{`sudo -R /srv/root cat x`, KindUnverifiable},
		{`nsenter -t 1 -m -w cat x`, KindUnverifiable},
		{`firejail --chroot=/mnt cat x`, KindUnverifiable},
		{`systemd-run --wait -P cat home/user/.ssh/id_rsa`, KindDeny},
		// everyday
		{`flock /tmp/l -c 'make build'`, ""},
		{`flock -x /tmp/l go test ./...`, ""},
		{`flock -w 10 /tmp/l npm ci`, ""},
		{`unshare -n go test ./...`, ""},
		{`unshare -r ls`, ""},
		{`prlimit --nofile=4096 make`, ""},
		{`chroot / ls`, ""},
		{`systemd-run -d --wait -P go test ./...`, ""},
		{`ls *.go | entr -r go run .`, ""},
		{`nice -n 10 make`, ""},
	})
}

// BASH_ALIASES and BASH_CMDS are the alias and hash tables: setting an
// element is alias/hash -p without the command (BASH_CMDS[x]=/bin/sh; x -c
// CMD ran CMD; BASH_ALIASES[x]=CMD, then x on the next line).
func TestBashCommandTables(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"shopt -s expand_aliases; BASH_ALIASES[x]='cat .e\"\"nv'\nx", KindUnverifiable},
		{`BASH_CMDS[x]=/bin/sh; x -c 'cat .e""nv'`, KindUnverifiable},
		{`BASH_ALIASES=([x]='cat .e""nv')`, KindUnverifiable},
		{`BASH_ALIASES+=([x]=y)`, KindUnverifiable},
		{`declare -A BASH_ALIASES=([x]=y)`, KindUnverifiable},
		{`read 'BASH_ALIASES[x]' <<< y`, KindUnverifiable},
		{`printf -v 'BASH_CMDS[x]' /bin/sh`, KindUnverifiable},
		{`eval 'BASH_CMDS[x]=/bin/sh'`, KindUnverifiable},
		// everyday
		{`echo "${BASH_ALIASES[@]}" "${!BASH_CMDS[@]}"`, ""},
		{`alias ll='ls -l'`, ""},
		{`hash -r`, ""},
	})
}

// Dev tools that run code given as an argument: rake -e/-p/-E (rake -e
// 'puts File.read(".e"+"nv")' printed .env), rails runner, mix run -e /
// mix eval, mongosh --eval, ansible -a, vagrant ssh -c, pm2 start 'CMD'.
func TestDevToolCodeOptions(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`rake -e 'puts File.read(".e"+"nv")'`, KindDeny},
		{`rake -qe 'puts File.read(".e"+"nv")'`, KindDeny},
		{`rake -p 'File.read(".e"+"nv")'`, KindDeny},
		{`rake -E 'puts File.read(".e"+"nv")' -T`, KindDeny},
		{`rake --execute='puts File.read(".e"+"nv")'`, KindDeny},
		{`rake -e 'system "cat " + ARGV[0]'`, KindUnverifiable},
		{`rails runner 'puts File.read(".e"+"nv")'`, KindDeny},
		{`rails r -e production 'puts File.read(".e"+"nv")'`, KindDeny},
		{`mix run -e 'IO.puts 1'`, KindUnverifiable},
		{`mix eval 'IO.puts File.read!(".e" <> "nv")'`, KindUnverifiable},
		{`mongosh --quiet --eval 'console.log(fs.readFileSync(".e"+"nv","utf8"))'`, KindDeny},
		{`ansible localhost -c local -m shell -a 'cat .e""nv'`, KindDeny},
		{`ansible all -a 'cat .e""nv'`, KindDeny},
		{`ansible all -m ansible.builtin.fetch -a 'src=x dest=y'`, KindUnverifiable},
		{`vagrant ssh -c 'cat .e""nv'`, KindDeny},
		{`vagrant ssh -- cat .e""nv`, KindDeny},
		{`pm2 start 'cat .e""nv'`, KindDeny},
		// everyday
		{`rake test`, ""},
		{`rake -T`, ""},
		{`rake -e 'puts 1'`, ""},
		{`rails runner -e production 'puts User.count'`, ""},
		{`rails server`, ""},
		{`mix test`, ""},
		{`mongosh --eval 'db.stats()'`, ""},
		{`ansible all -m ping`, ""},
		{`ansible all -a uptime`, ""},
		{`vagrant ssh -c uptime`, ""},
		{`vagrant up`, ""},
		{`pm2 start app.js --name web`, ""},
		{`pm2 start 'npm run dev'`, ""},
	})
}
