package guard

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// codeNamesFS is a project with a .env, a .git folder and a src folder that
// holds nothing protected, and a home with an ssh key.
func codeNamesFS() FS {
	return linkFS(map[string]string{
		tCwd + "/.env":                  "KEY=secret",
		tCwd + "/.git/config":           "[core]",
		tCwd + "/.git/HEAD":             "ref: refs/heads/main",
		tCwd + "/src/main.go":           "package main",
		tCwd + "/src/app.py":            "print(1)",
		tCwd + "/src/lib/util.js":       "module.exports = 1",
		tCwd + "/README.md":             "# proj",
		tCwd + "/package.json":          "{}",
		tCwd + "/node_modules/x/i.js":   "1",
		tHome + "/.ssh/id_rsa":          "KEY",
		tHome + "/.pi/agent/auth.json":  "{}",
		tHome + "/notes/todo.txt":       "x",
		tHome + "/proj-other/README.md": "x",
	}, nil)
}

// codeNamesAttacks read protected content through names the code finds at
// run time: globs, listings and walks, whole-folder copies.
var codeNamesAttacks = []string{
	// python: globs
	`python3 -c "import glob;print(open(glob.glob('.e*')[0]).read())"`,
	`python3 -c "from glob import glob;print(open(glob('.en?')[0]).read())"`,
	`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('.[e]nv')]"`,
	`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('.[!x]nv')]"`,
	`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('*', include_hidden=True)]"`,
	`python3 -c "import glob;[print(open(f).read()) for f in glob.iglob('**', recursive=True)]"`,
	`python3 -c "import glob;[print(open(f).read()) for f in glob.glob('.git/*')]"`,
	`python3 -c "import pathlib;[print(p.read_text()) for p in pathlib.Path('.').glob('.*')]"`,
	`python3 -c "from pathlib import Path;[print(p.read_bytes()) for p in Path('.').rglob('*')]"`,
	`python3 -c "import os,fnmatch;[print(open(f).read()) for f in os.listdir('.') if fnmatch.fnmatch(f,'.e*')]"`,
	`python3 -c "import glob;print(open(glob.glob('sub/../.e*')[0]).read())"`,
	`python3 -c "import glob,os;print(open(glob.glob(os.path.expanduser('~/.ss?/id_*'))[0]).read())"`,
	`python3 -c "import glob,os;print([open(f).read() for f in glob.glob(os.path.join(os.path.expanduser('~/.pi'), '**/*.json'), recursive=True)])"`,
	`python3 -c "import glob,os;print([open(f).read() for f in glob.glob(os.path.join('~', '.ssh', 'id_*'))])"`,
	`node -e "const glob=require('glob');const fs=require('fs');const p=process.argv[1]||'.e*';glob.sync(p,{dot:true}).forEach(f=>console.log(fs.readFileSync(f,'utf8')))"`,
	`python3 -c "print(open(f'{chr(46)}{\"env\"}').read())"`,
	`python3 -c "print(open(f'{\".e\" + \"nv\"}').read())"`,
	"node -e 'console.log(require(\"fs\").readFileSync(`${\".e\"}${\"nv\"}`, \"utf8\"))'",
	`ruby -e 'puts File.read("#{46.chr}#{"env"}")'`,
	// python: listings and walks
	`python3 -c "import os;[print(open(f).read()) for f in os.listdir('.') if f.startswith('.e')]"`,
	`python3 -c "import os;[print(open(f).read()) for f in os.listdir() if os.path.isfile(f)]"`,
	`python3 -c "import os;[print(open(e.path).read()) for e in os.scandir() if e.is_file()]"`,
	`python3 -c "import os;[print(open(os.path.join(r,f)).read()) for r,d,fs in os.walk('.') for f in fs]"`,
	`python3 -c "import os;[print(open(os.path.join(r,f)).read()) for r,d,fs in os.walk(os.getcwd()) for f in fs]"`,
	`python3 -c "from pathlib import Path;[print(p.read_text()) for p in Path().iterdir() if p.is_file()]"`,
	`python3 -c "from pathlib import Path;[print(p.read_text()) for p in Path.cwd().iterdir() if p.is_file()]"`,
	`python3 -c "import os;[os.system('cat '+f) for f in os.listdir('.')]"`,
	`python3 -c "import os,subprocess;[subprocess.run(['cat',f]) for f in os.listdir(os.getcwd())]"`,
	`python3 -c "import os;d=os.path.expanduser('~');[print(open(os.path.join(d,r,f)).read()) for r,_,fs in os.walk(d) for f in fs]"`,
	`python3 -c "import os;print([open(f).read() for f in os.listdir('..')])"`,
	`python3 -c "from pathlib import Path;[print(p.read_text()) for p in Path.home().iterdir() if p.is_file()]"`,
	`python3 -c "import os;[print(open(f).read()) for f in os.listdir('/home/user/proj')]"`,
	`python3 -c "import os;[print(open(f).read()) for f in os.listdir(os.path.expanduser('~/.ssh'))]"`,
	`python3 -c "import os;os.chdir('..');print([open(f).read() for f in os.listdir()])"`,
	`python3 -c "import os;[os.remove(f) for f in os.listdir('.')]"`,
	`python3 -c "import os;[os.rename(f,f+'.bak') for f in os.listdir('.')]"`,
	"python3 - <<'EOF'\nimport os\nfor f in os.listdir('.'):\n    if os.path.isfile(f):\n        print(open(f).read())\nEOF",
	`echo "import os;[print(open(f).read()) for f in os.listdir('.')]" | python3`,
	`python3 -c "import os;ls=os.listdir;[print(open(f).read()) for f in ls('.')]"`,
	`python3 -c "from os import listdir as ls;[print(open(f).read()) for f in ls('.')]"`,
	`python3 -c "import os;[print(open(f).read()) for f in getattr(os, 'list' + 'dir')('.')]"`,
	`node -e "const {readdirSync: r, readFileSync: c} = require('fs');for (const f of r('.')) try { console.log(c(f, 'utf8')) } catch {}"`,
	`node -e "const fs=require('fs');for (const f of fs['readdir'+'Sync']('.')) try { console.log(fs.readFileSync(f, 'utf8')) } catch {}"`,
	`cmd /c "for /f %f in ('dir /b /a') do type %f"`,
	`python3 -c "exec(\"import os\\nfor f in os.listdir('.'): print(open(f).read())\")"`,
	`node -e "eval(\"const fs=require('fs');fs.readdirSync('.').forEach(f=>{try{console.log(fs.readFileSync(f,'utf8'))}catch(e){}})\")"`,
	`python3 -c "import os;[print(open(f).read()) for f in os.listdir(path='.')]"`,
	`python3 -c "import os;d=os.getcwd();[print(open(f).read()) for f in os.listdir(f'{d}')]"`,
	`python3 -c "import os;[print(open(f).read()) for f in os.listdir(b'.')]"`,
	// python: whole-folder copies
	`python3 -c "import shutil;shutil.copytree('.', '/tmp/x')"`,
	`python3 -c "import shutil;shutil.copytree('..', '/tmp/x')"`,
	`python3 -c "import shutil;shutil.make_archive('/tmp/x', 'zip', '.')"`,
	`python3 -c "import shutil;shutil.make_archive('/tmp/x', 'zip')"`,
	`python3 -c "import tarfile;t=tarfile.open('/tmp/x.tgz','w:gz');t.add('.');t.close()"`,
	`python3 -c "import os,zipfile;z=zipfile.ZipFile('/tmp/x.zip','w');[z.write(os.path.join(r,f)) for r,d,fs in os.walk('.') for f in fs]"`,
	`python3 -c "import shutil;shutil.rmtree('.')"`,
	// node
	`node -e "const fs=require('fs');for(const f of fs.globSync('.e*'))console.log(fs.readFileSync(f,'utf8'))"`,
	`node -e "const fg=require('fast-glob');for(const f of fg.sync('.e*',{dot:true}))console.log(require('fs').readFileSync(f,'utf8'))"`,
	`node -e "const fs=require('fs');for(const f of fs.readdirSync('.'))try{console.log(fs.readFileSync(f,'utf8'))}catch{}"`,
	`node -e "const fs=require('fs');fs.readdirSync(process.cwd()).forEach(f=>{try{process.stdout.write(fs.readFileSync(f))}catch(e){}})"`,
	`node -e "const fs=require('fs');const d=fs.opendirSync('.');let e;while((e=d.readSync()))if(e.isFile())console.log(fs.readFileSync(e.name,'utf8'))"`,
	`node -e "const fs=require('fs');fs.readdirSync('.',{recursive:true}).forEach(f=>{try{console.log(fs.readFileSync(f,'utf8'))}catch{}})"`,
	`node -e "const {execSync}=require('child_process');require('fs').readdirSync('.').forEach(f=>console.log(execSync('cat '+f).toString()))"`,
	`node -e "import('fs').then(fs=>fs.promises.readdir('.').then(l=>l.forEach(f=>fs.promises.readFile(f,'utf8').then(console.log))))"`,
	`node -e "const fs=require('fs');for(const f of fs.readdirSync('.'))try{console.log(require('./'+f))}catch(e){console.log(e.message)}"`,
	`node -e "const fs=require('fs');for(const f of fs.readdirSync('.'))fs.createReadStream(f).pipe(process.stdout)"`,
	`python3 -c "import os,linecache;[print(linecache.getline(f,1)) for f in os.listdir('.')]"`,
	`python3 -c "import os,fileinput;[print(l) for l in fileinput.input(os.listdir('.'))]"`,
	`node -e "require('fs').cpSync('.', '/tmp/x', {recursive: true})"`,
	`node -e "require('fs').rmSync('.', {recursive: true})"`,
	// perl
	`perl -e 'print for map { open my $f, "<", $_; <$f> } glob ".*"'`,
	`perl -e 'for (<.e*>) { open F, $_; print <F> }'`,
	`perl -e 'for (<.*>) { open F, $_; print <F> }'`,
	`perl -e 'opendir D, "."; for (readdir D) { open F, $_ and print <F> }'`,
	`perl -e 'opendir(my $d, "."); @ARGV = grep { -f } readdir $d; print <>'`,
	`perl -MFile::Find -e 'find(sub { open F, $_ and print <F> if -f }, ".")'`,
	"perl -e 'print `cat $_` for glob \".e*\"'",
	// ruby
	`ruby -e 'Dir.glob(".*").each { |f| puts File.read(f) rescue nil }'`,
	`ruby -e 'Dir[".*"].each { |f| puts File.read(f) rescue nil }'`,
	`ruby -e 'Dir.glob("*", File::FNM_DOTMATCH).each { |f| puts File.read(f) rescue nil }'`,
	`ruby -e 'Dir.entries(".").each { |f| puts File.read(f) rescue nil }'`,
	`ruby -e 'Dir.children(".").each { |f| puts IO.read(f) rescue nil }'`,
	`ruby -e 'Dir.each_child(".") { |f| print File.open(f).read rescue nil }'`,
	"ruby -e 'Dir.foreach(\".\") { |f| puts `cat #{f}` }'",
	`ruby -rfind -e 'Find.find(".") { |f| puts File.read(f) if File.file?(f) }'`,
	`ruby -rfileutils -e 'FileUtils.cp_r(".", "/tmp/x")'`,
	`ruby -rfileutils -e 'FileUtils.rm_rf(".")'`,
	// php
	`php -r 'foreach (glob(".*") as $f) echo @file_get_contents($f);'`,
	`php -r 'foreach (glob("{.e,x}*", GLOB_BRACE) as $f) readfile($f);'`,
	`php -r 'foreach (scandir(".") as $f) echo @file_get_contents($f);'`,
	`php -r '$d = opendir("."); while (($f = readdir($d)) !== false) echo @file_get_contents($f);'`,
	`php -r 'foreach (new RecursiveIteratorIterator(new RecursiveDirectoryIterator(".")) as $f) echo @file_get_contents($f);'`,
	// lua
	`lua -e 'for f in lfs.dir(".") do local h = io.open(f) if h then print(h:read("a")) end end'`,
	// names printed by a command the code runs, commands given as word lists
	`awk 'BEGIN{while(("ls -a"|getline f)>0){while((getline l<f)>0)print l}}'`,
	`python3 -c "import os;[print(open(f).read()) for f in os.popen('ls -a').read().split()]"`,
	"ruby -e '`ls -a`.split.each { |f| puts File.read(f) rescue nil }'",
	`php -r 'exec("ls -a", $o); foreach ($o as $f) echo @file_get_contents($f);'`,
	`python3 -c "import subprocess;subprocess.run(['grep','-r','KEY','.'])"`,
	`python3 -c "import subprocess;subprocess.run(['tar','czf','/tmp/x.tgz','.'])"`,
	`python3 -c "import subprocess;subprocess.run(['cat','.e'+'nv'])"`,
	`node -e "require('child_process').execFileSync('grep', ['-r', 'KEY', '.'], {stdio: 'inherit'})"`,
	`node -e "require('tar').c({file: '/tmp/x.tgz'}, ['.'])"`,
	`cmd /c "for %f in (*) do type %f"`,
	`python3 -c "import glob;print(open(glob.glob('.e' + '*')[0]).read())"`,
	// PowerShell wildcards and listings
	`pwsh -Command "Get-Content .e*"`,
	`pwsh -Command "Get-ChildItem -Force | Get-Content"`,
	`pwsh -Command "Get-ChildItem -Force -Recurse -File | ForEach-Object { Get-Content $_ }"`,
}

// codeNamesBenign is everyday code the found-names reading must allow:
// listings printed (names are not content), globs that cannot reach a
// protected name, reads and copies of clean folders.
var codeNamesBenign = []string{
	`python3 -c "import os; print(os.listdir('.'))"`,
	`python3 -c "import os; print(sorted(os.listdir()))"`,
	`python3 -c "import os; [print(e.name) for e in os.scandir('.')]"`,
	`python3 -c "import os; print([r for r, d, f in os.walk('.')])"`,
	`python3 -c "from pathlib import Path; print(list(Path('.').iterdir()))"`,
	`python3 -c "import glob; print(glob.glob('*.py'))"`,
	`python3 -c "import glob; [print(open(f).read()) for f in glob.glob('src/*.go')]"`,
	`python3 -c "import json, glob; [print(json.load(open(f))['name']) for f in glob.glob('*.md')]"`,
	`python3 -c "print(open('README.md').read())"`,
	`python3 -c "print('*' * 10)"`,
	`python3 -c "import re; print(re.findall(r'.*env', open('README.md').read()))"`,
	`python3 -c "import os; [print(open(os.path.join('src', f)).read()) for f in os.listdir('src') if f.endswith('.py')]"`,
	`python3 -c "import shutil; shutil.copytree('src', '/tmp/src-copy')"`,
	`node -e "console.log(require('fs').readdirSync('src'))"`,
	`node -e "console.log(require('fs').readdirSync('.'))"`,
	`node -e "const fs=require('fs');for(const f of fs.readdirSync('src'))if(f.endsWith('.go'))console.log(fs.readFileSync('src/'+f,'utf8').length)"`,
	`node -e "require('fs').cpSync('src', '/tmp/x', {recursive: true})"`,
	`node -e "console.log(Object.entries(require('./package.json')).length)"`,
	`ruby -e 'puts Dir.glob("*.rb")'`,
	`ruby -e 'puts Dir.children("src")'`,
	`ruby -e 'puts Dir.entries(".").sort'`,
	`php -r 'print_r(scandir("."));'`,
	`perl -e 'opendir D, "."; print join("\n", readdir D)'`,
	`python3 -c "import glob; print(glob.glob('**/*.go', recursive=True))"`,
	`python3 -c "import glob; [print(open(f).read()) for f in glob.glob('src/**/*.js', recursive=True)]"`,
	`node -e "const fs=require('fs');console.log(fs.globSync('src/*.go').map(f=>fs.readFileSync(f,'utf8')))"`,
	`perl -e 'print "=" x 40, "\n"'`,
	`pwsh -Command "Get-ChildItem src"`,
	`python3 -c "import ast; t = ast.parse(open('src/app.py').read()); print(len(list(ast.walk(t))))"`,
	`python3 -c "import os, json; print(json.dumps(os.listdir('.')))"`,
	`python3 -c "from pathlib import Path; [print(p.read_text()) for p in Path('src').rglob('*.py')]"`,
	`node -e "const s='a,b'; console.log(s.replace(',', ' '), require('fs').readdirSync('.'))"`,
	`python3 -c "import subprocess; print(subprocess.run(['ls', '-la'], capture_output=True).stdout.decode())"`,
	`ruby -e 'Dir.children("src").each { |f| puts File.read(File.join("src", f)) }'`,
	`python3 -c "import subprocess; subprocess.run(['grep', '-rn', 'TODO', 'src'])"`,
	`python3 -c "import subprocess; print(subprocess.check_output(['git', 'status']).decode())"`,
	`node -e "require('child_process').execFileSync('ls', ['-la'], {stdio: 'inherit'})"`,
	`awk '{print $1}' README.md`,
	`python3 -c "x = 1; print(f'{x}')"`,
	`python3 -c "d = {'a': 1}; [print(f'{k}: {v}') for k, v in d.items()]"`,
	`perl -e 'for (1..3) { print "$_\n" }'`,
	`ruby -e 'x = 1; puts "#{x}"'`,
	"node -e 'const x = 1; console.log(`${x}`)'",
	`node -e "const glob=require('glob');const fs=require('fs');glob.sync('src/*.go').forEach(f=>console.log(fs.readFileSync(f,'utf8')))"`,
}

// TestCodeFoundNames: interpreter code that finds names at run time (a
// glob, a listing or walk whose names it reads, a copy of a folder) reads
// what it may find, with and without the file system; listings printed and
// globs that cannot reach a protected name stay allowed.
func TestCodeFoundNames(t *testing.T) {
	for _, withFS := range []bool{false, true} {
		env := Env{Cwd: tCwd, Home: tHome}
		where := "without the disk"
		if withFS {
			env.FS = codeNamesFS()
			where = "with the disk"
		}
		m := DefaultRules().Matcher(env)
		for _, c := range codeNamesAttacks {
			if k, _ := kindOf(m, c); k == "" {
				t.Errorf("%s: attack allowed: %s", where, c)
			}
		}
		for _, c := range codeNamesBenign {
			if k, why := kindOf(m, c); k != "" {
				t.Errorf("%s: benign code denied: %s\n    %s", where, c, why)
			}
		}
	}
}

// TestCodeFoundNamesClean: on the disk, the same walks and copies of a
// folder that holds nothing protected are allowed: the folder is searched,
// not refused by its shape.
func TestCodeFoundNamesClean(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd + "/src", Home: tHome, FS: codeNamesFS()})
	for _, c := range []string{
		`python3 -c "import os;[print(open(os.path.join(r,f)).read()) for r,d,fs in os.walk('.') for f in fs]"`,
		`python3 -c "import shutil;shutil.copytree('.', '/tmp/x')"`,
		`node -e "const fs=require('fs');for(const f of fs.readdirSync('.'))try{console.log(fs.readFileSync(f,'utf8'))}catch{}"`,
		`ruby -e 'Dir.children(".").each { |f| puts File.read(f) rescue nil }'`,
		`php -r 'foreach (scandir(".") as $f) echo @file_get_contents($f);'`,
	} {
		if k, why := kindOf(m, c); k != "" {
			t.Errorf("clean folder denied: %s\n    %s", c, why)
		}
	}
}

// TestCodeFoundNamesReasons: a found-names finding says which API lists or
// copies which folder, and what the folder holds; on the disk, a listed
// folder below the cwd counts by what it really holds.
func TestCodeFoundNamesReasons(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome, FS: codeNamesFS()})
	for cmd, want := range map[string][]string{
		`python3 -c "import os;[print(open(f).read()) for f in os.listdir('.')]"`:                  {"listdir", tCwd, ".env"},
		`python3 -c "import shutil;shutil.copytree('..', '/tmp/x')"`:                               {"copytree", tHome, "reads every file below"},
		`node -e "require('fs').rmSync('.', {recursive: true})"`:                                   {"rmSync", "writes files below"},
		`python3 -c "import os;[print(open(f).read()) for f in os.popen('ls -a').read().split()]"`: {"names ls prints"},
		`python3 -c "import glob;print(open(glob.glob('.e*')[0]).read())"`:                         {".e*", ".env"},
	} {
		k, why := kindOf(m, cmd)
		if k == "" {
			t.Errorf("%s: allowed", cmd)
			continue
		}
		for _, w := range want {
			if !strings.Contains(why, w) {
				t.Errorf("%s: reason %q lacks %q", cmd, why, w)
			}
		}
	}
	sub := linkFS(map[string]string{"/p/sub/.env": "KEY=1", "/p/clean/a.py": "x"}, nil)
	for _, c := range []struct {
		cmd    string
		withFS bool
		deny   bool
	}{
		{`python3 -c "import os;[print(open('sub/'+f).read()) for f in os.listdir('sub')]"`, true, true},
		{`python3 -c "import os;[print(open('sub/'+f).read()) for f in os.listdir('sub')]"`, false, false}, // the rules: bare names live at the cwd
		{`python3 -c "import os;[print(open('clean/'+f).read()) for f in os.listdir('clean')]"`, true, false},
	} {
		env := Env{Cwd: "/p", Home: "/h"}
		if c.withFS {
			env.FS = sub
		}
		if k, why := kindOf(DefaultRules().Matcher(env), c.cmd); (k != "") != c.deny {
			t.Errorf("%s (disk %v): got %q, want deny %v (%s)", c.cmd, c.withFS, k, c.deny, why)
		}
	}
}

// TestCodeFoundNamesWindows: the working directory a listing defaults to,
// and the globs, on a Windows cwd.
func TestCodeFoundNamesWindows(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: `C:\Users\u\proj`, Home: `C:\Users\u`})
	runShell(t, m, []shellCase{
		{`python -c "import os;[print(open(f).read()) for f in os.listdir(os.getcwd())]"`, KindFolder},
		{`python -c "import glob;print(open(glob.glob('.e*')[0]).read())"`, KindDeny},
		{`pwsh -Command "Get-ChildItem -Force | Get-Content"`, KindFolder},
		{`python -c "import os; print(os.listdir('.'))"`, ""},
	})
}

// FuzzCodeFoundNames: code that lists the working directory, spelt any way
// the fuzzer finds ('.', './', 'src/..', ”, …), and opens what it finds is
// denied in every language; any code at all never panics the reading.
func FuzzCodeFoundNames(f *testing.F) {
	for _, s := range []string{".", "./", "src/..", "", "src/lib/../..", ".//", "x/../."} {
		f.Add(s)
	}
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	forms := []string{
		`python3 -c "import os;[print(open(f).read()) for f in os.listdir('%s')]"`,
		`python3 -c "import shutil;shutil.copytree('%s', '/tmp/x')"`,
		`node -e "const fs=require('fs');for(const f of fs.readdirSync('%s'))console.log(fs.readFileSync(f,'utf8'))"`,
		`ruby -e 'Dir.entries("%s").each { |f| puts File.read(f) }'`,
		`php -r 'foreach (scandir("%s") as $f) echo file_get_contents($f);'`,
	}
	f.Fuzz(func(t *testing.T, dir string) {
		for _, lang := range []string{"python3 -c", "node -e", "perl -e", "ruby -e", "php -r", "pwsh -Command"} {
			kindOf(m, lang+" '"+strings.ReplaceAll(dir, "'", "")+"'") // never panics
		}
		if dir == "" || strings.HasPrefix(dir, "/") {
			return // no folder (an error in every language), or not relative
		}
		segs := strings.Split(dir, "/")
		depth := 0
		for _, s := range segs {
			switch {
			case s == "" || s == ".":
			case s == "..":
				depth--
			case strings.ContainsAny(s, "'\"\\$`{}*?[%\x00\n#") || !utf8.ValidString(s) || strings.TrimSpace(s) != s:
				return
			default:
				depth++
			}
			if depth < 0 {
				return
			}
		}
		if depth != 0 {
			return // not the working directory
		}
		for _, form := range forms {
			if k, _ := kindOf(m, fmt.Sprintf(form, dir)); k == "" {
				t.Errorf("allowed: %s", fmt.Sprintf(form, dir))
			}
		}
	})
}
