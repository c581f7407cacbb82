package guard

import (
	"strings"
	"sync"
)

// Extractors the gate did not model (pass 22): each writes the names an
// archive holds below a folder — an option's, an operand's, or the working
// folder by default — so that folder is written with everything below it
// (a fill), as `tar -x -C DIR` is: `unar -o .pi a.zip`, `dpkg -x a.deb
// .pi`, `cabextract -d .pi a.cab`, `gem unpack --target=.pi`, `unrar x
// a.rar .pi/`, `zstd -d --output-dir-flat .pi`. uudecode without `-o`
// writes the name the encoded file gives (a path, anywhere), and unshar
// runs the archive as a shell script: both are unverifiable.

// extractorSpec: for each extractor, the options whose value is its
// folder, whether its folder may be an operand after the archive (and
// which), and whether it extracts only with one of the subcommands or
// flags listed.
type extractorSpec struct {
	short   string   // short options that take a value
	long    []string // long options that take a value
	dirOpts []string // options whose value is the folder
	dirArg  int      // the operand that is the folder (1-based after the archive), 0: none
	needs   []string // an extraction needs one of these flags or first operands ("" for always)
}

var extractorSpecs = sync.OnceValue(func() map[string]extractorSpec {
	return map[string]extractorSpec{
		"unar":       {short: "opek", long: []string{"-output-directory", "--output-directory", "-password", "-encoding", "-indexes"}, dirOpts: []string{"-o", "-output-directory", "--output-directory"}},
		"dtrx":       {},
		"aunpack":    {short: "X", long: []string{"--extract-to", "--format"}, dirOpts: []string{"-X", "--extract-to"}},
		"atool":      {short: "XF", long: []string{"--extract-to", "--format"}, dirOpts: []string{"-X", "--extract-to"}, needs: []string{"-x", "--extract", "-X", "--extract-to"}},
		"cabextract": {short: "dFe", long: []string{"--directory", "--filter", "--encoding"}, dirOpts: []string{"-d", "--directory"}},
		"dpkg":       {short: "", long: nil, dirArg: 1, needs: []string{"-x", "--extract", "-X", "--vextract"}},
		"dpkg-deb":   {short: "", long: nil, dirArg: 1, needs: []string{"-x", "--extract", "-X", "--vextract", "-R", "--raw-extract"}},
		"gem":        {long: []string{"--target", "--spec"}, dirOpts: []string{"--target"}, needs: []string{"unpack"}},
		"lha":        {needs: []string{"x", "e", "-x", "-e"}},
		"arj":        {dirArg: 1, needs: []string{"x", "e"}},
		"unrar":      {dirArg: -1},
	}
})

// extractors checks an extractor's folder (see above).
func (c *cmd) extractors() {
	switch c.name {
	case "uudecode":
		p := c.parse(1, opts{short: "o", long: []string{"--output-file"}})
		if len(p.values("-o", "--output-file")) == 0 {
			c.a.unknown(c.args[0].raw, "uudecode writes the file the encoded text names (any path); pruner cannot see it", SetRead|setModify)
		}
		for _, v := range p.values("-o", "--output-file") {
			c.valFile(v, setModify)
		}
		for _, i := range p.operands {
			c.file(i, SetRead)
		}
		return
	case "unshar":
		c.a.unknown(c.args[0].raw, "unshar runs the archive as a shell script, which pruner cannot see", SetRead|setModify)
		return
	}
	sp := extractorSpecs()[c.name]
	p := c.parse(1, opts{short: sp.short, long: sp.long})
	ops := p.operands
	if c.name == "unrar" || c.name == "arj" || c.name == "lha" || c.name == "gem" {
		// the subcommand is the first operand (lha's may carry w=DIR)
		if len(ops) == 0 {
			return
		}
	}
	if len(sp.needs) > 0 {
		found := false
		for _, n := range sp.needs {
			if p.has(n) || len(ops) > 0 && (optText(c.args[ops[0]].f) == n || c.name == "lha" && strings.HasPrefix(optText(c.args[ops[0]].f), n)) {
				found = true
			}
		}
		if !found {
			return
		}
	}
	if c.name == "unrar" {
		if t := optText(c.args[ops[0]].f); t != "x" && t != "e" {
			return // unrar l, t, p: list, test, print
		}
	}
	via := c.name + " (it writes the archive's names below the folder)"
	var dirs []field
	for _, v := range p.values(sp.dirOpts...) {
		if f, ok := c.valField(v); ok {
			dirs = append(dirs, f)
		}
	}
	// the operands: [subcommand] ARCHIVE [DIR]
	k := 0
	if c.name == "unrar" || c.name == "arj" || c.name == "lha" || c.name == "gem" {
		c.word(ops[0])
		if c.name == "lha" {
			if _, w, ok := strings.Cut(optText(c.args[ops[0]].f), "w="); ok {
				dirs = append(dirs, litField(w))
			}
		}
		k = 1
	}
	if k < len(ops) {
		c.file(ops[k], SetRead) // the archive
	}
	rest := ops[min(k+1, len(ops)):]
	switch {
	case sp.dirArg > 0 && len(rest) >= sp.dirArg:
		i := rest[sp.dirArg-1]
		c.done[i] = true
		dirs = append(dirs, c.args[i].f)
	case sp.dirArg < 0 && len(rest) > 0:
		// unrar x ARCHIVE [FILES…] [DIR/]: a last operand ending in / is the folder
		if i := rest[len(rest)-1]; strings.HasSuffix(c.args[i].f.s, "/") {
			c.done[i] = true
			dirs = append(dirs, c.args[i].f)
		}
	}
	if len(dirs) == 0 {
		dirs = []field{litField(".")}
	}
	n := len(c.a.out.targets)
	defer c.a.markFillsFrom(n)
	for _, d := range dirs {
		c.a.value(d.s, d, setModify)
		c.a.addRec(d.s, d, setModify, true, nil, via, followNone)
	}
}

// zstdOutDir: zstd's --output-dir-flat DIR and --output-dir-mirror DIR
// write the outputs below DIR (under the inputs' names, or their paths).
func (c *cmd) zstdOutDir() {
	for i := 1; i < len(c.args); i++ {
		t := optText(c.args[i].f)
		for _, o := range []string{"--output-dir-flat", "--output-dir-mirror"} {
			var f field
			switch {
			case t == o && i+1 < len(c.args):
				f = c.args[i+1].f
				c.done[i+1] = true
			case strings.HasPrefix(t, o+"="):
				f = subField(c.args[i].f, len(o)+1)
			default:
				continue
			}
			n := len(c.a.out.targets)
			c.a.addRec(c.args[i].raw, f, setModify, true, nil, "zstd "+o+" (it writes its outputs below the folder)", followNone)
			c.a.markFillsFrom(n)
		}
	}
}
