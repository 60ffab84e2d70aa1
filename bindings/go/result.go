package mcpcassette

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// Result is what the cassette's session did, summed over the engine's launches.
type Result struct {
	Launches   []map[string]any
	Misses     []map[string]any
	Inexact    []string
	Repeats    []string
	OutOfOrder []string
	Unplayed   []string
	Appended   int
	// Reports holds each replay's whole end-of-session report, as the engine wrote it.
	Reports []map[string]any
}

// Report is the last replay's whole report (nil when nothing was replayed).
func (r *Result) Report() map[string]any {
	if len(r.Reports) == 0 {
		return nil
	}
	return r.Reports[len(r.Reports)-1]
}

func strings_(value any) []string {
	items, _ := value.([]any)
	out := []string{}
	for _, item := range items {
		out = append(out, fmt.Sprint(item))
	}
	return out
}

func (r *Result) addReport(report map[string]any) {
	r.Reports = append(r.Reports, report)
	if misses, ok := report["misses"].([]any); ok {
		for _, miss := range misses {
			if m, ok := miss.(map[string]any); ok {
				r.Misses = append(r.Misses, m)
			}
		}
	}
	r.Inexact = append(r.Inexact, strings_(report["inexact"])...)
	r.Repeats = append(r.Repeats, strings_(report["repeats"])...)
	r.OutOfOrder = append(r.OutOfOrder, strings_(report["outOfOrder"])...)
	r.Unplayed = append(r.Unplayed, strings_(report["unplayed"])...)
}

type logLine struct {
	Pid      int            `json:"pid"`
	Event    string         `json:"event"`
	Action   string         `json:"action"`
	Code     *int           `json:"code"`
	Report   map[string]any `json:"report"`
	Appended int            `json:"appended"`
	Error    string         `json:"error"`
}

func readRunLog(file string) []logLine {
	handle, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer handle.Close()
	var lines []logLine
	scanner := bufio.NewScanner(handle)
	scanner.Buffer(make([]byte, 1<<20), 1<<30)
	for scanner.Scan() {
		var line logLine
		if json.Unmarshal(scanner.Bytes(), &line) == nil {
			lines = append(lines, line)
		}
	}
	return lines
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	text := string(stat)
	at := strings.LastIndex(text, ")")
	return at < 0 || at+2 >= len(text) || text[at+2] != 'Z'
}

func openLaunches(lines []logLine) []int {
	ended := map[int]bool{}
	for _, line := range lines {
		if line.Event == "end" {
			ended[line.Pid] = true
		}
	}
	var open []int
	for _, line := range lines {
		if line.Event == "start" && !ended[line.Pid] && alive(line.Pid) {
			open = append(open, line.Pid)
		}
	}
	return open
}

func terminate(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
}

func (c *Cassette) collect(failed bool) (*Result, error) {
	lines := readRunLog(c.runLog)
	if failed {
		terminate(openLaunches(lines))
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(openLaunches(lines)) > 0 && time.Now().Before(deadline) {
		time.Sleep(25 * time.Millisecond)
		lines = readRunLog(c.runLog)
	}
	unended := openLaunches(lines)
	terminate(unended)
	result := &Result{}
	for _, start := range lines {
		if start.Event != "start" {
			continue
		}
		launch := map[string]any{"action": start.Action}
		for _, end := range lines {
			if end.Event == "end" && end.Pid == start.Pid {
				if end.Code != nil {
					launch["code"] = *end.Code
				}
				if end.Error != "" {
					launch["error"] = end.Error
				}
				if end.Report != nil {
					result.addReport(end.Report)
				}
				result.Appended += end.Appended
			}
		}
		result.Launches = append(result.Launches, launch)
	}
	if c.http != nil {
		if err := c.http.stop(result); err != nil {
			return result, err
		}
	}
	if err := c.verdict(result); err != nil {
		return result, err
	}
	if len(unended) > 0 {
		return result, fmt.Errorf("the engine serving %s did not report how it ended (still running after the test): close the client before the test ends", c.Path)
	}
	return result, nil
}

func (c *Cassette) verdict(result *Result) error {
	for _, launch := range result.Launches {
		if message, ok := launch["error"].(string); ok {
			return errors.New(message)
		}
	}
	var doubtful []string
	for _, miss := range result.Misses {
		doubtful = append(doubtful, fmt.Sprint(miss["message"]))
	}
	if !c.opts.Lenient {
		for _, text := range result.Inexact {
			doubtful = append(doubtful, "inexact answer: "+text)
		}
	}
	if len(doubtful) > 0 {
		return fmt.Errorf("Replay of %s missed %d request(s): %s", c.Path, len(doubtful), strings.Join(doubtful, "; "))
	}
	if c.opts.FailOnUnplayed && len(result.Unplayed) > 0 {
		return fmt.Errorf("Replay of %s left %d recorded request(s) unplayed: %s", c.Path, len(result.Unplayed), strings.Join(result.Unplayed, ", "))
	}
	return nil
}
