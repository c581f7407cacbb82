// Command benchhook measures `pruner hook` latency as a whole process: it
// runs the binary N times per event (fork, exec, rule lookup, decision, exit)
// and prints p50/p90/p99 wall times.
//
//	go build -o /tmp/pruner ./cmd/pruner && go run ./scripts/protect/benchhook -bin /tmp/pruner -n 300
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"time"
)

func main() {
	bin := flag.String("bin", "pruner", "pruner binary")
	n := flag.Int("n", 300, "runs per event")
	flag.Parse()
	events := []struct{ name, json string }{
		{"claude-bash-deny", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm run build 2>&1 | tail -5 && cat .e''nv"},"cwd":"/tmp"}`},
		{"claude-read-allow", `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/tmp/src/main.go"},"cwd":"/tmp"}`},
		{"pi-read-deny", `{"toolName":"read","input":{"path":"@~/.pi/agent/auth.json"}}`},
	}
	fmt.Printf("%-18s %8s %8s %8s %8s\n", "event", "p50", "p90", "p99", "runs")
	baselines := []struct{ name, json string }{{"baseline:true", ""}, {"baseline:version", ""}}
	for i, ev := range append(baselines, events...) {
		var ds []time.Duration
		for range *n {
			cmd := exec.Command(*bin, "hook", "--cwd", "/tmp")
			switch i {
			case 0:
				cmd = exec.Command("true") // process start floor on this machine
			case 1:
				cmd = exec.Command(*bin, "version") // pruner start without a decision
			}
			cmd.Stdin = bytes.NewReader([]byte(ev.json))
			start := time.Now()
			err := cmd.Run()
			ds = append(ds, time.Since(start))
			if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 2) {
				fmt.Fprintln(os.Stderr, "benchhook:", err)
				os.Exit(1)
			}
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		q := func(p float64) string {
			return fmt.Sprintf("%.2fms", float64(ds[int(p*float64(len(ds)-1))].Microseconds())/1000)
		}
		fmt.Printf("%-18s %8s %8s %8s %8d\n", ev.name, q(0.5), q(0.9), q(0.99), len(ds))
	}
}
