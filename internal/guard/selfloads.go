package guard

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// Files a program reads by itself, without a word of the command naming
// them, and hands on to what it runs or prints:
//
//   - runners that load the working folder's dotenv files into the
//     environment of the code or command they run (bun, pipenv, dotenvx,
//     env-cmd, python-dotenv's CLI, honcho, foreman, heroku local, just
//     --dotenv-load): that code is analysed as harmless, yet
//     `bun -e 'console.log(process.env)'` or `pipenv run env` prints .env;
//   - CLI subcommands that print a secret from a credential store the rules
//     protect (`gh auth token`, `aws configure get`, `curl -n -v`).
//
// Each is a read of the file. A dotenv file is counted where the disk may
// hold it (with the disk, only when it is there; without it, always), so a
// project without a .env runs `bun test` as before.

// selfLoaded records those reads for the command being dispatched.
func (c *cmd) selfLoaded() {
	switch c.name {
	case "bun", "bunx", "pipenv", "dotenvx", "env-cmd", "honcho", "foreman", "forego", "nf", "overmind", "heroku", "just",
		"podman-compose", "gh", "aws", "curl", "ttyd", "gotty", "shellinaboxd", "tmate", "upterm", "sshx", "wetty", "websocketd",
		"npm", "pnpm", "yarn", "cargo", "vercel", "vc", "dotenv-vault":
	default:
		if !pythonFamily(c.name) {
			return // the common case: nothing to look for
		}
	}
	words := make([]string, len(c.args))
	for i, ar := range c.args {
		words[i] = optText(ar.f)
	}
	has := func(from int, names ...string) bool {
		for _, w := range words[min(from, len(words)):] {
			if w == "--" {
				return false
			}
			for _, n := range names {
				if w == n || strings.HasSuffix(n, "=") && strings.HasPrefix(w, n) {
					return true
				}
			}
		}
		return false
	}
	// sub returns the first operand after the program's options (a word
	// not starting with "-"; an option in vals takes the next word).
	sub := func(from int, vals ...string) (int, string) {
		for i := from; i < len(words); i++ {
			w := words[i]
			if w == "--" {
				break
			}
			if strings.HasPrefix(w, "-") {
				for _, v := range vals {
					if w == v {
						i++
						break
					}
				}
				continue
			}
			return i, w
		}
		return -1, ""
	}
	c.packers(words, sub)
	c.credentialWriters(words, sub)
	c.npmConfig(words)
	switch c.name {
	case "bun", "bunx":
		// bun loads .env, .env.local and .env.$NODE_ENV(.local) for every
		// command that runs code; --env-file replaces them, --no-env-file
		// turns it off; package management runs no code of the call's
		if has(1, "--no-env-file", "--env-file", "--env-file=") {
			return
		}
		if c.name == "bun" {
			_, s := sub(1, "--cwd", "--config", "-c", "--preload", "-r", "--require", "--import", "--define", "-d", "--loader", "-l", "--conditions", "--port", "--tsconfig-override", "--main-fields", "--jsx-factory", "--jsx-fragment", "--jsx-import-source", "--jsx-runtime", "--extension-order", "--filter", "-F")
			switch s {
			case "install", "i", "add", "a", "remove", "rm", "update", "outdated", "link", "unlink", "pm", "init", "create", "c",
				"upgrade", "completions", "help", "patch", "patch-commit", "publish", "audit", "info", "why":
				return
			case "build":
				if !has(2, "--env", "--env=") {
					return // bun build inlines the environment only with --env
				}
			case "":
				if !has(1, "-e", "--eval", "-p", "--print") {
					return // bun alone prints its help
				}
			}
		}
		c.dotenvLoads("bun, which loads the folder's .env files into what it runs (bun --no-env-file does not)", true)
	case "pipenv":
		// pipenv run and shell load the project's .env
		if _, s := sub(1, "--python", "--pypi-mirror"); s != "run" && s != "shell" {
			return
		}
		if v, ok := c.a.cmdEnvValue("PIPENV_DONT_LOAD_ENV"); ok && v != "" && v != "0" && !strings.ContainsRune(v, unknownRune) {
			return
		}
		c.dotenvLoads("pipenv, which loads the project's .env into what it runs (PIPENV_DONT_LOAD_ENV=1 pipenv … does not)", false)
		c.pipfileDotenv()
	case "dotenvx":
		// dotenvx run/get/set/encrypt/decrypt work on .env unless -f names
		// the files
		if has(1, "-f", "--env-file", "--env-file=", "-fk", "--env-keys-file") {
			return
		}
		if _, s := sub(1); s == "" || s == "help" {
			return
		}
		c.dotenvLoads(c.args[0].raw+", which reads .env unless -f names another file", false)
	case "env-cmd":
		// env-cmd reads ./.env unless -f or -r names another file
		if has(1, "-f", "--file", "-r", "--rc-file", "--file=", "--rc-file=") {
			return
		}
		c.dotenvLoads(c.args[0].raw+", which reads .env unless -f names another file", false)
	case "honcho", "foreman", "forego", "nf", "overmind":
		// Procfile runners load .env for start and run unless -e/--env
		// names the file
		if _, s := sub(1, "-e", "--env", "-f", "--procfile", "-d", "--app-root", "-p", "--port", "-m", "--formation"); s != "start" && s != "run" && s != "s" && s != "r" {
			return
		}
		if has(1, "-e", "--env", "--env=", "--env-file", "-E") {
			return
		}
		c.dotenvLoads(c.args[0].raw+", which loads .env into what it runs unless -e names another file", false)
	case "heroku":
		if _, s := sub(1); strings.HasPrefix(s, "local") && !has(1, "-e", "--env", "--env=") {
			c.dotenvLoads(c.args[0].raw+" local, which loads .env into what it runs unless -e names another file", false)
		}
	case "just":
		if has(1, "--dotenv-load") && !has(1, "--dotenv-path", "--dotenv-path=", "--dotenv-filename", "--dotenv-filename=") {
			c.dotenvLoads(c.args[0].raw+" --dotenv-load, which loads .env into its recipes", false)
		}
	case "podman-compose":
		if i, _ := sub(1, "-f", "--file", "-p", "--project-name", "--env-file", "--profile"); i > 0 && (words[i] == "config" || words[i] == "convert") {
			c.dotenvLoads(c.args[0].raw+" config, which prints the configuration with .env's values in it", false)
		}
	case "gh":
		// gh auth token, gh auth status -t, gh auth git-credential get
		// print the token gh keeps in hosts.yml
		if i, s := sub(1, "-R", "--repo", "--hostname"); s == "auth" {
			_, s2 := sub(i+1, "-h", "--hostname")
			if s2 == "token" || s2 == "git-credential" || s2 == "status" && has(i+1, "-t", "--show-token") {
				c.a.loadedBy("gh auth "+s2+", which prints the token stored in ~/.config/gh/hosts.yml", c.homePath(".config/gh/hosts.yml"), SetRead)
			}
		}
	case "aws":
		// aws configure get KEY and export-credentials print what
		// ~/.aws/credentials holds
		if i, s := sub(1, "--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-read-timeout", "--cli-connect-timeout", "--ca-bundle", "--color"); s == "configure" {
			if _, s2 := sub(i+1, "--profile"); s2 == "get" || s2 == "export-credentials" {
				c.a.loadedBy("aws configure "+s2+", which prints what ~/.aws/credentials holds", c.homePath(".aws/credentials"), SetRead)
				c.a.loadedBy("aws configure "+s2+", which prints what ~/.aws/config holds", c.homePath(".aws/config"), SetRead)
			}
		}
	case "curl":
		// curl -n/--netrc sends ~/.netrc's login for the host (-v prints
		// the Authorization header it makes of it)
		for _, w := range words[1:] {
			if w == "--netrc" || w == "--netrc-optional" || len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsRune(w[1:], 'n') && !curlShortValued(w) {
				c.a.loadedBy(c.args[0].raw+" --netrc, which sends the login ~/.netrc holds", c.homePath(".netrc"), SetRead)
				break
			}
		}
	}
	switch c.name {
	case "ttyd", "gotty", "shellinaboxd", "tmate", "upterm", "sshx", "wetty":
		// a terminal served to whoever connects: what is typed there is
		// not seen
		c.a.unknown(c.args[0].raw, c.name+" serves a terminal to whoever connects, and the commands typed there are not seen", SetRead|setModify)
	case "websocketd":
		// websocketd [--opts] PROGRAM ARGS: each connection is PROGRAM's
		// stdin and stdout
		if i, prog := sub(1, "--port", "--address", "--staticdir", "--cgidir", "--dir", "--sameorigin", "--origin", "--header", "--header-ws", "--header-http", "--cert", "--key", "--maxforks", "--loglevel", "--passenv", "--redirport"); i > 0 && interpreterReadsStdin(path.Base(prog)) &&
			(i+1 >= len(words) || strings.HasPrefix(words[i+1], "-") && words[i+1] != "-c" && words[i+1] != "-e") {
			c.a.unknown(c.args[i].raw, "websocketd runs "+prog+" with its commands from the connection", SetRead|setModify)
		}
	}
	if pythonFamily(c.name) {
		// python -m dotenv (python-dotenv's CLI) reads .env unless -f
		for i := 1; i+1 < len(words); i++ {
			if words[i] == "-m" && (words[i+1] == "dotenv" || strings.HasPrefix(words[i+1], "dotenv.")) || strings.HasPrefix(words[i], "-mdotenv") {
				if !has(i+1, "-f", "--file", "--file=") {
					c.dotenvLoads(c.args[0].raw+" -m dotenv, which reads .env unless -f names another file", false)
				}
				break
			}
			if !strings.HasPrefix(words[i], "-") {
				break
			}
		}
	}
}

// curlShortValued reports whether a cluster of curl's short options puts
// an `n` inside an option's value (`-onetrc` is -o with "netrc"): the
// letters before the n include one that takes a value.
func curlShortValued(w string) bool {
	j := strings.IndexByte(w, 'n')
	return strings.ContainsAny(w[1:j], "odTFKbcDHwXuAeErQmxUCyYz")
}

func pythonFamily(n string) bool {
	return n == "python" || n == "python2" || n == "python3" || n == "pypy" || n == "pypy3" || n == "py" ||
		strings.HasPrefix(n, "python3.") || strings.HasPrefix(n, "python2.")
}

// dotenvLoads records the dotenv files a runner loads from the folder it
// runs in: `.env`, and with variants, `.env.local`, `.env.$NODE_ENV` and
// `.env.$NODE_ENV.local` (NODE_ENV may be anything: with the disk, every
// `.env.*` the folder holds; without it, the names the default rules list).
func (c *cmd) dotenvLoads(why string, variants bool) {
	a := c.a
	names := []string{".env"}
	if variants {
		names = append(names, ".env.local", ".env.development", ".env.production", ".env.test", ".env.staging",
			".env.development.local", ".env.production.local", ".env.test.local")
	}
	for _, cwd := range a.cwds {
		if a.env.FS == nil || strings.ContainsRune(cwd, unknownRune) || isPatternDir(cwd) {
			// no disk, or a folder the disk cannot answer for: the names,
			// against every candidate folder
			for _, n := range names {
				a.loadedBy(why, litField(n), SetRead)
			}
			return
		}
	}
	for _, cwd := range a.cwds {
		if mayExist(a.env.FS, joinDir(cwd, ".env")) {
			a.loadedBy(why, litField(joinDir(cwd, ".env")), SetRead)
		}
		if !variants {
			continue
		}
		ents, err := a.env.FS.ReadDir(cwd)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			for _, n := range names[1:] {
				a.loadedBy(why, litField(joinDir(cwd, n)), SetRead)
			}
			continue
		}
		for _, e := range ents {
			if n := e.Name(); len(n) > 5 && strings.EqualFold(n[:5], ".env.") {
				a.loadedBy(why, litField(joinDir(cwd, n)), SetRead)
			}
		}
	}
}

// pipfileDotenv: pipenv's project is the nearest folder above the cwd
// (three levels) with a Pipfile; its .env is the one loaded.
func (c *cmd) pipfileDotenv() {
	a := c.a
	if a.env.FS == nil {
		return
	}
	for _, cwd := range a.cwds {
		if strings.ContainsRune(cwd, unknownRune) || isPatternDir(cwd) {
			continue
		}
		d := cwd
		for range 3 {
			if mayExist(a.env.FS, joinDir(d, "Pipfile")) {
				break
			}
			parent := path.Dir(d)
			if parent == d {
				break
			}
			d = parent
			if mayExist(a.env.FS, joinDir(d, "Pipfile")) && mayExist(a.env.FS, joinDir(d, ".env")) {
				a.loadedBy("pipenv, which loads the project's .env into what it runs (PIPENV_DONT_LOAD_ENV=1 pipenv … does not)", litField(joinDir(d, ".env")), SetRead)
				break
			}
		}
	}
}

// mayExist reports whether the disk may hold p: only a "does not exist"
// answer says it does not.
func mayExist(fsys FS, p string) bool {
	_, err := fsys.Lstat(p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// isPatternDir reports whether a candidate directory is a pattern (a cd
// the analysis could not pin).
func isPatternDir(d string) bool { return strings.ContainsAny(d, "*?[{\\") }

// cmdEnvValue is the value the command's own environment assignments
// (`X=1 prog`, `env X=1 prog`) give name, the last one counting.
func (a *shellAnalyzer) cmdEnvValue(name string) (string, bool) {
	for i := len(a.cmdEnvNames) - 1; i >= 0; i-- {
		if a.cmdEnvNames[i] == name && i < len(a.cmdEnv) {
			return a.cmdEnv[i], true
		}
	}
	return "", false
}

// homePath is a file below the home folder, as a field (`~/rel` when the
// home is not known: it then names no rule's path).
func (c *cmd) homePath(rel string) field {
	if h := c.a.env.Home; h != "" {
		return litField(joinDir(h, rel))
	}
	return litField("~/" + rel)
}

// userShell checks a command line a program hands to the user's own shell
// ($SHELL, or the login shell: script -c, flock -c, entr -s, sudo -s, su
// -c, tmux and screen commands, ssh to this machine). The analysis reads
// it as bash; the user's shell may be fish, which takes `\'` inside single
// quotes as a quote (echo 'x\' '; cat .env #' runs cat there). A line
// that fish would split elsewhere than bash is unverifiable.
func (a *shellAnalyzer) userShell(raw, text, what string) {
	if fishQuoteSplit(text) {
		a.unknown(raw, what+" runs the command line with the user's shell, which may be fish: a single-quoted part that ends in a backslash is read differently there (fish takes \\' as a quote); leave the backslash out, or run it with bash -c", SetRead|setModify)
	}
}

// fishQuoteSplit reports whether a bash command line holds a single-quoted
// part ending in an odd run of backslashes: bash ends the quote at the
// next `'`, fish does not.
func fishQuoteSplit(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return false
			}
			end := i + 1 + j
			n := 0
			for k := end - 1; k > i && s[k] == '\\'; k-- {
				n++
			}
			if n%2 == 1 {
				return true
			}
			i = end
		}
	}
	return false
}

// packers: npm pack and publish (pnpm, yarn, bun pm pack, bun publish,
// cargo package and publish alike) put every file of the package folder
// that their ignore rules leave in into a tarball, or upload it: a
// recursive read of the folder (the cwd, or a folder operand), hidden
// names included, without version-control folders. What .gitignore surely
// ignores is left out — unless an .npmignore, which replaces .gitignore
// for npm, may be there.
func (c *cmd) packers(words []string, sub func(int, ...string) (int, string)) {
	i, s := sub(1, "--workspace", "-w", "--registry", "--tag", "--access", "--otp", "--pack-destination", "--filter", "-F", "--dir", "-C", "--prefix",
		"--manifest-path", "--package", "-p", "--target", "--target-dir", "--index", "--token", "--features", "-j", "--jobs", "--cwd")
	via := ""
	switch c.name {
	case "npm", "pnpm":
		if s == "pack" || s == "publish" {
			via = c.name + " " + s
		}
	case "yarn":
		if s == "pack" || s == "publish" {
			via = "yarn " + s
		} else if s == "npm" {
			if _, s2 := sub(i + 1); s2 == "publish" {
				via = "yarn npm publish"
			}
		}
	case "bun":
		if s == "publish" {
			via = "bun publish"
		} else if s == "pm" {
			if _, s2 := sub(i + 1); s2 == "pack" {
				via = "bun pm pack"
			}
		}
	case "cargo":
		if s == "package" || s == "publish" {
			via = "cargo " + s
		}
	}
	if via == "" {
		return
	}
	var dirs []int
	if c.name == "npm" || c.name == "pnpm" || c.name == "yarn" && s != "npm" {
		// npm publish DIR / npm pack DIR; a tarball or a package spec
		// (npm pack react) packs no folder of the disk
		valued := map[string]bool{"--access": true, "--tag": true, "--otp": true, "--registry": true, "--workspace": true, "-w": true,
			"--pack-destination": true, "--filter": true, "-F": true, "--dir": true, "-C": true, "--prefix": true, "--out": true, "--publish-branch": true,
			"--provenance-file": true, "--cwd": true}
		for k := i + 1; k < len(words); k++ {
			if valued[words[k-1]] {
				continue
			}
			if w := words[k]; !strings.HasPrefix(w, "-") {
				if !strings.HasSuffix(w, ".tgz") && (strings.ContainsAny(w, "./") || c.args[k].f.pattern()) {
					dirs = append(dirs, k)
				} else {
					return
				}
			} else if w == "--" {
				break
			}
		}
	}
	ignores := true
	if c.name != "cargo" {
		for _, t := range c.a.out.targets {
			// an .npmignore the command wrote (or may have: a computed
			// name) replaces .gitignore
			if base := t.path[strings.LastIndexByte(t.path, '/')+1:]; t.ops&setModify != 0 && !t.rec &&
				(strings.EqualFold(base, ".npmignore") || t.pattern && strings.ContainsAny(base, "*?["+unknownStr)) {
				ignores = false
			}
		}
		for _, cwd := range c.a.cwds {
			if c.a.env.FS != nil && (strings.ContainsRune(cwd, unknownRune) || mayExist(c.a.env.FS, joinDir(cwd, ".npmignore"))) {
				ignores = false
			}
		}
	}
	rec := func(raw string, f field) {
		if c.a.env.FS == nil && !ignores {
			// without the disk, after the command wrote an .npmignore:
			// hidden names are packed (npm skips none by itself)
			c.a.addRec(raw, f, SetRead, true, nil, via, followNone)
			return
		}
		// without the disk, as for git add: taken to skip hidden names
		c.a.addRecVCS(raw, f, SetRead, ignores, via)
	}
	if len(dirs) == 0 {
		rec(".", litField("."))
		return
	}
	for _, k := range dirs {
		rec(c.args[k].raw, c.args[k].f)
	}
}

// credentialWriters: subcommands that write a credential store the rules
// protect by themselves (a login replaces the token, a logout removes it,
// a pull writes a dotenv file): gh auth login/logout/refresh/switch
// (hosts.yml), aws configure set/import and aws configure alone
// (~/.aws/credentials), heroku login/logout (~/.netrc; heroku auth:token
// prints what it holds), vercel env pull (.env.local, or the file named),
// vercel pull (.vercel/.env.$ENV.local), dotenv-vault pull (.env).
func (c *cmd) credentialWriters(words []string, sub func(int, ...string) (int, string)) {
	a := c.a
	switch c.name {
	case "gh":
		if i, s := sub(1, "-R", "--repo", "--hostname"); s == "auth" {
			switch _, s2 := sub(i+1, "-h", "--hostname", "-p", "--git-protocol", "-s", "--scopes", "-u", "--user"); s2 {
			case "login", "logout", "refresh", "switch":
				a.loadedBy("gh auth "+s2+", which writes the token in ~/.config/gh/hosts.yml", c.homePath(".config/gh/hosts.yml"), SetRead|setModify)
			}
		}
	case "aws":
		if i, s := sub(1, "--profile", "--region", "--output", "--endpoint-url"); s == "configure" {
			switch _, s2 := sub(i+1, "--profile"); s2 {
			case "set", "import", "":
				a.loadedBy("aws configure"+strings.TrimRight(" "+s2, " ")+", which writes ~/.aws/credentials", c.homePath(".aws/credentials"), SetRead|setModify)
				a.loadedBy("aws configure"+strings.TrimRight(" "+s2, " ")+", which writes ~/.aws/config", c.homePath(".aws/config"), SetRead|setModify)
			}
		}
	case "heroku":
		switch _, s := sub(1); s {
		case "login", "logout", "auth:login", "auth:logout":
			a.loadedBy("heroku "+s+", which writes the login in ~/.netrc", c.homePath(".netrc"), SetRead|setModify)
		case "auth:token":
			a.loadedBy("heroku auth:token, which prints the token ~/.netrc holds", c.homePath(".netrc"), SetRead)
		}
	case "vercel", "vc":
		i, s := sub(1, "--cwd", "--scope", "-S", "--token", "-t", "-A", "--local-config", "-Q", "--global-config", "--environment", "--git-branch")
		if s == "env" {
			if k, s2 := sub(i+1, "--environment", "--git-branch"); s2 == "pull" {
				if f, file := sub(k+1, "--environment", "--git-branch", "--cwd", "--scope", "--token", "-t"); f > 0 {
					_ = file
					c.file(f, SetRead|setModify)
				} else {
					a.loadedBy("vercel env pull, which writes .env.local", litField(".env.local"), SetRead|setModify)
				}
			}
		} else if s == "pull" {
			env := "development"
			for k, w := range words {
				if v, ok := strings.CutPrefix(w, "--environment="); ok {
					env = v
				} else if w == "--environment" && k+1 < len(words) {
					env = words[k+1]
				} else if w == "--prod" {
					env = "production"
				}
			}
			a.loadedBy("vercel pull, which writes .vercel/.env."+env+".local", litField(".vercel/.env."+env+".local"), SetRead|setModify)
		}
	case "dotenv-vault":
		if _, s := sub(1); s == "pull" {
			if f, _ := sub(2); f > 0 {
				c.file(f, SetRead|setModify)
			} else {
				a.loadedBy("dotenv-vault pull, which writes .env", litField(".env"), SetRead|setModify)
			}
		}
	}
}
