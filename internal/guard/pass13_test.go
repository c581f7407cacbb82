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

// Build and task files the command writes, which the tool it then runs
// reads by itself or is given (cmake -P x.txt, ninja -f b.txt, just
// --justfile=j, a written justfile, mise.toml, Procfile, deno.json,
// Makefile.toml, poe's pyproject.toml tasks): cmake, ninja, meson, just,
// task and bazel files are a language not modelled (unverifiable), task
// runners' files are read for the commands their strings name.
func TestBuildFilesWrittenInTheCommand(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`printf 'set(a .e)\nexecute_process(COMMAND cat ${a}nv)' > x.cmake; cmake -P x.cmake`, KindUnverifiable},
		{`printf 'execute_process(COMMAND cat x)' > x.txt; cmake -P x.txt`, KindUnverifiable},
		{"printf 'rule r\\n command = cat .e$x\\nbuild x: r\\n' > b.txt; ninja -f b.txt", KindUnverifiable},
		{"printf 'rule r\\n command = cat .e$x\\nbuild x: r\\n' > b.txt; ninja -fb.txt", KindUnverifiable},
		{"printf 'rule r\\n command = cat .e$x\\nbuild x: r\\n' > build.ninja; ninja", KindUnverifiable},
		{"printf 'x:\\n\\tcat .e$(echo nv)\\n' > justfile; just x", KindUnverifiable},
		{"printf 'x:\\n\\tcat .e$(echo nv)\\n' > j.txt; just --justfile=j.txt x", KindUnverifiable},
		{`printf 'cmds: [cat .e$(echo nv)]' > t.txt; task -t t.txt`, KindUnverifiable},
		{`printf 'genrule(cmd="cat x")' > BUILD; bazel build //:x`, KindUnverifiable},
		{`printf '[tasks.x]\nrun = "f=$(printf %%s e nv); cat .$f"' > mise.toml; mise run x`, KindDeny},
		{`printf '[tool.poe.tasks]\nx = "f=$(printf %%s e nv); cat .$f"' > pyproject.toml; poe x`, KindDeny},
		{`printf '{"tasks":{"x":"f=$(printf %%s e nv); cat .$f"}}' > deno.json; deno task x`, KindDeny},
		{`printf '[tasks.x]\nscript = "f=$(printf %%s e nv); cat .$f"' > Makefile.toml; cargo make x`, KindDeny},
		{`printf 'x: f=$(printf %%s e nv); cat .$f' > Procfile; foreman start -e web.env`, KindUnverifiable},
		{"printf 'repos: [{repo: local, hooks: [{id: x, entry: cat .e$(echo nv), language: system}]}]' > .pre-commit-config.yaml; pre-commit run -a", KindUnverifiable},
		{"printf 'x: cat .e$(echo nv)' > Procfile; honcho start", KindDeny},
		// everyday
		{`cmake -S . -B build && cmake --build build`, ""},
		{`ninja -C build`, ""},
		{`just test`, ""},
		{`echo hi > notes.txt; cmake -E cat notes.txt`, ""},
		{`mise run test`, ""},
		{`printf 'web: npm start\n' > Procfile; foreman start -e web.env`, ""},
		{`pre-commit run -a`, ""},
	})
}

// git plumbing that prints or copies tracked contents, like git show:
// cat-file --batch (object names on stdin: git ls-tree HEAD | awk … |
// git cat-file --batch printed a tracked .env), an object by hash,
// --batch-all-objects, fast-export, archive, bundle create, unpack-file,
// checkout-index -a, diff-tree/diff-index/diff-files -p, range-diff.
func TestGitPlumbingPrintsTracked(t *testing.T) {
	files := map[string]string{tCwd + "/.env": "K=1", tCwd + "/a.txt": "a", tCwd + "/.git/HEAD": "ref: refs/heads/main\n"}
	with := func(tracked ...string) *Matcher {
		fs := map[string]string{tCwd + "/.git/index": indexOf(tracked...)}
		for k, v := range files {
			fs[k] = v
		}
		return DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(fs, nil)})
	}
	attacks := []string{
		`git ls-tree HEAD | awk '{print $3}' | git cat-file --batch`,
		`git ls-files -s | git cat-file --batch`,
		`git cat-file --batch-all-objects --batch`,
		`git cat-file --batch-command < cmds`,
		`git cat-file -p 1a2b3c4d`,
		`git cat-file blob $(git ls-files -s | cut -d' ' -f2 | head -1)`,
		`git fast-export HEAD`,
		`git archive HEAD | tar -xO`,
		`git archive -o /tmp/x.tar HEAD`,
		`git bundle create /tmp/b HEAD`,
		`git unpack-file 1a2b3c4d`,
		`git checkout-index -a --prefix=/tmp/x/`,
		`git diff-tree -p --root HEAD`,
		`git diff-index -p HEAD`,
		`git range-diff main...topic`,
	}
	benign := []string{
		`git cat-file -p HEAD`, `git cat-file -t 1a2b3c4d`, `git cat-file -s HEAD:a.txt`,
		`git cat-file --batch-check --batch-all-objects`, `git fast-export --no-data HEAD`,
		`git diff-tree --name-only -r HEAD`, `git diff-index --quiet HEAD`, `git checkout-index -f -- a.txt`,
		`git bundle verify /tmp/b`, `git archive HEAD -- a.txt`,
	}
	var tc, uc []shellCase
	for _, c := range attacks {
		tc = append(tc, shellCase{c, KindFolder})
		uc = append(uc, shellCase{c, ""})
	}
	for _, c := range benign {
		tc = append(tc, shellCase{c, ""})
		uc = append(uc, shellCase{c, ""})
	}
	runShell(t, with(".env", "a.txt"), tc)
	runShell(t, with("a.txt"), uc)
}

// Network tools that run a command: socat's EXEC:/SYSTEM: addresses
// (socat - EXEC:'cat .e""nv' printed .env), nc/ncat -e/-c/--sh-exec, and a
// shell run on the connection, whose commands a listener started in the
// same command sends (… | ncat -l P & ncat -e /bin/sh localhost P printed
// .env).
func TestNetworkToolsRunCommands(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`socat - EXEC:'cat .e""nv'`, KindDeny},
		{`socat - SYSTEM:'cat .e""nv'`, KindDeny},
		{`socat - 'exec:cat .e""nv,pty'`, KindDeny},
		{`socat - 'SYSTEM:f=$(cat x); cat $f'`, KindUnverifiable},
		{`socat TCP:localhost:1 EXEC:sh`, KindUnverifiable},
		{`socat TCP-LISTEN:1 EXEC:/bin/bash,pty,stderr`, KindUnverifiable},
		{`ncat --sh-exec 'cat .e""nv' localhost 1`, KindDeny},
		{`ncat -c 'cat .e""nv' -l 9999`, KindDeny},
		{`ncat -l 9999 --exec='/bin/cat .e""nv'`, KindDeny},
		{`(sleep 1; echo 'cat .e""nv') | ncat -l 19998 & ncat -e /bin/sh localhost 19998`, KindUnverifiable},
		{`nc -e /bin/sh localhost 1`, KindUnverifiable},
		{`ncat --lua-exec x.lua -l 1`, KindUnverifiable},
		// everyday
		{`socat TCP-LISTEN:8080,fork TCP:localhost:3000`, ""},
		{`socat - EXEC:ls,pty`, ""},
		{`nc -zv localhost 80`, ""},
		{`nc -l 9999`, ""},
		{`ncat -lk 8080 -e /bin/cat`, ""},
	})
}

// Code that runs a command it computes from its own literals: an exec
// call whose command is an expression (os.system("".join(reversed(
// "vne. tac"))) and node's execSync([..."vne. tac"].reverse().join(""))
// printed .env): unverifiable; literals, lists of literals and keyword
// flags stay read as before.
func TestCodeExecOfExpression(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`python3 -c 'import os; os.system("".join(reversed("vne. tac")))'`, KindUnverifiable},
		{`python3 -c 'import os; os.system("vne. tac"[::-1])'`, KindUnverifiable},
		{`python3 -c 'import subprocess as s; c = bytes.fromhex("636174202e656e76").decode(); s.run(c, shell=True)'`, KindDeny},
		{`python3 -c 'import subprocess as s; s.run("vne. tac"[::-1], shell=True)'`, KindUnverifiable},
		{`python3 -c 'import subprocess as s; c = "vne. tac"[::-1]; s.call(c, shell=True)'`, KindUnverifiable},
		{`python3 -c 'import os; os.popen(chr(99)+"at .e"+"nv").read()'`, KindDeny},
		{`node -e 'require("child_process").execSync([..."vne. tac"].reverse().join(""),{stdio:"inherit"})'`, KindUnverifiable},
		{`php -r 'system(strrev("vne. tac"));'`, KindUnverifiable},
		{`php -r 'echo shell_exec(base64_decode("Y2F0IC5lbnY="));'`, KindDeny},
		{`lua -e 'os.execute(string.reverse("vne. tac"))'`, KindUnverifiable},
		{`python3 -c 'import os; getattr(os,"system")("vne. tac"[::-1])'`, KindUnverifiable},
		{`python3 -c 'import os; f=os.system; f("vne. tac"[::-1])'`, KindUnverifiable},
		{`python3 -c 'from os import system as s; s("vne. tac"[::-1])'`, KindUnverifiable},
		{`python3 -c 'import os; list(map(os.system, ["vne. tac"[::-1]]))'`, KindUnverifiable},
		{`node -e 'const cp=require("child_process"); const f=cp.execSync; f("vne. tac".split("").reverse().join(""),{stdio:"inherit"})'`, KindUnverifiable},
		{`ruby -e 'send(:system, "vne. tac".reverse)'`, KindUnverifiable},
		{`node -e 'const {execSync:e}=require("child_process"); e("vne. tac".split("").reverse().join(""),{stdio:"inherit"})'`, KindUnverifiable},
		{`node -e 'require("child_process")["execSync"]("vne. tac".split("").reverse().join(""),{stdio:"inherit"})'`, KindUnverifiable},
		{`ruby -e 'system("vne. tac".reverse)'`, KindUnverifiable},
		{`ruby -e 'exec "vne. tac".reverse'`, KindUnverifiable},
		{"ruby -e '`#{\"vne. tac\".reverse}`'", KindUnverifiable},
		{`perl -e 'system scalar reverse "vne. tac"'`, KindUnverifiable},
		{`perl -e '$c = reverse "vne. tac"; system $c'`, KindUnverifiable},
		{"perl -e '$c = reverse q(vne. tac); print `$c`'", KindUnverifiable},
		// everyday
		{`python3 -c 'import os; os.system("ls -la")'`, ""},
		{`python3 -c 'import subprocess; subprocess.run(["git", "status"], check=True, capture_output=True, text=True)'`, ""},
		{`python3 -c 'import subprocess, sys; subprocess.run([sys.executable, "-m", "pip", "list"], stdout=subprocess.PIPE)'`, ""},
		{`python3 -c 'import subprocess; print(subprocess.check_output(["git", "log", "-1"]).decode())'`, ""},
		{`node -e 'require("child_process").execSync("npm ls", {stdio: "inherit"})'`, ""},
		{`php -r 'system("ls");'`, ""},
		{`lua -e 'os.execute("ls")'`, ""},
		{`perl -e 'system "ls", "-la"'`, ""},
		{`perl -e 'system("make") == 0 or die "failed"'`, ""},
		{`ruby -e 'system "make", "test"'`, ""},
		{"ruby -e 'puts `git status`'", ""},
		{`python3 -c 'import asyncio; asyncio.run(main())'`, ""},
		{`node -e 'const {execSync} = require("child_process"); execSync("ls", {stdio: "inherit"})'`, ""},
	})
}
