package guard

import "testing"

// TestGitConfigCommandKeys16: git configuration keys whose value is a
// command git runs, in every form a command sets them (-c, git config,
// GIT_CONFIG_*): core.alternateRefsCommand, imap.tunnel and
// submodule.NAME.update=!CMD were read as plain values.
func TestGitConfigCommandKeys16(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`git -c core.alternateRefsCommand='cat .e""nv' fetch ../other`, KindDeny},
		{`git -c core.alternateRefsCommand="$X" fetch ../other`, KindUnverifiable},
		{`git -c imap.tunnel='cat .e""nv' imap-send`, KindDeny},
		{`git -c submodule.lib.update='!cat .e""nv' submodule update`, KindDeny},
		{`git config submodule.lib.update '!cat .e""nv'; git submodule update`, KindDeny},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.alternateRefsCommand GIT_CONFIG_VALUE_0='cat .e""nv' git fetch ../o`, KindDeny},
		{`git -c core.alternateRefsCommand='git for-each-ref' fetch ../other`, ""},
		{`git -c submodule.lib.update=rebase submodule status`, ""},
		{`git submodule init`, ""},
		{`git -c imap.tunnel='openssl s_client -connect imap.example.com:993 -quiet' imap-send`, ""},
	})
}

// TestDotenvLoaders16: programs that load the folder's .env into the
// environment of the code or command they run, without a word naming it
// (bun, pipenv run/shell, dotenvx, env-cmd, python -m dotenv, dotenv-cli
// through npx, Procfile runners, heroku local, just --dotenv-load,
// podman-compose config, docker compose config in any position): a read
// of .env. With the disk only a .env that is there counts; their own
// switches off (bun --no-env-file, --env-file=F, -f F, -e F,
// PIPENV_DONT_LOAD_ENV=1) pass.
func TestDotenvLoaders16(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`bun -e 'console.log(process.env)'`, KindDeny},
		{`bun --print process.env`, KindDeny},
		{`bun exec env`, KindDeny},
		{`bun run env`, KindDeny},
		{`bun test`, KindDeny},
		{`bunx vite`, KindDeny},
		{`bun x prettier --check .`, KindDeny},
		{`bun build --env=inline ./x.ts`, KindDeny},
		{`uv run bun -e 1`, KindDeny},
		{`pipenv run printenv`, KindDeny},
		{`pipenv shell`, KindDeny},
		{`pipenv run python -c 'import os; print(os.environ)'`, KindDeny},
		{`npx dotenv-cli -- env`, KindDeny},
		{`python3 -m dotenv list`, KindDeny},
		{`python3 -m dotenv.cli list`, KindDeny},
		{`pipx run python-dotenv list`, KindDeny},
		{`dotenvx run -- env`, KindDeny},
		{`dotenvx get`, KindDeny},
		{`env-cmd env`, KindDeny},
		{`honcho run env`, KindDeny},
		{`foreman start`, KindDeny},
		{`heroku local:run env`, KindDeny},
		{`just --dotenv-load show`, KindDeny},
		{`podman-compose config`, KindDeny},
		{`docker compose config --format json`, KindDeny},
		{`docker compose -f compose.yml config`, KindDeny},
		{`docker compose convert`, KindDeny},
		// switched off, or another file named
		{`bun --no-env-file -e 'console.log(process.env)'`, ""},
		{`bun --no-env-file test`, ""},
		{`bun --env-file=.env.example test`, ""},
		{`bun --no-env-file x prettier --check .`, ""},
		{`PIPENV_DONT_LOAD_ENV=1 pipenv run pytest`, ""},
		{`env PIPENV_DONT_LOAD_ENV=1 pipenv run pytest`, ""},
		{`npx dotenv-cli -e .env.example -- env`, ""},
		{`python3 -m dotenv -f .env.example list`, ""},
		{`dotenvx run -f .env.example -- env`, ""},
		{`env-cmd -f .env.example env`, ""},
		{`honcho -e .env.example run env`, ""},
		// no code of the call runs with the environment
		{`bun install`, ""},
		{`bun add react`, ""},
		{`bun build ./x.ts --outdir dist`, ""},
		{`pipenv install`, ""},
		{`pipenv lock`, ""},
		{`just test`, ""},
		{`docker compose up -d`, ""},
		{`docker compose ps`, ""},
	})
	// with the disk, a project without a .env runs them as before
	files := map[string]string{tCwd + "/a.txt": "a", tCwd + "/.env.example": "X=1", tCwd + "/package.json": "{}"}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{`bun test`, ""},
		{`bun run dev`, ""},
		{`bun -e 'console.log(1)'`, ""},
		{`pipenv run pytest`, ""},
		{`foreman start`, ""},
	})
	files[tCwd+"/.env.production"] = "S=1"
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{`bun run build`, KindDeny}, // .env.$NODE_ENV
		{`bun --no-env-file run build`, ""},
	})
	// pipenv's project (the Pipfile's folder) above the cwd holds the .env
	files = map[string]string{tCwd + "/Pipfile": "", tCwd + "/.env": "S=1", tCwd + "/src/m.py": ""}
	m = DefaultRules().Matcher(Env{Cwd: tCwd + "/src", Home: tHome, FS: linkFS(files, nil)})
	runShell(t, m, []shellCase{
		{`pipenv run env`, KindDeny},
		{`bun test`, ""},
	})
}

// TestCredentialPrinters16: subcommands that print a secret from a
// credential store the rules protect, reading it by themselves: gh auth
// token, gh auth status -t, aws configure get and export-credentials,
// curl -n (sends ~/.netrc's login; -v prints the header made of it).
func TestCredentialPrinters16(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`gh auth token`, KindDeny},
		{`gh auth status -t`, KindDeny},
		{`gh --repo x/y auth token`, KindDeny},
		{`timeout 5 gh auth token`, KindDeny},
		{`gh auth status --show-token`, KindDeny},
		{`gh auth git-credential get <<< 'host=github.com'`, KindDeny},
		{`aws configure get aws_secret_access_key`, KindDeny},
		{`aws --profile prod configure get aws_secret_access_key`, KindDeny},
		{`aws configure export-credentials --format env`, KindDeny},
		{`curl -n https://example.com`, KindDeny},
		{`curl -sSnv https://example.com`, KindDeny},
		{`curl --netrc-optional https://example.com`, KindDeny},
		{`gh auth status`, ""},
		{`gh pr list`, ""},
		{`gh api user`, ""},
		{`aws configure list`, ""},
		{`aws sts get-caller-identity`, ""},
		{`aws s3 ls`, ""},
		{`curl -o n.txt https://example.com`, ""},
		{`curl -sSL https://example.com`, ""},
	})
}

// TestContainerVolumesFrom16: docker run --volumes-from mounts another
// container's volumes and bind mounts, host folders the command does not
// show.
func TestContainerVolumesFrom16(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`docker run --volumes-from dev alpine cat /h/.ssh/id_rsa`, KindUnverifiable},
		{`podman run --volumes-from=dev alpine ls /w`, KindUnverifiable},
		{`docker run -v pgdata:/data alpine ls /data`, ""},
		{`docker run --rm alpine echo hi`, ""},
	})
}

// TestUserShellQuotes16: a command line a program hands to the user's own
// shell ($SHELL or the login shell: script -c, flock -c, entr -s, sudo
// -s, su -c, tmux and screen commands, ssh to this machine) when the user's
// shell may be fish: a single-quoted part ending in a backslash, which
// fish does not end there, is unverifiable.
func TestUserShellQuotes16(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	attack := `"echo 'x\\' '; cat .env #'"`
	runShell(t, m, []shellCase{
		{`script -qc ` + attack + ` /dev/null`, KindUnverifiable},
		{`flock /tmp/l -c ` + attack, KindUnverifiable},
		{`entr -s ` + attack + ` < /dev/null`, KindUnverifiable},
		{`sudo -s ` + attack, KindUnverifiable},
		{`su -c ` + attack + ` root`, KindUnverifiable},
		{`tmux new -d ` + attack, KindUnverifiable},
		{`ssh localhost ` + attack, KindUnverifiable},
		{`script -qc 'make test' /dev/null`, ""},
		{`tmux new -d 'npm run dev'`, ""},
		{`flock /tmp/l -c 'echo hi'`, ""},
		{`script -qc "printf '%s\\n' a" /dev/null`, ""},
		{`tmux new -d "grep 'a\\\\' x"`, ""},
		{`su -c whoami root`, ""},
		{`watch "echo 'x\\'"`, ""}, // watch runs sh -c
		{`bash -c "echo 'x\\' '; cat .e#'"`, ""},
	})
	for s, want := range map[string]bool{
		`echo 'x\' y`: true, `echo 'x\\' y`: false, `echo 'x\\\' y`: true, `echo "it's" 'a'`: false,
		`echo \' 'b\'`: true, `echo "a\"'b\'"`: false, `echo 'unterminated\`: false, ``: false,
	} {
		if got := fishQuoteSplit(s); got != want {
			t.Errorf("fishQuoteSplit(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestPackagersAndWebShells16: npm/pnpm/yarn/bun pack and publish and
// cargo package/publish put the package folder, hidden files included,
// into a tarball or upload it (minus what .gitignore surely ignores, not
// with an .npmignore); a terminal served to whoever connects (ttyd, gotty,
// tmate, upterm, websocketd of a shell) runs commands the analysis never
// sees.
func TestPackagersAndWebShells16(t *testing.T) {
	disk := gate15Matchers()[1]
	runShell(t, disk, []shellCase{
		{`npm pack`, KindFolder},
		{`npm publish --access public`, KindFolder},
		{`pnpm -r publish`, KindFolder},
		{`yarn npm publish`, KindFolder},
		{`bun pm pack`, KindFolder},
		{`cargo package`, KindFolder},
	})
	// without the disk, as for git add, hidden names are taken to be
	// ignored; an .npmignore the command writes undoes that
	noDisk := gate15Matchers()[0]
	runShell(t, noDisk, []shellCase{
		{`npm pack`, ""},
		{`printf 'src/\n' > .npmignore && npm pack`, KindFolder},
	})
	runShellBoth(t, []shellCase{
		{`ttyd bash`, KindUnverifiable},
		{`gotty -w vim`, KindUnverifiable},
		{`tmate`, KindUnverifiable},
		{`upterm host`, KindUnverifiable},
		{`websocketd --port=8080 bash`, KindUnverifiable},
		{`npm publish x.tgz`, ""},
		{`npm publish --tag next ./dist`, ""},
		{`npm pack react`, ""},
		{`npm test`, ""},
		{`cargo build --release`, ""},
		{`websocketd --port=8080 ./count.sh`, ""},
	})
	// what .gitignore surely ignores stays out, unless an .npmignore
	// replaces it
	files := map[string]string{tCwd + "/.git/HEAD": "ref: refs/heads/main", tCwd + "/.gitignore": ".env\n", tCwd + "/.env": "S=1", tCwd + "/package.json": "{}"}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	if got, why := kindOf(m, "npm pack"); got != "" {
		t.Errorf("npm pack with .env gitignored: got %q (%s)", got, why)
	}
	for _, cmd := range []string{"printf 'src/\\n' > .npmignore && npm pack", "rm .gitignore; npm publish", "printf '!.env\\n' >> .gitignore; cargo package"} {
		if got, why := kindOf(m, cmd); got != KindFolder {
			t.Errorf("%q: got %q, want folder (%s)", cmd, got, why)
		}
	}
	files[tCwd+"/.npmignore"] = "src/\n"
	m = DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(files, nil)})
	if got, why := kindOf(m, "npm pack"); got != KindFolder {
		t.Errorf("npm pack with an .npmignore: got %q, want folder (%s)", got, why)
	}
}

// TestCredentialWriters16: subcommands that write a protected credential
// store or dotenv file by themselves: gh auth login/logout/refresh,
// aws configure (set, import, alone), heroku login (and auth:token, which
// prints ~/.netrc's token), vercel env pull (.env.local), vercel pull
// (.vercel/.env.$ENV.local), dotenv-vault pull (.env).
func TestCredentialWriters16(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`gh auth login --with-token < /tmp/tok`, KindDeny},
		{`gh auth logout -h github.com`, KindDeny},
		{`gh auth refresh -s repo`, KindDeny},
		{`aws configure set aws_access_key_id AKIA`, KindDeny},
		{`aws configure import --csv file://keys.csv`, KindDeny},
		{`aws configure`, KindDeny},
		{`heroku login`, KindDeny},
		{`heroku auth:token`, KindDeny},
		{`vercel env pull`, KindDeny},
		{`npx vercel env pull`, KindDeny},
		{`vercel pull --environment=production`, KindDeny},
		{`dotenv-vault pull`, KindDeny},
		{`vercel env pull .env.example`, ""},
		{`vercel env ls`, ""},
		{`gh auth status`, ""},
		{`aws configure list`, ""},
		{`heroku logs --tail`, ""},
	})
}

// TestCodeOptions16: programs outside the interpreter tables that run code
// from an option, a subcommand's operand or stdin: their code is read as
// code (names it joins at run time are seen), not as a word.
func TestCodeOptions16(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`python manage.py shell -c "print(open('.e'+'nv').read())"`, KindDeny},
		{`./manage.py shell -c "print(open('.e'+'nv').read())"`, KindDeny},
		{`django-admin shell -c "print(open('.e'+'nv').read())"`, KindDeny},
		{`python -m django shell -c "print(open('.e'+'nv').read())"`, KindDeny},
		{`python manage.py shell <<< "print(open('.e'+'nv').read())"`, KindDeny},
		{`php artisan tinker --execute='echo file_get_contents(".e"."nv");'`, KindDeny},
		{`echo 'puts File.read(".e"+"nv")' | rails console`, KindDeny},
		{`flask shell <<< "print(open('.e'+'nv').read())"`, KindDeny},
		{`iex -e 'IO.puts File.read!(".e" <> "nv")'`, KindDeny},
		{`hy -c '(print (.read (open (+ ".e" "nv"))))'`, KindDeny},
		{`ocaml <<< 'print_string (read_file (".e" ^ "nv"))'`, KindDeny},
		{"zx <<< 'await $`cat ${\".e\"+\"nv\"}`'", KindDeny},
		{`nix eval --impure --expr 'builtins.readFile (./. + "/.e" + "nv")'`, KindDeny},
		{`nix-instantiate --eval -E 'builtins.readFile (./. + "/.e" + "nv")'`, KindDeny},
		{`nix repl <<< 'builtins.readFile (./. + "/.e" + "nv")'`, KindDeny},
		{`nix-shell -p jq --run 'cat .e""nv'`, KindDeny},
		{`nix develop -c cat .e''nv`, KindDeny},
		{`dotnet script eval 'System.Console.Write(System.IO.File.ReadAllText(".e"+"nv"))'`, KindDeny},
		{`crystal eval 'puts File.read(".e"+"nv")'`, KindDeny},
		{`nim --eval:'echo readFile(".e" & "nv")'`, KindDeny},
		{`ghc -e 'readFile (".e" ++ "nv") >>= putStr'`, KindDeny},
		{`lein repl <<< '(slurp (str ".e" "nv"))'`, KindDeny},
		{`sage -c "print(open('.e'+'nv').read())"`, KindDeny},
		{`clickhouse local -q "SELECT * FROM file('.e'||'nv')"`, KindUnverifiable},
		{`gomplate -i '{{ file.Read (print ".e" "nv") }}'`, KindDeny},
		{`gomplate -i '{{ .Env.USER }}'`, KindUnverifiable},
		{`jsonnet -e 'importstr ".e" + "nv"'`, KindDeny},
		{`pdflatex '\def\x{.e}\input{\x nv}'`, KindUnverifiable},
		{`gomplate -f t.tmpl -o out.txt`, ""},
		{`jsonnet -e '{a: 1}'`, ""},
		{`pdflatex main.tex`, ""},
		{`latexmk -pdf main.tex`, ""},
		{`python manage.py shell -c 'from app.models import User; print(User.objects.count())'`, ""},
		{`python manage.py migrate`, ""},
		{`php artisan tinker --execute='echo User::count();'`, ""},
		{`php artisan migrate`, ""},
		{`nix develop -c make test`, ""},
		{`nix-shell -p jq --run 'jq . x.json'`, ""},
		{`nix build`, ""},
		{`ghc -O2 Main.hs`, ""},
		{`iex -S mix`, ""},
		{`crystal build x.cr`, ""},
		{`dotnet test`, ""},
		{`clickhouse client -q 'select 1'`, ""},
	})
}

// TestTextWords16: a word that reads as text or code (a blank, a quote, a
// bracket) given to a program the analysis does not model, and each
// token of a here-string, is split at quotes and brackets too: the names
// inside are checked (jsonnet importstr, gomplate file.Read, TeX \input,
// pkl read, Markdown and AsciiDoc includes, Graphviz images); `~/` in a
// token is the home folder (dhall, nix).
func TestTextWords16(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{`jsonnet -e 'importstr ".env"'`, KindDeny},
		{`gomplate -i '{{ file.Read ".env" }}'`, KindDeny},
		{`pdflatex '\input{.env}'`, KindUnverifiable}, // TeX code: not modelled
		{`tex '\input .env'`, KindDeny},
		{`pkl eval -x 'read("file:.env").text' x.pkl`, KindDeny},
		{`asciidoctor - <<< 'include::.env[]'`, KindDeny},
		{`pandoc -f markdown <<< '![](.env)'`, KindDeny},
		{`dot -Tsvg <<< 'digraph{a[image=".env"]}'`, KindDeny},
		{`dhall <<< '~/.ssh/id_rsa as Text'`, KindDeny},
		{`jsonnet -e 'importstr "config.json"'`, ""},
		{`jsonnet -e '{a: 1}'`, ""},
		{`mytool --message 'rotate the keys'`, ""},
		{`pandoc -f markdown <<< '![](docs/a.png)'`, ""},
		{`cat <<< 'see (README.md)'`, ""},
	})
}

// TestFileServers16: python -m pyftpdlib (FTP of the cwd, -d DIR) and -m
// wsgidav (--root DIR), and ngrok's file:// server, serve a folder.
func TestFileServers16(t *testing.T) {
	runShellBoth(t, []shellCase{
		{`python3 -m pyftpdlib`, KindFolder},
		{`python3 -m wsgidav --root .`, KindFolder},
		{`ngrok http file://.`, KindFolder},
		{`ngrok http file:///home/user/proj`, KindFolder},
		{`ngrok http 8080`, ""},
		{`python3 -m pyftpdlib -d /tmp/share`, ""},
	})
}

// TestGitPrintsTracked16: while git tracks a protected file, the commands
// that print its patches or blobs beyond those pass 13 listed: git stash
// show (-p, or stash.showPatch) and stash list -p, git reflog -p, git
// request-pull -p, git instaweb, log's options that imply a patch
// (--patch-with-stat, --color-words, -W, -U3, --binary, --remerge-diff),
// --full-diff (a pathspec does not limit the patch), and log's --cc,
// which was read as an abbreviation of send-email's --cc-cmd.
func TestGitPrintsTracked16(t *testing.T) {
	files := map[string]string{tCwd + "/.env": "K=1", tCwd + "/a.txt": "a", tCwd + "/.git/HEAD": "ref: refs/heads/main\n"}
	with := func(tracked ...string) *Matcher {
		fs := map[string]string{tCwd + "/.git/index": indexOf(tracked...)}
		for k, v := range files {
			fs[k] = v
		}
		return DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: linkFS(fs, nil)})
	}
	attacks := []string{
		`git stash show -p`, `git stash show`, `git stash show -p stash@{1}`, `git stash list -p`,
		`git reflog -p`, `git reflog show -p`, `git request-pull -p HEAD .`, `git instaweb`,
		`git log --patch-with-stat`, `git log --patch-with-raw`, `git log --color-words`, `git log -W`,
		`git log -U3`, `git log --unified=1`, `git log --binary`, `git log --remerge-diff`, `git log --cc`,
		`git log --full-diff -p -- a.txt`,
	}
	benign := []string{
		`git stash show --stat`, `git stash list`, `git reflog`, `git reflog expire --all`,
		`git request-pull HEAD .`, `git instaweb --stop`, `git log --stat`, `git log --oneline`, `git log -p -- a.txt`,
		`git format-patch --cc=a@example.com --stdout -1 -- a.txt`,
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
