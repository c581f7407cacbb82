package guard

import "testing"

// TestCodeComputedNames: interpreter code that makes a file name, or code
// to run, when it runs — from its arguments, stdin or environment, or with a
// string operation the code reading does not evaluate — is unverifiable;
// the same code on plain literals is read as before. Also the spellings the
// shell and the interpreters decode before the code sees a name: a
// backslash at a line's end inside a string, an unquoted here-document's
// backslashes.
func TestCodeComputedNames(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		// names from the arguments, stdin, the environment
		{`python3 -c 'import sys; print(open(sys.argv[1]+sys.argv[2]).read())' .e nv`, KindUnverifiable},
		{`python3 -c 'import sys;s=sys.argv[1]+sys.argv[2];print(open(s).read())' .e nv`, KindUnverifiable},
		{`python3 -c 'import sys,os; os.remove(sys.argv[1]+sys.argv[2])' .e nv`, KindUnverifiable},
		{`python3 -c 'print(open(input()+"nv").read())' <<< .e`, KindUnverifiable},
		{`A=.e node -p 'require("fs").readFileSync(process.env.A+"nv","utf8")'`, KindUnverifiable},
		{`node -e 'const fs=require("fs");fs.unlinkSync(process.argv[1]+process.argv[2])' .e nv`, KindUnverifiable},
		{`ruby -e 'puts File.read(ARGV[0]+ARGV[1])' .e nv`, KindUnverifiable},
		{`perl -e 'open(F,$ARGV[0].$ARGV[1]); print <F>' .e nv`, KindUnverifiable},
		{`php -r 'echo file_get_contents($argv[1].$argv[2]);' .e nv`, KindUnverifiable},
		{`awk -v f=.e 'BEGIN{while((getline l < (f "nv"))>0) print l}'`, KindUnverifiable},
		{`awk 'BEGIN{getline < ARGV[1]; print}' .e`, KindUnverifiable},
		// names made with string operations the reading does not evaluate
		{`python3 -c "print(open('%senv' % '.').read())"`, KindUnverifiable},
		{`python3 -c "s='.eXnv'.replace('X','');print(open(s).read())"`, KindUnverifiable},
		{`python3 -c "print(open('.env1'[:-1]).read())"`, KindUnverifiable},
		{`python3 -c "import codecs;print(open(codecs.decode('.rai','rot13')).read())"`, KindUnverifiable},
		{`node -e "console.log(require('fs').readFileSync('x.env'.substring(1),'utf8'))"`, KindUnverifiable},
		{`ruby -e "puts File.read('.eXnv'.delete('X'))"`, KindUnverifiable},
		// a path object whose name a method makes, read by a method
		{`python3 -c "from pathlib import Path;print(Path('x.env').with_stem('').read_text())"`, KindUnverifiable},
		{`python3 -c "from pathlib import Path;p=Path('a.txt').with_name('x');print(p.read_bytes())"`, KindUnverifiable},
		{`python3 -c "from pathlib import Path;print(Path('.eXnv'.replace('X','')).read_text())"`, KindUnverifiable},
		{`python3 -c "import pathlib;print(pathlib.Path('README.md').read_text().strip())"`, ""},
		{`python3 -c "import pathlib;print(pathlib.Path('README.md').read_text().replace('a','b'))"`, ""},
		{`python3 -c "import pathlib;t=pathlib.Path('src/a.py').read_text();print(t.split())"`, ""},
		// code made when it runs
		{`python3 -c "import base64;exec(base64.b32decode('X'))"`, KindUnverifiable},
		{`node -e "eval(Buffer.from('x','base64').toString())"`, KindUnverifiable},
		{`python3 -c "exec(open('x.py').read())"`, KindUnverifiable},
		// node's built-in .env loader, deno's --env-file without a value
		{`node -e 'process.loadEnvFile(); console.log(process.env.SECRET)'`, KindDeny},
		{`deno run --env-file main.ts`, KindDeny},
		{`deno run --env main.ts`, KindDeny},
		// a backslash at the end of a line inside a string continues it
		{"python3 -c 'print(open(\".e\\\nnv\").read())'", KindDeny},
		{"python3 <<'E'\nprint(open(\".e\\\nnv\").read())\nE", KindDeny},
		{"node -e 'console.log(require(\"fs\").readFileSync(\".e\\\nnv\",\"utf8\"))'", KindDeny},
		// an unquoted here-document: the shell turns \\ into \ first
		{"python3 <<E\nprint(open(\".e\\\\x6ev\").read())\nE", KindDeny},
		{"python3 <<'E'\nprint(open(\".e\\\\x6ev\").read())\nE", ""}, // python sees \\x6e: a backslash
		{"python3 <<\\E\nprint(open(\".e\\\\x6ev\").read())\nE", ""},
		// everyday code
		{`python3 -c "import json; d=json.load(open('package.json')); print(d['version'])"`, ""},
		{`python3 -c "print(open('README.md').read().strip().upper())"`, ""},
		{`python3 -c "import os; print(open(os.path.join('src','a.py')).read().strip())"`, ""},
		{`python3 -c "x='%d items' % 3; print(x)"`, ""},
		{`curl -s https://example.com/x.json | python3 -c "import json,sys; print(json.load(sys.stdin)['x'])"`, ""},
		{`python3 -c 'import sys; print(sys.stdin.read().upper())' < README.md`, ""},
		{`python3 -c 'import sys; open("out.txt","w").write(sys.stdin.read())' < README.md`, ""},
		{`node -e 'let d="";process.stdin.on("data",c=>d+=c).on("end",()=>console.log(JSON.parse(d).x))'`, ""},
		{`python3 -c "import subprocess; print(subprocess.check_output(['git','status']).decode().strip())"`, ""},
		{`python3 -c "exec('print(1)')"`, ""},
		{`awk 'BEGIN{while((getline l < "README.md")>0) print l}'`, ""},
		{`awk 'NR==FNR{a[$1];next} $1 in a' x y`, ""},
		{`node -e "console.log(require('fs').readFileSync('README.md','utf8').trim())"`, ""},
		{`deno run --env-file=.env.example main.ts`, ""},
		{`python3 <<E` + "\nprint(open('README.md').read())\nE", ""},
	})
}
