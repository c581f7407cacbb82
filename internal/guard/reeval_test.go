package guard

import "testing"

// TestValuesEvaluatedAgain: bash evaluates a variable's text again where it
// reads it as arithmetic or as a variable name — a name in arithmetic is
// evaluated in turn, and a subscript's expansions are performed, so
// x='a[$(cat .env)]'; echo $((x)) runs cat — and ${x@P} expands x as a
// prompt. Builtins run command strings (mapfile -C, compgen -C) or remap a
// name to a program (hash -p). Attacker pass 12 findings 1–3.
func TestValuesEvaluatedAgain(t *testing.T) {
	const v = `x='a[$(cat .e""nv)]'; `
	runShellBoth(t, []shellCase{
		// arithmetic contexts
		{v + `echo $((x))`, KindUnverifiable},
		{v + `echo $(( $x ))`, KindUnverifiable},
		{v + `(( x ))`, KindUnverifiable},
		{v + `let x`, KindUnverifiable},
		{v + `[[ $x -eq 1 ]]`, KindUnverifiable},
		{v + `[[ x -lt 1 ]]`, KindUnverifiable},
		{v + `for ((i=x; i<1; i++)); do :; done`, KindUnverifiable},
		{v + `a=(1); echo ${a[$x]}`, KindUnverifiable},
		{v + `a=(1); echo ${a[x]}`, KindUnverifiable},
		{v + `declare -a a; a[x]=1`, KindUnverifiable},
		{v + `a=(1 2); echo "${a[@]:x}"`, KindUnverifiable},
		{v + `echo ${x:0:x}`, KindUnverifiable},
		{v + `declare -i n; n=$x`, KindUnverifiable},
		{v + `declare -i n=$x`, KindUnverifiable},
		{v + `y=x; echo $((y))`, KindUnverifiable},
		{v + `y='x+1'; echo $((y))`, KindUnverifiable},
		{v + `arr=("$x"); echo $(( arr[0] ))`, KindUnverifiable},
		{v + `f() { echo $(( $1 )); }; f "$x"`, KindUnverifiable},
		{v + `set -- "$x"; echo $(( $1 ))`, KindUnverifiable},
		{`bash -c 'echo $(($1))' _ 'a[$(cat .e""nv)]'`, KindUnverifiable},
		{`echo 'a[$(cat .e""nv)]' | { read y; echo $((y)); }`, KindUnverifiable},
		{`y=$(rev <<< ')]vne. tac($[a'); echo $((y))`, KindUnverifiable},
		{`y=$(cat /tmp/x); echo $((y + 1))`, KindUnverifiable},
		{`ab='a[$(cat .e""nv)]'; n=$(seq -f ab 1); echo $((n))`, KindUnverifiable},
		{`Monday='a[$(cat .e""nv)]'; n=$(date +%A); echo $((n))`, KindUnverifiable},
		{`y="0+a[\$(cat .e\"\"nv)]"; z=$((1)); echo $((z+y))`, KindUnverifiable},
		{`case 1 in 1) y='a[$(cat .e""nv)]';; esac; echo $((y))`, KindUnverifiable},
		// a child shell's environment the command set
		{`x='a[$(cat .e""nv)]' bash -c 'echo $((x))'`, KindUnverifiable},
		{`env x='a[$(cat .e""nv)]' bash -c 'echo $((x))'`, KindUnverifiable},
		{`x='a[$(cat .e""nv)]' bash -c 'echo ${!x}'`, KindUnverifiable},
		// a trap's action runs at the end: a variable set after it counts
		{`trap 'echo $((x))' EXIT; x='a[$(cat .e""nv)]'`, KindUnverifiable},
		{`trap 'echo ${x@P}' EXIT; x='$(cat .e""nv)'`, KindUnverifiable},
		{`trap 'printf -v "$x" 1' EXIT; x='a[$(cat .e""nv)]'`, KindUnverifiable},
		{`n=0; trap 'echo $((n))' EXIT; n=$((n+1))`, ""},
		{`trap 'echo done $SECONDS' EXIT`, ""},
		// a command's own variables, and arrays
		{`x='a[$(cat .e""nv)]' let y=x`, KindUnverifiable},
		{`f() { echo $((x)); }; x='a[$(cat .e""nv)]' f`, KindUnverifiable},
		{`x='a[$(cat .e""nv)]' eval 'echo $((x))'`, KindUnverifiable},
		{`arr=('a[$(cat .e""nv)]'); echo $(( $arr ))`, KindUnverifiable},
		{`f() { echo $((1+2)); }; X=1 f`, ""},
		{`LC_ALL=C sort a.txt; FOO=1 make test`, ""},
		// names
		{v + `printf -v "$x" 1`, KindUnverifiable},
		{v + `printf -v"$x" %s 1`, KindUnverifiable},
		{v + `read -ra"$x" <<< 1`, KindUnverifiable},
		{`x=$(rev <<< ')]vne. tac($[av-'); printf "$x" 1`, KindUnverifiable},
		{`f=x; printf "$f"; printf '%s
' "$(date)"`, ""},
		{v + `read "$x" <<< 1`, KindUnverifiable},
		{v + `: ${!x}`, KindUnverifiable},
		{v + `declare -n r=$x; echo $r`, KindUnverifiable},
		{v + `f() { local -n r=$x; echo $r; }; f`, KindUnverifiable},
		{v + `f() { local "$x=1"; }; f`, KindUnverifiable},
		{v + `declare "$x=1"`, KindUnverifiable},
		{v + `[[ -v $x ]]`, KindUnverifiable},
		{v + `test -v "$x"`, KindUnverifiable},
		{v + `[ -v "$x" ]`, KindUnverifiable},
		{v + `sleep 0 & wait -n -p "$x"`, KindUnverifiable},
		{v + `declare -A m; unset "m[$x]"`, KindUnverifiable},
		{v + `a=(1); unset "$x"`, KindUnverifiable},
		// prompt expansion
		{`x='$(cat .e""nv)'; y=${x@P}`, KindUnverifiable},
		{"x='`cat .e\"\"nv`'; echo \"${x@P}\"", KindUnverifiable},
		{`x=$(rev <<< ')vne. tac($'); echo ${x@P}`, KindUnverifiable},
		// builtins that run commands
		{`mapfile -C 'cat .env #' -c 1 < /etc/hostname`, KindDeny},
		{`readarray -t -C"cat .e""nv #" -c1 x < /etc/hostname`, KindDeny},
		{`compgen -C 'cat .env' x`, KindDeny},
		{`compgen -F _f x`, KindUnverifiable},
		{`hash -p /bin/sh ls; ls -c 'cat .e""nv'`, KindUnverifiable},
		// everyday: numbers bash computes or counting programs print
		{`i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i`, ""},
		{`n=$(wc -l < README.md); echo $((n+1))`, ""},
		{`n=$(cat a.txt | wc -l); echo $((n*2))`, ""},
		{`n=$(find . -name '*.go' | wc -l); (( n > 0 )) && echo some`, ""},
		{`start=$(date +%s); sleep 1; echo $(( $(date +%s) - start ))`, ""},
		{`sz=$(stat -c %s README.md); echo $((sz/1024))`, ""},
		{`c=$(grep -c TODO README.md); (( c > 0 )) && echo has`, ""},
		{`n=$(nproc); make -j$((n+1))`, ""},
		{`cols=$(tput cols); echo $((cols-2))`, ""},
		{`for ((i=0;i<10;i++)); do echo $i; done`, ""},
		{`a=(1 2 3); echo ${a[1]} ${#a[@]} ${a[@]:1} ${a[$((1+1))]}`, ""},
		{`x=abc; echo ${x:1:2}`, ""},
		{`if [[ $# -gt 0 ]]; then echo hi; fi`, ""},
		{`false; (( $? != 0 )) && echo fail`, ""},
		{`echo $((RANDOM % 10)) $(( $$ + 1 ))`, ""},
		{`x=5; y=x+1; echo $((y))`, ""},
		{`declare -i n=5; n+=1; echo $n`, ""},
		{`f() { echo $(( $1 + 1 )); }; f 3`, ""},
		{`set -- 1 2; echo $(( $1 + $2 ))`, ""},
		{`x=${#PATH}; echo $((x+1))`, ""},
		{`let i=1+2`, ""},
		{`declare -A m; k=foo; m[$k]=1; echo ${m[$k]}`, ""},
		{`bash -c 'i=0; i=$((i+1)); echo $i'`, ""},
		{`printf -v now '%(%s)T' -1; echo $now`, ""},
		{`read -r line < README.md; echo "$line"`, ""},
		{`read -p 'Name: ' name; echo "$name"`, ""},
		{`mapfile -t lines < README.md; echo ${#lines[@]}`, ""},
		{`mapfile -C 'echo got' -c 1 x < README.md`, ""},
		{`x='$(date)'; echo "$x"`, ""},
		{`x='\u@\h'; echo "${x@P}"`, ""},
		{`compgen -c git; compgen -A function`, ""},
		{`hash -r; hash git`, ""},
		{`getopts ab: opt; unset x y`, ""},
	})
}
