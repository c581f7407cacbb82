package guard

import (
	"strings"
)

// Code that writes files through an API whose name says nothing of
// writing (pass 22). writesFiles takes a write-like word anywhere in the
// code to make every path it names written; archive extraction, database
// files, downloads and log files are written by calls without one:
// tarfile/zipfile `extractall(".pi")`, `shutil.unpack_archive(a, ".pi")`,
// `sqlite3.connect(".pi/settings.json")` (a statement then writes it),
// `dbm.open`, `shelve.open`, `urllib.request.urlretrieve(url, FILE)`,
// `logging.basicConfig(filename=FILE)` / `FileHandler(FILE)`.

// quietWriteWords are the names of such APIs, lower case.
var quietWriteWords = []string{
	"extractall", "extract_all", "extractallto", "unpack_archive", "extract(", "extractfile", "untar", "unzip", "decompress",
	"sqlite", "connect(", "dbm.", "shelve", "urlretrieve", "retrieve(", "download", "filehandler", "basicconfig", "logfile",
}

// quietWrites reports whether code calls one of them.
func quietWrites(code string) bool {
	l := strings.ToLower(code)
	for _, w := range quietWriteWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// extractCall matches an extraction call and its first argument, when it
// is a string literal (python's extractall(path) / unpack_archive(a, dir)
// take the folder second: every literal is taken as a folder).
var extractCall = lazyRegexp(`(?i)\b(extractall|extract_all|extractallto|unpack_archive|untar|unzip)\s*\(|\btar\.(x|extract)\s*\(`)

// archiveLib: the code names an archive library (python's tarfile and
// zipfile, node's tar, adm-zip, unzipper, jszip, ruby's zip).
var archiveLib = lazyRegexp(`(?i)\b(tarfile|zipfile|adm-zip|unzipper|jszip|rubyzip|zip::file)\b|["']tar["']|\bzip\b`)

// extractMethod: a bare `.extract(` or `.x(` (a member of a tarfile or
// zipfile, node-tar's x) counts where the code names an archive library.
var extractMethod = lazyRegexp(`\.(extract|x)\s*\(`)

var extractLiteral = lazyRegexp(`"([^"\\]*)"|'([^'\\]*)'`)

// codeExtracts: an archive extracted by code writes every name below the
// folder it is given, which may be any literal of the call, or the
// working folder when it is given none.
func (a *shellAnalyzer) codeExtracts(code, raw, lang string) {
	if lang == "sed" || lang == "awk" || lang == "jq" {
		return
	}
	locs := extractCall().FindAllStringIndex(code, 16)
	if archiveLib().MatchString(code) {
		locs = append(locs, extractMethod().FindAllStringIndex(code, 16)...)
	}
	if len(locs) == 0 {
		return
	}
	via := "code that extracts an archive (it writes every name below the folder it is given, the working folder by default)"
	n := len(a.out.targets)
	defer a.markFillsFrom(n)
	for _, l := range locs {
		args := strings.TrimSpace(parenArg(code, l[1]-1))
		lits := extractLiteral().FindAllStringSubmatch(args, 8)
		switch {
		case args == "":
			a.addRec(raw, litField("."), setModify, true, nil, via, followNone)
		case len(lits) == 0:
			a.unknown(raw, "the code extracts an archive into a folder computed when it runs", SetRead|setModify)
		}
		for _, m := range lits {
			s := m[1] + m[2]
			if s == "" || strings.ContainsAny(s, "{}%$") {
				a.unknown(raw, "the code extracts an archive into a folder computed when it runs", SetRead|setModify)
				continue
			}
			a.addRec(raw, litField(s), setModify, true, nil, via, followNone)
		}
	}
}
