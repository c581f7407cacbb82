package guard

import (
	"strings"
)

// This file models programs by what they do with the folders and files
// they are given: programs the analysis does not know, upload, sync and
// backup tools, and the subcommands of cloud CLIs that copy folders.

// unmodelledVia names, in a reason, a program the analysis does not model.
func unmodelledVia(name string) string {
	return name + " (a program pruner does not model, so a folder given to it counts as read in full)"
}

// unmodelledFolders: a program the analysis does not know may read every
// file below a folder it is given (`foobar .`, `rclone cat .`): each
// operand, and each `--opt=value` value, is also a recursive read. A file
// operand holds nothing below it, so only folders (on the disk, or by the
// rules without it) count.
func (c *cmd) unmodelledFolders() {
	if strings.Trim(c.name, "/.") == "" {
		return // a folder as the command (what is left of a script computed when it runs)
	}
	via := unmodelledVia(c.name)
	for i := 1; i < len(c.args); i++ {
		if c.done[i] {
			continue
		}
		c.folderOperand(i, SetRead, via)
	}
}

// folderOperand records args[i] (or the value after its `=`, for an
// option) as a folder read or written in full, without taking its role:
// the caller still checks it as a word or a file.
func (c *cmd) folderOperand(i int, ops OpSet, via string) {
	f := c.args[i].f
	if f.onlyUnk && !f.posOnly {
		return // checked (unverifiable) as a file by the caller
	}
	t := optText(f)
	if strings.HasPrefix(t, "-") && len(t) > 1 {
		name, _, eq := strings.Cut(t, "=")
		if !eq {
			return
		}
		f = subField(f, len(name)+1)
		if f.s == "" || f.onlyUnk && !f.posOnly {
			return
		}
	}
	c.a.addRec(c.args[i].raw, f, ops, true, nil, via, followAll)
}

// transferTool: upload, sync and backup tools (rclone, restic, borg,
// croc, azcopy, mc, …) read every file below a local folder they are
// given and may write below one (a download, a restore, a sync back): each
// operand and option value is a folder read and written in full, and
// checked as a file.
func (c *cmd) transferTool() {
	via := c.name + " (copies, uploads or backs up folders)"
	for i := 1; i < len(c.args); i++ {
		if c.done[i] {
			continue
		}
		c.folderOperand(i, SetRead|setModify, via)
	}
	c.generic()
}

// cloudCopy handles the subcommands of cloud and cluster CLIs that copy
// local folders (`aws s3 sync . s3://b`, `aws s3 cp --recursive`, `gcloud
// storage cp -r`, `kubectl cp . pod:/x`, `az storage blob upload-batch -s
// .`): their operands and option values are folders read and written in
// full. It reports whether the command is one of those.
func (c *cmd) cloudCopy() bool {
	var words []string
	for i := 1; i < len(c.args) && len(words) < 3; i++ {
		if t := optText(c.args[i].f); !strings.HasPrefix(t, "-") {
			words = append(words, t)
		}
	}
	at := func(k int) string {
		if k < len(words) {
			return words[k]
		}
		return ""
	}
	copies, sub := false, at(0)+" "+at(1)
	switch c.name {
	case "aws":
		copies = at(0) == "s3" && (at(1) == "cp" || at(1) == "sync" || at(1) == "mv")
	case "gcloud":
		copies = at(0) == "storage" && (at(1) == "cp" || at(1) == "rsync" || at(1) == "mv") ||
			at(0) == "compute" && (at(1) == "scp" || at(1) == "copy-files")
	case "kubectl", "oc":
		copies, sub = at(0) == "cp", "cp"
	case "az":
		copies = at(0) == "storage" || at(0) == "webapp" && at(1) == "deploy" || at(0) == "acr" && at(1) == "build"
	}
	if !copies {
		return false
	}
	via := c.name + " " + sub + " (copies folders)"
	for i := 1; i < len(c.args); i++ {
		if c.done[i] {
			continue
		}
		c.folderOperand(i, SetRead|setModify, via)
	}
	return true
}

// isTransferTool reports whether name is an upload, sync, backup or
// file-sharing tool (modelled by transferTool).
func isTransferTool(name string) bool {
	switch name {
	case "rclone", "gsutil", "restic", "rustic", "borg", "borgbackup", "kopia", "duplicity", "duplicacy",
		"rdiff-backup", "tarsnap", "bup", "bupstash", "croc", "wormhole", "magic-wormhole", "azcopy", "mc",
		"s3cmd", "s5cmd", "b2", "unison", "ffsend", "ncftpput", "smbclient", "megaput", "megacopy",
		"gdrive", "dropbox_uploader", "onedrive", "rsnapshot", "syncthing", "git-annex", "dvc", "transfer":
		return true
	}
	return false
}
