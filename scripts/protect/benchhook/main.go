// Command benchhook measures `pruner hook` latency as a whole process: it
// runs the binary N times per event (fork, exec, rule lookup, decision, exit)
// and prints p50/p90/p99 wall times, the p50 CPU time (user+sys) the
// process used and its p50 minor page faults (pages it touched: a count the
// machine's load does not move).
//
//	go build -o /tmp/pruner ./cmd/pruner && go run ./scripts/protect/benchhook -bin /tmp/pruner -n 300
//
// -bin takes several binaries, comma-separated, for an A/B: their runs are
// interleaved (A, B, A, B, …) so that a change in the machine's load falls on
// both alike.
//
//	go run ./scripts/protect/benchhook -bin /tmp/pruner-main,/tmp/pruner -n 300
//
// Each binary is first copied into a temporary directory (written with
// write(2)) and run from there (-copy=false runs them in place). The same
// bytes start about 0.5 ms slower from the file the Go linker wrote than from
// a copy (measured on this project's ext4 VM, Linux 6.18: 2.2 vs 2.8 ms p50
// for hook, the page faults alike), and an installed binary is a copy (an
// archive extracted, a file copied): measuring the linker's file would
// overstate start-up, and an A/B of one linker's file against a copy would
// compare the files, not the programs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	bins := flag.String("bin", "pruner", "pruner binary (several, comma-separated: an interleaved A/B)")
	n := flag.Int("n", 300, "runs per event")
	copyBins := flag.Bool("copy", true, "run copies of the binaries (see the package comment), not the files named")
	flag.Parse()
	events := []struct{ name, json string }{
		{"claude-bash-deny", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm run build 2>&1 | tail -5 && cat .e''nv"},"cwd":"/tmp"}`},
		{"claude-read-allow", `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/tmp/src/main.go"},"cwd":"/tmp"}`},
		{"pi-read-deny", `{"toolName":"read","input":{"path":"@~/.pi/agent/auth.json"}}`},
	}
	binaries := strings.Split(*bins, ",")
	run := binaries
	dir := ""
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "benchhook:", err)
		if dir != "" {
			os.RemoveAll(dir)
		}
		os.Exit(1)
	}
	if *copyBins {
		var err error
		if dir, err = os.MkdirTemp("", "benchhook"); err != nil {
			fail(err)
		}
		defer os.RemoveAll(dir)
		run = make([]string, len(binaries))
		for b, bin := range binaries {
			run[b] = filepath.Join(dir, fmt.Sprintf("%d-%s", b, filepath.Base(bin)))
			if err := copyFile(run[b], bin); err != nil {
				fail(err)
			}
		}
	}
	fmt.Printf("%-18s %8s %8s %8s %8s %7s %8s  %s\n", "event", "p50", "p90", "p99", "cpu-p50", "faults", "runs", "binary")
	baselines := []struct{ name, json string }{{"baseline:true", ""}, {"baseline:version", ""}}
	for i, ev := range append(baselines, events...) {
		wall := make([][]time.Duration, len(binaries))
		cpu := make([][]time.Duration, len(binaries))
		faults := make([][]int64, len(binaries))
		for range *n {
			for b, bin := range run {
				if i == 0 && b > 0 {
					continue // one floor is enough
				}
				cmd := exec.Command(bin, "hook", "--cwd", "/tmp")
				switch i {
				case 0:
					cmd = exec.Command("true") // process start floor on this machine
				case 1:
					cmd = exec.Command(bin, "version") // pruner start without a decision
				}
				cmd.Stdin = bytes.NewReader([]byte(ev.json))
				start := time.Now()
				err := cmd.Run()
				wall[b] = append(wall[b], time.Since(start))
				if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 2) {
					fail(fmt.Errorf("%s: %w", binaries[b], err))
				}
				cpu[b] = append(cpu[b], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					faults[b] = append(faults[b], ru.Minflt)
				}
			}
		}
		for b, bin := range binaries {
			if len(wall[b]) == 0 {
				continue
			}
			name := bin
			if i == 0 {
				name = "true"
			}
			fmt.Printf("%-18s %8s %8s %8s %8s %7d %8d  %s\n", ev.name,
				quantile(wall[b], 0.5), quantile(wall[b], 0.9), quantile(wall[b], 0.99), quantile(cpu[b], 0.5),
				median(faults[b]), len(wall[b]), name)
		}
	}
}

// quantile is the p-quantile of ds in milliseconds (ds is sorted in place).
func quantile(ds []time.Duration, p float64) string {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return fmt.Sprintf("%.2fms", float64(ds[int(p*float64(len(ds)-1))].Microseconds())/1000)
}

// median is the middle of ns (sorted in place); 0 for none.
func median(ns []int64) int64 {
	if len(ns) == 0 {
		return 0
	}
	slices.Sort(ns)
	return ns[len(ns)/2]
}

// copyFile writes a copy of the executable src at dst.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
